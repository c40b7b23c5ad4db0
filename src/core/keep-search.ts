// How many of the facts taken the key facts section keeps when, laid out and measured, they pass
// their room (render-facts.ts): the plain answer drops the last-taken fact and measures again until
// the section fits — some seventeen layouts and estimates of the whole section per pass in a long
// chat. The same answer from an estimate checked by its neighbours: dropping a fact shortens the
// section by about its own cost, so the drop count guessed from the facts' costs is mostly right,
// and then two layouts settle it. Pure.

/** Which counts of facts kept fit: `fits(m)` lays out and measures the first `m` facts taken. */
export type KeepSearch = (n: number, guess: number, fits: (m: number) => boolean) => number;

/** The reference: the most facts under `n`, counting down, that fit (0 when none does). */
export const keepCountingDown: KeepSearch = (n, _guess, fits) => {
  let m = n - 1;
  while (m > 0 && !fits(m)) m--;
  return Math.max(m, 0);
};

/**
 * The same count from `guess` (clamped to 1..n-1): while one more than it fits, up by one; when it
 * does not fit, down by doubling strides to one that does, then halving between that and the
 * lowest count seen not to fit. It equals `keepCountingDown` wherever fewer facts never measure
 * more than more of them (the measured section shrinks as its last-taken facts go) — the render's
 * property test and the retention kit's blocks (byte for byte) hold it to that.
 */
export const keepFromGuess: KeepSearch = (n, guess, fits) => {
  if (n <= 1) return 0;
  let m = Math.min(Math.max(guess, 1), n - 1);
  if (fits(m)) {
    // Up while the next count still fits.
    while (m + 1 < n && fits(m + 1)) m++;
    return m;
  }
  // The lowest count seen not to fit.
  let over = m;
  // Down by doubling strides to a count that fits (or none).
  let stride = 1;
  let low = m - stride;
  while (low > 0 && !fits(low)) {
    over = low;
    stride *= 2;
    low = over - stride;
  }
  if (low < 0) low = 0;
  // Between `low` (fits, or 0, the least kept) and `over` (does not fit), by halves.
  for (let hi = over; ; ) {
    if (hi - low <= 1) return low;
    const mid = (low + hi) >> 1;
    if (fits(mid)) low = mid;
    else hi = mid;
  }
};
