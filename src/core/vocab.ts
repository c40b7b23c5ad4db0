// The word table: every ranking key (a lowercased word, or a CJK bigram) seen during compaction
// gets one small integer id, found by a hash of its characters. The sentence pass stores a
// sentence's words as ids, so ranking counts and weighs them in typed arrays instead of hashing
// strings, and a word that occurs a thousand times is one string, not a thousand.
//
// Module-private state, owned here. It grows while messages are read (a compaction, or
// `prepareMessage` as they arrive) and is cleared only when a compaction starts with it past
// VOCAB_LIMIT words (`resetVocabIfFull`, called by the sentence pass before it reads anything): an
// id stays valid for the whole compaction that took it. Ids cached with a message carry the
// generation they were taken in. Output never depends on the table, only speed and memory do.
import { GENERIC_WORDS, STOPWORDS } from './words';

/** Flags of a word (bit set). */
export const STOP = 1;
/** Holds a digit (numbers, dates, versions) or is a number spelled out: ranked like names. */
export const NUMERIC = 2;
/** One of GENERIC_WORDS (counted at a fraction of its weight). */
export const GENERIC = 4;
/** A first-person word ("I", "I'm", "my", "me", "mine"): the sentence may be about the speaker. */
export const FIRST = 8;
/** A second-person word ("you", "your", "you're" …). */
export const SECOND = 16;
/** "my" or "our". */
export const POSSESSIVE = 32;
/** Set by the scanner (on no word) when the text holds CJK or kana. */
export const CJK_TEXT = 64;

const FIRST_WORDS = ['i', 'im', 'ive', 'id', 'ill', 'my', 'me', 'mine'];
const SECOND_WORDS = ['you', 'your', 'youre', 'youve', 'youll', 'youd'];
const POSSESSIVE_WORDS = ['my', 'our'];

/** Words past which the table is cleared before the next compaction. */
const VOCAB_LIMIT = 200_000;

let bits = 12;
let slots = new Int32Array(1 << bits).fill(-1);
let words: string[] = [];
let hashes = new Int32Array(1 << (bits - 1));
let flags = new Uint32Array(1 << (bits - 1));
let generation = 0;

/** The hash the table files a word under (the scanner in word-scan.ts computes the same as it reads). */
export function hashStep(h: number, c: number): number {
  return (Math.imul(h, 31) + c) | 0;
}

function hashOf(w: string): number {
  let h = 0;
  for (let i = 0; i < w.length; i++) h = hashStep(h, w.charCodeAt(i));
  return h;
}

// Cue words: a pattern over sentence text (the summary rules) may name words that must occur for
// it to match; each such set gets a bit, and the pattern is tried only on text holding one.
const cueBits = new Map<string, number>();
let nextCue = 128;
/** The bits a word glued to other letters may hide from the scanner ("b'My", "éyou"). */
let hideable = FIRST | SECOND | POSSESSIVE;

/**
 * A new flag set on each of `words` (lowercase, whole words): text whose scan lacks it holds none
 * of them. For patterns that cannot match without one of these words (with ASCII word boundaries).
 */
export function defineCue(words: readonly string[]): number {
  if (nextCue > 2 ** 30) throw new Error('too many cue word sets');
  const bit = nextCue;
  nextCue *= 2;
  hideable |= bit;
  for (const w of words) {
    cueBits.set(w, (cueBits.get(w) ?? 0) | bit);
    const id = lookupWord(w);
    if (id >= 0) flags[id] = (flags[id] as number) | bit;
  }
  return bit;
}

/** Flags a word may hide when the scanner reads it glued to other letters: pronouns and cues. */
export function hideableFlags(): number {
  return hideable;
}

/** Numbers spelled out: a quantity ("three months", "twice a week") is as much a fact as "3". */
const NUMBER_WORDS = new Set(
  'two three four five six seven eight nine ten eleven twelve fifteen twenty thirty forty fifty hundred thousand dozen twice half'.split(' '),
);

function flagsFor(w: string): number {
  let f = cueBits.get(w) ?? 0;
  if (STOPWORDS.has(w)) f |= STOP;
  if (GENERIC_WORDS.has(w)) f |= GENERIC;
  if (FIRST_WORDS.includes(w)) f |= FIRST;
  if (SECOND_WORDS.includes(w)) f |= SECOND;
  if (POSSESSIVE_WORDS.includes(w)) f |= POSSESSIVE;
  if (NUMBER_WORDS.has(w)) f |= NUMERIC;
  for (let i = 0; i < w.length; i++) {
    const c = w.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      f |= NUMERIC;
      break;
    }
  }
  return f;
}

function grow(): void {
  bits++;
  slots = new Int32Array(1 << bits).fill(-1);
  const mask = (1 << bits) - 1;
  for (let e = 0; e < words.length; e++) {
    let p = (hashes[e] as number) & mask;
    while (slots[p] !== -1) p = (p + 1) & mask;
    slots[p] = e;
  }
  const h = new Int32Array(1 << (bits - 1));
  h.set(hashes.subarray(0, words.length));
  hashes = h;
  const f = new Uint32Array(1 << (bits - 1));
  f.set(flags.subarray(0, words.length));
  flags = f;
}

/** Id of `source[start, end)` lowercased, whose hash is `h`; added if new. `lowerAscii` says the
 * source still holds ASCII capitals to lower as it is read (the scanner's fast path); otherwise
 * it is already lowercase. */
export function internRange(source: string, start: number, end: number, h: number, lowerAscii: boolean): number {
  const mask = (1 << bits) - 1;
  const len = end - start;
  let p = h & mask;
  for (;;) {
    const e = slots[p] as number;
    if (e === -1) break;
    if (hashes[e] === h) {
      const w = words[e] as string;
      if (w.length === len) {
        let k = 0;
        if (lowerAscii) {
          for (; k < len; k++) {
            let c = source.charCodeAt(start + k);
            if (c >= 65 && c <= 90) c += 32;
            if (w.charCodeAt(k) !== c) break;
          }
        } else while (k < len && w.charCodeAt(k) === source.charCodeAt(start + k)) k++;
        if (k === len) return e;
      }
    }
    p = (p + 1) & mask;
  }
  const raw = source.slice(start, end);
  const w = lowerAscii ? raw.toLowerCase() : raw;
  const e = words.length;
  words.push(w);
  hashes[e] = h;
  flags[e] = flagsFor(w);
  slots[p] = e;
  // Grown when half full: `hashes` and `flags` hold half as many entries as `slots`, so the next
  // id must fit them (growing one word later wrote that word's hash and flags past their end,
  // where a typed array drops them: the word was then never found again, and interned a second
  // time under another id, as whichever word happened to land there).
  if (words.length * 2 >= slots.length) grow();
  return e;
}

/** Id of a (lowercase) word; added if new. */
export function internWord(w: string): number {
  return internRange(w, 0, w.length, hashOf(w), false);
}

/** Id of a (lowercase) word, or -1 when the table does not hold it. */
export function lookupWord(w: string): number {
  const h = hashOf(w);
  const mask = (1 << bits) - 1;
  for (let p = h & mask; ; p = (p + 1) & mask) {
    const e = slots[p] as number;
    if (e === -1) return -1;
    if (hashes[e] === h && words[e] === w) return e;
  }
}

export function wordOf(id: number): string {
  return words[id] as string;
}

export function flagsOf(id: number): number {
  return flags[id] as number;
}

/** Whether a word says something of its own: neither a stopword nor one of the common words. */
export function isContentWord(id: number): boolean {
  return !(flagsOf(id) & (STOP | GENERIC));
}

/** Number of ids handed out: arrays indexed by id are this long. */
export function vocabSize(): number {
  return words.length;
}

/** Changes whenever the table is cleared: ids kept from an older generation are stale. */
export function vocabGeneration(): number {
  return generation;
}

/** Clears the table if it has grown past VOCAB_LIMIT. Called only between compactions. */
export function resetVocabIfFull(): void {
  if (words.length <= VOCAB_LIMIT) return;
  bits = 12;
  slots = new Int32Array(1 << bits).fill(-1);
  words = [];
  hashes = new Int32Array(1 << (bits - 1));
  flags = new Uint32Array(1 << (bits - 1));
  generation++;
  marks = new Int32Array(0);
}

// Marks by id, for de-duplicating a list of ids without a Set: `startMarking()` opens a pass,
// `firstSight(id)` is true the first time an id is seen in it.
let marks = new Int32Array(0);
let pass = 0;

export function startMarking(): void {
  if (marks.length < words.length) {
    const m = new Int32Array(Math.max(words.length * 2, 1024));
    m.set(marks);
    marks = m;
  }
  if (++pass === 0x3fffffff) {
    marks.fill(0);
    pass = 1;
  }
}

export function firstSight(id: number): boolean {
  if (id >= marks.length) {
    // Added since the pass started (a new word is always a first sight).
    const m = new Int32Array(Math.max(id * 2, 1024));
    m.set(marks);
    marks = m;
  }
  if (marks[id] === pass) return false;
  marks[id] = pass;
  return true;
}
