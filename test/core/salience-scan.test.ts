// onlyShows reads a sentence's bracketed asides in one walk over the brackets and counts its own
// words in one walk that stops at the fifth: it must answer as the patterns it replaced did, on
// any text (brackets unbalanced or nested, colons inside and outside asides, Unicode spaces,
// letters outside the BMP, lone surrogates).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isCjkLetter, leansOnUnnamed, onlyShows, opensOnPointer } from '../../src/core/salience';

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

  /** opensOnPointer as written with its patterns (the reply words before the pointer too). */
  const ALL_POINTERS = new Set(
    ("it its it's it'll it'd this this'll that that's that'll that'd these those he he's he'll he'd she she's she'll she'd " +
      "they they're they'll they've they'd him her them his their there there's there'll such both which").split(' '),
  );
  const AGREES = /^[^\p{L}]*(?:yes|yeah|yep|yup|definitely|absolutely|totally|exactly|sure|of course|true|indeed|haha|ha)\b[,!.]*\s+/iu;
  const ANSWERS_NO = /^[^\p{L}]*(?:not yet|not really|not at all|nope|nah|no)\b[,!.]/iu;
  const firstOf = (text: string): string => (/^[^\p{L}]*([\p{L}'’]+)/u.exec(text)?.[1] ?? '').toLowerCase().replace(/’/g, "'");
  const reference = (text: string): boolean => {
    if (text.startsWith('A: ')) return true;
    const first = firstOf(text);
    if (first === 'which' && /\?["'”’)\]]*$/u.test(text.trim())) return false;
    if (ALL_POINTERS.has(first) || ANSWERS_NO.test(text)) return true;
    const agrees = AGREES.exec(text);
    if (!agrees) return false;
    const rest = text.slice(agrees[0].length);
    return ALL_POINTERS.has(firstOf(rest)) || ANSWERS_NO.test(rest);
  };
  it('answers as its patterns do, replies and CJK openings included', () => {
    const piece = fc.constantFrom('Yes', 'yes', 'YES', 'ſure', 'Sure', 'of course', 'Of', 'no', 'No', 'nope', 'Nah', 'not yet', 'not really', 'haha', 'ha', 'hahaha', 'yesé', ',', '!', '.', ' ', '  ', '\t', '会议', '한국', '㐀', '々', '〇', 'it', "it's", 'That', 'They’re', 'which', '?', 'é', 'İndeed', '\u212a', '5', "'", '’', '"', '(', 'A: ', 'A', ':', 'x', 'Aiko', 'Noor');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), (xs) => {
        const t = xs.join('');
        expect(opensOnPointer(t)).toBe(reference(t));
      }),
      { numRuns: 5000 },
    );
    // (Shaped as a reply: marks, a reply's word, a separator, then anything.)
    const reply = fc.constantFrom('Yes', 'yes', 'ſure', 'Sure', 'of course', 'No', 'nope', 'Nah', 'not yet', 'haha', 'hahaha', 'Indeed', 'İndeed', 'yesé', 'Aiko', '会议', 'it');
    const shaped = fc.tuple(fc.constantFrom('', '"', '(', '5', '*', '— '), reply, fc.constantFrom('', ' ', ', ', ',', '! ', '.', '.. ', '\t', "'"), fc.array(piece, { maxLength: 4 }));
    fc.assert(
      fc.property(shaped, ([pre, word, sep, rest]) => {
        const t = pre + word + sep + rest.join('');
        expect(opensOnPointer(t)).toBe(reference(t));
      }),
      { numRuns: 5000 },
    );
  });
  it('takes as letters every code unit it skips as a CJK or Hangul opening', () => {
    for (let c = 0; c < 0x10000; c++) if (isCjkLetter(c)) expect(/^\p{L}$/u.test(String.fromCharCode(c))).toBe(true);
  });
});

describe('leansOnUnnamed', () => {
  it('tells a line pointing at a thing it does not name from one pointing at a time', () => {
    expect(leansOnUnnamed('On that fridge door, I pinned some recipes.')).toBe(true);
    expect(leansOnUnnamed('I had this custom made by a friend of mine.')).toBe(true);
    expect(leansOnUnnamed("It's a book by an author I love.")).toBe(true);
    expect(leansOnUnnamed('This week I started a new strength routine.')).toBe(false);
    expect(leansOnUnnamed('We finally moved that weekend into a new flat.')).toBe(false);
    expect(leansOnUnnamed('I adopted a puppy from the shelter last month.')).toBe(false);
  });
});
