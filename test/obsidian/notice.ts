// Toast notifications. Every notice shown is also kept in a history that testing.shownNotices()
// reads, so tests can assert what the user was told. Simplified: no click-to-dismiss.
const history: Notice[] = [];

/** Internal: notices shown since the last clear, oldest first. */
export function noticeHistory(): readonly Notice[] {
  return history;
}

export function clearNoticeHistory(): void {
  history.length = 0;
}

export class Notice {
  containerEl: HTMLElement;
  messageEl: HTMLElement;
  /** Obsidian's older name for messageEl. */
  noticeEl: HTMLElement;

  /** A duration of 0 keeps the notice until hide() is called. */
  constructor(message: string | DocumentFragment, duration = 5000) {
    const body = activeDocument.body;
    const container = body.find('.notice-container') ?? body.createDiv('notice-container');
    this.containerEl = container.createDiv('notice');
    this.messageEl = this.containerEl.createDiv('notice-message');
    this.noticeEl = this.messageEl;
    this.setMessage(message);
    history.push(this);
    if (duration > 0) setTimeout(() => this.hide(), duration);
  }

  setMessage(message: string | DocumentFragment): this {
    this.messageEl.setText(message);
    return this;
  }

  hide(): void {
    const container = this.containerEl.parentElement;
    this.containerEl.detach();
    if (container && container.childElementCount === 0) container.detach();
  }
}
