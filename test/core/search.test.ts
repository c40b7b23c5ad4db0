import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SearchIndex, parseQuery, phraseTest } from '../../src/core/search';
import { searchTerms, stemWord } from '../../src/core/search-terms';
import { HistoryIndex, pointedRole, rankWithNeighbours } from '../../src/core/search-history';
import { topSlots } from '../../src/core/search';

const keys = (index: SearchIndex<string>, query: string, limit = 10): string[] => index.search(query, limit).map((h) => h.key);

describe('search terms', () => {
  it('stems the forms a question and an answer differ by onto one key', () => {
    expect(stemWord('recommended')).toBe(stemWord('recommend'));
    expect(stemWord('bakes')).toBe(stemWord('baking'));
    expect(stemWord('shopping')).toBe(stemWord('shop'));
    expect(stemWord('parties')).toBe(stemWord('party'));
    // Short words, words with digits and non-Latin words are left alone.
    expect(stemWord('was')).toBe('was');
    expect(stemWord('mp3s')).toBe('mp3s');
    expect(stemWord('straße')).toBe('straße');
  });

  it('splits CJK runs into bigrams and keeps Latin words inside them whole', () => {
    expect(searchTerms('东京拉面')).toEqual(['东京', '京拉', '拉面']);
    expect(searchTerms('我的iPhone很好')).toEqual(['我的', stemWord('iphone'), '很好']);
    expect(searchTerms('日')).toEqual(['日']);
  });

  it('folds case and compatibility forms', () => {
    expect(searchTerms('ＡＢＣ Café', { stem: false })).toEqual(['abc', 'café']);
  });

  it('reads quoted phrases and leaves out stopwords unless the query is only stopwords', () => {
    expect(parseQuery('what did "Main Street" say')).toEqual({ terms: ['main', 'street'], weights: [1, 1], phrases: ['main street'] });
    expect(parseQuery('what was it').terms).toEqual(['what', 'was', 'it']);
  });

  it('keeps stopwords at a fraction of their weight when asked to', () => {
    expect(parseQuery('what did Anna say', { stopwordWeight: 0.5 })).toEqual({ terms: ['what', 'did', 'anna', 'say'], weights: [0.5, 0.5, 1, 0.5], phrases: [] });
    // A query of stopwords only still ranks by all of them, fully.
    expect(parseQuery('what was it', { stopwordWeight: 0.5 }).weights).toEqual([1, 1, 1]);
  });
});

describe('SearchIndex', () => {
  it('ranks the message naming the rare word first, and matches inflected forms', () => {
    const index = new SearchIndex<string>();
    index.add('a', 'We talked about the weather and the weekend.');
    index.add('b', 'I recommended the Bluebird bakery on Main Street.');
    index.add('c', 'The weather was fine; we walked to the bakery later.');
    expect(keys(index, 'Which bakery did you recommend?')[0]).toBe('b');
    expect(keys(index, 'recommending')).toEqual(['b']);
  });

  it('keeps only documents holding every quoted phrase', () => {
    const index = new SearchIndex<string>();
    index.add('a', 'street food on the main square');
    index.add('b', 'the shop on Main  Street');
    expect(keys(index, 'main street')).toEqual(expect.arrayContaining(['a', 'b']));
    expect(keys(index, '"main street"')).toEqual(['b']);
  });

  it('finds Chinese and Japanese text by its words', () => {
    const index = new SearchIndex<string>();
    index.add('zh', '我们昨天在东京吃了拉面。');
    index.add('ja', '明日は京都でお寺を見ます。');
    index.add('en', 'We ate ramen in Tokyo.');
    expect(keys(index, '东京拉面')).toEqual(['zh']);
    expect(keys(index, '京都')).toEqual(['ja']);
  });

  it('breaks ties by insertion order, the same way every time', () => {
    const index = new SearchIndex<number>();
    for (let i = 0; i < 5; i++) index.add(i, 'the same words in each');
    expect(index.search('words', 5).map((h) => h.key)).toEqual([0, 1, 2, 3, 4]);
    expect(index.search('words', 2).map((h) => h.key)).toEqual([0, 1]);
  });

  it('forgets removed documents, and re-adding a key replaces it', () => {
    const index = new SearchIndex<string>();
    index.add('a', 'apples and pears');
    index.add('b', 'pears only');
    index.remove('a');
    expect(keys(index, 'apples')).toEqual([]);
    expect(keys(index, 'pears')).toEqual(['b']);
    expect(index.size).toBe(1);
    index.add('b', 'plums now');
    expect(keys(index, 'pears')).toEqual([]);
    expect(keys(index, 'plums')).toEqual(['b']);
  });

  it('weights fields: a word in a weighted title outranks the same word in a body', () => {
    const index = new SearchIndex<string>();
    index.add('body', [
      { text: 'Notes', weight: 3 },
      { text: 'something about gardening and compost', weight: 1 },
    ]);
    index.add('title', [
      { text: 'Compost', weight: 3 },
      { text: 'something about gardening and soil', weight: 1 },
    ]);
    expect(keys(index, 'compost')[0]).toBe('title');
  });

  it('lends a share of a match to its neighbours, never more than the match itself', () => {
    const index = new SearchIndex<number>();
    ['Where did you go in March?', 'To Lisbon, for the tiles.', 'Nice.'].forEach((t, i) => index.add(i, t));
    const ranked = rankWithNeighbours(index, 'Lisbon', 3);
    expect(ranked.map((h) => h.key)).toEqual([1, 0, 2]);
  });

  it('a stopword at half weight tells apart two otherwise equal messages; dropped, it cannot', () => {
    const texts = ['my sister moved to Oslo', 'your sister moved to Oslo'];
    const half = new SearchIndex<number>({ stopwordWeight: 0.5 });
    const dropped = new SearchIndex<number>();
    texts.forEach((t, i) => {
      half.add(i, t);
      dropped.add(i, t);
    });
    expect(half.search('where did your sister move', 2).map((h) => h.key)).toEqual([1, 0]);
    const [a, b] = dropped.search('where did your sister move', 2);
    expect(a?.score).toBe(b?.score);
  });

  it('with stopwords kept at a fraction, a document matching only stopwords is no hit', () => {
    const index = new SearchIndex<number>({ stopwordWeight: 0.5 });
    ['what did you do', 'the rye bread was good', 'I did the dishes'].forEach((t, i) => index.add(i, t));
    expect(index.search('what did I do with the bread', 3).map((h) => h.key)).toEqual([1]);
    // A query of stopwords only still finds what holds them.
    expect(index.search('what did you do', 3).map((h) => h.key)[0]).toBe(0);
  });

  it('selects the best slots in one pass, ties by slot, zero scores left out', () => {
    const scores = Float64Array.from([0, 2, 5, 2, 0, 7, 2]);
    expect(topSlots(scores, 3)).toEqual([[5, 7], [2, 5], [1, 2]]);
    expect(topSlots(scores, 10).map(([s]) => s)).toEqual([5, 2, 1, 3, 6]);
    expect(topSlots(scores, 0)).toEqual([]);
  });

  const word = fc.stringMatching(/^[a-z]{3,8}$/);
  it('returns a message containing every query word in order (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.array(word, { minLength: 1, maxLength: 12 }), { maxLength: 30 }), fc.array(word, { minLength: 1, maxLength: 4 }), fc.array(word, { maxLength: 6 }), (others, query, filler) => {
        const index = new SearchIndex<number>();
        others.forEach((words, i) => index.add(i, words.join(' ')));
        const target = others.length;
        index.add(target, [...filler, ...query, ...filler].join(' '));
        const all = index.size;
        expect(index.search(query.join(' '), all).map((h) => h.key)).toContain(target);
        expect(index.search(`"${query.join(' ')}"`, all).map((h) => h.key)).toContain(target);
      }),
      { numRuns: 200 },
    );
  });
});

describe('history search', () => {
  it("reads whose messages a question points at, from the asker's side", () => {
    expect(pointedRole('what did you recommend', 'user')).toBe('assistant');
    expect(pointedRole('which car did I buy', 'user')).toBe('user');
    // "you" wins over the "I" that frames a question.
    expect(pointedRole('I was wondering which companies you mentioned', 'user')).toBe('assistant');
    // The model asking: its "I" is the assistant, its "you" the user.
    expect(pointedRole('what I recommended', 'assistant')).toBe('assistant');
    expect(pointedRole('bakery on Main Street', 'user')).toBeNull();
  });

  it('favours the pointed speaker: the same words, said by the user or by the assistant', () => {
    const messages = [
      { role: 'user', text: 'We had pasta at Luigi on Friday.' },
      { role: 'assistant', text: 'Pasta at Luigi on Friday sounds lovely.' },
    ];
    const index = new HistoryIndex<number>((i) => messages[i]?.text ?? '');
    messages.forEach((m, i) => index.add(i, m.text, m.role));
    expect(index.search('where did I have pasta', 2, 'user')[0]?.key).toBe(0);
    expect(index.search('where did you say pasta was', 2, 'user')[0]?.key).toBe(1);
    expect(index.search('where did you have pasta', 2, 'assistant')[0]?.key).toBe(0);
    expect(index.size).toBe(2);
  });

  it('keeps phrases and neighbours: a quoted phrase filters, a reply gains from its question', () => {
    const messages = ['Where should we eat near the harbour?', 'Try Sjømat, the fish place by the pier.', 'A fish market opens on Sunday.'];
    const index = new HistoryIndex<number>((i) => messages[i] ?? '');
    messages.forEach((m, i) => index.add(i, m, i % 2 ? 'assistant' : 'user'));
    expect(index.search('"fish place"', 3, 'user').map((h) => h.key)).toEqual([1]);
    expect(index.search('eat harbour fish', 3, 'user')[0]?.key).toBe(0);
    expect(index.search('eat harbour fish', 3, 'user')[1]?.key).toBe(1);
  });
});

describe('searchTerms ASCII fast path', () => {
  it('gives the terms the Unicode scan gives', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary-ascii', maxLength: 80 }), fc.boolean(), (text, stem) => {
        // A trailing non-ASCII word sends the same text through the Unicode scan.
        const unicode = searchTerms(`${text} é`, { stem });
        expect(searchTerms(text, { stem })).toEqual(unicode.slice(0, -1));
      }),
      { numRuns: 500 },
    );
  });
});

describe('phrase test', () => {
  it('on raw text answers as folding the text and looking for the phrase does', () => {
    const fold = (t: string): string => t.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ');
    const text = fc.array(fc.constantFrom('Train', 'ticket', 'TICKET', 'a.b', '(x)', ' ', '  ', '\n', '\t', 'é', 'ﬁ', 'fi', '[', '\\'), { maxLength: 12 }).map((p) => p.join(''));
    fc.assert(
      fc.property(text, text, (doc, rawPhrase) => {
        const phrase = fold(rawPhrase).trim();
        fc.pre(phrase !== '');
        expect(phraseTest([phrase])(null, () => doc)).toBe(fold(doc).includes(phrase));
      }),
      { numRuns: 2000 },
    );
  });
});
