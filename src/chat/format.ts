// Short number and count phrases shared by the chat's notices, the meter and the views.

/** "850", "1.2k", "12k", "1.05M", "10M": short enough for the meter line at phone width. */
export function formatTokens(n: number): string {
  if (n < 1000) return String(Math.round(n));
  if (n < 10_000) return `${(n / 1000).toFixed(1).replace(/\.0$/, '')}k`;
  if (n < 999_500) return `${Math.round(n / 1000)}k`;
  if (n < 9_995_000) return `${(n / 1_000_000).toFixed(2).replace(/\.?0+$/, '')}M`;
  return `${Math.round(n / 1_000_000)}M`;
}

/** "1 message", "3 messages". */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** "7,012": a whole token figure, as the notice and the panel print them. */
export function formatCount(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/** "7,012 → 2,210 tokens": a compaction round's figures, the whole prompt (system prompt, summary,
 * notes, tools and the messages sent) just before and just after. The one pair every view shows. */
export function promptChange(before: number, after: number): string {
  return `${formatCount(before)} → ${formatCount(after)} tokens`;
}
