// What a fact candidate's words weigh: their rarity over the conversation (IDF over the candidate
// sentences and carried facts; common English words count little), weighted up for names, numbers
// and code symbols, and the boost a focus text gives the sentences sharing its words. Words arrive
// as vocabulary ids; the weights are typed arrays indexed by them, computed once per compaction.
import type { Sentence } from './extract-sentences';
import { isCapitalised, markCapitalised } from './capitalised';
import { wordIds } from './word-scan';
import { GENERIC, NUMERIC, flagsOf, wordOf } from './vocab';

/** Weight of numbers and capitalised names (not at a sentence start): dates, places, people. */
export const NAME_WEIGHT = 2.5;
/** Weight of common words (see GENERIC_WORDS) against their rarity in the conversation. */
const GENERIC_WEIGHT = 0.3;
/** Weight of code symbols, named in the original case. */
const CODE_WEIGHT = 1.3;

/** camelCase, snake_case, calls and members: the text names code symbols. */
const CODE_SYMBOL = /[a-z][A-Z]|_|\(\)|\.[a-z]/;

/** Distinct ranking keys of a text as vocabulary ids, first-seen order. */
export function idsOf(text: string): number[] {
  return wordIds(text).ids;
}

/** Which of a text's words weigh as names or numbers (NAME_MARK) and as code symbols (CODE_MARK):
 * the text's own, so worked out once per word list (a sentence's is the same array in every
 * compaction of its message; see sentence-memo.ts for the other answers kept with a sentence).
 * Read ahead for every fact sentence as its message arrives, so kept small: a bit per word in
 * two numbers (a typed array per sentence was a fifth of what reading a conversation ahead kept,
 * and the garbage collector copies all of it), a byte per word only past {@link PACKED_WORDS}. */
export const NAME_MARK = 1;
export const CODE_MARK = 2;
/** Words whose marks fit the two bit masks (bits 0–30 of a small integer). */
const PACKED_WORDS = 31;
export interface WordMarks {
  text: string;
  /** Bit i: word i weighs as a name or number (up to PACKED_WORDS words). */
  names: number;
  /** Bit i: word i is a code symbol. */
  code: number;
  /** The marks a byte per word, for a text of more words than the masks hold; else null. */
  wide: Uint8Array | null;
}
const markCache = new WeakMap<readonly number[], WordMarks>();
/** The marks of `text` with its ids `ids`; kept with the word list, or on the sentence `s` when
 * they are its own text and list (`Sentence.marks`: a field, not a WeakMap entry per sentence —
 * adding one to a WeakMap cost more than reading the marks). */
export function wordMarks(text: string, ids: readonly number[], s?: Sentence): WordMarks {
  if (s !== undefined && s.ids === ids && s.text === text) {
    const own = s.marks as WordMarks | null;
    if (own !== null && own.text === text) return own;
    return (s.marks = marksOf(text, ids));
  }
  const hit = markCache.get(ids);
  if (hit && hit.text === text) return hit;
  const marks = marksOf(text, ids);
  markCache.set(ids, marks);
  return marks;
}

function marksOf(text: string, ids: readonly number[]): WordMarks {
  markCapitalised(text);
  const codeSymbols = CODE_SYMBOL.test(text);
  const wide = ids.length > PACKED_WORDS ? new Uint8Array(ids.length) : null;
  let names = 0;
  let code = 0;
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i] as number;
    let mark = 0;
    if (flagsOf(id) & NUMERIC || isCapitalised(id)) mark = NAME_MARK;
    if (codeSymbols && wordOf(id).includes('_')) mark |= CODE_MARK;
    if (wide) wide[i] = mark;
    else {
      if (mark & NAME_MARK) names |= 1 << i;
      if (mark & CODE_MARK) code |= 1 << i;
    }
  }
  return { text, names, code, wide };
}

/** Word i's marks (NAME_MARK, CODE_MARK). */
export function markOf(marks: WordMarks, i: number): number {
  if (marks.wide) return marks.wide[i] as number;
  return ((marks.names >>> i) & 1) * NAME_MARK + ((marks.code >>> i) & 1) * CODE_MARK;
}

/** The words' rarity: `weights[id]` for every word of the counted texts (read directly by the
 * prefilter), `idf(id)` for any word (one in no counted text weighs as if seen once). */
export interface WordRarity {
  weights: Float64Array;
  idf: (id: number) => number;
}

/** Document frequency over the usable sentences and the carried facts (by their ids), as weights. */
export function wordRarity(usable: readonly Sentence[], carriedIds: readonly (readonly number[])[], vocab: number): WordRarity {
  const df = new Int32Array(vocab);
  const touched: number[] = [];
  let docs = 0;
  const count = (ids: readonly number[]): void => {
    docs++;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i] as number;
      const n = df[id] as number;
      if (n === 0) touched.push(id);
      df[id] = n + 1;
    }
  };
  for (let i = 0; i < usable.length; i++) count((usable[i] as Sentence).ids);
  for (const ids of carriedIds) count(ids);
  // Weights computed once per distinct word: the ranking looks words up many times.
  const weights = new Float64Array(df.length);
  for (const id of touched) weights[id] = Math.log(1 + docs / (df[id] as number)) * (flagsOf(id) & GENERIC ? GENERIC_WEIGHT : 1);
  const unseen = Math.log(1 + docs);
  // Words first met after the counting (in a clause's or a carried fact's text) were in no sentence.
  const idf = (id: number): number => (id < weights.length && (df[id] as number) > 0 ? (weights[id] as number) : unseen * (flagsOf(id) & GENERIC ? GENERIC_WEIGHT : 1));
  return { weights, idf };
}

/** A text's words' weights, index for index with `ids`: rarity, names and code symbols weighted up. */
export function weigher(idf: (id: number) => number): (text: string, ids: readonly number[], s?: Sentence) => number[] {
  return (text, ids, s) => {
    const marks = wordMarks(text, ids, s);
    const out = new Array<number>(ids.length);
    for (let i = 0; i < ids.length; i++) {
      let weight = idf(ids[i] as number);
      const mark = markOf(marks, i);
      if (mark & NAME_MARK) weight *= NAME_WEIGHT;
      // Code symbols (camelCase, snake_case, calls) are named in the original case.
      if (mark & CODE_MARK) weight *= CODE_WEIGHT;
      out[i] = weight;
    }
    return out;
  };
}

/** The boost of a text sharing the focus's words (`focusIds`): 1 without a focus, up to 3. */
export function focusBooster(focusIds: ReadonlySet<number>): (ids: readonly number[]) => number {
  return (ids) => {
    if (!focusIds.size) return 1;
    let hit = 0;
    for (const id of ids) if (focusIds.has(id)) hit++;
    return 1 + (2 * hit) / focusIds.size;
  };
}
