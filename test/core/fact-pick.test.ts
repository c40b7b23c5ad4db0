import { describe, expect, it } from 'vitest';
import { type Candidate, COST_OFFSET } from '../../src/core/fact-candidates';
import { carriedCap, coverThreads, coveredWeightFor, coveredWords, gainOf, keepThreadsBest, pickFacts } from '../../src/core/fact-pick';
import type { Sentence } from '../../src/core/extract-sentences';
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

describe('a line of every thread in the pool (with an assistant)', () => {
  it('adds to a thread with nothing picked but the user about themselves its list, else the assistant, else its best', () => {
    const picked = cand('I run a bakery in Leeds with my sister.', ['bakery', 'leeds', 'sister'], { boost: 9, about: true, sources: ['u1'] });
    const ownOnly = cand('The Gardena kit waters twenty plants.', ['gardena', 'kit', 'waters'], { sources: ['a2'], assistant: true, seq: 20 });
    const userQ = cand('Which tomato kit suits raised beds?', ['tomato', 'kit', 'raised', 'beds', 'suits'], { sources: ['u2'], boost: 3, seq: 19 });
    const list = cand('Box 1; Box 3', ['box'], { sources: ['a3'], listed: true, assistant: true, seq: 31 });
    const rich = cand('Mortgage interest goes in box 1 under eigen woning rules.', ['mortgage', 'interest', 'box', 'eigen', 'woning'], { sources: ['a3b'], assistant: true, seq: 30 });
    const onlyUser = cand('I want a cheaper flight to Lisbon in May.', ['cheaper', 'flight', 'lisbon'], { sources: ['u4'], seq: 40 });
    const threadOf = new Map([['u1', 1], ['a2', 2], ['u2', 2], ['a3', 3], ['a3b', 3], ['u4', 4]]);
    const covered = coveredWords([]);
    const pool = pickFacts([picked], covered, 100, 0);
    const out = coverThreads([picked, ownOnly, userQ, list, rich, onlyUser], pool, threadOf, covered, 0.2);
    // Thread 1 holds only what the user said of themselves: it gets its best line too.
    expect(out.map((f) => f.text)).toEqual([picked.text, ownOnly.text, list.text, onlyUser.text]);
    // In the order of the conversation, after the pool.
    expect(out.slice(1).map((f) => f.sources[0])).toEqual(['a2', 'a3', 'u4']);
  });

  it('adds nothing to a thread that has a line', () => {
    const a = cand('The Gardena kit waters twenty plants.', ['gardena', 'kit', 'waters'], { sources: ['a1'], assistant: true });
    const b = cand('Drippers sit ten centimetres from the stem.', ['drippers', 'stem'], { sources: ['a2'], assistant: true });
    const covered = coveredWords([]);
    const pool = pickFacts([a], covered, 100, 0);
    expect(coverThreads([a, b], pool, new Map([['a1', 1], ['a2', 1]]), covered, 0.2)).toEqual(pool);
  });

  it('keeps each thread’s best sentences through the prefilter', () => {
    const s = (id: string, role: 'user' | 'assistant') => ({ id, role }) as unknown as Sentence;
    const usable = [s('u1', 'user'), s('a1', 'assistant'), s('a1', 'assistant'), s('u2', 'user')];
    const chosen = new Uint8Array(4);
    keepThreadsBest(usable, Float64Array.from([5, 1, 2, 0.5]), chosen, new Map([['u1', 1], ['a1', 1], ['u2', 2]]));
    expect([...chosen]).toEqual([1, 0, 1, 1]);
  });
});
