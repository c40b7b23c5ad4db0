// Word pairs of a query found side by side: stopwords skipped on both sides, order kept, each pair
// once; (property) every pair of a text occurs in that text.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { searchTerms } from '../../src/core/search-terms';
import { contentTerms, pairCounts, queryPairs } from '../../src/core/term-pairs';
import { STOPWORDS } from '../../src/core/words';

describe('term pairs', () => {
  it('pairs neighbouring words of the query, stopwords skipped, stemmed, each pair once', () => {
    expect(queryPairs('Did I participate in the 5K charity run?')).toEqual(['participat 5k', '5k charity', 'charity run']);
    expect(queryPairs('charity run, charity run')).toEqual(['charity run', 'run charity']);
    // A word twice in a row is no pair; a lone word has none.
    expect(queryPairs('run run')).toEqual([]);
    expect(queryPairs('what was it about the marathon?')).toEqual([]);
  });

  it('counts a pair only side by side and in its order', () => {
    const pairs = queryPairs('the 5K charity run');
    expect(pairCounts('I did a 5K charity run today, my first charity run.', pairs)).toEqual([1, 2]);
    expect(pairCounts('I helped at a charity 5K run/walk.', pairs)).toEqual([0, 0]);
    expect(pairCounts('We run for charity every year.', pairs)).toEqual([0, 0]);
    // Stopwords between the two words do not part them.
    expect(pairCounts('A 5K for the charity, then the run.', pairs)).toEqual([1, 1]);
    expect(pairCounts('anything', [])).toEqual([]);
  });

  it('finds every pair of a text in that text (property)', () => {
    const word = fc.constantFrom('the', 'charity', 'run', 'in', 'garden', 'pond', 'liner', 'I', 'ran', 'runs', '5K', 'über', '東京タワー');
    fc.assert(
      fc.property(fc.array(word, { maxLength: 12 }), (words) => {
        const text = words.join(' ');
        const pairs = queryPairs(text);
        expect(pairCounts(text, pairs).every((n) => n >= 1)).toBe(true);
        expect(pairs.length).toBeLessThanOrEqual(Math.max(0, contentTerms(text).length - 1));
      }),
    );
  });

  it('gives the terms the index gives, stopwords left out (property)', () => {
    const word = fc.constantFrom('The', 'running', 'runs', 'I', "don't", 'über', 'Cafés', '東京タワー', 'iPhone15の', '5K', 'charity', 'was', 'x');
    fc.assert(
      fc.property(fc.array(word, { maxLength: 10 }), fc.constantFrom(' ', ', ', '\n'), (words, sep) => {
        const text = words.join(sep);
        const raw = searchTerms(text, { stem: false });
        expect(contentTerms(text)).toEqual(searchTerms(text).filter((_, i) => !STOPWORDS.has(raw[i] ?? '')));
      }),
    );
  });
});
