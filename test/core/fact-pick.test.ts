import { describe, expect, it } from 'vitest';
import { type Candidate, COST_OFFSET } from '../../src/core/fact-candidates';
import { carriedCap, coveredWeightFor, coveredWords, gainOf, pickFacts } from '../../src/core/fact-pick';
import { internWord, lookupWord } from '../../src/core/vocab';

let next = 0;
const cand = (text: string, words: string[], over: Partial<Candidate> = {}): Candidate => {
  const pos = next++;
  const ids = words.map(internWord);
  return { text, sources: [`m${pos}`], at: 0, pos, round: 1, seq: pos, group: pos, ids, weights: ids.map(() => 1), boost: 1, cost: 1, ...over };
};

describe('fact pick', () => {
  it('counts covered words for a share that grows with the pool', () => {
    expect(coveredWeightFor(600)).toBeCloseTo(0.2);
    expect(coveredWeightFor(1250)).toBeCloseTo(0.2);
    expect(coveredWeightFor(2500)).toBeCloseTo(0.275);
    expect(coveredWeightFor(50000)).toBeCloseTo(0.35);
    const c = cand('a', ['kayak', 'paddle']);
    const covered = coveredWords(['kayak']);
    expect(covered[lookupWord('kayak')]).toBe(1);
    expect(gainOf(c, covered, 0.5)).toBeCloseTo(1.5 / (1 + COST_OFFSET));
    // A shown fact keeps the gain it had before coverage.
    expect(gainOf({ ...c, shown: 1, fixedGain: 7 }, covered, 0.5)).toBe(7);
  });

  it('picks for novelty: a repeat of what is picked counts only for what it adds', () => {
    const a = cand('Kayak trip on the Wye river in May.', ['kayak', 'trip', 'wye', 'river', 'may']);
    const b = cand('The kayak trip on the Wye river.', ['kayak', 'trip', 'wye', 'river']);
    const c = cand('Bought new hiking boots.', ['bought', 'hiking', 'boots']);
    const picked = pickFacts([a, b, c], coveredWords([]), 100, 0);
    expect(picked.map((f) => f.text)).toEqual([a.text, c.text, b.text]);
    expect(picked[0]!.score).toBeCloseTo(5 / 10, 3);
  });

  it('picks one candidate per group, a pair rules out its referent, and a text once', () => {
    const alone = cand('Referent alone here.', ['referent', 'alone']);
    const pair = cand('Referent alone here. It leans on it.', ['referent', 'alone', 'leans'], { alsoGroup: alone.group, boost: 2 });
    const clause = cand('Pair clause', ['clause'], { group: pair.group });
    const twin = cand(pair.text.toUpperCase(), ['zzz']);
    const picked = pickFacts([alone, pair, clause, twin], coveredWords([]), 100, 0);
    expect(picked.map((f) => f.text)).toEqual([pair.text]);
  });

  it('stops at the pool, and carried facts at the pool less the fresh reserve', () => {
    const fresh = [cand('n1', ['n1'], { cost: 10 }), cand('n2', ['n2'], { cost: 10 })];
    const old = [1, 2, 3, 4].map((i) => cand(`c${i}`, [`c${i}`], { group: -i, cost: 10, boost: 10, round: 0 }));
    expect(carriedCap([...fresh, ...old], 40, 0.25)).toBe(30);
    expect(carriedCap([...fresh, ...old], 40, 0.9)).toBe(20);
    const picked = pickFacts([...fresh, ...old], coveredWords([]), 40, 0.25);
    expect(picked.map((f) => f.text)).toEqual(['c1', 'c2', 'c3', 'n1']);
  });
});
