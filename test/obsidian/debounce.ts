// Obsidian's debounce: the call runs `timeout` ms after the first call of a burst (or after the
// last one, with resetTimer), with the latest arguments.

export interface Debouncer<T extends unknown[], V> {
  (...args: [...T]): this;
  /** Drops a pending call. */
  cancel(): this;
  /** Runs a pending call now and returns its result. */
  run(): V | void;
}

export function debounce<T extends unknown[], V>(cb: (...args: [...T]) => V, timeout = 0, resetTimer = false): Debouncer<T, V> {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let pending: [...T] | null = null;

  const fire = (): V | void => {
    timer = null;
    const args = pending;
    pending = null;
    if (args) return cb(...args);
  };

  const debounced = ((...args: [...T]) => {
    pending = args;
    if (timer !== null && resetTimer) {
      clearTimeout(timer);
      timer = null;
    }
    timer ??= setTimeout(fire, timeout);
    return debounced;
  }) as Debouncer<T, V>;

  debounced.cancel = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    pending = null;
    return debounced;
  };
  debounced.run = () => {
    if (timer === null) return;
    clearTimeout(timer);
    return fire();
  };
  return debounced;
}
