// The fact ranking's selection: greedy by value per token with novelty — a word a picked fact (or
// another section) already carries counts only for a share, so a second sentence about the same
// thing counts for what it adds. Lazy: gains only shrink as coverage grows, so a stale gain is an
// upper bound. Carried facts stop at the pool less a reserve for this round's sentences. Ties break
// on position: deterministic.
import type { Sentence } from './extract-sentences';
import type { SourcedLine } from './record';
import { COST_OFFSET, type Candidate, withMarks } from './fact-candidates';
import { MaxHeap } from './max-heap';
import { lookupWord, vocabSize } from './vocab';

/** Covered words still count for this share: a repeat with a new detail beside it is not worthless.
 * A small block needs breadth (one fact per thing said); a larger one has room for the second
 * fact about the same thing, and the share grows with the pool, from MIN at SMALL_POOL tokens to
 * MAX at four times that. */
const COVERED_WEIGHT_MIN = 0.2;
const COVERED_WEIGHT_MAX = 0.35;
const SMALL_POOL = 1250;
export const coveredWeightFor = (poolTokens: number): number =>
  COVERED_WEIGHT_MIN + ((COVERED_WEIGHT_MAX - COVERED_WEIGHT_MIN) * Math.min(2, Math.max(0, Math.log2(poolTokens / SMALL_POOL)))) / 2;

/** The covered words (1 by vocabulary id). Built once every candidate's words have ids: a covered
 * word the table lacks is in no candidate. */
export function coveredWords(words: Iterable<string>): Uint8Array {
  const covered = new Uint8Array(vocabSize());
  for (const w of words) {
    const id = lookupWord(w);
    if (id >= 0) covered[id] = 1;
  }
  return covered;
}

/** A candidate's gain: its words' weights (covered ones at `coveredWeight`) times its boost, per
 * token. A fact an earlier block showed keeps the gain it had before any coverage (`fixedGain`):
 * what the new part covers since does not make it worth less, or the chain drops a different slice
 * of it every round. */
export function gainOf(c: Candidate, covered: Uint8Array, coveredWeight: number): number {
  if (c.shown !== undefined && c.fixedGain !== undefined) return c.fixedGain;
  let g = 0;
  for (let i = 0; i < c.ids.length; i++) {
    const v = c.weights[i] as number;
    g += covered[c.ids[i] as number] ? v * coveredWeight : v;
  }
  return (g * c.boost) / (c.cost + COST_OFFSET);
}

/** The tokens carried facts may take: the pool less the reserve (no more than the new sentences
 * could fill), so this round's best sentences stay in the pool. */
export function carriedCap(candidates: readonly Candidate[], poolTokens: number, freshReserve: number): number {
  let newCost = 0;
  for (const c of candidates) if (c.group >= 0) newCost += c.cost;
  return poolTokens - Math.min(newCost, Math.floor(poolTokens * freshReserve));
}

/** A picked candidate as a fact line, with its gain when picked as its score. */
export function pickedLine(c: Candidate, gain: number): SourcedLine {
  return withMarks<SourcedLine>({ text: c.text, sources: c.sources, at: c.at, score: Math.round(gain * 1000) / 1000, round: c.round, seq: c.seq }, c);
}

/** The facts picked from the candidates until `poolTokens`, best first; `covered` (words other
 * sections carry) grows with each pick. */
export function pickFacts(candidates: readonly Candidate[], covered: Uint8Array, poolTokens: number, freshReserve: number): SourcedLine[] {
  const coveredWeight = coveredWeightFor(poolTokens);
  const heap = new MaxHeap<{ c: Candidate; gain: number }>((a, b) => a.gain - b.gain || b.c.pos - a.c.pos);
  for (const c of candidates) {
    const gain = gainOf(c, covered, coveredWeight);
    if (c.shown !== undefined) c.fixedGain = gain;
    heap.push({ c, gain });
  }
  const picked: SourcedLine[] = [];
  const seenText = new Set<string>();
  const usedGroups = new Set<number>();
  let spent = 0;
  // (The rank order is otherwise unchanged by the carried facts' cap.)
  const cap = carriedCap(candidates, poolTokens, freshReserve);
  let carriedSpent = 0;
  while (heap.size && spent < poolTokens) {
    const top = heap.pop() as { c: Candidate; gain: number };
    const fresh = gainOf(top.c, covered, coveredWeight);
    const next = heap.peek();
    if (next && fresh < next.gain - 1e-12) {
      // (The entry goes back with its gain brought up to date: no new object per re-ranking.)
      top.gain = fresh;
      heap.push(top);
      continue;
    }
    if (fresh <= 0) break;
    const key = top.c.text.toLowerCase();
    if (seenText.has(key) || usedGroups.has(top.c.group) || (top.c.alsoGroup !== undefined && usedGroups.has(top.c.alsoGroup))) continue;
    if (top.c.group < 0) {
      // (Whole facts, as the pool itself: one that starts inside the cap may end past it.)
      if (carriedSpent >= cap) continue;
      carriedSpent += top.c.cost;
    }
    seenText.add(key);
    usedGroups.add(top.c.group);
    if (top.c.alsoGroup !== undefined) usedGroups.add(top.c.alsoGroup);
    for (const id of top.c.ids) covered[id] = 1;
    spent += top.c.cost;
    picked.push(pickedLine(top.c, fresh));
  }
  return picked;
}

/** The thread a candidate belongs to: a carried fact's own, else its message's. */
const threadOfCandidate = (c: Candidate, threadOf: ReadonlyMap<string, number>): number | undefined => c.thread ?? threadOf.get(c.sources[0] ?? '');

/**
 * With an assistant, a line of every thread in the pool: a thread of which nothing was picked but
 * what the user said of themselves (laid out under "About the user", not under its head) gets its
 * answer's list, else its best sentence of the assistant, else its best sentence — at its gain
 * with the coverage the pick left, appended after the pool (past its tokens: a line per thread
 * is what the block's spread over the threads needs; readers found whole sessions missing while
 * trivia was kept). In conversation order of the threads' first messages, deterministic.
 */
export function coverThreads(candidates: readonly Candidate[], picked: readonly SourcedLine[], threadOf: ReadonlyMap<string, number>, covered: Uint8Array, coveredWeight: number): SourcedLine[] {
  const has = new Set<number>();
  const pickedText = new Set(picked.map((f) => f.text.toLowerCase()));
  for (const f of picked) {
    const t = f.thread ?? threadOf.get(f.sources[0] ?? '');
    if (t !== undefined && !f.about) has.add(t);
  }
  const best = new Map<number, { c: Candidate; key: number }>();
  for (const c of candidates) {
    const t = threadOfCandidate(c, threadOf);
    if (t === undefined || has.has(t) || c.about || pickedText.has(c.text.toLowerCase())) continue;
    // (A list first, then the assistant's sentences, then the rest; by gain within each.)
    const gain = gainOf(c, covered, coveredWeight);
    if (!(gain > 0)) continue;
    const key = (c.listed ? 2 : c.assistant ? 1 : 0) * 1e6 + gain;
    const b = best.get(t);
    if (!b || key > b.key || (key === b.key && c.pos < b.c.pos)) best.set(t, { c, key });
  }
  const added = [...best.values()].sort((a, b) => a.c.seq - b.c.seq).map(({ c }) => pickedLine(c, gainOf(c, covered, coveredWeight)));
  return added.length ? [...picked, ...added] : [...picked];
}

/** Marks each thread's best usable sentence by rough value, and its assistant's best, as chosen
 * (`threadOf` by message id): a long conversation's prefilter may have kept none of a thread. */
export function keepThreadsBest(usable: readonly Sentence[], value: Float64Array, chosen: Uint8Array, threadOf: ReadonlyMap<string, number>): void {
  const bestAny = new Map<number, number>();
  const bestOwn = new Map<number, number>();
  for (let pos = 0; pos < usable.length; pos++) {
    const s = usable[pos] as Sentence;
    const t = threadOf.get(s.id);
    if (t === undefined) continue;
    const v = value[pos] as number;
    const a = bestAny.get(t);
    if (a === undefined || v > (value[a] as number)) bestAny.set(t, pos);
    if (s.role !== 'assistant') continue;
    const o = bestOwn.get(t);
    if (o === undefined || v > (value[o] as number)) bestOwn.set(t, pos);
  }
  for (const pos of [...bestAny.values(), ...bestOwn.values()]) chosen[pos] = 1;
}
