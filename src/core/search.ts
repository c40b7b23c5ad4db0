// One ranked lexical search for the project (the conversation's compacted history, the vault's
// notes, the CLI): BM25 over an inverted index that grows one document at a time (adding costs
// O(that document's terms)), with removal, exact phrases in quotes, and ties broken by insertion
// order so the same query always gives the same list. Terms come from search-terms.ts. Pure.
import { MaxHeap } from './max-heap';
import { eachSearchTerm, searchTerms } from './search-terms';
import { STOPWORDS } from './words';

export interface SearchOptions<K = unknown> {
  /** BM25 term-frequency saturation (default 1.2). */
  k1?: number;
  /** BM25 length normalisation (default 0.75). */
  b?: number;
  /** Light English stemming (default true). */
  stem?: boolean;
  /** Weight of query words that carry no fact alone ("what", "did", "I"): 0 (the default) leaves
   * them out of a query that has other words, 1 counts them fully as a plain BM25 does. Between the
   * two they still tell "what did I say" from "what did you say" (see bench/search.mjs). */
  stopwordWeight?: number;
  /** The text a key was added with, for phrase checks, when the caller keeps it anyway (the
   * history tool keeps the messages): the index then stores no copy, about a third of its memory. */
  textOf?: (key: K) => string;
}

export interface SearchHit<K> {
  key: K;
  score: number;
}

interface Doc<K> {
  key: K;
  /** Field weight × terms, the length BM25 normalises by. */
  length: number;
  /** The text as added, lower-cased and folded, for phrase checks (null with `textOf`). */
  folded: string | null;
}

/** A query as parsed: the words to rank by, each with its weight, and the phrases every hit must
 * contain. */
export interface ParsedQuery {
  terms: string[];
  /** The weight of each of `terms` (1, or the stopword weight). */
  weights: number[];
  phrases: string[];
}

/** Splits `query` into ranking terms and "quoted phrases" (a phrase's words also rank). */
export function parseQuery(query: string, options: { stem?: boolean; stopwordWeight?: number } = {}): ParsedQuery {
  const phrases: string[] = [];
  const bare = query.replace(/["“”]([^"“”]+)["“”]/g, (_, phrase: string) => {
    if (phrase.trim()) phrases.push(fold(phrase).trim());
    return ` ${phrase} `;
  });
  const all = searchTerms(bare, options);
  const stopword = options.stopwordWeight ?? 0;
  // Stopwords are judged on the unstemmed word ("does" stems to "do").
  const raw = searchTerms(bare, { stem: false });
  const terms: string[] = [];
  const weights: number[] = [];
  all.forEach((term, i) => {
    const weight = STOPWORDS.has(raw[i] ?? '') ? stopword : 1;
    if (weight <= 0) return;
    terms.push(term);
    weights.push(weight);
  });
  // A query of stopwords only ("what was it") ranks by them.
  if (!terms.some((_, i) => weights[i] === 1)) return { terms: all, weights: all.map(() => 1), phrases };
  return { terms, weights, phrases };
}

/** Lower-cased, NFKC-folded, runs of spaces as one: what a phrase is matched against. */
function fold(text: string): string {
  // A phrase query folds every candidate's text: plain ASCII is its own NFKC form, and text with
  // single plain spaces only has no runs to collapse, so both steps are skipped when they would
  // change nothing (the result is the same).
  const lower = (ASCII.test(text) ? text : text.normalize('NFKC')).toLowerCase();
  return SPACE_RUN.test(lower) ? lower.replace(/\s+/g, ' ') : lower;
}

const ASCII = /^\p{ASCII}*$/u;

/** Whether a document holds every phrase (folded, as parseQuery gives them): against its folded
 * text when the index keeps one, else its raw text — plain ASCII text with a case-insensitive
 * pattern per phrase (a phrase's spaces match any run of whitespace: what folding does), with no
 * copy of the text made, other text folded first. */
export function phraseTest(phrases: readonly string[]): (folded: string | null, raw: () => string) => boolean {
  const patterns = phrases.map((p) => new RegExp(p.split(' ').map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s+'), 'i'));
  return (folded, raw) => {
    if (folded !== null) return phrases.every((p) => folded.includes(p));
    const text = raw();
    if (ASCII.test(text)) return patterns.every((re) => re.test(text));
    const f = fold(text);
    return phrases.every((p) => f.includes(p));
  };
}
/** Whitespace other than a single plain space. */
const SPACE_RUN = /[^\S ]| {2}/;

/** The `limit` best [slot, score] pairs with a score above 0, best first, ties by slot: a bounded
 * heap over one pass, O(slots × log limit). */
export function topSlots(scores: Float64Array, limit: number): [number, number][] {
  // The heap's top is the worst pair kept: lower score, or the same score and a later slot.
  const worse = (a: [number, number], b: [number, number]): number => b[1] - a[1] || a[0] - b[0];
  const heap = new MaxHeap<[number, number]>(worse);
  if (limit <= 0) return [];
  for (let slot = 0; slot < scores.length; slot++) {
    const score = scores[slot] as number;
    if (score <= 0) continue;
    if (heap.size < limit) heap.push([slot, score]);
    else if (worse(heap.peek() as [number, number], [slot, score]) > 0) {
      heap.pop();
      heap.push([slot, score]);
    }
  }
  const out: [number, number][] = [];
  while (heap.size) out.push(heap.pop() as [number, number]);
  return out.reverse();
}

export class SearchIndex<K> {
  private readonly docs: (Doc<K> | null)[] = [];
  private readonly slotIndex = new Map<K, number>();
  /** Each term's id, given once (a build looks a term up once per occurrence, not twice). */
  private readonly termIds = new Map<string, number>();
  /** term id → doc slots and term frequencies, interleaved [slot, tf, slot, tf, …]. */
  private readonly lists: (number[] | undefined)[] = [];
  private totalLength = 0;
  private live = 0;
  /** One document's term counts by term id while it is added, the ids it touched in first-seen
   * order, and which add last touched each id (reused: adding is the hot path of a build). */
  private counts = new Float64Array(1024);
  private marks = new Int32Array(1024);
  private readonly touched: number[] = [];
  private adds = 0;
  private readonly k1: number;
  private readonly b: number;
  private readonly stem: boolean;
  private readonly stopwordWeight: number;
  private readonly textOf: ((key: K) => string) | undefined;

  constructor(options: SearchOptions<K> = {}) {
    this.textOf = options.textOf;
    this.k1 = options.k1 ?? 1.2;
    this.b = options.b ?? 0.75;
    this.stem = options.stem ?? true;
    this.stopwordWeight = options.stopwordWeight ?? 0;
  }

  get size(): number {
    return this.live;
  }

  has(key: K): boolean {
    return this.slotIndex.has(key);
  }

  /** Adds a document: `fields` are texts with weights (a title counted twice, say). Re-adding a
   * key replaces it. Costs O(the document's terms). */
  add(key: K, fields: string | readonly { text: string; weight: number }[]): void {
    if (this.slotIndex.has(key)) this.remove(key);
    const list = typeof fields === 'string' ? [{ text: fields, weight: 1 }] : fields;
    const touched = this.touched;
    touched.length = 0;
    if (this.adds >= 0x7ffffffe) {
      this.marks.fill(0);
      this.adds = 0;
    }
    const mark = ++this.adds;
    let length = 0;
    const options = { stem: this.stem };
    for (const { text, weight } of list) {
      eachSearchTerm(text, options, (term) => {
        let id = this.termIds.get(term);
        if (id === undefined) {
          id = this.lists.length;
          this.termIds.set(term, id);
          this.lists.push(undefined);
          if (id >= this.counts.length) this.grow();
        }
        if (this.marks[id] !== mark) {
          this.marks[id] = mark;
          this.counts[id] = 0;
          touched.push(id);
        }
        this.counts[id] = (this.counts[id] as number) + weight;
        length += weight;
      });
    }
    const slot = this.docs.length;
    this.docs.push({ key, length, folded: this.textOf ? null : fold(list.map((f) => f.text).join('\n')) });
    this.slotIndex.set(key, slot);
    for (const id of touched) {
      const n = this.counts[id] as number;
      const postings = this.lists[id];
      if (postings) postings.push(slot, n);
      else this.lists[id] = [slot, n];
    }
    this.totalLength += length;
    this.live++;
  }

  /** Removes a document. Its postings are dropped lazily, when a search next reads them. */
  remove(key: K): void {
    const slot = this.slotIndex.get(key);
    if (slot === undefined) return;
    const doc = this.docs[slot];
    if (doc) this.totalLength -= doc.length;
    this.docs[slot] = null;
    this.slotIndex.delete(key);
    this.live--;
  }

  /** Scores every document holding a query term (BM25), keeps those containing every quoted
   * phrase, and returns the best `limit`, ties in insertion order. */
  search(query: string, limit = 10): SearchHit<K>[] {
    return this.hits(topSlots(this.scores(query), limit));
  }

  /** BM25 score by document slot (0: no query term, or a quoted phrase missing, or removed): one
   * number per slot ever used, so a query costs the postings it reads and one pass to rank, never
   * a sort of every match. */
  scores(query: string): Float64Array {
    const parsed = parseQuery(query, { stem: this.stem, stopwordWeight: this.stopwordWeight });
    const scores = new Float64Array(this.docs.length);
    if (!this.live) return scores;
    const avg = this.totalLength / this.live || 1;
    const counts = new Map<string, number>();
    parsed.terms.forEach((term, i) => counts.set(term, (counts.get(term) ?? 0) + (parsed.weights[i] ?? 1)));
    // Stopwords kept at a fraction of their weight re-rank, they do not retrieve: a document
    // matching none of the other words is no hit (else "what did I say" would match everything).
    const content = new Set(parsed.terms.filter((_, i) => parsed.weights[i] === 1));
    const matched = content.size < counts.size ? new Uint8Array(this.docs.length) : null;
    for (const [term, times] of counts) {
      const list = this.compacted(term);
      if (!list) continue;
      const df = list.length / 2;
      const idf = Math.log(1 + (this.live - df + 0.5) / (df + 0.5));
      for (let i = 0; i < list.length; i += 2) {
        const slot = list[i] as number;
        const tf = list[i + 1] as number;
        const doc = this.docs[slot] as Doc<K>;
        const norm = tf + this.k1 * (1 - this.b + (this.b * doc.length) / avg);
        scores[slot] = (scores[slot] as number) + (times * idf * (tf * (this.k1 + 1))) / norm;
        if (matched && content.has(term)) matched[slot] = 1;
      }
    }
    if (matched) for (let slot = 0; slot < scores.length; slot++) if (!matched[slot]) scores[slot] = 0;
    if (parsed.phrases.length) {
      const holds = phraseTest(parsed.phrases);
      for (let slot = 0; slot < scores.length; slot++) {
        if (!scores[slot]) continue;
        const doc = this.docs[slot] as Doc<K>;
        if (!holds(doc.folded, () => (this.textOf as (key: K) => string)(doc.key))) scores[slot] = 0;
      }
    }
    return scores;
  }

  /** The hits for ranked slots (removed documents skipped). */
  hits(slots: readonly (readonly [number, number])[]): SearchHit<K>[] {
    const out: SearchHit<K>[] = [];
    for (const [slot, score] of slots) {
      const doc = this.docs[slot];
      if (doc) out.push({ key: doc.key, score });
    }
    return out;
  }

  /** The slot a key is stored at (what `scores` is keyed by), or undefined when absent. */
  slotOf(key: K): number | undefined {
    return this.slotIndex.get(key);
  }

  /** The weighted length of the document at `slot` (0 once removed). */
  lengthAt(slot: number): number {
    return this.docs[slot]?.length ?? 0;
  }

  /** Slots ever used (the length of what `scores` returns). */
  get slots(): number {
    return this.docs.length;
  }

  /** A query parsed as this index parses it (its stemming and stopword weight). */
  parse(query: string): ParsedQuery {
    return parseQuery(query, { stem: this.stem, stopwordWeight: this.stopwordWeight });
  }

  /** The postings of `term` as [slot, tf, slot, tf, …], removed documents left out: read-only, for
   * callers that score groups of documents (a conversation's messages) themselves. */
  postingsOf(term: string): readonly number[] | undefined {
    return this.compacted(term);
  }

  /** Whether the document at `slot` contains every phrase (folded, as `parse` returns them). */
  holdsPhrases(slot: number, phrases: readonly string[]): boolean {
    const doc = this.docs[slot];
    if (!doc) return false;
    return phraseTest(phrases)(doc.folded, () => (this.textOf as (key: K) => string)(doc.key));
  }

  /** The key stored at `slot` (what `scores` is keyed by), or undefined once removed. */
  keyAt(slot: number): K | undefined {
    return this.docs[slot]?.key;
  }

  /** Room for more term ids (doubled). */
  private grow(): void {
    const counts = new Float64Array(this.counts.length * 2);
    counts.set(this.counts);
    this.counts = counts;
    const marks = new Int32Array(this.marks.length * 2);
    marks.set(this.marks);
    this.marks = marks;
  }

  /** The postings of `term` without removed documents (pruned in place on first read). */
  private compacted(term: string): number[] | undefined {
    const id = this.termIds.get(term);
    const list = id === undefined ? undefined : this.lists[id];
    if (!list) return undefined;
    let w = 0;
    for (let r = 0; r < list.length; r += 2) {
      if (this.docs[list[r] as number] === null) continue;
      list[w++] = list[r] as number;
      list[w++] = list[r + 1] as number;
    }
    list.length = w;
    if (!w) {
      this.lists[id as number] = undefined;
      return undefined;
    }
    return list;
  }
}
