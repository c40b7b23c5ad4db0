// Text helpers for extraction and rendering: sentence splitting, word keys for ranking, and
// truncation that never cuts a word or a surrogate pair. Regex-only (no Intl.Segmenter on the hot
// path): compaction must stay within a few passes over the text, on mobile too.
import { CJK_TEXT, FIRST, STOP, firstSight, hideableFlags, flagsOf, hashStep, internRange, internWord, startMarking, wordOf } from './vocab';

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

/** Collapses whitespace runs (including newlines) to single spaces and trims. */
export function squash(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
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
/** The word before a full stop that ends a piece ("… see e.g." → "e.g"). */
const LAST_WORD = /(?:^|[\s(["'“‘])([\p{L}.]+)\.$/u;
/** An initial ("J.K. Rowling", "George R. R. Martin"): a lone capital and a dot end no sentence. */
const INITIAL = /(?:^|[\s.])\p{Lu}\.$/u;

/** True when `piece` ends with an abbreviation or an initial rather than a sentence; `next` is the
 * character after the space that follows it. */
function endsWithAbbreviation(piece: string, next: number): boolean {
  if (piece.charCodeAt(piece.length - 1) !== 46) return false;
  // A list number inside emphasis ("**1. The Cookbook** by …") starts an item, not a sentence.
  if (INITIAL.test(piece) || /^[*_]*\d{1,3}\.$/.test(piece)) return true;
  const m = LAST_WORD.exec(piece);
  if (!m) return false;
  const word = (m[1] ?? '').toLowerCase();
  return ABBREVIATIONS.has(word) || (next >= 48 && next <= 57 && BEFORE_NUMBER.has(word));
}

/** Ranges of a line that a sentence end never falls inside: `[[wikilinks]]`, `[text](target)`
 * links and `` `code` `` spans. Empty for the many lines with no bracket or backtick. */
function protectedRanges(line: string): number[] {
  if (!line.includes('[') && !line.includes('`')) return NO_RANGES;
  const out: number[] = [];
  const re = /\[\[[^\]\n]*\]\]|\[[^\]\n]*\]\([^)\n]*\)|(`+)[^`\n]*?\1/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(line))) out.push(m.index, m.index + m[0].length);
  return out;
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

// Word characters: ASCII letters and digits, and the letter blocks of other scripts (Latin-1 to
// Greek extended, Cyrillic …, CJK, Hangul, full-width letters); punctuation blocks are separators.
// Tested by char code in one scan (no regex split, no per-word regex): this runs over every
// removed sentence.
function isWordCode(c: number): boolean {
  if (c < 0x80) return (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 95 || (c >= 65 && c <= 90);
  return (
    (c >= 0xc0 && c <= 0x1fff) ||
    (c >= 0x2c00 && c <= 0x2dff) ||
    (c >= 0x3040 && c <= 0xd7ff) ||
    (c >= 0xf900 && c <= 0xfaff) ||
    (c >= 0xff10 && c <= 0xff19) ||
    (c >= 0xff21 && c <= 0xff3a) ||
    (c >= 0xff41 && c <= 0xff5a)
  );
}

/** Kana and CJK ideographs (not Hangul, which spaces its words). */
function isCjkCode(c: number): boolean {
  return (c >= 0x3040 && c <= 0x30ff) || (c >= 0x3400 && c <= 0x4dbf) || (c >= 0x4e00 && c <= 0x9fff) || (c >= 0xf900 && c <= 0xfaff);
}

/** True for a character at or above U+00C0 that lowercasing might change: everything but the
 * caseless blocks chat text is full of (general punctuation, CJK and kana, Hangul). Text holding
 * one is lowercased whole first; other text has its ASCII capitals lowered as it is read. */
function mayHaveCase(c: number): boolean {
  return !(
    (c >= 0x2000 && c <= 0x206f) || // general punctuation
    (c >= 0x2190 && c <= 0x23ff) || // arrows, mathematical and technical symbols
    (c >= 0x2500 && c <= 0x2bff) || // box drawing, shapes, dingbats
    (c >= 0x3000 && c <= 0x9fff) || // CJK punctuation, kana, ideographs
    (c >= 0xac00 && c <= 0xd7af) || // Hangul
    (c >= 0xd83c && c <= 0xd83e) || // emoji (high surrogates)
    (c >= 0xdc00 && c <= 0xdfff) || // low surrogates: their high surrogate decided
    (c >= 0xf900 && c <= 0xfaff) ||
    (c >= 0xfe00 && c <= 0xfe0f) // variation selectors
  );
}

/** 1 for the ASCII characters {@link isWordCode} accepts (capitals included: they are lowered). */
const ASCII_WORD = new Uint8Array(128);
for (let c = 0; c < 128; c++) ASCII_WORD[c] = isWordCode(c) ? 1 : 0;

const lowerCode = (c: number): number => (c >= 65 && c <= 90 ? c + 32 : c);

// The last scan's output: the ids of its ranking keys in order (repeats included), the flags of
// every word it read (stopwords included), and what the sentence pass counts in the same walk.
// Module-private scratch, reused by every scan.
let scanned = new Int32Array(256);
let scannedCount = 0;
let scannedFlags = 0;
let scannedWords = 0;
let scannedPunct = 0;

/** 1 for markup and code punctuation: {}()<>=$|\\ and backtick. */
const CODE_PUNCT = new Uint8Array(128);
for (const ch of '{}()<>=$|\\`') CODE_PUNCT[ch.charCodeAt(0)] = 1;

/** Markup and code punctuation characters in a text ({}()<>=$|\\ and backtick). */
export function markupCount(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 128) n += CODE_PUNCT[c] as number;
  }
  return n;
}

/** The characters {@link wordCount} counts as a word each. */
const countsAsWord = (c: number): boolean => c >= 0x3040 && (c <= 0x30ff || (c >= 0x3400 && c <= 0x9fff) || (c >= 0xf900 && c <= 0xfaff));

function emit(id: number): void {
  if (scannedCount === scanned.length) {
    const next = new Int32Array(scanned.length * 2);
    next.set(scanned);
    scanned = next;
  }
  scanned[scannedCount++] = id;
}

/** Emits a word unless it is one letter or a stopword (its flags are noted either way). */
function emitWord(id: number, length: number): void {
  const f = flagsOf(id);
  scannedFlags |= f;
  if (length > 1 && !(f & STOP)) emit(id);
}

/** Hash of `src[start, end)` as {@link internRange} files it (ASCII capitals lowered). */
function hashRange(src: string, start: number, end: number): number {
  let h = 0;
  for (let k = start; k < end; k++) h = hashStep(h, lowerCode(src.charCodeAt(k)));
  return h;
}

/** Emits `src[start, end)`, a word holding CJK, as its CJK runs' character bigrams (a lone
 * character alone) and its other runs as plain words, straight from the source (no slices). */
function emitCjkWord(src: string, start: number, end: number, lowerAscii: boolean): void {
  let i = start;
  while (i < end) {
    const cjk = isCjkCode(src.charCodeAt(i));
    let j = i + 1;
    while (j < end && isCjkCode(src.charCodeAt(j)) === cjk) j++;
    if (cjk) {
      if (j - i === 1) emit(internRange(src, i, j, hashRange(src, i, j), false));
      for (let k = i; k + 1 < j; k++) emit(internRange(src, k, k + 2, hashRange(src, k, k + 2), false));
    } else if (j - i > 1) emitWord(internRange(src, i, j, hashRange(src, i, j), lowerAscii), j - i);
    i = j;
  }
}

/** Scans `src` (see {@link scanWords}); false when it meets a character that needs full
 * lowercasing while `lowerAscii` is on (the caller lowercases and scans again). */
function scanSource(src: string, lowerAscii: boolean): boolean {
  const n = src.length;
  // wordCount's tally: one word, plus one per space, tab or newline not after a space, plus one
  // per CJK character (the sentence pass hands in trimmed text).
  let words = n > 0 ? 1 : 0;
  let punct = 0;
  let i = 0;
  while (i < n) {
    let c = src.charCodeAt(i);
    // Apostrophes are dropped, joining what surrounds them ("don't" → "dont").
    if (c < 0x80) {
      if (ASCII_WORD[c] === 0) {
        if (c === 32 || c === 9 || c === 10) {
          if (i > 0 && src.charCodeAt(i - 1) !== 32) words++;
        } else punct += CODE_PUNCT[c] as number;
        i++;
        continue;
      }
    } else {
      if (c >= 0xc0 && lowerAscii && mayHaveCase(c)) return false;
      if (c === 0x2019 || !isWordCode(c)) {
        i++;
        continue;
      }
    }
    const start = i;
    let h = 0;
    // Fast path: a run of ASCII letters, digits and underscores (most words), hashed as it goes.
    while (c < 0x80 && ASCII_WORD[c] === 1) {
      h = hashStep(h, lowerCode(c));
      if (++i >= n) break;
      c = src.charCodeAt(i);
    }
    if (i >= n || (c < 0x80 && c !== 39)) {
      // The word ended on a separator: a plain word.
      if (i - start > 1) emitWord(internRange(src, start, i, h, lowerAscii), i - start);
      else if (lowerCode(src.charCodeAt(start)) === 105) scannedFlags |= FIRST; // "I"
      continue;
    }
    let pieces: string | null = null; // the word so far, when an apostrophe interrupted it
    let from = start;
    let hasCjk = false;
    // ASCII letters beside an apostrophe or a non-ASCII letter ("b'My", "éyou"): a pattern with
    // ASCII word boundaries may see a pronoun or cue word there that this word does not name, so
    // the sentence is marked as maybe holding any (its patterns are then tried).
    let asciiInside = i > start;
    for (;;) {
      if (c >= 0xc0 && lowerAscii && mayHaveCase(c)) return false;
      if (c < 0x80 && c !== 39) asciiInside = true;
      if (c === 39 || c === 0x2019) {
        pieces = (pieces ?? '') + src.slice(from, i);
        from = i + 1;
      } else if (!isWordCode(c)) break;
      else if (c >= 0x3040) {
        if (countsAsWord(c)) words++;
        if (!hasCjk && isCjkCode(c)) hasCjk = true;
      }
      h = hashStep(h, lowerCode(c));
      if (++i >= n) break;
      c = src.charCodeAt(i);
    }
    if (asciiInside) scannedFlags |= hideableFlags();
    if (hasCjk) scannedFlags |= CJK_TEXT;
    if (pieces === null) {
      if (hasCjk) emitCjkWord(src, start, i, lowerAscii);
      // A plain word that left ASCII ("café").
      else if (i - start > 1) emitWord(internRange(src, start, i, h, lowerAscii), i - start);
      continue;
    }
    // A word with apostrophes (rare): joined, then lowercased and read as a word of its own.
    let word = pieces + src.slice(from, i);
    if (lowerAscii) word = word.toLowerCase();
    if (hasCjk) emitCjkWord(word, 0, word.length, false);
    else if (word.length > 1) emitWord(internWord(word), word.length);
    else if (word === 'i') scannedFlags |= FIRST; // "I’"
  }
  scannedWords = words;
  scannedPunct = punct;
  return true;
}

/**
 * Reads the ranking keys of a text into the scan buffer: lowercased words (apostrophes dropped),
 * stopwords and one-letter words dropped; a CJK run (no spaces between words) yields its character
 * bigrams, a tokenizer-free stand-in for words that is the same on every platform, so ranking
 * stays deterministic. One scan of the text, lowercasing ASCII as it reads (the whole text is
 * lowercased first only when it holds other cased letters). Returns the number of keys.
 */
function scanWords(text: string): number {
  scannedCount = 0;
  scannedFlags = 0;
  if (!scanSource(text, true)) {
    scannedCount = 0;
    scannedFlags = 0;
    scanSource(text.toLowerCase(), false);
  }
  return scannedCount;
}

/** Ranking keys of a text, as words (see {@link scanWords}). */
export function contentWords(text: string): string[] {
  const n = scanWords(text);
  const out: string[] = new Array<string>(n);
  for (let i = 0; i < n; i++) out[i] = wordOf(scanned[i] as number);
  return out;
}

/** What {@link wordIds} counted besides the ids, in the same walk over the text. */
export interface WordScan {
  /** Distinct ranking keys as vocabulary ids, first-seen order (an array of exactly that length). */
  ids: number[];
  /** Keys with repeats (what `contentWords(text).length` is). */
  count: number;
  /** Flags (vocab.ts) of every word read, stopwords included. */
  flags: number;
  /** {@link wordCount} of the text, when it is trimmed. */
  words: number;
  /** Markup and code punctuation characters ({}()<>=$|\\ and backtick). */
  punct: number;
}

/** Distinct ranking keys of a text as vocabulary ids, with what the same walk counted. The ids
 * array is allocated at its final length (no growth while pushing: this runs once per removed
 * sentence); the returned object is shared scratch, overwritten by the next call. */
const lastScan: WordScan = { ids: [], count: 0, flags: 0, words: 0, punct: 0 };

export function wordIds(text: string): WordScan {
  const n = scanWords(text);
  startMarking();
  let distinct = 0;
  for (let i = 0; i < n; i++) {
    const id = scanned[i] as number;
    if (firstSight(id)) scanned[distinct++] = id;
  }
  const ids = new Array<number>(distinct);
  for (let i = 0; i < distinct; i++) ids[i] = scanned[i] as number;
  lastScan.ids = ids;
  lastScan.count = n;
  lastScan.flags = scannedFlags;
  lastScan.words = scannedWords;
  lastScan.punct = scannedPunct;
  return lastScan;
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
  if (isAscii(text)) return text.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

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
  return /[:：]["'”’)\]*_`]*\s*$/u.test(text);
}
