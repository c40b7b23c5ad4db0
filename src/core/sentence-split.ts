// A text cut into its sentences (`splitSentences`): at terminal punctuation followed by whitespace and
// something sentence-like, or at CJK terminal punctuation; never after an abbreviation or an
// initial, nor inside a link or a code span (`protectedRanges`). Pure.
import { isSpaceCode } from './text';

// Sentence ends: terminal punctuation (with the quotes, brackets and emphasis marks that close
// around it) followed by whitespace and something sentence-like, or CJK terminal punctuation (no
// space needed). Dotted names (`os.path`, `v1.2`, `notes.md`, URLs) have no whitespace after the
// dot, so they never split; abbreviations and initials are checked below; links and code spans
// are never split inside.
const SENTENCE_END = /([.!?…]+["'”’)\]*_`]*)\s+(?=["'“‘([*_`]{0,3}[\p{Lu}\p{N}\p{Lo}])|([。！？]+)/gu;
/** Abbreviations that a full stop does not end a sentence after ("e.g. Paris", "et al. 2020",
 * "Dr. Smith"): lowercased, without their final dot. */
const ABBREVIATIONS = new Set('e.g i.e vs mr mrs ms dr prof st fig figs approx cf al u.s u.k a.k.a ph.d'.split(' '));
/** Abbreviations that end no sentence when a number follows ("No. 5", "Jan. 12", "pp. 4"), but
 * may end one otherwise ("I said no. Then …"). */
const BEFORE_NUMBER = new Set('no nos vol pp p ch sec jan feb mar apr jun jul aug sep sept oct nov dec'.split(' '));
/** Code units of the longest of both (lowercasing never shortens a word). */
const LONGEST_ABBREVIATION = Math.max(...[...ABBREVIATIONS, ...BEFORE_NUMBER].map((w) => w.length));
/** An initial ("J.K. Rowling", "George R. R. Martin"): a lone capital and a dot end no sentence. */
const INITIAL = /(?:^|[\s.])\p{Lu}\.$/u;

/** True when `piece` ends with an abbreviation or an initial rather than a sentence; `next` is the
 * character after the space that follows it. Read backwards from the final dot (what INITIAL and
 * the word before the final dot, `(?:^|[\s(["'“‘])([\p{L}.]+)\.$`, match — without running them over
 * the whole piece at every sentence end): patterns run only on the few code units at the end. */
function endsWithAbbreviation(piece: string, next: number): boolean {
  const n = piece.length;
  if (piece.charCodeAt(n - 1) !== 46) return false;
  // A list number inside emphasis ("**1. The Cookbook** by …") starts an item, not a sentence.
  if (endsWithInitial(piece) || /^[*_]*\d{1,3}\.$/.test(piece)) return true;
  const k = lastWordStart(piece);
  // (A word longer than any abbreviation is none: most sentence ends, read without a new string.)
  if (k < 0 || n - 1 - k > LONGEST_ABBREVIATION) return false;
  const word = piece.slice(k, n - 1).toLowerCase();
  return ABBREVIATIONS.has(word) || (next >= 48 && next <= 57 && BEFORE_NUMBER.has(word));
}

/** INITIAL on a piece ending in a dot: an ASCII capital before it needs no pattern; otherwise the
 * pattern reads the last four code units (a capital is at most two, plus what may precede it). */
function endsWithInitial(piece: string): boolean {
  const n = piece.length;
  const c = piece.charCodeAt(n - 2);
  if (c < 128) {
    if (c < 65 || c > 90) return false;
    const before = piece.charCodeAt(n - 3);
    return n === 2 || before === 46 || isSpaceCode(before);
  }
  return INITIAL.test(n > 4 ? piece.slice(n - 4) : piece);
}

/** A letter or a dot (what the last word's `[\p{L}.]` takes), at `i` of `text` (a whole code point). */
const LETTER_OR_DOT = /[\p{L}.]/uy;
/** Opening characters accepted before the last word. */
const WORD_OPENERS = '(["\'“‘';

/** Where the last word ("… see e.g." → "e.g") starts in a piece ending in a dot, or -1 when it does not match: the run
 * of letters and dots before the final dot, which must follow the start, a space or an opener. */
function lastWordStart(piece: string): number {
  let k = piece.length - 1;
  while (k > 0) {
    const c = piece.charCodeAt(k - 1);
    if (c < 128) {
      if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 46) k--;
      else break;
    } else {
      // A low surrogate is read with its high one, as the pattern reads code points.
      const pair = c >= 0xdc00 && c <= 0xdfff && k >= 2 && (piece.charCodeAt(k - 2) & 0xfc00) === 0xd800;
      LETTER_OR_DOT.lastIndex = pair ? k - 2 : k - 1;
      if (!LETTER_OR_DOT.test(piece)) break;
      k -= pair ? 2 : 1;
    }
  }
  if (k === piece.length - 1) return -1;
  if (k === 0) return 0;
  const before = piece.charCodeAt(k - 1);
  return isSpaceCode(before) || WORD_OPENERS.includes(piece[k - 1] as string) ? k : -1;
}

/** Ranges of a line that a sentence end never falls inside: `[[wikilinks]]`, `[text](target)`
 * links and `` `code` `` spans. Empty for the many lines with no bracket or backtick. */
export function protectedRanges(line: string): number[] {
  if (!line.includes('[') && !line.includes('`')) return NO_RANGES;
  // What `/\[\[[^\]\n]*\]\]|\[[^\]\n]*\]\([^)\n]*\)|(`+)[^`\n]*?\1/g` matches, found by a walk from
  // one bracket or backtick to the next (no match array per link: every line with a link and a
  // sentence end came here).
  const out: number[] = [];
  let bracket = line.indexOf('[');
  let tick = line.indexOf('`');
  let i = 0;
  while (bracket >= 0 || tick >= 0) {
    const at = bracket < 0 ? tick : tick < 0 ? bracket : Math.min(bracket, tick);
    const end = at === bracket ? linkEnd(line, at) : codeSpanEnd(line, at);
    i = end > 0 ? end : at + 1;
    if (end > 0) out.push(at, end);
    if (bracket >= 0 && bracket < i) bracket = line.indexOf('[', i);
    if (tick >= 0 && tick < i) tick = line.indexOf('`', i);
  }
  return out;
}

/** End of a `[[wikilink]]` or `[text](target)` opening at `i` (no `]` or newline inside the
 * brackets, no `)` or newline inside the parentheses), or -1. */
function linkEnd(line: string, i: number): number {
  if (line.charCodeAt(i + 1) === 91) {
    const j = scanUntil(line, i + 2, 93);
    if (line.charCodeAt(j) === 93 && line.charCodeAt(j + 1) === 93) return j + 2;
  }
  const j = scanUntil(line, i + 1, 93);
  if (line.charCodeAt(j) !== 93 || line.charCodeAt(j + 1) !== 40) return -1;
  const k = scanUntil(line, j + 2, 41);
  return line.charCodeAt(k) === 41 ? k + 1 : -1;
}

/** End of a code span opening at `i`: a run of backticks, text without a backtick or newline, the
 * same run again; as the pattern backtracks, a run with no closing run of its length closes on
 * its own second half (two of four backticks, one of three), or -1 for a lone one. */
function codeSpanEnd(line: string, i: number): number {
  let run = 0;
  while (line.charCodeAt(i + run) === 96) run++;
  const q = scanUntil(line, i + run, 96);
  if (line.charCodeAt(q) === 96) {
    let k = 0;
    while (k < run && line.charCodeAt(q + k) === 96) k++;
    if (k === run) return q + run;
  }
  const half = Math.floor(run / 2);
  return half > 0 ? i + 2 * half : -1;
}

/** First index from `i` holding `stop` or a newline (or the end). */
function scanUntil(line: string, i: number, stop: number): number {
  let j = i;
  while (j < line.length) {
    const c = line.charCodeAt(j);
    if (c === stop || c === 10) break;
    j++;
  }
  return j;
}

const NO_RANGES: number[] = [];

function inRanges(ranges: readonly number[], at: number): boolean {
  for (let i = 0; i < ranges.length; i += 2) if (at > (ranges[i] as number) && at < (ranges[i + 1] as number)) return true;
  return false;
}

/** Splits text into sentences: lines first (chat text uses newlines as separators), then sentence
 * punctuation. Empty pieces are dropped; pieces are trimmed. A piece starts where the text, a line
 * or a sentence starts and ends where its sentence ends, so every piece is a whole sentence. */
export function splitSentences(text: string): string[] {
  const out: string[] = [];
  for (const rawLine of text.includes('\n') ? text.split(/\n+/) : [text]) {
    const line = rawLine.trim();
    if (!line) continue;
    let start = 0;
    let ranges: number[] | null = null;
    SENTENCE_END.lastIndex = 0;
    // `test` rather than `exec`: no match array per sentence end (this runs over every removed
    // line). The match is read back from where it ended: punctuation then whitespace (the first
    // form; the whitespace run is all taken, as a non-space must follow it) or CJK punctuation.
    while (SENTENCE_END.test(line)) {
      const after = SENTENCE_END.lastIndex;
      let end = after;
      while (end > start && isSpaceCode(line.charCodeAt(end - 1))) end--;
      const spaced = end < after;
      const piece = line.slice(start, end).trim();
      if (spaced && endsWithAbbreviation(piece, line.charCodeAt(after))) continue;
      ranges ??= protectedRanges(line);
      if (ranges.length && inRanges(ranges, end)) continue;
      if (piece) out.push(piece);
      start = after;
    }
    const rest = line.slice(start).trim();
    if (rest) out.push(rest);
  }
  return out;
}
