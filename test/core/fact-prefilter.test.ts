import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PREFILTER_MIN, bestByValue, prefilter, roughValues } from '../../src/core/fact-prefilter';
import { sentencesOf } from '../../src/core/extract-sentences';
import { vocabSize } from '../../src/core/vocab';

const rough = (values: number[], costs: number[]) => ({ value: Float64Array.from(values), cost: Float64Array.from(costs), max: Math.max(0, ...values) });
const sum = (xs: Float64Array, chosen: Uint8Array): number => xs.reduce((n, x, i) => n + (chosen[i] ? x : 0), 0);

describe('fact prefilter', () => {
  it('values a sentence by its words and prior per token', () => {
    const ss = sentencesOf([{ id: 'u1', createdAt: 0, role: 'user', content: 'Priya moved to Lisbon in March. Priya moved to Lisbon in March and loves the tram rides.' }]);
    const weights = new Float64Array(vocabSize()).fill(1);
    const r = roughValues(ss, weights, () => 1);
    expect(r.cost[1]).toBeGreaterThan(r.cost[0]!);
    expect(r.max).toBe(Math.max(r.value[0]!, r.value[1]!));
    const doubled = roughValues(ss, weights, () => 2);
    expect(doubled.value[0]).toBeCloseTo(2 * r.value[0]!);
  });

  it('ranks every sentence of a short conversation', () => {
    const n = PREFILTER_MIN;
    const chosen = prefilter(rough(Array.from({ length: n }, (_, i) => i), new Array<number>(n).fill(10)), 1);
    expect(chosen.every((x) => x === 1)).toBe(true);
  });

  it('keeps the best of a long conversation until four times the pool, never a worse one before a better', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.double({ min: 0, max: 100, noNaN: true }), fc.integer({ min: 1, max: 40 })), { minLength: 1, maxLength: 300 }), fc.integer({ min: 1, max: 2000 }), (xs, room) => {
        const r = rough(
          xs.map((x) => x[0]),
          xs.map((x) => x[1]),
        );
        if (r.max <= 0) return;
        const chosen = bestByValue(r, room);
        let worstIn = Infinity;
        let bestOut = -Infinity;
        chosen.forEach((c, i) => (c ? (worstIn = Math.min(worstIn, r.value[i]!)) : (bestOut = Math.max(bestOut, r.value[i]!))));
        expect(worstIn).toBeGreaterThanOrEqual(bestOut);
        // The room is spent, unless everything fits in it.
        if (chosen.some((c) => !c)) expect(sum(r.cost, chosen)).toBeGreaterThanOrEqual(room);
      }),
    );
    const n = PREFILTER_MIN + 100;
    const values = Array.from({ length: n }, (_, i) => i);
    const chosen = prefilter(rough(values, new Array<number>(n).fill(4)), 10);
    // 40 tokens of room: the ten best sentences.
    expect([...chosen.keys()].filter((i) => chosen[i])).toEqual(values.slice(-10));
  });
});
