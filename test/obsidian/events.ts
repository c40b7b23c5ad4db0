// Obsidian's tiny event emitter. Handlers are isolated from each other: a throwing handler does not
// stop the others, and its error is rethrown asynchronously (as Obsidian does) so it still surfaces.

type Handler = (...data: unknown[]) => unknown;

/** What `on` returns; pass it to `offref` or `Component.registerEvent`. */
export interface EventRef {
  e: Events;
  name: string;
  fn: Handler;
  ctx?: unknown;
}

export class Events {
  private readonly handlers = new Map<string, EventRef[]>();

  /**
   * Handlers declare the payload they expect (`(file: TFile) => …`); subclasses add typed overloads.
   * `never[]` accepts any such handler while keeping the caller's own parameter types intact.
   */
  on(name: string, callback: (...data: never[]) => unknown, ctx?: unknown): EventRef {
    const ref: EventRef = { e: this, name, fn: callback as Handler, ctx };
    const list = this.handlers.get(name) ?? [];
    list.push(ref);
    this.handlers.set(name, list);
    return ref;
  }

  off(name: string, callback: (...data: never[]) => unknown): void {
    const list = this.handlers.get(name);
    if (!list) return;
    this.handlers.set(
      name,
      list.filter((ref) => ref.fn !== callback),
    );
  }

  offref(ref: EventRef): void {
    const list = this.handlers.get(ref.name);
    if (list) this.handlers.set(ref.name, list.filter((r) => r !== ref));
  }

  trigger(name: string, ...data: unknown[]): void {
    // A copy: handlers may unsubscribe (or subscribe) while the event is being delivered.
    for (const ref of [...(this.handlers.get(name) ?? [])]) this.tryTrigger(ref, data);
  }

  tryTrigger(evt: EventRef, args: unknown[]): void {
    try {
      evt.fn.apply(evt.ctx, args);
    } catch (error) {
      setTimeout(() => {
        throw error;
      }, 0);
    }
  }
}
