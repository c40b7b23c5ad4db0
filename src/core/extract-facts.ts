// Key facts: an extractive ranking of whole sentences (or one contiguous clause of one) by the
// information a model would need later. A sentence is worth its rare words (IDF over the
// conversation; common English words count little), weighted up for names, numbers, dates and code
// symbols, per token it costs, times a prior: what the user says about themselves ranks far above
// an assistant's explanations (both sides count when two people are chatting), questions, short
// exclamations, remarks about the other side and markup rank lower. Selection is greedy with
// novelty, so a second sentence about the same thing counts only for what it adds; facts carried
// from the previous round (above all those its block showed) keep a seniority. Deterministic: ties
// break on position. Words are counted as vocabulary ids and per-sentence features are memoised
// with the sentence pass, so ranking a long conversation stays a few typed-array passes.
import type { Sentence } from './extract-sentences';
import type { SourcedLine } from './record';
import { GENERIC_WORDS, contentWords, isSpaceCode, splitAfter, squash, truncateAtWord, wordCount } from './text';

export interface FactOptions {
  /** Focus text ("Compact now" with a focus): sentences sharing its words are boosted. */
  focus?: string;
  /** Words already carried by other sections (goal, constraints): covered from the start. */
  covered?: Iterable<string>;
  /** Facts carried from the previous round; they compete with the new sentences. */
  carried?: readonly SourcedLine[];
  /** Multiplier on carried facts: what an earlier round judged worth keeping stays unless the
   * new part has clearly better. */
  seniority?: number;
  /** Further multiplier on carried facts that the previous block showed. */
  shownSeniority?: number;
  /** Stop after this many estimated tokens of facts (the pool kept for later rounds). */
  poolTokens: number;
  /** Round number given to new facts. */
  round: number;
}

/** Longest fact in words; longer sentences are cut to their most informative clauses. */
const MAX_WORDS = 48;
/** Covered words still count for this share: a repeat with a new detail beside it is not worthless. */
const COVERED_WEIGHT = 0.2;
/** Fixed cost added to each sentence's tokens when ranking by value per token: a line has a
 * bullet and label, and a short exclamation with one rare name must not beat a sentence of facts. */
const COST_OFFSET = 9;
/** Weight of numbers and capitalised names (not at a sentence start): dates, places, people. */
const NAME_WEIGHT = 2.5;
/** Boost of first-person sentences when both sides are people talking about their lives. */
const PERSONAL = 1.4;
/** Weight of common words (see GENERIC_WORDS) against their rarity in the conversation. */
const GENERIC_WEIGHT = 0.3;

const NUMBER = /\d/;
/** The user speaking about themselves, their work or their plans: what a model most needs later. */
const FIRST_PERSON = /^(?:I|I['’](?:m|ve|d|ll)|my|My)\b|\s(?:I|I['’](?:m|ve|d|ll)|my|me|mine)\b/;
const MY = /\b(?:my|My|our|Our)\s/;
const SECOND_PERSON = /\b(?:you|your|you['’](?:re|ve|ll|d))\b/i;
/** Markup and code punctuation ({}()<>=$|\\`, counted by codePunct): a sentence dense in it is a
 * listing or a template, not a fact. */
const CODE_SYMBOL = /[a-z][A-Z]|_|\(\)|\.[a-z]/;

interface Candidate {
  text: string;
  sources: string[];
  at: number;
  pos: number;
  round: number;
  seq: number;
  /** Candidates of one sentence share a group; at most one of them is picked. */
  group: number;
  /** Distinct ranking keys with their weights. */
  keys: Map<string, number>;
  /** Round whose block last showed it (carried facts). */
  shown?: number;
  /** Base multiplier (role, question, focus, seniority). */
  boost: number;
  cost: number;
}

const CAPITALISED = /\s[\p{Lu}][\p{L}\p{N}_-]*/gu;

/** Proper nouns are capitalised words that do not start the sentence. (A word after a sentence
 * end inside the text is counted too: rare, and a slight over-weight at worst.) */
function capitalisedWords(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(CAPITALISED)) out.add(m[0].slice(1).toLowerCase());
  return out;
}

/** Cuts a long sentence to the contiguous run of clauses with the most rare words. */
function bestClauses(text: string, idf: (w: string) => number): string {
  if (wordCount(text) <= MAX_WORDS) return text;
  const clauses = splitAfter(text, ',;:–—');
  let best = '';
  let bestScore = -1;
  for (let i = 0; i < clauses.length; i++) {
    let run = '';
    let score = 0;
    for (let j = i; j < clauses.length; j++) {
      const next = run ? `${run} ${clauses[j]}` : (clauses[j] as string);
      if (wordCount(next) > MAX_WORDS) break;
      run = next;
      score = 0;
      for (const w of new Set(contentWords(run))) score += idf(w);
    }
    if (run && score > bestScore) {
      best = run;
      bestScore = score;
    }
  }
  // One clause longer than the limit: cut at a word boundary.
  return best || truncateAtWord(text, MAX_WORDS * 7);
}

/** `text` with its first character upper-cased when it is a lowercase letter that has a
 * one-character capital (so the length, and every offset, stays the same). */
export function capitaliseFirst(text: string): string {
  const first = text.charAt(0);
  const upper = first.toUpperCase();
  return upper !== first && upper.length === 1 && first.toLowerCase() === first ? upper + text.slice(1) : text;
}

/** Clauses of a sentence of at least five words each (the shortest run that reads as text), when
 * the sentence has more than one. */
export function clausesOf(text: string): string[] {
  const parts = splitAfter(text, ',;:!?')
    .flatMap((p) => p.split(/\s+[-–—]\s+|\s+(?=\[)/))
    // Coordinated clauses ("I started surfing five years ago and it's been great") stand alone too.
    .flatMap((p) => p.split(CONJUNCTION))
    .map((p) => p.trim());
  if (parts.length < 2) return [];
  return parts.filter((p) => wordCount(p) >= 5 && contentWords(p).length >= 2 && balanced(p));
}

const CONJUNCTION = /,?\s+(?=(?:and|but|so|because|which|while|although|though|since)\s)/;

/** True when every bracket and parenthesis opened in `text` is closed in it, and none closes
 * unopened: a clause cut out of "[shares a photo: …]" must not leave half a bracket. */
function balanced(text: string): boolean {
  let square = 0;
  let round = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 91) square++;
    else if (c === 93 && --square < 0) return false;
    else if (c === 40) round++;
    else if (c === 41 && --round < 0) return false;
  }
  return square === 0 && round === 0;
}

/** Conversations with fewer usable sentences than this are ranked in full. */
const PREFILTER_MIN = 600;
/** The prefilter keeps sentences worth this many times the pool's tokens. */
const PREFILTER_FACTOR = 4;

const cheapCost = (text: string): number => Math.ceil(text.length / 3.6) + 3;

/** Ranking keys as small integers, shared by every conversation ranked in this session, so the
 * counting and scoring loops index typed arrays instead of hashing strings. Reset (and every cached
 * id list with it, by generation) if it ever grows past VOCAB_LIMIT words. */
const vocab = new Map<string, number>();
const numeric: boolean[] = [];
const VOCAB_LIMIT = 1_000_000;
let generation = 0;

function idOf(w: string): number {
  let id = vocab.get(w);
  if (id === undefined) {
    id = vocab.size;
    vocab.set(w, id);
    numeric[id] = NUMBER.test(w);
    seenMark[id] = 0;
  }
  return id;
}

function idsOf(uniq: readonly string[]): number[] {
  resetIfFull();
  const ids: number[] = [];
  for (let i = 0; i < uniq.length; i++) ids.push(idOf(uniq[i] as string));
  return ids;
}

function resetIfFull(): void {
  if (vocab.size > VOCAB_LIMIT) {
    vocab.clear();
    numeric.length = 0;
    seenMark.length = 0;
    generation++;
  }
}

/** Per vocabulary id, the pass that last saw it (de-duplicates a sentence's words without a Set). */
const seenMark: number[] = [];
let pass = 0;

/** A sentence's distinct words (first-seen order) and their ids, in one lookup per word. Most
 * sentences repeat no word: their word list is shared, not copied (it is never mutated). */
function distinctIds(words: readonly string[]): { uniq: readonly string[]; ids: number[] } {
  resetIfFull();
  pass++;
  const ids: number[] = [];
  let uniq: string[] | null = null;
  for (let i = 0; i < words.length; i++) {
    const w = words[i] as string;
    const id = idOf(w);
    if (seenMark[id] === pass) {
      uniq ??= words.slice(0, i);
      continue;
    }
    seenMark[id] = pass;
    if (uniq) uniq.push(w);
    ids.push(id);
  }
  return { uniq: uniq ?? words, ids };
}

/** What ranking needs to know of a sentence's text, whoever said it and wherever it sits. */
interface Features {
  /** Distinct ranking keys. */
  uniq: readonly string[];
  /** Their vocabulary ids, valid while `generation` is current. */
  ids: number[];
  generation: number;
  /** Word count of the text. */
  wc: number;
  /** Long enough to be a fact (five words, three keys). */
  usable: boolean;
  question: boolean;
  shortExclamation: boolean;
  firstPerson: boolean;
  secondPerson: boolean;
  my: boolean;
  /** Dense in markup or code punctuation. */
  markup: boolean;
}

/** The last character of `text` that is not whitespace (its char code, -1 for none). */
function lastNonSpace(text: string): number {
  for (let i = text.length - 1; i >= 0; i--) {
    const c = text.charCodeAt(i);
    if (!isSpaceCode(c)) return c;
  }
  return -1;
}

/** 1 for markup and code punctuation: {}()<>=$|\\ and backtick. */
const CODE_PUNCT = new Uint8Array(128);
for (const ch of '{}()<>=$|\\`') CODE_PUNCT[ch.charCodeAt(0)] = 1;

/** How many characters of markup and code punctuation the text holds (one scan, no match array). */
function codePunct(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 128) n += CODE_PUNCT[c] as number;
  }
  return n;
}

function features(text: string, words: readonly string[], wc = wordCount(text)): Features {
  const end = lastNonSpace(text);
  const question = end === 63; // ?
  const punct = codePunct(text);
  const { uniq, ids } = distinctIds(words);
  return {
    uniq,
    ids,
    generation,
    wc,
    usable: words.length >= 3 && wc >= 5,
    question,
    shortExclamation: !question && wc < 8 && end === 33, // !
    firstPerson: FIRST_PERSON.test(text),
    secondPerson: SECOND_PERSON.test(text),
    my: MY.test(text),
    markup: punct > 2 && punct / text.length > 0.03,
  };
}

/** Features of a sentence, memoised with the sentence pass (so a conversation compacted or
 * previewed again is not re-read). */
function featuresOf(s: Sentence): Features {
  let f = s.memo?.facts as Features | undefined;
  if (!f) {
    f = features(s.text, s.words, s.wc);
    if (s.memo) s.memo.facts = f;
  } else if (f.generation !== generation) {
    f.ids = idsOf(f.uniq);
    f.generation = generation;
  }
  return f;
}

/** Ranks sentences (and carried facts) and returns the selected facts, best first. */
export function selectFacts(sentences: readonly Sentence[], options: FactOptions): SourcedLine[] {
  const focusWords = new Set(options.focus ? contentWords(options.focus) : []);
  // Document frequency over the candidate sentences and carried facts, by vocabulary id.
  const usable: Sentence[] = [];
  const usableFeatures: Features[] = [];
  for (const s of sentences) {
    // Too short to be a fact (what Features.usable says), known without reading the text again.
    if (s.code || s.role === 'system' || s.words.length < 3 || s.wc < 5) continue;
    const f = featuresOf(s);
    if (!f.usable) continue;
    usable.push(s);
    usableFeatures.push(f);
  }
  const carried = options.carried ?? [];
  const carriedWords = carried.map((f) => contentWords(f.text));
  const startGeneration = generation;
  let carriedIds = carriedWords.map((words) => idsOf([...new Set(words)]));
  let usableIds = usableFeatures.map((f) => f.ids);
  if (generation !== startGeneration) {
    // The vocabulary was reset midway: ids taken before it are stale (the reset leaves room, so a
    // second pass cannot reset again).
    carriedIds = carriedWords.map((words) => idsOf([...new Set(words)]));
    usableIds = usable.map((s) => featuresOf(s).ids);
  }
  const df = new Int32Array(vocab.size);
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
  for (const ids of usableIds) count(ids);
  for (const ids of carriedIds) count(ids);
  // Weights computed once per distinct word: the ranking below looks words up many times.
  const weights = new Float64Array(vocab.size);
  for (const id of touched) weights[id] = Math.log(1 + docs / (df[id] as number));
  for (const w of GENERIC_WORDS) {
    const id = vocab.get(w);
    if (id !== undefined && id < weights.length) weights[id] = (weights[id] as number) * GENERIC_WEIGHT;
  }
  const unseen = Math.log(1 + docs);
  const idf = (w: string): number => {
    const id = vocab.get(w);
    return id !== undefined && id < weights.length && (df[id] as number) > 0 ? (weights[id] as number) : unseen * (GENERIC_WORDS.has(w) ? GENERIC_WEIGHT : 1);
  };
  // Which sides talk about themselves: the user always counts; the other side too when it says
  // "my …" about as often (two people chatting), not when it is an assistant explaining things.
  const mine = { user: 0, other: 0, userN: 1, otherN: 1 };
  usable.forEach((s, i) => {
    const my = (usableFeatures[i] as Features).my ? 1 : 0;
    if (s.role === 'user') {
      mine.user += my;
      mine.userN++;
    } else if (s.role === 'assistant') {
      mine.other += my;
      mine.otherN++;
    }
  });
  const personalAssistant = mine.other / mine.otherN >= 0.5 * (mine.user / mine.userN);
  const lastMessage = usable.length ? (usable[usable.length - 1] as Sentence).message : 0;

  const weigh = (text: string, words: readonly string[]): Map<string, number> => {
    const caps = capitalisedWords(text);
    const keys = new Map<string, number>();
    for (const w of words) {
      if (keys.has(w)) continue;
      let weight = idf(w);
      if (NUMBER.test(w) || caps.has(w)) weight *= NAME_WEIGHT;
      keys.set(w, weight);
    }
    // Code symbols (camelCase, snake_case, calls) are named in the original case.
    if (CODE_SYMBOL.test(text)) for (const [w, v] of keys) if (w.includes('_')) keys.set(w, v * 1.3);
    return keys;
  };
  const focusBoost = (words: readonly string[]): number => {
    if (!focusWords.size) return 1;
    let hit = 0;
    for (const w of new Set(words)) if (focusWords.has(w)) hit++;
    return 1 + (2 * hit) / focusWords.size;
  };

  const candidates: Candidate[] = [];
  /** What a sentence is worth beyond its words: who said it, about whom, and how. */
  const prior = (s: Sentence, text: string): number => {
    const f = text === s.text ? featuresOf(s) : features(text, s.words);
    let boost = s.role === 'user' ? (personalAssistant ? 1 : 1.15) : s.role === 'tool' ? 0.35 : 1;
    // What the user says about themselves is what no model can regenerate: with an assistant that
    // explains things, it ranks well above the explanations; between two people, both sides count.
    if (!f.question && f.firstPerson) {
      if (s.role === 'user') boost *= personalAssistant ? PERSONAL : 3;
      else if (personalAssistant && s.role === 'assistant') boost *= PERSONAL;
    } else if (f.secondPerson) {
      // Said to the other side about them ("you'll love it", "keep going, you're doing great"), not
      // about the speaker's own life or work: mostly reactions and advice.
      boost *= 0.7;
    }
    if (f.markup) boost *= 0.3;
    if (f.question) boost *= 0.55;
    else if (f.shortExclamation) boost *= 0.6;
    return boost * (1 + 0.1 * (lastMessage ? s.message / lastMessage : 0));
  };
  const makeCandidate = (s: Sentence, pos: number, text: string, words: readonly string[]): Candidate => {
    const boost = prior(s, text) * focusBoost(words);
    const seq = options.round * 1e9 + s.message * 1e4 + Math.min(s.index, 9999);
    // A clause cut out of its sentence starts the fact: it reads as a sentence of its own (the
    // block joins one speaker's facts on one line), so its first letter is capitalised.
    const shown = text === s.text ? text : capitaliseFirst(text);
    return { text: shown, sources: [s.id], at: s.at, pos, group: pos, round: options.round, seq, keys: weigh(text, words), boost, cost: cheapCost(text) };
  };
  // Prefilter: a cheap value-per-token bound for every sentence (no allocation), and full
  // candidates only for the best of them — a long conversation has far more sentences than any
  // block can hold, and building ranked candidates for all of them is what would cost.
  const n = usable.length;
  const roughG = new Float64Array(n);
  const roughCost = new Float64Array(n);
  let maxG = 0;
  for (let pos = 0; pos < n; pos++) {
    const s = usable[pos] as Sentence;
    let g = 0;
    const ids = usableIds[pos] as number[];
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i] as number;
      g += numeric[id] ? NAME_WEIGHT * (weights[id] as number) : (weights[id] as number);
    }
    roughCost[pos] = cheapCost(s.text);
    const value = (g * prior(s, s.text)) / ((roughCost[pos] as number) + COST_OFFSET);
    roughG[pos] = value;
    if (value > maxG) maxG = value;
  }
  // The sentences worth ranking: all of a short conversation; of a long one, the best by the rough
  // value until PREFILTER_FACTOR × the pool's tokens. A histogram of the values finds the cut-off
  // in two linear passes (no sort of every sentence); only those above it are sorted.
  let order: number[];
  if (n > PREFILTER_MIN && maxG > 0) {
    const BUCKETS = 512;
    const bucketCost = new Float64Array(BUCKETS);
    const bucketOf = (g: number): number => Math.min(BUCKETS - 1, Math.floor((g / maxG) * BUCKETS));
    for (let pos = 0; pos < n; pos++) {
      const b = bucketOf(roughG[pos] as number);
      bucketCost[b] = (bucketCost[b] as number) + (roughCost[pos] as number);
    }
    let room = options.poolTokens * PREFILTER_FACTOR;
    let floor = 0;
    for (let b = BUCKETS - 1; b >= 0; b--) {
      room -= bucketCost[b] as number;
      if (room <= 0) {
        floor = b;
        break;
      }
    }
    order = [];
    for (let pos = 0; pos < n; pos++) if (bucketOf(roughG[pos] as number) >= floor) order.push(pos);
    order.sort((x, y) => (roughG[y] as number) - (roughG[x] as number) || x - y);
  } else order = Array.from({ length: n }, (_, i) => i);
  let roughRoom = options.poolTokens * PREFILTER_FACTOR;
  for (const pos of order) {
    const s = usable[pos] as Sentence;
    if (n > PREFILTER_MIN && roughRoom <= 0) break;
    roughRoom -= roughCost[pos] as number;
    const full = (usableFeatures[pos] as Features).wc > MAX_WORDS ? squash(bestClauses(s.text, idf)) : s.text;
    candidates.push(makeCandidate(s, pos, full, full === s.text ? s.words : contentWords(full)));
  }
  candidates.sort((a, b) => a.pos - b.pos);
  // A sentence also competes as each of its clauses of five words or more: a clause that holds the
  // fact reads as well and leaves the filler around it out (one per sentence is picked). Only the
  // sentences that could make the pool are split, so a long conversation costs one pass, not two.
  const standalone = (c: Candidate): number => {
    let g = 0;
    for (const v of c.keys.values()) g += v;
    return (g * c.boost) / (c.cost + COST_OFFSET);
  };
  const ranked = candidates.map((c, i) => ({ i, g: standalone(c) })).sort((a, b) => b.g - a.g || a.i - b.i);
  let room = options.poolTokens * 2;
  for (const { i } of ranked) {
    if (room <= 0) break;
    const c = candidates[i] as Candidate;
    room -= c.cost;
    const s = usable[c.pos] as Sentence;
    if (s.words.length < 6) continue;
    for (const clause of clausesOf(c.text)) candidates.push(makeCandidate(s, c.pos, clause, contentWords(clause)));
  }
  carried.forEach((f, i) => {
    const words = carriedWords[i] as string[];
    // Carried facts sort before the new ones (they are older), keeping the order of the pool.
    candidates.push({
      text: f.text,
      sources: f.sources,
      at: f.at,
      pos: -carried.length + i,
      group: -1 - i,
      round: f.round,
      seq: f.seq ?? f.round * 1e9,
      keys: weigh(f.text, words),
      boost: (options.seniority ?? 1) * (f.shown ? (options.shownSeniority ?? 1) : 1) * focusBoost(words),
      ...(f.shown ? { shown: f.shown } : {}),
      cost: cheapCost(f.text),
    });
  });

  const covered = new Set<string>(options.covered ?? []);
  const gainOf = (c: Candidate): number => {
    let g = 0;
    for (const [w, v] of c.keys) g += covered.has(w) ? v * COVERED_WEIGHT : v;
    return (g * c.boost) / (c.cost + COST_OFFSET);
  };

  // Lazy greedy: gains only shrink as coverage grows, so a stale gain is an upper bound.
  const heap = new MaxHeap<{ c: Candidate; gain: number }>((a, b) => a.gain - b.gain || b.c.pos - a.c.pos);
  for (const c of candidates) heap.push({ c, gain: gainOf(c) });
  const picked: SourcedLine[] = [];
  const seenText = new Set<string>();
  const usedGroups = new Set<number>();
  let spent = 0;
  while (heap.size && spent < options.poolTokens) {
    const top = heap.pop() as { c: Candidate; gain: number };
    const fresh = gainOf(top.c);
    const next = heap.peek();
    if (next && fresh < next.gain - 1e-12) {
      heap.push({ c: top.c, gain: fresh });
      continue;
    }
    if (fresh <= 0) break;
    const key = top.c.text.toLowerCase();
    if (seenText.has(key) || usedGroups.has(top.c.group)) continue;
    seenText.add(key);
    usedGroups.add(top.c.group);
    for (const w of top.c.keys.keys()) covered.add(w);
    spent += top.c.cost;
    picked.push({ text: top.c.text, sources: top.c.sources, at: top.c.at, score: Math.round(fresh * 1000) / 1000, round: top.c.round, seq: top.c.seq, ...(top.c.shown ? { shown: top.c.shown } : {}) });
  }
  return picked;
}

/** A binary max-heap; `cmp(a, b) > 0` means a ranks above b. */
class MaxHeap<T> {
  private items: T[] = [];
  constructor(private readonly cmp: (a: T, b: T) => number) {}
  get size(): number {
    return this.items.length;
  }
  peek(): T | undefined {
    return this.items[0];
  }
  push(item: T): void {
    const a = this.items;
    a.push(item);
    let i = a.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (this.cmp(a[i] as T, a[p] as T) <= 0) break;
      [a[i], a[p]] = [a[p] as T, a[i] as T];
      i = p;
    }
  }
  pop(): T | undefined {
    const a = this.items;
    const top = a[0];
    const last = a.pop();
    if (a.length && last !== undefined) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && this.cmp(a[l] as T, a[m] as T) > 0) m = l;
        if (r < a.length && this.cmp(a[r] as T, a[m] as T) > 0) m = r;
        if (m === i) break;
        [a[i], a[m]] = [a[m] as T, a[i] as T];
        i = m;
      }
    }
    return top;
  }
}
