// The fact ranking's prefilter: a cheap value-per-token bound for every usable sentence (no
// allocation), and full candidates only for the best of them — a long conversation has far more
// sentences than any block can hold, and building ranked candidates for all of them is what would
// cost. Output: which usable sentences (by position) are worth ranking.
import type { Sentence } from './extract-sentences';
import { COST_OFFSET, cheapCostOf } from './fact-candidates';
import { NAME_WEIGHT } from './fact-weights';
import { NUMERIC, flagsOf } from './vocab';

/** Conversations with fewer usable sentences than this are ranked in full. */
export const PREFILTER_MIN = 600;
/** The prefilter keeps sentences worth this many times the pool's tokens. */
const PREFILTER_FACTOR = 4;
/** Buckets of the histogram of rough values. */
const BUCKETS = 512;

/** Each usable sentence's rough value per token and cost, and the highest value. */
export interface RoughValues {
  value: Float64Array;
  cost: Float64Array;
  max: number;
}

/** The rough values: the words' rarity (`weights` by vocabulary id; numbers as names) times the
 * sentence's prior, per cheap token. */
export function roughValues(usable: readonly Sentence[], weights: Float64Array, prior: (s: Sentence, text: string) => number): RoughValues {
  const n = usable.length;
  const value = new Float64Array(n);
  const cost = new Float64Array(n);
  let max = 0;
  for (let pos = 0; pos < n; pos++) {
    const s = usable[pos] as Sentence;
    let g = 0;
    const ids = s.ids;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i] as number;
      g += flagsOf(id) & NUMERIC ? NAME_WEIGHT * (weights[id] as number) : (weights[id] as number);
    }
    cost[pos] = cheapCostOf(s.chars);
    const v = (g * prior(s, s.text)) / ((cost[pos] as number) + COST_OFFSET);
    value[pos] = v;
    if (v > max) max = v;
  }
  return { value, cost, max };
}

/** The sentences worth ranking (1 at their position): all of a short conversation; of a long one,
 * the best by the rough value until PREFILTER_FACTOR × the pool's tokens. */
export function prefilter(rough: RoughValues, poolTokens: number): Uint8Array {
  const n = rough.value.length;
  const room = poolTokens * PREFILTER_FACTOR;
  if (n > PREFILTER_MIN && rough.max > 0) return bestByValue(rough, room);
  const chosen = new Uint8Array(n);
  let left = room;
  for (let pos = 0; pos < n; pos++) {
    if (n > PREFILTER_MIN && left <= 0) break;
    left -= rough.cost[pos] as number;
    chosen[pos] = 1;
  }
  return chosen;
}

/** The best sentences by rough value until `room` is spent: a histogram of the values finds the
 * bucket where that room runs out; every sentence above it is in, and only that bucket is sorted
 * (by value, then position) to spend what is left. No sort of every sentence. */
export function bestByValue(rough: RoughValues, room: number): Uint8Array {
  const { value, cost, max } = rough;
  const n = value.length;
  const chosen = new Uint8Array(n);
  let roughRoom = room;
  const bucketCost = new Float64Array(BUCKETS);
  const bucketOf = (g: number): number => Math.min(BUCKETS - 1, Math.floor((g / max) * BUCKETS));
  for (let pos = 0; pos < n; pos++) {
    const b = bucketOf(value[pos] as number);
    bucketCost[b] = (bucketCost[b] as number) + (cost[pos] as number);
  }
  let left = roughRoom;
  let floor = 0;
  for (let b = BUCKETS - 1; b >= 0; b--) {
    left -= bucketCost[b] as number;
    if (left <= 0) {
      floor = b;
      break;
    }
  }
  const atFloor: number[] = [];
  for (let pos = 0; pos < n; pos++) {
    const b = bucketOf(value[pos] as number);
    if (b > floor) {
      chosen[pos] = 1;
      roughRoom -= cost[pos] as number;
    } else if (b === floor) atFloor.push(pos);
  }
  atFloor.sort((x, y) => (value[y] as number) - (value[x] as number) || x - y);
  for (const pos of atFloor) {
    if (roughRoom <= 0) break;
    roughRoom -= cost[pos] as number;
    chosen[pos] = 1;
  }
  return chosen;
}
