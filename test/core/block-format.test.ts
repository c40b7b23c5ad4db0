// How key facts are written as lines (block-format.ts groupFacts): one turn per line, but an item
// of an answer's list opening on its bold term stands on a line of its own (issue 29: two items
// glued on one line read as one run-on sentence). Hand-written facts only.
import { describe, expect, it } from 'vitest';
import { groupFacts } from '../../src/core/block-format';
import type { SourcedLine } from '../../src/core/record';

const fact = (text: string, index: number, source = 'a1'): SourcedLine => ({ text, sources: [source], at: 0, score: 1, round: 1, seq: 1e9 + 5e4 + index });

describe('key facts one turn per line', () => {
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
