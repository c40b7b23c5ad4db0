// A sign of life while the server says nothing: after a few silent seconds of a running request,
// "Waiting for the server (N s)" under the conversation, counting up until text arrives, the
// request ends, or the transport's timeout (a setting) gives up on it. The view calls `activity`
// on every streamed piece and `tick` once a second (a registered interval).

/** Silence shorter than this is normal between tokens: nothing is shown. */
export const STALL_AFTER_MS = 5000;

export class StallIndicator {
  private since: number | null = null;

  constructor(
    private readonly el: HTMLElement,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** A request started (or ended: `running` false hides the indicator). */
  setRunning(running: boolean): void {
    this.since = running ? this.now() : null;
    this.render();
  }

  /** Something arrived: the silence starts again. */
  activity(): void {
    if (this.since !== null) this.since = this.now();
    this.render();
  }

  tick(): void {
    this.render();
  }

  private render(): void {
    const silent = this.since === null ? 0 : this.now() - this.since;
    const stalled = silent >= STALL_AFTER_MS;
    this.el.toggleClass('is-stalled', stalled);
    this.el.setText(stalled ? `Waiting for the server (${Math.floor(silent / 1000)} s)` : '');
  }
}
