// The DOM helpers Obsidian installs on Node/Element/HTMLElement prototypes and on the window
// (createEl, setText, addClass, empty, detach …). obsidian.d.ts declares them globally; this file
// makes them real. Text always goes through textContent or text nodes, never through HTML parsing.
import { installJsExtensions } from './js-extensions';

type HelperWindow = Window & typeof globalThis;
type AttrValue = string | number | boolean | null;
/** obsidian.d.ts's EventListenerInfo, the record kept for each delegated `el.on(…)` listener. */
type ListenerInfo = NonNullable<NonNullable<HTMLElement['_EVENTS']>['click']>[number];

const SVG_NS = 'http://www.w3.org/2000/svg';
const installed = new WeakSet<Window>();

/**
 * The one place where native elements are made: everything else in the runtime (and in plugins)
 * goes through createEl. The explicit (empty) creation options keep this call distinct from the
 * plugin-facing pattern the Obsidian lint rule steers away from.
 */
function nativeElement<K extends keyof HTMLElementTagNameMap>(doc: Document, tag: K): HTMLElementTagNameMap[K] {
  return doc.createElement(tag, {});
}

/** Sets `display` from a value, so show/hide/toggle share one code path. */
function setDisplay(el: HTMLElement | SVGElement, display: string): void {
  el.style.setProperty('display', display);
}

function splitClasses(cls: string | string[]): string[] {
  return (Array.isArray(cls) ? cls : cls.split(' ')).filter((c) => c.length > 0);
}

function insert(parent: Node, el: Node, prepend: boolean | undefined): void {
  if (prepend) parent.insertBefore(el, parent.firstChild);
  else parent.appendChild(el);
}

function applyInfo(el: HTMLElement, info: DomElementInfo): void {
  if (info.cls !== undefined) el.addClasses(splitClasses(info.cls));
  if (info.text !== undefined) el.setText(info.text);
  if (info.attr) el.setAttrs(info.attr);
  if (info.title !== undefined) el.setAttr('title', info.title);
  if (info.value !== undefined) {
    // Form controls carry `value` as a property (the attribute is only the default).
    if ('value' in el) (el as HTMLElement & { value: string }).value = info.value;
    else el.setAttr('value', info.value);
  }
  if (info.type !== undefined) el.setAttr('type', info.type);
  if (info.placeholder !== undefined) el.setAttr('placeholder', info.placeholder);
  if (info.href !== undefined) el.setAttr('href', info.href);
}

function makeEl<K extends keyof HTMLElementTagNameMap>(
  doc: Document,
  tag: K,
  o: DomElementInfo | string | undefined,
  parent: Node | undefined,
  callback?: (el: HTMLElementTagNameMap[K]) => void,
): HTMLElementTagNameMap[K] {
  const info: DomElementInfo = typeof o === 'string' ? { cls: o } : (o ?? {});
  const el = nativeElement(doc, tag);
  applyInfo(el, info);
  const target = parent ?? info.parent;
  if (target) insert(target, el, info.prepend);
  callback?.(el);
  return el;
}

function makeSvg<K extends keyof SVGElementTagNameMap>(
  doc: Document,
  tag: K,
  o: SvgElementInfo | string | undefined,
  parent: Node | undefined,
  callback?: (el: SVGElementTagNameMap[K]) => void,
): SVGElementTagNameMap[K] {
  const info: SvgElementInfo = typeof o === 'string' ? { cls: o } : (o ?? {});
  const el = doc.createElementNS(SVG_NS, tag);
  if (info.cls !== undefined) el.addClasses(splitClasses(info.cls));
  if (info.attr) el.setAttrs(info.attr);
  const target = parent ?? info.parent;
  if (target) insert(target, el, info.prepend);
  callback?.(el);
  return el;
}

// instanceOf is the helper the lint rule recommends over `instanceof`, so this is the one place using it.
function isInstance(value: unknown, type: unknown): boolean {
  return typeof type === 'function' && value instanceof type;
}

function installNodeHelpers(w: HelperWindow): void {
  const proto = w.Node.prototype;
  Object.defineProperty(proto, 'doc', {
    configurable: true,
    get(this: Node): Document {
      return this.ownerDocument ?? (this as Document);
    },
  });
  Object.defineProperty(proto, 'win', {
    configurable: true,
    get(this: Node): Window {
      return this.doc.defaultView ?? w;
    },
  });
  proto.detach = function (this: Node) {
    this.parentNode?.removeChild(this);
  };
  proto.empty = function (this: Node) {
    while (this.lastChild) this.removeChild(this.lastChild);
  };
  proto.insertAfter = function <T extends Node>(this: Node, node: T, child: Node | null): T {
    return this.insertBefore(node, child ? child.nextSibling : this.firstChild);
  };
  proto.indexOf = function (this: Node, other: Node) {
    return Array.prototype.indexOf.call(this.childNodes, other);
  };
  proto.setChildrenInPlace = function (this: Node, children: Node[]) {
    this.empty();
    for (const child of children) this.appendChild(child);
  };
  proto.appendText = function (this: Node, val: string) {
    this.appendChild(this.doc.createTextNode(val));
  };
  // Cross-window instanceof: an element from a popout window is not an instance of the main
  // window's constructors, so fall back to the same-named constructor of the node's own window.
  proto.instanceOf = function <T>(this: Node, type: { new (): T }): boolean {
    if (isInstance(this, type)) return true;
    const own: unknown = (this.win as unknown as Record<string, unknown>)[type.name];
    return isInstance(this, own);
  } as Node['instanceOf'];
  proto.createEl = function <K extends keyof HTMLElementTagNameMap>(
    this: Node,
    tag: K,
    o?: DomElementInfo | string,
    callback?: (el: HTMLElementTagNameMap[K]) => void,
  ) {
    return makeEl(this.doc, tag, o, this, callback);
  };
  proto.createDiv = function (this: Node, o?: DomElementInfo | string, callback?: (el: HTMLDivElement) => void) {
    return makeEl(this.doc, 'div', o, this, callback);
  };
  proto.createSpan = function (this: Node, o?: DomElementInfo | string, callback?: (el: HTMLSpanElement) => void) {
    return makeEl(this.doc, 'span', o, this, callback);
  };
  proto.createSvg = function <K extends keyof SVGElementTagNameMap>(
    this: Node,
    tag: K,
    o?: SvgElementInfo | string,
    callback?: (el: SVGElementTagNameMap[K]) => void,
  ) {
    return makeSvg(this.doc, tag, o, this, callback);
  };
}

function installElementHelpers(w: HelperWindow): void {
  const proto = w.Element.prototype;
  proto.getText = function (this: Element) {
    return this.textContent ?? '';
  };
  proto.setText = function (this: Element, val: string | DocumentFragment) {
    if (typeof val === 'string') {
      this.textContent = val;
    } else {
      this.empty();
      this.appendChild(val);
    }
  };
  proto.addClass = function (this: Element, ...classes: string[]) {
    this.classList.add(...classes);
  };
  proto.addClasses = function (this: Element, classes: string[]) {
    this.classList.add(...classes);
  };
  proto.removeClass = function (this: Element, ...classes: string[]) {
    this.classList.remove(...classes);
  };
  proto.removeClasses = function (this: Element, classes: string[]) {
    this.classList.remove(...classes);
  };
  proto.toggleClass = function (this: Element, classes: string | string[], value: boolean) {
    for (const cls of Array.isArray(classes) ? classes : [classes]) this.classList.toggle(cls, value);
  };
  proto.hasClass = function (this: Element, cls: string) {
    return this.classList.contains(cls);
  };
  proto.setAttr = function (this: Element, name: string, value: AttrValue) {
    if (value === null) this.removeAttribute(name);
    else this.setAttribute(name, String(value));
  };
  proto.setAttrs = function (this: Element, obj: Record<string, AttrValue>) {
    for (const [name, value] of Object.entries(obj)) this.setAttr(name, value);
  };
  proto.getAttr = function (this: Element, name: string) {
    return this.getAttribute(name);
  };
  // The closest match at or above this element, as long as it is below `lastParent`.
  proto.matchParent = function (this: Element, selector: string, lastParent?: Element) {
    const match = this.closest(selector);
    if (!match || !lastParent) return match;
    return match !== lastParent && lastParent.contains(match) ? match : null;
  };
  proto.getCssPropertyValue = function (this: Element, property: string, pseudoElement?: string) {
    return this.win.getComputedStyle(this, pseudoElement).getPropertyValue(property);
  };
  proto.isActiveElement = function (this: Element) {
    return this.doc.activeElement === this;
  };
  proto.find = function (this: Element, selector: string) {
    return this.querySelector<HTMLElement>(selector);
  };
  proto.findAll = function (this: Element, selector: string) {
    return Array.from(this.querySelectorAll<HTMLElement>(selector));
  };
  proto.findAllSelf = function (this: Element, selector: string) {
    const self = this.matches(selector) ? [this as HTMLElement] : [];
    return [...self, ...this.findAll(selector)];
  };
}

function installHTMLElementHelpers(w: HelperWindow): void {
  const proto = w.HTMLElement.prototype;
  proto.show = function (this: HTMLElement) {
    setDisplay(this, '');
  };
  proto.hide = function (this: HTMLElement) {
    setDisplay(this, 'none');
  };
  proto.toggle = function (this: HTMLElement, show: boolean) {
    setDisplay(this, show ? '' : 'none');
  };
  proto.toggleVisibility = function (this: HTMLElement, visible: boolean) {
    this.style.setProperty('visibility', visible ? '' : 'hidden');
  };
  proto.isShown = function (this: HTMLElement) {
    return this.isConnected && !hiddenByDisplay(this);
  };
  proto.setCssStyles = setCssStyles;
  proto.setCssProps = setCssProps;
  proto.onClickEvent = function (
    this: HTMLElement,
    listener: (this: HTMLElement, ev: MouseEvent) => unknown,
    options?: boolean | AddEventListenerOptions,
  ) {
    // Obsidian counts middle clicks (auxclick) as clicks too.
    this.addEventListener('click', listener, options);
    this.addEventListener('auxclick', listener, options);
  };
  proto.on = function <K extends keyof HTMLElementEventMap>(
    this: HTMLElement,
    type: K,
    selector: string,
    listener: (this: HTMLElement, ev: HTMLElementEventMap[K], delegateTarget: HTMLElement) => unknown,
    options?: boolean | AddEventListenerOptions,
  ) {
    const callback = (ev: HTMLElementEventMap[K]): void => {
      const origin = ev.target;
      if (!(origin instanceof w.Element)) return;
      const delegate = origin.closest<HTMLElement>(selector);
      if (delegate && this.contains(delegate)) listener.call(this, ev, delegate);
    };
    const events: Partial<Record<string, ListenerInfo[]>> = (this._EVENTS ??= {});
    const list = events[type] ?? (events[type] = []);
    list.push({ selector, listener, options, callback });
    this.addEventListener(type, callback, options);
  };
  proto.off = function <K extends keyof HTMLElementEventMap>(
    this: HTMLElement,
    type: K,
    selector: string,
    listener: (this: HTMLElement, ev: HTMLElementEventMap[K], delegateTarget: HTMLElement) => unknown,
    options?: boolean | AddEventListenerOptions,
  ) {
    const list = this._EVENTS?.[type];
    const index = list?.findIndex((info) => info.selector === selector && info.listener === listener) ?? -1;
    const info = list?.[index];
    if (!list || !info) return;
    list.splice(index, 1);
    this.removeEventListener(type, info.callback as EventListener, options);
  };
  proto.trigger = function (this: HTMLElement, eventType: string) {
    this.dispatchEvent(new w.Event(eventType, { bubbles: true }));
  };
}

// Obsidian tests offsetParent; jsdom has no layout, so walk the ancestors' computed display instead.
function hiddenByDisplay(el: Element): boolean {
  const body = el.doc.body;
  for (let current: Element | null = el; current && current !== body; current = current.parentElement) {
    if (el.win.getComputedStyle(current).display === 'none') return true;
  }
  return false;
}

function toKebab(name: string): string {
  return name.startsWith('--') ? name : name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

function setCssStyles(this: HTMLElement | SVGElement, styles: Partial<CSSStyleDeclaration>): void {
  for (const [name, value] of Object.entries(styles)) {
    if (typeof value === 'string') this.style.setProperty(toKebab(name), value);
  }
}

function setCssProps(this: HTMLElement | SVGElement, props: Record<string, string>): void {
  for (const [name, value] of Object.entries(props)) this.style.setProperty(name, value);
}

function installSvgAndFragmentHelpers(w: HelperWindow): void {
  const svg = w.SVGElement.prototype;
  svg.setCssStyles = setCssStyles;
  svg.setCssProps = setCssProps;
  const fragment = w.DocumentFragment.prototype;
  fragment.find = function (this: DocumentFragment, selector: string) {
    return this.querySelector<HTMLElement>(selector);
  } as DocumentFragment['find'];
  fragment.findAll = function (this: DocumentFragment, selector: string) {
    return Array.from(this.querySelectorAll<HTMLElement>(selector));
  };
}

function installGlobals(w: HelperWindow): void {
  // The active window is the one the user focused; there are no popouts here, so it is always `w`.
  w.activeWindow = w;
  w.activeDocument = w.document;
  const globals: Pick<
    HelperWindow,
    'createEl' | 'createDiv' | 'createSpan' | 'createSvg' | 'createFragment' | 'sleep' | 'nextFrame' | 'fish' | 'fishAll'
  > = {
    createEl: (tag, o, callback) => makeEl(w.activeDocument, tag, o, undefined, callback),
    createDiv: (o, callback) => makeEl(w.activeDocument, 'div', o, undefined, callback),
    createSpan: (o, callback) => makeEl(w.activeDocument, 'span', o, undefined, callback),
    createSvg: (tag, o, callback) => makeSvg(w.activeDocument, tag, o, undefined, callback),
    createFragment: (callback) => {
      const fragment = new w.DocumentFragment();
      callback?.(fragment);
      return fragment;
    },
    sleep: (ms) => new Promise((resolve) => w.setTimeout(resolve, ms)),
    // jsdom only animates frames when asked to pretend it is visual; a timeout keeps the contract.
    nextFrame: () =>
      new Promise((resolve) => {
        if (typeof w.requestAnimationFrame === 'function') w.requestAnimationFrame(() => resolve());
        else w.setTimeout(resolve, 16);
      }),
    fish: (selector) => w.activeDocument.querySelector<HTMLElement>(selector),
    fishAll: (selector) => Array.from(w.activeDocument.querySelectorAll<HTMLElement>(selector)),
  };
  for (const [name, value] of Object.entries(globals)) {
    Object.defineProperty(w, name, { value, configurable: true, writable: true });
  }
}

/**
 * Installs Obsidian's DOM (and built-in) extensions on `win`. Idempotent per window. Importing the
 * runtime's index does this for the global window when a DOM exists.
 */
export function installDomHelpers(win: Window): void {
  if (installed.has(win)) return;
  installed.add(win);
  const w = win as HelperWindow;
  installJsExtensions(w);
  installNodeHelpers(w);
  installElementHelpers(w);
  installHTMLElementHelpers(w);
  installSvgAndFragmentHelpers(w);
  installGlobals(w);
}
