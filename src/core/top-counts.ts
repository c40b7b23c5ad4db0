// The few most counted entries of a count table, in order: what sorting all its entries and taking
// the first few gives, kept by insertion into the few best instead (a thread's profile holds every
// word it says; the record keeps two dozen). Pure.

/** The `k` entries of `counts` with the highest counts, highest first, ties by key (keys are
 * distinct, so the order is total): `[...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, k)`. */
export function topCounts(counts: ReadonlyMap<string, number>, k: number): [string, number][] {
  const best: [string, number][] = [];
  if (k <= 0) return best;
  const before = (a: [string, number], b: [string, number]): boolean => a[1] > b[1] || (a[1] === b[1] && a[0] < b[0]);
  for (const e of counts) {
    if (best.length === k && !before(e, best[k - 1] as [string, number])) continue;
    let i = best.length === k ? k - 1 : best.length;
    while (i > 0 && before(e, best[i - 1] as [string, number])) {
      best[i] = best[i - 1] as [string, number];
      i--;
    }
    best[i] = e;
  }
  return best;
}
