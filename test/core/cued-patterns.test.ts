// A pattern tried anywhere in a sentence only where its cue words are (sentence-memo.ts cued,
// mayHold): the answer must be the pattern's on any sentence, however its words are glued, cased
// or quoted.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sentencesOf } from '../../src/core/extract-sentences';
import type { ChatMessage } from '../../src/core/messages';
import { cued, mayHold } from '../../src/core/sentence-memo';

// Shaped as the cued patterns are: an alternative anchored at the start, others anywhere that each
// need one of the cue words; and one matching a character (`?`) besides its words.
const STEP = /\blet(?: me|['’]s)\b|^(?:(?:now|ok),?\s+)?(?:I need to|I['’]ll)\b/i;
const HEDGE = /\?|\b(?:might|maybe|not sure|seems? like)\b/i;
const step = cued(STEP, ['let', 'lets']);
const hedge = cued(HEDGE, ['might', 'maybe', 'sure', 'seem', 'seems'], '?');

const piece = fc.constantFrom(
  'let', 'Let', 'LET', ' me', "let's", 'let’s', 'lets', 'letme', 'I need to', 'I’ll', "I'll", 'Now, ', 'ok ', 'might', 'MAYBE', 'not sure', 'seems like', 'seem like',
  '?', '¿', "'", '’', '_', '9', 'é', 'ü', '会议', '😀', '-', '.', ',', ' ', '  ', '\t', 'x', 'the plan', '`code`', '[[Note]]', 'İ', 'K',
);
const text = fc.array(piece, { minLength: 1, maxLength: 14 }).map((xs) => xs.join(''));

describe('cued patterns', () => {
  it('answer as the pattern does on every sentence', () => {
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 3 }), fc.constantFrom<ChatMessage['role']>('assistant', 'user', 'tool'), (lines, role) => {
        const m: ChatMessage = role === 'tool' ? { id: 't', createdAt: 0, role, toolCallId: 'c', content: lines.join('\n') } : { id: 'm', createdAt: 0, role, content: lines.join('\n') };
        for (const s of sentencesOf([m])) {
          expect(step(s)).toBe(STEP.test(s.text));
          expect(hedge(s)).toBe(HEDGE.test(s.text));
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('say a sentence may hold a word wherever a pattern needing it as a word matches', () => {
    const EARLY = /^(?:\S+\s+){1,4}(?:it|this|that)\b(?!\s+(?:is|was)\b)/i;
    const may = mayHold(['it', 'this', 'that']);
    const words = fc.constantFrom('I', 'got', 'it', 'It', 'THIS', "that's", 'that’s', 'itself', 'thé', 'éit', 'it_', 'it9', 'is', ' ', '  ', '\t', ',', '.', '会议', "'", 'x');
    fc.assert(
      fc.property(fc.array(words, { minLength: 1, maxLength: 12 }), (xs) => {
        for (const s of sentencesOf([{ id: 'm', createdAt: 0, role: 'user', content: xs.join('') }])) if (!may(s)) expect(EARLY.test(s.text)).toBe(false);
      }),
      { numRuns: 3000 },
    );
  });

  it('refuses a pattern whose matches it cannot reason about', () => {
    expect(() => cued(/let/g, ['let'])).toThrow();
    expect(() => cued(/^let/m, ['let'])).toThrow();
  });
});
