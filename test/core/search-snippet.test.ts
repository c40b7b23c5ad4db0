import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { searchSnippet } from '../../src/core/search-snippet';

const marked = (s: { text: string; marks: [number, number][] }): string[] => s.marks.map(([a, b]) => s.text.slice(a, b));

describe('searchSnippet', () => {
  it('marks the words the index matched, inflected forms included, and not the stopwords', () => {
    const s = searchSnippet('I recommended the Bluebird bakery on Cooper Lane.', 'which bakery did you recommend');
    expect(s.text).toBe('I recommended the Bluebird bakery on Cooper Lane.');
    expect(marked(s)).toEqual(['recommended', 'bakery']);
  });

  it('cuts a long message around the densest run of matches, with an ellipsis on each cut side', () => {
    const text = `${'Filler words about nothing at all. '.repeat(20)}Then the Bluebird bakery on Cooper Lane sold rye. ${'More filler to follow here. '.repeat(20)}`;
    const s = searchSnippet(`Bluebird mentioned once early. ${text}`, 'Bluebird bakery Cooper', 80);
    expect(s.text.startsWith('…') && s.text.endsWith('…')).toBe(true);
    expect(marked(s)).toEqual(['Bluebird', 'bakery', 'Cooper']);
    expect(s.text.length).toBeLessThanOrEqual(82);
  });

  it('shows the start, unmarked, when no word matches', () => {
    const s = searchSnippet('Short reply.', 'zeppelin');
    expect(s).toEqual({ text: 'Short reply.', marks: [] });
  });

  it('marks CJK bigrams inside a run', () => {
    const s = searchSnippet('我们昨天在东京吃了拉面。', '东京');
    expect(marked(s)).toEqual(['东京']);
  });

  it('never cuts a surrogate pair, and its marks lie in the text in order (property)', () => {
    const piece = fc.constantFrom('bakery ', '😀', 'rye ', ' ', 'x', '\n', '𝒜', 'bread');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 120 }), fc.integer({ min: 10, max: 60 }), (parts, max) => {
        const s = searchSnippet(parts.join(''), 'bakery bread', max);
        expect(s.text).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
        let last = 0;
        for (const [a, b] of s.marks) {
          expect(a).toBeGreaterThanOrEqual(last);
          expect(b).toBeLessThanOrEqual(s.text.length);
          expect(['bakery', 'bread']).toContain(s.text.slice(a, b));
          last = b;
        }
      }),
      { numRuns: 300 },
    );
  });
});
