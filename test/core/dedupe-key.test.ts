// dedupeKey reads text in one walk (its runs of letters and digits, lowercased; past ASCII each
// code unit's class asked of the pattern once): it must give what the patterns give, on any text.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dedupeKey } from '../../src/core/text';

const byPatterns = (text: string): string => {
  const ascii = [...text].every((c) => c.charCodeAt(0) <= 127);
  return ascii ? text.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim() : text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
};

describe('dedupeKey', () => {
  it('gives the patterns’ key for ASCII and other text', () => {
    const piece = fc.constantFrom('a', 'Z', 'Word', '42', ' ', '  ', '\t', '\n', '-', '_', '.', '!', '[[x]]', '`c`', 'é', 'İ', '会议', '😀', '𝐀', '𠀀', '\uD800', '\uDC00', 'ΟΔΟΣ', '٣', '½', '\u0301', '　');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (xs) => {
        const t = xs.join('');
        expect(dedupeKey(t)).toBe(byPatterns(t));
      }),
      { numRuns: 2000 },
    );
    for (const unit of ['grapheme', 'binary'] as const) {
      fc.assert(
        fc.property(fc.string({ unit, maxLength: 60 }), (t) => {
          expect(dedupeKey(t)).toBe(byPatterns(t));
        }),
        { numRuns: 2000 },
      );
    }
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (t) => {
        expect(dedupeKey(t)).toBe(byPatterns(t));
      }),
      { numRuns: 2000 },
    );
  });
});
