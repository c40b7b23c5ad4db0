// A binary max-heap, for the lazy greedy selection of key facts.

/** A binary max-heap; `cmp(a, b) > 0` means a ranks above b. */
export class MaxHeap<T> {
  private items: T[] = [];
  constructor(private readonly cmp: (a: T, b: T) => number) {}
  get size(): number {
    return this.items.length;
  }
  peek(): T | undefined {
    return this.items[0];
  }
  push(item: T): void {
    const a = this.items;
    a.push(item);
    let i = a.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (this.cmp(a[i] as T, a[p] as T) <= 0) break;
      const t = a[i] as T;
      a[i] = a[p] as T;
      a[p] = t;
      i = p;
    }
  }
  pop(): T | undefined {
    const a = this.items;
    const top = a[0];
    const last = a.pop();
    if (a.length && last !== undefined) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && this.cmp(a[l] as T, a[m] as T) > 0) m = l;
        if (r < a.length && this.cmp(a[r] as T, a[m] as T) > 0) m = r;
        if (m === i) break;
        const t = a[i] as T;
        a[i] = a[m] as T;
        a[m] = t;
        i = m;
      }
    }
    return top;
  }
}
