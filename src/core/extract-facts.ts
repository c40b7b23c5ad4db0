// Key facts: an extractive ranking of whole sentences (or one contiguous clause of a long one) by
// the information a model would need later. A sentence is worth its rare words (IDF over the
// conversation), weighted up for names, numbers, dates and code symbols and for what the user
// said, per token it costs; selection is greedy with novelty, so a second sentence about the same
// thing counts only for what it adds. Deterministic: ties break on position.
import type { Sentence } from './extract-sentences';
import type { SourcedLine } from './record';
import { GENERIC_WORDS, contentWords, splitAfter, squash, truncateAtWord, wordCount } from './text';

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
/** Weight of common words (see GENERIC_WORDS) against their rarity in the conversation. */
const GENERIC_WEIGHT = 0.3;

const NUMBER = /\d/;
/** The user speaking about themselves, their work or their plans: what a model most needs later. */
const FIRST_PERSON = /^(?:I|I['’](?:m|ve|d|ll)|my|My)\b|\s(?:I|I['’](?:m|ve|d|ll)|my|me|mine)\b/;
const MY = /\b(?:my|My|our|Our)\s/;
const SECOND_PERSON = /\b(?:you|your|you['’](?:re|ve|ll|d))\b/i;
/** Markup and code punctuation: a sentence dense in it is a listing or a template, not a fact. */
const CODE_PUNCT = /[{}()<>=$|\\`]/g;
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

/** Clauses of a sentence of at least five words each (the shortest run that reads as text), when
 * the sentence has more than one. */
function clausesOf(text: string): string[] {
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

/** Ranks sentences (and carried facts) and returns the selected facts, best first. */
export function selectFacts(sentences: readonly Sentence[], options: FactOptions): SourcedLine[] {
  const focusWords = new Set(options.focus ? contentWords(options.focus) : []);
  // Document frequency over the candidate sentences and carried facts.
  const df = new Map<string, number>();
  let docs = 0;
  const usable = sentences.filter((s) => !s.code && s.words.length >= 3 && wordCount(s.text) >= 5 && s.role !== 'system');
  const carried = options.carried ?? [];
  const carriedWords = carried.map((f) => contentWords(f.text));
  // lastDoc avoids a Set per sentence: a word counts once per document.
  const lastDoc = new Map<string, number>();
  const count = (words: readonly string[]): void => {
    docs++;
    for (const w of words) {
      if (lastDoc.get(w) === docs) continue;
      lastDoc.set(w, docs);
      df.set(w, (df.get(w) ?? 0) + 1);
    }
  };
  for (const s of usable) count(s.words);
  for (const words of carriedWords) count(words);
  const idf = (w: string): number => Math.log(1 + docs / (df.get(w) ?? 1)) * (GENERIC_WORDS.has(w) ? GENERIC_WEIGHT : 1);
  // Which sides talk about themselves: the user always counts; the other side too when it says
  // "my …" about as often (two people chatting), not when it is an assistant explaining things.
  const mine = { user: 0, other: 0, userN: 1, otherN: 1 };
  for (const s of usable) {
    const my = MY.test(s.text) ? 1 : 0;
    if (s.role === 'user') {
      mine.user += my;
      mine.userN++;
    } else if (s.role === 'assistant') {
      mine.other += my;
      mine.otherN++;
    }
  }
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
    let boost = s.role === 'user' ? 1.15 : s.role === 'tool' ? 0.35 : 1;
    const question = /\?\s*$/.test(text);
    // What the user says about themselves is what no model can regenerate: with an assistant that
    // explains things, it ranks well above the explanations; between two people, both sides count.
    if (!question && FIRST_PERSON.test(text)) {
      if (s.role === 'user') boost *= personalAssistant ? 1.4 : 3;
      else if (personalAssistant && s.role === 'assistant') boost *= 1.4;
    } else if (SECOND_PERSON.test(text)) {
      // Said to the other side about them ("you'll love it", "keep going, you're doing great"), not
      // about the speaker's own life or work: mostly reactions and advice.
      boost *= 0.7;
    }
    const punct = text.match(CODE_PUNCT)?.length ?? 0;
    if (punct > 2 && punct / text.length > 0.03) boost *= 0.3;
    if (question) boost *= 0.55;
    else if (/!\s*$/.test(text) && wordCount(text) < 8) boost *= 0.6;
    return boost * (1 + 0.1 * (lastMessage ? s.message / lastMessage : 0));
  };
  const makeCandidate = (s: Sentence, pos: number, text: string, words: readonly string[]): Candidate => {
    const boost = prior(s, text) * focusBoost(words);
    const seq = options.round * 1e9 + s.message * 1e4 + Math.min(s.index, 9999);
    return { text, sources: [s.id], at: s.at, pos, group: pos, round: options.round, seq, keys: weigh(text, words), boost, cost: cheapCost(text) };
  };
  // Prefilter: a cheap value-per-token bound for every sentence (no allocation), and full
  // candidates only for the best of them — a long conversation has far more sentences than any
  // block can hold, and building ranked candidates for all of them is what would cost.
  const rough = usable.map((s, pos) => {
    let g = 0;
    for (const w of s.words) g += NUMBER.test(w) ? NAME_WEIGHT * idf(w) : idf(w);
    return { pos, g: (g * prior(s, s.text)) / (cheapCost(s.text) + COST_OFFSET) };
  });
  if (rough.length > PREFILTER_MIN) rough.sort((a, b) => b.g - a.g || a.pos - b.pos);
  let roughRoom = options.poolTokens * PREFILTER_FACTOR;
  for (const { pos } of rough) {
    const s = usable[pos] as Sentence;
    if (rough.length > PREFILTER_MIN && roughRoom <= 0) break;
    roughRoom -= cheapCost(s.text);
    const full = wordCount(s.text) > MAX_WORDS ? squash(bestClauses(s.text, idf)) : s.text;
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
