import { describe, expect, it } from 'vitest';
import { NUMERIC, flagsOf, internWord, lookupWord, vocabSize, wordOf } from '../../src/core/vocab';

describe('the word table', () => {
  it('finds every word again, with its flags, across each growth of the table', () => {
    // Enough new words to grow the table several times from wherever other tests left it: a word
    // interned just as the table filled up once lost its hash and flags, so it was never found
    // again and a second intern gave it a second id.
    const start = vocabSize();
    const made: [string, number][] = [];
    for (let i = 0; i < Math.max(20_000, start * 3); i++) {
      const w = `vocabtest${i}`;
      made.push([w, internWord(w)]);
    }
    for (const [w, id] of made) {
      expect(lookupWord(w)).toBe(id);
      expect(internWord(w)).toBe(id);
      expect(wordOf(id)).toBe(w);
      // (Each word holds a digit: flagged numeric, like a date or a version.)
      expect(flagsOf(id) & NUMERIC).toBe(NUMERIC);
    }
  });
});
