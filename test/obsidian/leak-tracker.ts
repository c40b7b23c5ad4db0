// Counts what a plugin could leave behind: DOM listeners still able to fire, and intervals still
// running. It wraps the window's addEventListener/removeEventListener and setInterval/clearInterval
// (once per window) and records what is added after the last reset.
//
// A listener counts while its target is the window, a document, or a node still attached to the
// document: a listener on a detached element is collectable garbage, not a leak. Listeners added
// through an AbortSignal or with `once` stop counting when they are removed that way.

interface Tracked {
  type: string;
  listener: EventListenerOrEventListenerObject;
  capture: boolean;
}

let byTarget = new WeakMap<EventTarget, Tracked[]>();
let targets = new Set<WeakRef<EventTarget>>();
const liveIntervals = new Set<unknown>();
const patched = new WeakSet<Window>();

function captureOf(options: boolean | EventListenerOptions | undefined): boolean {
  return typeof options === 'boolean' ? options : (options?.capture ?? false);
}

function forget(target: EventTarget, record: Tracked): void {
  const list = byTarget.get(target);
  if (list?.includes(record)) list.splice(list.indexOf(record), 1);
}

function canFire(target: EventTarget): boolean {
  if ((target as Window).window === target) return true;
  if (!('nodeType' in target)) return false;
  const node = target as Node;
  return node.nodeType === node.DOCUMENT_NODE || node.isConnected;
}

type AddListener = (type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | AddEventListenerOptions) => void;

/** Records a listener just added to `target`; `addRaw` adds helper listeners without recording them. */
function track(
  target: EventTarget,
  type: string,
  listener: EventListenerOrEventListenerObject | null,
  options: boolean | AddEventListenerOptions | undefined,
  addRaw: AddListener,
  addRawTo: (target: EventTarget, ...args: Parameters<AddListener>) => void,
): void {
  if (!listener) return;
  const capture = captureOf(options);
  const list = byTarget.get(target) ?? [];
  // The DOM ignores an identical second registration; so does the count.
  if (list.some((r) => r.type === type && r.listener === listener && r.capture === capture)) return;
  const record: Tracked = { type, listener, capture };
  list.push(record);
  if (!byTarget.has(target)) {
    byTarget.set(target, list);
    targets.add(new WeakRef(target));
  }
  if (typeof options !== 'object') return;
  // Runs after the listener itself (registered later), once the DOM has dropped it.
  if (options.once) addRaw(type, () => forget(target, record), { once: true, capture });
  if (options.signal) addRawTo(options.signal, 'abort', () => forget(target, record), { once: true });
}

function untrack(target: EventTarget, type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | EventListenerOptions): void {
  const record = byTarget.get(target)?.find((r) => r.type === type && r.listener === listener && r.capture === captureOf(options));
  if (record) forget(target, record);
}

/** Starts tracking on `win` (idempotent). */
export function installLeakTracking(win: Window): void {
  if (patched.has(win)) return;
  patched.add(win);
  const w = win as Window & typeof globalThis;
  const proto = w.EventTarget.prototype;
  // Kept unbound on purpose: the wrappers call them with .call(target, …).
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called with an explicit `this`
  const add = proto.addEventListener;
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called with an explicit `this`
  const remove = proto.removeEventListener;
  const addRawTo = (target: EventTarget, ...args: Parameters<AddListener>): void => add.call(target, ...args);

  proto.addEventListener = function (this: EventTarget, type, listener, options) {
    add.call(this, type, listener, options);
    track(this, type, listener, options, (...args) => add.call(this, ...args), addRawTo);
  };
  proto.removeEventListener = function (this: EventTarget, type, listener, options) {
    remove.call(this, type, listener, options);
    untrack(this, type, listener, options);
  };

  // Some environments (vitest's jsdom) give the global window its own bound copies of these methods.
  if (Object.prototype.hasOwnProperty.call(w, 'addEventListener')) {
    const ownAdd = w.addEventListener.bind(w) as AddListener;
    const ownRemove = w.removeEventListener.bind(w) as (...args: Parameters<EventTarget['removeEventListener']>) => void;
    Object.defineProperty(w, 'addEventListener', {
      configurable: true,
      writable: true,
      value: (...args: Parameters<AddListener>): void => {
        ownAdd(...args);
        track(w, ...args, ownAdd, addRawTo);
      },
    });
    Object.defineProperty(w, 'removeEventListener', {
      configurable: true,
      writable: true,
      value: (...args: Parameters<EventTarget['removeEventListener']>): void => {
        ownRemove(...args);
        untrack(w, ...args);
      },
    });
  }

  const setInterval = w.setInterval.bind(w) as (...args: unknown[]) => unknown;
  const clearInterval = w.clearInterval.bind(w) as (id: unknown) => void;
  Object.defineProperty(w, 'setInterval', {
    configurable: true,
    writable: true,
    value: (...args: unknown[]): unknown => {
      const id = setInterval(...args);
      liveIntervals.add(id);
      return id;
    },
  });
  Object.defineProperty(w, 'clearInterval', {
    configurable: true,
    writable: true,
    value: (id: unknown): void => {
      liveIntervals.delete(id);
      clearInterval(id);
    },
  });
}

/** Forgets everything recorded so far (a new test app starts from zero). */
export function resetLeakTracking(): void {
  byTarget = new WeakMap();
  targets = new Set();
  liveIntervals.clear();
}

/** DOM listeners added since the last reset whose target can still fire them. */
export function liveListenerCount(): number {
  let count = 0;
  for (const ref of targets) {
    const target = ref.deref();
    if (!target) {
      targets.delete(ref);
      continue;
    }
    if (canFire(target)) count += byTarget.get(target)?.length ?? 0;
  }
  return count;
}

/** Intervals started since the last reset and not cleared. */
export function liveIntervalCount(): number {
  return liveIntervals.size;
}
