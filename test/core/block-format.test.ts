// How key facts are written as lines (block-format.ts groupFacts): one turn per line, but an item
// of an answer's list opening on its bold term stands on a line of its own (issue 29: two items
// glued on one line read as one run-on sentence). Hand-written facts only.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bySeq, groupFacts, groupKeyOf, sameGroup } from '../../src/core/block-format';
import type { SourcedLine } from '../../src/core/record';

const fact = (text: string, index: number, source = 'a1'): SourcedLine => ({ text, sources: [source], at: 0, score: 1, round: 1, seq: 1e9 + 5e4 + index });

describe('key facts one turn per line', () => {
  it('ends a line that stopped on a comma there, not with a comma and a stop', () => {
    const roleOf = (): string => 'assistant';
    expect(groupFacts([fact('The lantern hangs above the harbour wall,', 0), fact('And every boat comes home beneath its light;', 1)], roleOf)).toEqual([
      '- Assistant: The lantern hangs above the harbour wall. And every boat comes home beneath its light.',
    ]);
  });

  it('joins plain sentences of one message, never two items of its list', () => {
    const roleOf = (): string => 'assistant';
    expect(groupFacts([fact('Khan Academy has free video lectures.', 0), fact('Coursera offers courses from MoMA.', 1)], roleOf)).toEqual([
      '- Assistant: Khan Academy has free video lectures. Coursera offers courses from MoMA.',
    ]);
    expect(groupFacts([fact('**Khan Academy**: free video lectures on art history.', 0), fact('**Coursera**: courses from MoMA and Edinburgh.', 1)], roleOf)).toEqual([
      '- Assistant: **Khan Academy**: free video lectures on art history.',
      '- Assistant: **Coursera**: courses from MoMA and Edinburgh.',
    ]);
  });
});

describe('a sentence said once on its line', () => {
  it('leaves out a fact the next fact of the line opens on (a referent carried with the sentence after it)', () => {
    const roleOf = (): string => 'user';
    const choice = "I think I'll go with the second question.";
    expect(groupFacts([fact(choice, 0, 'u1'), fact(`${choice} It seems more engaging to my followers.`, 1, 'u1')], roleOf)).toEqual([`- User: ${choice} It seems more engaging to my followers.`]);
    expect(groupFacts([fact('I bought a road bike.', 0, 'u1'), fact('I ride it to work.', 1, 'u1')], roleOf)).toEqual(['- User: I bought a road bike. I ride it to work.']);
  });
});

describe('facts in conversation order (bySeq)', () => {
  // (The layout sorts the facts on every try of a render; bySeq sorts them as numbers. Its order
  // must be the comparator sort's, ties in their order, whatever the seqs.)
  const seqs = fc.oneof(
    fc.constant(undefined),
    fc.integer({ min: 0, max: 40 }),
    fc.integer({ min: 1, max: 5 }).chain((round) => fc.integer({ min: 0, max: 3000 }).map((m) => round * 1e9 + m * 1e4)),
    fc.double({ min: -5, max: 1e16, noNaN: true }),
    fc.constant(2 ** 53 - 1),
  );
  it('is the stable comparator sort', () => {
    fc.assert(
      fc.property(fc.array(seqs, { maxLength: 300 }), (xs) => {
        const facts = xs.map((seq, i): SourcedLine => ({ text: `f${i}`, sources: [`m${i}`], at: 0, score: 1, round: 1, ...(seq === undefined ? {} : { seq }) }));
        const expected = [...facts].sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0));
        const got = bySeq(facts);
        expect(got.length).toBe(expected.length);
        got.forEach((f, i) => expect(f).toBe(expected[i]));
      }),
      { numRuns: 300 },
    );
  });
});

describe('a line\'s group key compared by its parts (sameGroup)', () => {
  it('is the comparison of the key strings, ids holding # and suffix-like words included', () => {
    const id = fc.array(fc.constantFrom('a', 'b', '#', 'item', 'listed', '1', '2', '0'), { maxLength: 5 }).map((xs) => xs.join(''));
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 }), id, fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 2 }), id, fc.integer({ min: 1, max: 30 }), (kind, a, at, gKind, b, later) => {
        const i = at + later;
        expect(sameGroup(kind, a, i, gKind, b, at)).toBe(groupKeyOf(kind, a, i) === groupKeyOf(gKind, b, at));
      }),
      { numRuns: 2000 },
    );
  });
});
