// Text helpers for extraction and rendering: sentence splitting, the checks a summary line is held
// to, de-duplication keys, and truncation that never cuts a word or a surrogate pair (the word
// scan that files words for ranking is word-scan.ts's). Regex-only (no Intl.Segmenter on the hot
// path): compaction must stay within a few passes over the text, on mobile too.

/** True for a lone (unpaired) UTF-16 surrogate at index i. */
function isLoneSurrogate(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff) {
    const next = text.charCodeAt(i + 1);
    return !(next >= 0xdc00 && next <= 0xdfff);
  }
  if (c >= 0xdc00 && c <= 0xdfff) {
    const prev = text.charCodeAt(i - 1);
    return !(prev >= 0xd800 && prev <= 0xdbff);
  }
  return false;
}

/** Removes unpaired surrogates (or puts `replacement` in their place): they are invalid in the
 * JSON a provider receives and in a UTF-8 file, so text built from messages never carries one even
 * if the message did. A scan, not a regex: lookbehind would not parse on iOS before 16.4. */
export function dropLoneSurrogates(text: string, replacement = ''): string {
  if (!/[\ud800-\udfff]/.test(text)) return text;
  let out = '';
  for (let i = 0; i < text.length; i++) out += isLoneSurrogate(text, i) ? replacement : text[i];
  return out;
}

/** Collapses whitespace runs (including newlines) to single spaces and trims. Text already so
 * (most sentences and lines: one space between words, none at the ends) is returned as it is: the
 * pattern's replace matches every space and so copied every sentence it was given. */
export function squash(text: string): string {
  return isSquashed(text) ? text : text.replace(/\s+/g, ' ').trim();
}

/** No whitespace but single spaces between non-spaces. */
function isSquashed(text: string): boolean {
  let afterSpace = true;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 32) {
      if (afterSpace) return false;
      afterSpace = true;
    } else if ((c <= 13 || c > 127) && isSpaceCode(c)) return false;
    else afterSpace = false;
  }
  return text.length > 0 && !afterSpace;
}

const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]/;

/**
 * The longest prefix of `text` of at most `maxChars` UTF-16 units that ends on a word boundary
 * (or between two CJK characters, which have no spaces), never inside a surrogate pair.
 * Adds `…` when it cut. Returns '' when not even one word fits.
 */
export function truncateAtWord(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  if (maxChars <= 1) return '';
  let end = maxChars - 1; // room for the ellipsis
  // Never split a surrogate pair.
  const c = text.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--;
  let cut = -1;
  for (let i = end; i > 0; i--) {
    const ch = text[i] ?? '';
    const prev = text[i - 1] ?? '';
    if (/\s/.test(ch) || CJK.test(ch) || CJK.test(prev)) {
      cut = i;
      break;
    }
  }
  if (cut <= 0) return '';
  const head = text.slice(0, cut).replace(/[\s,;:–—-]+$/u, '');
  return head ? `${head}…` : '';
}

/** Where the last bracket or code span left open in `text` opened (-1: none is). */
function lastOpener(text: string): number {
  const open: number[] = [];
  let tick = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '`') tick = tick < 0 ? i : -1;
    else if (tick >= 0) continue;
    else if (c === '(' || c === '[') open.push(i);
    else if ((c === ')' || c === ']') && open.length) open.pop();
  }
  return Math.max(tick, open[open.length - 1] ?? -1);
}

/**
 * {@link truncateAtWord}, but a cut that would leave a bracket or a code span open ("Key
 * (content_type_id, codename)=(12, add…") is made before where it opened instead, when that
 * keeps at least half the room: a reader sees a clause cut short rather than markup left open.
 */
export function truncateBalanced(text: string, maxChars: number): string {
  let cut = truncateAtWord(text, maxChars);
  if (!cut || cut === text) return cut;
  for (let at = lastOpener(cut.slice(0, -1)); at >= maxChars / 2; at = lastOpener(cut.slice(0, -1))) {
    const shorter = truncateAtWord(text, at + 2);
    if (!shorter || shorter.length >= cut.length) break;
    cut = shorter;
  }
  return cut;
}

/** JavaScript's `\s` (what `trim` removes) by char code. */
export function isSpaceCode(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || (c > 127 && (c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff));
}

/** Number of words, counting each CJK character as one. One scan of the trimmed range, nothing
 * allocated (it runs several times per removed sentence). */
export function wordCount(text: string): number {
  let start = 0;
  let end = text.length;
  while (start < end && isSpaceCode(text.charCodeAt(start))) start++;
  while (end > start && isSpaceCode(text.charCodeAt(end - 1))) end--;
  if (start === end) return 0;
  let n = 1;
  let prev = -1;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9 || c === 10) {
      if (prev !== 32) n++;
    } else if (c >= 0x3040 && (c <= 0x30ff || (c >= 0x3400 && c <= 0x9fff) || (c >= 0xf900 && c <= 0xfaff))) n++;
    prev = c;
  }
  return n;
}

/** A normalised key for de-duplication: lowercased letters and digits only. */
export function dedupeKey(text: string): string {
  // ASCII text (most of it) takes the ASCII pattern, which is the same there and cheaper.
  if (isAscii(text)) return asciiKey(text);
  return unicodeKey(text.toLowerCase());
}

/** `lower.replace(/[^\p{L}\p{N}]+/gu, ' ').trim()`: the runs of letters and digits, one space
 * between, in one walk by code point (a render keys every fact it weighs, and most chat text past
 * ASCII is CJK or accented). Each BMP unit's class is asked of the pattern once and kept. */
function unicodeKey(lower: string): string {
  let out = '';
  let i = 0;
  const n = lower.length;
  while (i < n) {
    while (i < n && !keepsAt(lower, i)) i += stepAt(lower, i);
    const start = i;
    while (i < n && keepsAt(lower, i)) i += stepAt(lower, i);
    if (i > start) out = out ? `${out} ${lower.slice(start, i)}` : lower.slice(start, i);
  }
  return out;
}

/** 1 for a letter or digit, 2 for neither, 0 not asked yet: by BMP code unit (surrogates aside). */
const letterOrDigit = new Uint8Array(0x10000);
/** A letter or digit at `lastIndex`, read as a whole code point. */
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/uy;

/** Whether the code point at `i` is a letter or digit (a lone surrogate is neither). */
function keepsAt(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c < 128) return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57);
  if (c >= 0xd800 && c <= 0xdfff) {
    LETTER_OR_DIGIT.lastIndex = i;
    return LETTER_OR_DIGIT.test(text);
  }
  let k = letterOrDigit[c] as number;
  if (k === 0) {
    LETTER_OR_DIGIT.lastIndex = i;
    k = LETTER_OR_DIGIT.test(text) ? 1 : 2;
    letterOrDigit[c] = k;
  }
  return k === 1;
}

/** Code units of the code point at `i` (2 for a surrogate pair). */
function stepAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  return c >= 0xd800 && c <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
}

/** `text.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim()` for ASCII text: its runs of letters and
 * digits, lowercased, one space between. One walk, no pattern (a render keys every fact it weighs). */
function asciiKey(text: string): string {
  let out = '';
  let i = 0;
  const n = text.length;
  while (i < n) {
    while (i < n && !isAsciiAlnum(text.charCodeAt(i))) i++;
    const start = i;
    while (i < n && isAsciiAlnum(text.charCodeAt(i))) i++;
    if (i > start) out = out ? `${out} ${text.slice(start, i)}` : text.slice(start, i);
  }
  return out.toLowerCase();
}

const isAsciiAlnum = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57);

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 127) return false;
  return true;
}

/** Share of `a`'s distinct content words that also occur in `b`'s (0 when a has none). */
export function overlap(a: readonly string[], b: ReadonlySet<string>): number {
  const set = new Set(a);
  if (!set.size) return 0;
  let hit = 0;
  for (const w of set) if (b.has(w)) hit++;
  return hit / set.size;
}

/** Splits after each punctuation mark in `marks` that is followed by whitespace, keeping the mark
 * with the piece before it (what a lookbehind would do; iOS before 16.4 has no lookbehind). */
export function splitAfter(text: string, marks: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (let i = 0; i < text.length - 1; i++) {
    if (marks.includes(text[i] as string) && /\s/.test(text[i + 1] as string)) {
      out.push(text.slice(start, i + 1));
      let j = i + 1;
      while (j < text.length && /\s/.test(text[j] as string)) j++;
      start = j;
      i = j - 1;
    }
  }
  out.push(text.slice(start));
  return out.filter((p) => p.length > 0);
}

/** True when a text's markup is balanced, so it can stand on a line of its own: an even number of
 * `**` and of backticks, as many `[[` as `]]`, `[` as `]` and `(` as `)`. A sentence cut out of a
 * bold run or a link ("A Brief History of Humankind** by …") fails. */
export function balancedMarkup(text: string): boolean {
  let bold = 0;
  let ticks = 0;
  let square = 0;
  let round = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 42 && text.charCodeAt(i + 1) === 42) {
      bold++;
      i++;
    } else if (c === 96) ticks++;
    else if (c === 91) square++;
    else if (c === 93) square--;
    else if (c === 40) round++;
    else if (c === 41) round--;
  }
  return bold % 2 === 0 && ticks % 2 === 0 && square === 0 && round === 0;
}

/** Whether a text can stand on a summary line of its own: markup balanced, not a lead-in whose
 * announced content is elsewhere, not a table row (its " | " would read as separate items). The
 * one rule every extracted line (facts, task lines, sections, errors, fixes) is held to. */
export function standsAlone(text: string): boolean {
  return !isLeadIn(text) && !text.includes(' | ') && balancedMarkup(text);
}

/** A lead-in: a line that announces what follows it ("Let me test this:", "Two things to try:"),
 * which says nothing once what it announced is gone. */
export function isLeadIn(text: string): boolean {
  // (Read backwards from the end — spaces, then closing marks, then the colon — rather than by
  // /[:：]["'”’)\]*_`]*\s*$/u, which is tried at every colon of the text.)
  let i = text.length - 1;
  while (i >= 0 && isSpaceCode(text.charCodeAt(i))) i--;
  while (i >= 0 && LEAD_IN_CLOSERS.includes(text[i] as string)) i--;
  const c = text.charCodeAt(i);
  return c === 58 || c === 0xff1a;
}
const LEAD_IN_CLOSERS = '"\'”’)]*_`';

/** Prose pasted with its line breaks escaped ("…INFO BLOCK ##\\n\\nmy next prompt …", a JSON
 * string) with real ones: read as one line, a sentence ran across its paragraphs. Twice at least,
 * and not where code is fenced ("\\n" is code's own there). */
export function unescapedBreaks(content: string): string {
  if (!content.includes('\\n') || content.includes('```') || (content.match(/\\n/g)?.length ?? 0) < 2) return content;
  return content.replace(/\\n/g, '\n');
}
