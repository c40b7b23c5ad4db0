// The small extensions Obsidian adds to JavaScript built-ins (Array#last, String#contains, Math.clamp …).
// obsidian.d.ts declares them globally, so plugin code type-checks when it calls them; they must exist
// at run time too or such code would pass tsc and then crash only under this runtime.

// (findLastIndex is also declared there, but every supported engine has it natively.)
type ArrayExtensions = Pick<unknown[], 'first' | 'last' | 'contains' | 'remove' | 'shuffle' | 'unique'>;

const arrayExtensions: ArrayExtensions & ThisType<unknown[]> = {
  first() {
    return this[0];
  },
  last() {
    return this[this.length - 1];
  },
  contains(target) {
    return this.includes(target);
  },
  remove(target) {
    const index = this.indexOf(target);
    if (index !== -1) this.splice(index, 1);
  },
  shuffle() {
    for (let i = this.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [this[i], this[j]] = [this[j], this[i]];
    }
    return this;
  },
  unique() {
    return [...new Set(this)];
  },
};

const stringExtensions: Pick<string, 'contains' | 'format'> & ThisType<string> = {
  contains(target) {
    return this.includes(target);
  },
  // '{0} of {1}'.format('a', 'b') → 'a of b'; unknown indices are left as written.
  format(...args) {
    return this.replace(/\{(\d+)\}/g, (whole, index: string) => args[Number(index)] ?? whole);
  },
};

/** Defines missing properties only, non-enumerable, so `for…in` over arrays is unaffected. */
function defineMissing(target: object, extensions: object): void {
  for (const [name, value] of Object.entries(extensions)) {
    if (name in target) continue;
    Object.defineProperty(target, name, { value: value as unknown, configurable: true, writable: true });
  }
}

export function installJsExtensions(win: Window & typeof globalThis): void {
  defineMissing(win.Array.prototype, arrayExtensions);
  defineMissing(win.String.prototype, stringExtensions);
  defineMissing(win.Array, {
    combine: <T>(arrays: T[][]): T[] => arrays.flat(),
  });
  defineMissing(win.Math, {
    clamp: (value: number, min: number, max: number): number => Math.min(Math.max(value, min), max),
    square: (value: number): number => value * value,
  });
  defineMissing(win.String, { isString: (obj: unknown): obj is string => typeof obj === 'string' });
  defineMissing(win.Number, { isNumber: (obj: unknown): obj is number => typeof obj === 'number' });
  defineMissing(win.Object, {
    isEmpty: (object: Record<string, unknown>): boolean => Object.keys(object).length === 0,
    // Returns false when the callback stopped the walk by returning false.
    each: <T>(object: Record<string, T>, callback: (value: T, key?: string) => boolean | void, context?: unknown): boolean => {
      for (const [key, value] of Object.entries(object)) {
        if (callback.call(context, value, key) === false) return false;
      }
      return true;
    },
  });
  defineMissing(win, { isBoolean: (obj: unknown): obj is boolean => typeof obj === 'boolean' });
}
