// Text helpers shared by the conversation note's writer and readers (conversation-format.ts,
// conversation-blocks.ts, conversation-format-v1.ts): what can be written as it is, JSON that stays
// on one line inside an HTML comment, fences longer than anything inside, times for people.
import { dropLoneSurrogates } from '../core/text';

/** A problem in a note, at a 1-based line. */
export class FormatError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
  }
}

/** Whether text can be written as it is and read back exactly: no lone surrogates, no CR, no control
 * characters, and none of the other line breaks (U+0085, U+2028, U+2029) that some editors and
 * Markdown readers split lines on, so the note reads the same everywhere. */
export function plainSafe(text: string): boolean {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is matched
  if (/[\u0000-\u0008\u000b-\u001f\u007f\u0085\u2028\u2029]/.test(text)) return false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return false;
      i++;
    } else if (c >= 0xdc00 && c <= 0xdfff) {
      return false;
    }
  }
  return true;
}

/** U+0085 / U+2028 / U+2029 are line breaks to some editors and YAML readers: inside JSON strings
 * they are written as escapes, so no raw one is ever in the note. */
export function escapeSeparators(json: string): string {
  return json.replace(/[\u0085\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** One line of JSON that cannot close the HTML comment it sits in. */
export function metaJson(value: unknown): string {
  return escapeSeparators(JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e'));
}

/** A JSON string, which is also a valid YAML double-quoted scalar (lone surrogates come out as \u escapes). */
export function yamlString(value: string): string {
  return escapeSeparators(JSON.stringify(value));
}

/** A time as ISO 8601 when it is a whole number of milliseconds of a real date, else as the number. */
export function isoTime(ms: number): string {
  const date = new Date(ms);
  return Number.isFinite(ms) && !Number.isNaN(date.getTime()) && Number.isInteger(ms) ? date.toISOString() : String(ms);
}

/** Reads what `isoTime` wrote (or plain milliseconds); NaN when it is neither. */
export function parseTime(raw: string): number {
  if (/^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(raw)) return Number(raw);
  if (raw === 'NaN' || raw === 'Infinity' || raw === '-Infinity') return Number(raw);
  return Date.parse(raw);
}

/** The minute, in UTC, for the headings people read. */
export function humanTime(ms: number): string {
  const date = new Date(ms);
  if (Number.isNaN(date.getTime())) return 'unknown time';
  return date.toISOString().slice(0, 16).replace('T', ' ');
}

/** Text shown to people only (never parsed back): one line (every kind of line break becomes a
 * space), lone surrogates and control characters replaced, so the note stays valid UTF-8 whatever a name or path holds. */
export function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is matched
  return dropLoneSurrogates(text.replace(/[\u0000-\u001f\u007f\u0085\u2028\u2029]+/g, ' '), '\uFFFD');
}


/** A backtick fence longer than any backtick run in `lines` (at least three). */
export function fenceFor(lines: readonly string[]): string {
  let longest = 0;
  for (const line of lines) for (const run of line.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return '`'.repeat(Math.max(3, longest + 1));
}

/** The info string of a block holding its text as one JSON string (text a plain fence cannot carry). */
export const ESCAPED = 'escaped';

/** A fenced block's text as carried: the lines themselves, or the JSON string of an escaped block. */
export function blockText(info: string, body: string, what: string, line: number): { text: string; line: number } {
  if (info !== ESCAPED) return { text: body, line };
  try {
    const value: unknown = JSON.parse(body);
    if (typeof value !== 'string') throw new Error('not a string');
    return { text: value, line };
  } catch {
    throw new FormatError(`The escaped block of ${what} must hold one JSON string.`, line);
  }
}

export function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
