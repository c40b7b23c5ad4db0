// The word scan: one walk over a sentence that files its words in the vocabulary (vocab.ts) as
// ranking keys, with the flags and counts the sentence pass reads in the same walk (content words,
// markup characters). By char code, no regex split and no per-word regex: it runs over every
// removed sentence.
import { CJK_TEXT, FIRST, STOP, firstSight, hideableFlags, flagsOf, hashStep, internRange, internWord, startMarking, wordOf } from './vocab';

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
let scannedAlone = true;

/** 1 for markup and code punctuation: {}()<>=$|\\ and backtick. */
const CODE_PUNCT = new Uint8Array(128);
for (const ch of '{}()<>=$|\\`') CODE_PUNCT[ch.charCodeAt(0)] = 1;

/** 1 for the characters balancedMarkup counts (* ` [ ] ( )) and the pipe of a table row. */
const MARKUP_MARK = new Uint8Array(128);
for (const ch of '*`[]()|') MARKUP_MARK[ch.charCodeAt(0)] = 1;

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
  // balancedMarkup's counts (text.ts) and a table row's " | ", read in the same walk: whether the
  // sentence's markup lets it stand on a line of its own (`standsAlone`, asked of every sentence).
  let bold = 0;
  let ticks = 0;
  let square = 0;
  let round = 0;
  let piped = false;
  let i = 0;
  while (i < n) {
    let c = src.charCodeAt(i);
    // Apostrophes are dropped, joining what surrounds them ("don't" → "dont").
    if (c < 0x80) {
      if (ASCII_WORD[c] === 0) {
        if (c === 32 || c === 9 || c === 10) {
          if (i > 0 && src.charCodeAt(i - 1) !== 32) words++;
        } else {
          punct += CODE_PUNCT[c] as number;
          if (MARKUP_MARK[c] === 1) {
            if (c === 42) {
              // ("**" counts once and is passed whole, as balancedMarkup reads it.)
              if (src.charCodeAt(i + 1) === 42) {
                bold++;
                i++;
              }
            } else if (c === 96) ticks++;
            else if (c === 91) square++;
            else if (c === 93) square--;
            else if (c === 40) round++;
            else if (c === 41) round--;
            else if (c === 124 && src.charCodeAt(i - 1) === 32 && src.charCodeAt(i + 1) === 32) piped = true;
          }
        }
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
  scannedAlone = !piped && bold % 2 === 0 && ticks % 2 === 0 && square === 0 && round === 0;
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
  /** `balancedMarkup(text) && !text.includes(' | ')`: what `standsAlone` asks besides the end. */
  alone: boolean;
}

/** Distinct ranking keys of a text as vocabulary ids, with what the same walk counted. The ids
 * array is allocated at its final length (no growth while pushing: this runs once per removed
 * sentence); the returned object is shared scratch, overwritten by the next call. */
const lastScan: WordScan = { ids: [], count: 0, flags: 0, words: 0, punct: 0, alone: true };

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
  lastScan.alone = scannedAlone;
  return lastScan;
}

