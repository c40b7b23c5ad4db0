// onlyShows reads a sentence's bracketed asides in one walk over the brackets and counts its own
// words in one walk that stops at the fifth: it must answer as the patterns it replaced did, on
// any text (brackets unbalanced or nested, colons inside and outside asides, Unicode spaces,
// letters outside the BMP, lone surrogates).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { onlyShows, opensOnPointer } from '../../src/core/salience';

const SHOWS = /^(?:(?:oh|hey|look|wow|so)[,!]?\s+)?(?:here(?:['’]s| is| are)|check (?:it|this|that) out|check out|look at (?:this|that|these|my)|take a look|this is (?:my|our|a pic|a photo)|that['’]s me)\b/i;
/** The patterns onlyShows was written with. */
function byPatterns(text: string): boolean {
  if (!text.includes('[')) return false;
  const asides = text.match(/\[[^\]]*\]/g) ?? [];
  if (asides.some((a) => /\d|\s\p{Lu}/u.test(a.slice(a.indexOf(':') + 2)))) return false;
  const own = text.replace(/\[[^\]]*\]/g, ' ').trim();
  return SHOWS.test(own) || own.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length < 5;
}

const pieces = ['[', ']', '[[', ']]', ':', ': ', ' ', '  ', '\n', '\u00a0', '\u3000', 'a', 'word', 'Big', '7', 'é', 'Él', '会议', '😀', '𝐀', '\ud83d', '\ude00', '.', ',', '!', "Here's", 'check this out', 'shares a photo', 'Kilimanjaro', 'x_y', '-', '*'];
const text = fc.array(fc.constantFrom(...pieces), { maxLength: 40 }).map((xs) => xs.join(''));

describe('onlyShows', () => {
  it('answers as the patterns it replaced, on any text', () => {
    fc.assert(
      fc.property(text, (t) => {
        expect(onlyShows(t)).toBe(byPatterns(t));
      }),
      { numRuns: 3000 },
    );
  });

  it('reads pictures and their descriptions', () => {
    const cases = [
      "Here's my latest one! [shares a photo: a photo of a group of people]",
      'We won! [shares a photo: Kilimanjaro summit sign, 5895 metres]',
      'Check this out! [image: a cat]',
      'The roadmap note [[invoice/Fatima]] needs 477 more entries by 2 March.',
      '[a] b [c',
      'one two three four [x] five',
    ];
    expect(cases.map(onlyShows)).toEqual(cases.map(byPatterns));
    expect(cases.map(onlyShows)).toEqual([true, false, true, false, true, false]);
  });
});

describe('opensOnPointer', () => {
  /** The pattern firstWord was written with. */
  const POINTERS = new Set("it its it's this that that's these those he he's she she's they they're him her them his their there there's such both which".split(' '));
  const byPattern = (text: string): boolean => {
    const m = /^[^\p{L}]*([\p{L}'’]+)/u.exec(text);
    return POINTERS.has((m?.[1] ?? '').toLowerCase().replace(/’/g, "'"));
  };
  it('reads the first word as the pattern does, on any text', () => {
    const piece = fc.constantFrom('It', "it's", 'It’s', 'THAT', 'this', 'Thé', 'é', 'they', "'", '’', ' ', '.', '"', '*', 'x', 'He', '2', 'there', 'both', '😀');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 6 }), (xs) => {
        const t = xs.join('');
        expect(opensOnPointer(t)).toBe(byPattern(t));
      }),
      { numRuns: 3000 },
    );
  });
});
