// Obsidian's lifecycle base class. Everything registered on a component is released when it
// unloads, children first, so a plugin built on register* leaves nothing behind.
import type { EventRef } from './events';

export class Component {
  // Obsidian's own field names; some plugins read `_loaded`.
  _loaded = false;
  _children: Component[] = [];
  _events: (() => unknown)[] = [];

  /** Loads this component and its children (once). */
  load(): void {
    if (this._loaded) return;
    this._loaded = true;
    void this.onload();
    for (const child of [...this._children]) child.load();
  }

  /** Override to set up. Plugins may return a promise; see Plugin.load for how it is awaited. */
  onload(): void | Promise<void> {}

  /** Unloads children, then runs every registered cleanup (last registered first), then onunload. */
  unload(): void {
    if (!this._loaded) return;
    this._loaded = false;
    while (this._children.length > 0) this._children.pop()?.unload();
    while (this._events.length > 0) this._events.pop()?.();
    this.onunload();
  }

  onunload(): void {}

  addChild<T extends Component>(component: T): T {
    this._children.push(component);
    if (this._loaded) component.load();
    return component;
  }

  removeChild<T extends Component>(component: T): T {
    const index = this._children.indexOf(component);
    if (index !== -1) {
      this._children.splice(index, 1);
      component.unload();
    }
    return component;
  }

  register(cb: () => unknown): void {
    this._events.push(cb);
  }

  registerEvent(eventRef: EventRef): void {
    this.register(() => eventRef.e.offref(eventRef));
  }

  registerDomEvent<K extends keyof WindowEventMap>(
    el: Window,
    type: K,
    callback: (this: HTMLElement, ev: WindowEventMap[K]) => unknown,
    options?: boolean | AddEventListenerOptions,
  ): void;
  registerDomEvent<K extends keyof DocumentEventMap>(
    el: Document,
    type: K,
    callback: (this: HTMLElement, ev: DocumentEventMap[K]) => unknown,
    options?: boolean | AddEventListenerOptions,
  ): void;
  registerDomEvent<K extends keyof HTMLElementEventMap>(
    el: HTMLElement,
    type: K,
    callback: (this: HTMLElement, ev: HTMLElementEventMap[K]) => unknown,
    options?: boolean | AddEventListenerOptions,
  ): void;
  registerDomEvent(
    el: EventTarget,
    type: string,
    callback: (this: HTMLElement, ev: never) => unknown,
    options?: boolean | AddEventListenerOptions,
  ): void {
    const listener = callback as unknown as EventListener;
    el.addEventListener(type, listener, options);
    this.register(() => el.removeEventListener(type, listener, options));
  }

  registerInterval(id: number): number {
    this.register(() => clearInterval(id));
    return id;
  }
}
