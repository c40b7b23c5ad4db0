import { describe, expect, it } from 'vitest';
import { sentencesOf } from '../../src/core/extract-sentences';
import { NAME_WEIGHT, focusBooster, idsOf, markOf, weigher, wordMarks, wordRarity, NAME_MARK, CODE_MARK } from '../../src/core/fact-weights';
import type { ChatMessage } from '../../src/core/messages';
import { lookupWord, vocabSize } from '../../src/core/vocab';

const user = (id: string, content: string): ChatMessage => ({ id, createdAt: 0, role: 'user', content });
const id = (w: string): number => lookupWord(w);

describe('fact weights', () => {
  it('weighs a word by its rarity over the sentences and the carried facts', () => {
    const ss = sentencesOf([user('u1', 'The garden needs watering every morning. The garden shed holds the tomatoes. The garden gate squeaks.')]);
    const carried = [idsOf('Tomatoes ripen late in September.')];
    const { weights, idf } = wordRarity(ss, carried, vocabSize());
    // Four documents: "garden" in three, "tomatoes" in two, "shed" in one.
    expect(idf(id('garden'))).toBeCloseTo(Math.log(1 + 4 / 3));
    expect(idf(id('tomatoes'))).toBeCloseTo(Math.log(1 + 4 / 2));
    expect(weights[id('shed')]).toBeCloseTo(Math.log(1 + 4));
    expect(idf(id('shed'))).toBeGreaterThan(idf(id('tomatoes')));
    // A word in no counted text weighs as if seen once among them.
    const fresh = idsOf('zanzibarquux')[0]!;
    expect(idf(fresh)).toBeCloseTo(Math.log(1 + 4));
  });

  it('weighs names and numbers up, and code symbols when the text names code', () => {
    const ss = sentencesOf([user('u1', 'We met Priya near the harbour in town yesterday.'), user('u2', 'The snake_case helper parse_rows() splits rows.')]);
    const { idf } = wordRarity(ss, [], vocabSize());
    const weigh = weigher(idf);
    const named = ss[0]!;
    const marks = wordMarks(named.text, named.ids);
    const at = named.ids.indexOf(id('priya'));
    expect(markOf(marks, at)).toBe(NAME_MARK);
    const w = weigh(named.text, named.ids);
    expect(w[at]).toBeCloseTo(idf(id('priya')) * NAME_WEIGHT);
    const harbour = named.ids.indexOf(id('harbour'));
    expect(w[harbour]).toBeCloseTo(idf(id('harbour')));
    const code = ss[1]!;
    const symbol = code.ids.findIndex((x) => x === id('parse_rows'));
    expect(symbol).toBeGreaterThanOrEqual(0);
    expect(markOf(wordMarks(code.text, code.ids), symbol) & CODE_MARK).toBe(CODE_MARK);
    expect(weigh(code.text, code.ids)[symbol]).toBeGreaterThan(idf(code.ids[symbol]!));
  });

  it('keeps every word\'s marks, in sentences of few words and of more than the bit masks hold', () => {
    // Words w0 … wN in lower case, with a name, a number and a code symbol placed at given
    // positions: the marks read back at each position, short and long alike.
    for (const n of [5, 30, 31, 32, 45]) {
      const words = Array.from({ length: n }, (_, i) => `zq${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}word`);
      words[n - 1] = 'Zanzibarr';
      words[Math.floor(n / 2)] = `${200 + n}`;
      words[1] = 'parse_rows_x';
      const text = `${words.join(' ')} here.`;
      const s = sentencesOf([user(`long${n}`, text)])[0]!;
      const marks = wordMarks(s.text, s.ids);
      for (let i = 0; i < s.ids.length; i++) {
        const w = s.ids[i] === id('zanzibarr') || s.ids[i] === id(`${200 + n}`) ? NAME_MARK : 0;
        const c = s.ids[i] === id('parse_rows_x') ? CODE_MARK : 0;
        expect(markOf(marks, i)).toBe(w | c);
      }
    }
  });

  it('boosts a text by the share of the focus words it holds', () => {
    expect(focusBooster(new Set())(idsOf('anything at all here'))).toBe(1);
    const boost = focusBooster(new Set(idsOf('greyhound adoption')));
    expect(boost(idsOf('The greyhound sleeps all day.'))).toBe(2);
    expect(boost(idsOf('Her greyhound adoption went through.'))).toBe(3);
    expect(boost(idsOf('Nothing related.'))).toBe(1);
  });
});
