// A thread's profile keeps its most said words (threads.ts): topCounts picks them without sorting
// every word, and must give what the sort gave.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { topCounts } from '../../src/core/top-counts';

describe('topCounts', () => {
  it('is the first k of the sort by count, then by key', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.string({ maxLength: 4 }), fc.integer({ min: 0, max: 6 })), { maxLength: 120 }), fc.integer({ min: 0, max: 30 }), (entries, k) => {
        const counts = new Map(entries);
        const sorted = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, k);
        expect(topCounts(counts, k)).toEqual(sorted);
      }),
      { numRuns: 300 },
    );
  });
});
