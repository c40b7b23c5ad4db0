// The terms the ranked search (search.ts) indexes and looks up: Unicode words, lower-cased and
// NFKC-folded; runs of CJK characters (which have no spaces between words) as overlapping
// character bigrams, which need no dictionary and measured as well as Intl.Segmenter on the kit
// while costing nothing to load on mobile; English words lightly stemmed so "recommended",
// "recommends" and "recommendation" meet. Pure: no `obsidian`, no Node built-ins.

/** Han, Hiragana, Katakana and Hangul: scripts written without spaces between words. */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
/** Characters from the CJK radicals block up: a word without any cannot hold CJK. */
const MAYBE_CJK = /[\u2e80-\uffff]/;
/** A word: letters, digits and joining marks, kept with inner apostrophes stripped ("don't" → "dont"). */
export const WORD = /[\p{L}\p{N}\p{M}]+(?:['’][\p{L}]+)*/gu;

const ASCII = /^\p{ASCII}*$/u;

const isLetter = (c: number): boolean => c >= 97 && c <= 122;
const isAlnum = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 48 && c <= 57);

/** {@link WORD} over lower-cased ASCII text, by character codes (several times faster than the
 * Unicode regex on long texts): runs of letters and digits, each "'" followed by letters joined on
 * without it. */
function asciiWords(t: string, emit: (word: string) => void): void {
  const n = t.length;
  let i = 0;
  while (i < n) {
    if (!isAlnum(t.charCodeAt(i))) {
      i++;
      continue;
    }
    const start = i;
    while (i < n && isAlnum(t.charCodeAt(i))) i++;
    let word = t.slice(start, i);
    while (i + 1 < n && t.charCodeAt(i) === 39 && isLetter(t.charCodeAt(i + 1))) {
      const from = ++i;
      while (i < n && isLetter(t.charCodeAt(i))) i++;
      word += t.slice(from, i);
    }
    emit(word);
  }
}

export interface TermOptions {
  /** Light English stemming (default true); a plain BM25 turns it off. */
  stem?: boolean;
}

/** The terms of `text`, in order (a term per word, a bigram per pair of CJK characters). */
export function searchTerms(text: string, options: TermOptions = {}): string[] {
  const out: string[] = [];
  eachSearchTerm(text, options, (term) => out.push(term));
  return out;
}

/** `searchTerms` without the array: each term handed to `visit` in order (an index build counts
 * them as they come, and a list per message was most of what it allocated). */
export function eachSearchTerm(text: string, options: TermOptions, visit: (term: string) => void): void {
  const stem = options.stem !== false;
  // Plain ASCII (most English chat) is its own NFKC form and has no CJK: a simpler scan, same terms.
  if (ASCII.test(text)) {
    asciiWords(text.toLowerCase(), stem ? (word) => visit(cachedStem(word)) : visit);
    return;
  }
  const out: string[] = [];
  for (const match of text.normalize('NFKC').toLowerCase().matchAll(WORD)) {
    const raw = match[0];
    const word = raw.includes("'") || raw.includes('’') ? raw.replace(/['’]/g, '') : raw;
    // The cheap range test first: most words are Latin, and the script test is slow.
    if (!MAYBE_CJK.test(word) || !CJK.test(word)) {
      visit(stem ? cachedStem(word) : word);
      continue;
    }
    pushMixed(word, out, stem);
    for (const term of out) visit(term);
    out.length = 0;
  }
}

/** A word holding CJK characters: its CJK runs as bigrams (a lone character as itself), the
 * other runs ("iPhone15" inside Japanese text) as words. */
function pushMixed(word: string, out: string[], stem: boolean): void {
  let run = '';
  let other = '';
  const flushRun = (): void => {
    const chars = [...run];
    if (chars.length === 1) out.push(run);
    for (let i = 0; i + 1 < chars.length; i++) out.push(`${chars[i]}${chars[i + 1]}`);
    run = '';
  };
  const flushOther = (): void => {
    if (other) out.push(stem ? cachedStem(other) : other);
    other = '';
  };
  for (const ch of word) {
    if (CJK.test(ch)) {
      flushOther();
      run += ch;
    } else {
      if (run) flushRun();
      other += ch;
    }
  }
  if (run) flushRun();
  flushOther();
}

/** Stems already computed: a language's running text repeats a few thousand words, and stemming
 * was most of the time of indexing a folder of conversations. Cleared when full, so it stays
 * bounded whatever is indexed. */
const STEMS = new Map<string, string>();
const STEMS_MAX = 50_000;

/** {@link stemWord} through a bounded cache (what `searchTerms` stems with). */
export function cachedStem(word: string): string {
  // (A word of three letters or fewer is its own stem: no lookup for "the", "of", "and".)
  if (word.length <= 3) return word;
  let stem = STEMS.get(word);
  if (stem === undefined) {
    if (STEMS.size >= STEMS_MAX) STEMS.clear();
    stem = stemWord(word);
    STEMS.set(word, stem);
  }
  return stem;
}

/** Suffixes stripped, longest first, each with the shortest stem it may leave. */
const SUFFIXES: readonly [string, number, string][] = [
  ['ational', 3, 'ate'],
  ['ations', 3, 'ate'],
  ['ation', 3, 'ate'],
  ['ments', 3, ''],
  ['ment', 3, ''],
  ['ness', 3, ''],
  ['ingly', 3, ''],
  ['edly', 3, ''],
  ['ies', 2, 'y'],
  ['ied', 2, 'y'],
  ['ing', 3, ''],
  ['ers', 3, ''],
  ['er', 3, ''],
  ['ed', 3, ''],
  ['ly', 3, ''],
  ['es', 3, ''],
  ['s', 3, ''],
];

/** A light English stemmer (an s-stemmer with the commonest derivations): not Porter's, but it
 * maps the forms a question and an answer usually differ by onto one key. Words with digits or
 * non-Latin letters are left alone; a trailing "e" and a doubled final consonant are dropped so
 * "baking"/"bake" and "shopping"/"shop" meet. */
export function stemWord(word: string): string {
  if (word.length <= 3 || !/^[a-z]+$/.test(word)) return word;
  let w = word;
  if (w.endsWith('ss')) return w;
  for (const [suffix, min, add] of SUFFIXES) {
    if (w.endsWith(suffix) && w.length - suffix.length >= min) {
      w = w.slice(0, -suffix.length) + add;
      break;
    }
  }
  if (w.length > 3 && w.endsWith('e')) w = w.slice(0, -1);
  if (w.length > 3 && /([b-df-hj-np-tv-z])\1$/.test(w) && !/(ll|ss|zz)$/.test(w)) w = w.slice(0, -1);
  return w;
}
