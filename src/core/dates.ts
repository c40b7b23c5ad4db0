// Dating what is carried forward: a message's day, and relative expressions in it ("yesterday",
// "last week") resolved against that day, so "I went yesterday" still means the right date rounds
// later. UTC and fixed English month names: the same output on every device and locale.

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAY_MS = 86_400_000;

/** "21 May 2023" for a timestamp in ms; '' for unknown (0, negative or not finite) times. */
export function describeDay(at: number): string {
  if (!Number.isFinite(at) || at <= 0) return '';
  const d = new Date(at);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

function describeMonth(at: number): string {
  const d = new Date(at);
  return `${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

const NUMBER_WORDS: Record<string, number> = { a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, few: 3, couple: 2 };

/**
 * The first relative date expression in `text`, resolved against `at`, as "yesterday = 20 May
 * 2023"; '' when there is none or the time is unknown.
 */
export function resolveRelativeDates(text: string, at: number): string {
  if (!Number.isFinite(at) || at <= 0) return '';
  const t = text.toLowerCase();
  let m: RegExpExecArray | null;
  if (/\byesterday\b/.test(t)) return `yesterday = ${describeDay(at - DAY_MS)}`;
  if (/\b(?:today|tonight|this morning|this afternoon|this evening)\b/.test(t)) return `${/\btoday\b/.test(t) ? 'today' : 'that day'} = ${describeDay(at)}`;
  if (/\btomorrow\b/.test(t)) return `tomorrow = ${describeDay(at + DAY_MS)}`;
  if ((m = /\b(\d+|a|an|one|two|three|four|five|six|seven|few|couple(?: of)?) (day|week|month|year)s? ago\b/.exec(t))) {
    const nWord = (m[1] ?? '1').replace(' of', '');
    const n = /^\d+$/.test(nWord) ? Number(nWord) : (NUMBER_WORDS[nWord] ?? 1);
    const unit = m[2];
    if (unit === 'day') return `${m[0]} = ${describeDay(at - n * DAY_MS)}`;
    if (unit === 'week') return `${m[0]} = around ${describeDay(at - n * 7 * DAY_MS)}`;
    if (unit === 'month') {
      const d = new Date(at);
      return `${m[0]} = ${describeMonth(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - n, 1))}`;
    }
    return `${m[0]} = ${new Date(at).getUTCFullYear() - n}`;
  }
  if (/\blast week\b/.test(t)) return `last week = the week before ${describeDay(at)}`;
  if (/\blast weekend\b/.test(t)) return `last weekend = the weekend before ${describeDay(at)}`;
  if (/\blast month\b/.test(t)) {
    const d = new Date(at);
    return `last month = ${describeMonth(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 1))}`;
  }
  if (/\blast year\b/.test(t)) return `last year = ${new Date(at).getUTCFullYear() - 1}`;
  if (/\bnext month\b/.test(t)) {
    const d = new Date(at);
    return `next month = ${describeMonth(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1))}`;
  }
  return '';
}
