// When a question points in time ("two weeks ago", "last Friday", "in the past month", "lately",
// "on 21 May, 2023", "in August"): read from the query and the day it is asked, as a span of days
// a conversation's date can be near. A date with its year needs no day asked. The cross-conversation search (cross-search.ts) favours conversations dated in or near
// it; the words alone cannot tell two chats about the same subject apart by when they were held.
// UTC, English expressions only. Pure.

const DAY_MS = 86_400_000;
const UNIT_DAYS: Record<string, number> = { day: 1, week: 7, month: 30, year: 365 };
const NUMBER_WORDS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  couple: 2,
  few: 3,
  several: 4,
};
const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

/** A span of time a question points at: conversations dated from `from` to `to` fit it fully, and
 * fit less the further outside they fall, on the scale of `slack` (a vaguer expression, wider). */
export interface TimeHint {
  from: number;
  to: number;
  slack: number;
  /** The words it was read from ("two weeks ago"), for tests and explanations. */
  phrase: string;
}

const COUNT = String.raw`(\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten|(?:a )?couple(?: of)?|(?:a )?few|several)`;
const AGO = new RegExp(String.raw`\b${COUNT} (day|week|month|year)s? (?:ago|back|before)\b`);
const PAST = new RegExp(String.raw`\b(?:past|last|previous) ${COUNT} (day|week|month|year)s?\b`);
const PAST_ONE = /\b(?:in|during|over|within) the (?:past|last) (day|week|month|year)\b/;
const LAST_UNIT = /\blast (week|month|year|weekend)\b/;
const LAST_DAY = /\b(?:last|this past) (mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?\b/;
const TODAY = /\b(?:today|this (?:morning|afternoon|evening)|tonight)\b/;
const THIS_UNIT = /\b(?:earlier )?this (week|month|year)\b/;
const RECENT = /\b(?:lately|recently|most recent(?:ly)?|latest|these days|nowadays)\b/;
const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const MONTH = `(${MONTHS.join('|')})`;
const MONTH_NAME = new RegExp(String.raw`\b${MONTH}\b`);
const ORDINAL = String.raw`(\d{1,2})(?:st|nd|rd|th)?`;
const YEAR = String.raw`(?:,? (\d{4}))?`;
/** "21 May, 2023", "1st of September 2023". */
const DAY_MONTH = new RegExp(String.raw`\b${ORDINAL} (?:of )?${MONTH}${YEAR}\b`);
/** "November 6, 2023", "May 21st". */
const MONTH_DAY = new RegExp(String.raw`\b${MONTH} ${ORDINAL}\b${YEAR}(?!\d)`);
/** "August 2023", "in May" ("may" alone is a verb: a month only after a preposition or before a year). */
const MONTH_YEAR = new RegExp(String.raw`\b${MONTH},? (\d{4})\b`);
const IN_MONTH = new RegExp(String.raw`\b(?:in|during|since|by|early|late|mid|of) ${MONTH}\b`);

function countOf(word: string): number {
  const w = word.replace(/^a /, '').replace(/ of$/, '');
  return /^\d+$/.test(w) ? Number(w) : (NUMBER_WORDS[w] ?? 1);
}

/** The first time expression of `query` resolved against `now` (ms, when it is asked), or null
 * when it has none. A date that names its year ("on 21 May, 2023", "in August 2023") is read
 * whatever `now` is; the rest ("two weeks ago", "in May") only when `now` is known (> 0). */
export function queryTimeHint(query: string, now: number): TimeHint | null {
  const q = query.toLowerCase();
  const known = Number.isFinite(now) && now > 0;
  const absolute = datedHint(q, known ? now : 0);
  if (absolute || !known) return absolute;
  const day = Math.floor(now / DAY_MS) * DAY_MS;
  let m: RegExpExecArray | null;
  if ((m = /\b(?:the day before yesterday|yesterday|last night)\b/.exec(q))) {
    const back = m[0].startsWith('the day before') ? 2 : 1;
    return { from: day - back * DAY_MS, to: day - back * DAY_MS + DAY_MS - 1, slack: DAY_MS, phrase: m[0] };
  }
  if ((m = AGO.exec(q))) {
    const days = countOf(m[1] ?? 'a') * (UNIT_DAYS[m[2] ?? 'day'] ?? 1);
    const vague = /couple|few|several/.test(m[1] ?? '');
    // "Two weeks ago" is rarely exactly fourteen days: a quarter of the distance either way.
    const spread = Math.max(DAY_MS, (vague ? 0.5 : 0.25) * days * DAY_MS);
    const at = day - days * DAY_MS;
    return { from: at - spread, to: at + spread, slack: spread, phrase: m[0] };
  }
  if ((m = PAST.exec(q))) {
    const days = countOf(m[1] ?? 'a') * (UNIT_DAYS[m[2] ?? 'day'] ?? 1);
    return { from: day - days * DAY_MS, to: now, slack: Math.max(DAY_MS, 0.25 * days * DAY_MS), phrase: m[0] };
  }
  if ((m = PAST_ONE.exec(q))) {
    const days = UNIT_DAYS[m[1] ?? 'day'] ?? 1;
    return { from: day - days * DAY_MS, to: now, slack: Math.max(DAY_MS, 0.25 * days * DAY_MS), phrase: m[0] };
  }
  if ((m = LAST_DAY.exec(q))) {
    const target = WEEKDAYS.indexOf((m[1] ?? '').slice(0, 3));
    const back = (new Date(day).getUTCDay() - target + 7) % 7 || 7;
    const at = day - back * DAY_MS;
    return { from: at, to: at + DAY_MS - 1, slack: 2 * DAY_MS, phrase: m[0] };
  }
  if ((m = TODAY.exec(q))) return { from: day, to: now, slack: DAY_MS, phrase: m[0] };
  if ((m = THIS_UNIT.exec(q))) {
    // The calendar week, month or year so far (weeks from Monday), a little slack before it.
    const at = new Date(day);
    const from = m[1] === 'week' ? day - ((at.getUTCDay() + 6) % 7) * DAY_MS : m[1] === 'month' ? Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1) : Date.UTC(at.getUTCFullYear(), 0, 1);
    return { from, to: now, slack: (m[1] === 'year' ? 30 : m[1] === 'month' ? 7 : 2) * DAY_MS, phrase: m[0] };
  }
  if ((m = LAST_UNIT.exec(q))) {
    const days = m[1] === 'weekend' ? 7 : (UNIT_DAYS[m[1] ?? 'week'] ?? 7);
    return { from: day - 2 * days * DAY_MS, to: day, slack: 0.5 * days * DAY_MS, phrase: m[0] };
  }
  if ((m = RECENT.exec(q))) return { from: day - 7 * DAY_MS, to: now, slack: 14 * DAY_MS, phrase: m[0] };
  if ((m = IN_MONTH.exec(q))) {
    // "In May" asked in 2024: the latest May that has begun by then.
    const month = MONTHS.indexOf(m[1] ?? '');
    const asked = new Date(now);
    const year = asked.getUTCFullYear() - (month > asked.getUTCMonth() ? 1 : 0);
    return monthSpan(year, month, m[0]);
  }
  return null;
}

/** A calendar month as a span, a week's slack either side. */
function monthSpan(year: number, month: number, phrase: string): TimeHint {
  return { from: Date.UTC(year, month, 1), to: Date.UTC(year, month + 1, 1) - 1, slack: 7 * DAY_MS, phrase };
}

/** A date the question names: a day ("on 21 May, 2023"; its year, when left out, the latest such
 * day by `now`) or a month with its year ("in August 2023"); null when it names none, or names a
 * day without a year and `now` is unknown (0). A conversation telling of that day is held on it or
 * soon after: a few days' slack. */
function datedHint(q: string, now: number): TimeHint | null {
  const m = DAY_MONTH.exec(q);
  const n = m ? null : MONTH_DAY.exec(q);
  if (m || n) {
    const [phrase, day, month, year] = m ? [m[0], m[1], m[2], m[3]] : [(n as RegExpExecArray)[0], (n as RegExpExecArray)[2], (n as RegExpExecArray)[1], (n as RegExpExecArray)[3]];
    const d = Number(day);
    const mo = MONTHS.indexOf(month ?? '');
    if (d >= 1 && d <= 31) {
      let y = year ? Number(year) : 0;
      if (!y && now) y = new Date(now).getUTCFullYear() - (Date.UTC(new Date(now).getUTCFullYear(), mo, d) > now ? 1 : 0);
      if (y) {
        const at = Date.UTC(y, mo, d);
        return { from: at, to: at + DAY_MS - 1, slack: 3 * DAY_MS, phrase };
      }
    }
  }
  const y = MONTH_YEAR.exec(q);
  return y ? monthSpan(Number(y[2]), MONTHS.indexOf(y[1] ?? ''), y[0]) : null;
}

/** The time expression of `query` read for a question asked on some day from `earliest` to
 * `latest` (ms) — when only a bound is known, as for a folder searched without its questions'
 * dates: the span covers what the expression means on any of those days ("a couple of days ago"
 * asked within a week of the newest conversation may be that conversation itself). */
export function queryTimeSpan(query: string, earliest: number, latest: number): TimeHint | null {
  const first = queryTimeHint(query, earliest);
  if (!first || !(latest > earliest)) return first;
  const last = queryTimeHint(query, latest) as TimeHint;
  return { ...first, from: Math.min(first.from, last.from), to: Math.max(first.to, last.to) };
}

/** How well a conversation dated `at` fits `hint`: 1 inside the span, falling off outside it on the
 * scale of its slack; 0 for an unknown date. */
export function timeFit(hint: TimeHint, at: number): number {
  if (!Number.isFinite(at) || at <= 0) return 0;
  const outside = at < hint.from ? hint.from - at : at > hint.to ? at - hint.to : 0;
  if (!outside) return 1;
  const x = outside / hint.slack;
  return Math.exp(-x * x);
}

/** The relative time expression of `query` ("two weeks ago", "last Friday"), whatever day it is
 * asked; '' when none. A date it names ("in August 2023") is not one: its words are also written
 * in the conversations that speak of it ("we met on 3 August"), where "ago" and "last" are not. */
export function timePhrase(query: string): string {
  // The words matched do not depend on the day: any valid day reads them.
  const phrase = queryTimeHint(query, Date.UTC(2000, 0, 1))?.phrase ?? '';
  return MONTH_NAME.test(phrase) ? '' : phrase;
}
