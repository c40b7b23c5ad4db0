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

const NUMBER_WORDS: Record<string, number> = { a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10 };
const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

/** A date the text states itself ("May 15th", "15 May", "2023-05-15", "5/15"): a relative
 * expression beside it needs no note, and a note could only contradict it. */
const EXPLICIT_DATE =
  /\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2}(?:st|nd|rd|th)?\b|\b\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\b|\b\d{4}-\d{1,2}-\d{1,2}\b|\b\d{1,2}\/\d{1,2}(?:\/\d{2,4})?\b|\bthe \d{1,2}(?:st|nd|rd|th)\b/i;

/** "13–19 March 2023", "27 February – 5 March 2023": a span of days. */
function describeSpan(from: number, to: number): string {
  const a = new Date(from);
  const b = new Date(to);
  if (a.getUTCFullYear() !== b.getUTCFullYear()) return `${describeDay(from)} – ${describeDay(to)}`;
  if (a.getUTCMonth() !== b.getUTCMonth()) return `${a.getUTCDate()} ${MONTHS[a.getUTCMonth()]} – ${describeDay(to)}`;
  return `${a.getUTCDate()}–${describeDay(to)}`;
}

/** Midnight (UTC) of the day of `at`. */
const dayStart = (at: number): number => Math.floor(at / DAY_MS) * DAY_MS;
/** Day of the week of `at`, Monday = 0. */
const mondayBased = (at: number): number => (new Date(at).getUTCDay() + 6) % 7;

/**
 * The first relative date expression in `text` that a date makes more exact, resolved against
 * `at` (when it was said), as "yesterday = 20 May 2023"; '' when there is none, the time is
 * unknown, or the note would add nothing: "today" is the day the line is labelled with, a
 * sentence that states its own date needs none, and vague spans stay vague ("a few days ago =
 * shortly before 14 December 2023").
 */
export function resolveRelativeDates(text: string, at: number): string {
  if (!Number.isFinite(at) || at <= 0) return '';
  const t = text.toLowerCase();
  // Every expression below holds one of these words: most sentences hold none, and are done
  // without trying the patterns (a render asks this of every fact in the pool).
  if (!t.includes('yesterday') && !t.includes('tomorrow') && !t.includes(' ago') && !t.includes('last ') && !t.includes('next ') && !t.includes('this ')) return '';
  if (EXPLICIT_DATE.test(t)) return '';
  const day = dayStart(at);
  let m: RegExpExecArray | null;
  if (/\bthe day before yesterday\b/.test(t)) return `the day before yesterday = ${describeDay(day - 2 * DAY_MS)}`;
  if ((m = /\b(?:yesterday|last night)\b/.exec(t))) return `${m[0]} = ${describeDay(day - DAY_MS)}`;
  if (/\btomorrow\b/.test(t)) return `tomorrow = ${describeDay(day + DAY_MS)}`;
  if ((m = /\b(\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|(?:a )?few|(?:a )?couple(?: of)?|several) (day|week|month|year)s? ago\b/.exec(t))) {
    const nWord = m[1] ?? 'a';
    const unit = m[2];
    const n = /^\d+$/.test(nWord) ? Number(nWord) : NUMBER_WORDS[nWord];
    const d = new Date(at);
    // "A few days ago": not a day, only a time before the day it was said — which the fact's line
    // names already; "(a few years ago = some time before 2023)" was read as an empty gloss.
    if (n === undefined) return '';
    if (unit === 'day') return `${m[0]} = ${describeDay(day - n * DAY_MS)}`;
    if (unit === 'week') return `${m[0]} = around ${describeDay(day - n * 7 * DAY_MS)}`;
    if (unit === 'month') return `${m[0]} = ${describeMonth(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - n, 1))}`;
    return `${m[0]} = ${d.getUTCFullYear() - n}`;
  }
  if ((m = /\b(last|next|this) (mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?\b/.exec(t))) {
    const target = WEEKDAYS.indexOf((m[2] ?? '').slice(0, 3));
    const today = new Date(at).getUTCDay();
    // "Last Friday": the latest Friday before the day; "next/this Friday": the first one after.
    const back = (today - target + 7) % 7 || 7;
    const ahead = (target - today + 7) % 7 || 7;
    return `${m[0]} = ${describeDay(m[1] === 'last' ? day - back * DAY_MS : day + ahead * DAY_MS)}`;
  }
  const monday = day - mondayBased(at) * DAY_MS;
  if ((m = /\b(last|next) week\b/.exec(t))) {
    const from = monday + (m[1] === 'last' ? -7 : 7) * DAY_MS;
    return `${m[0]} = ${describeSpan(from, from + 6 * DAY_MS)}`;
  }
  if ((m = /\b(last|this|next) weekend\b/.exec(t))) {
    // The weekend of the week before, of this week, or of the week after (a Saturday or Sunday
    // belongs to its own week's weekend).
    const offset = m[1] === 'last' ? -7 : m[1] === 'next' ? 7 : 0;
    const saturday = monday + (5 + offset) * DAY_MS;
    return `${m[0]} = ${describeSpan(saturday, saturday + DAY_MS)}`;
  }
  if ((m = /\b(last|next) (month|year)\b/.exec(t))) {
    const d = new Date(at);
    const step = m[1] === 'last' ? -1 : 1;
    return m[2] === 'month' ? `${m[0]} = ${describeMonth(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + step, 1))}` : `${m[0]} = ${d.getUTCFullYear() + step}`;
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
