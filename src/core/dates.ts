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

const MONTH_INDEX: Record<string, number> = Object.fromEntries(
  MONTHS.flatMap((name, i) => [
    [name.toLowerCase(), i],
    [name.slice(0, 3).toLowerCase(), i],
  ]),
);

// A timestamp at the very start of a message, in brackets or parentheses, as exported chats and
// pasted logs write them: "(7:48 pm on 21 May, 2023)", "[2024-03-05 09:12]", "(2023/05/30 (Tue) 02:31)".
const LEADING_STAMP = /^\s*[[(]([^\])\n]{6,60}?(?:\([A-Za-z]{2,9}\)[^\])\n]{0,20})?)[\])]\s*/;
const DMY = /\b(\d{1,2})(?:st|nd|rd|th)?\s+([A-Za-z]{3,9})\.?,?\s+(\d{4})\b/;
const MDY = /\b([A-Za-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b/;
const YMD = /\b(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})\b/;
const TIME = /\b(\d{1,2}):(\d{2})\s*([ap]\.?m\.?)?/i;

function parseDate(text: string): number {
  let y = -1;
  let mo = -1;
  let d = -1;
  let m: RegExpExecArray | null;
  if ((m = YMD.exec(text))) {
    y = Number(m[1]);
    mo = Number(m[2]) - 1;
    d = Number(m[3]);
  } else if ((m = DMY.exec(text)) && MONTH_INDEX[(m[2] ?? '').toLowerCase()] !== undefined) {
    d = Number(m[1]);
    mo = MONTH_INDEX[(m[2] ?? '').toLowerCase()] as number;
    y = Number(m[3]);
  } else if ((m = MDY.exec(text)) && MONTH_INDEX[(m[1] ?? '').toLowerCase()] !== undefined) {
    mo = MONTH_INDEX[(m[1] ?? '').toLowerCase()] as number;
    d = Number(m[2]);
    y = Number(m[3]);
  }
  if (y < 1900 || y > 2200 || mo < 0 || mo > 11 || d < 1 || d > 31) return 0;
  let h = 12;
  let min = 0;
  const t = TIME.exec(text);
  if (t) {
    h = Number(t[1]) % 24;
    min = Number(t[2]) % 60;
    const ap = (t[3] ?? '').toLowerCase();
    if (ap.startsWith('p') && h < 12) h += 12;
    if (ap.startsWith('a') && h === 12) h = 0;
  }
  return Date.UTC(y, mo, d, h, min);
}

/**
 * A date stamp written at the start of a message's text, when the message has no time of its
 * own: its time in ms and the stamp's length (so extraction can drop it from quoted text, the date
 * being shown as a label instead). `{ at: 0, length: 0 }` when there is none.
 */
export function leadingStamp(text: string): { at: number; length: number } {
  const m = LEADING_STAMP.exec(text);
  if (!m) return { at: 0, length: 0 };
  const at = parseDate(m[1] ?? '');
  return at ? { at, length: m[0].length } : { at: 0, length: 0 };
}
