// The word scan (word-scan.ts), the word table it files words in (vocab.ts) and the sentence traits
// read from both (traits.ts): one walk over a sentence must give what the separate helpers give.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sentencesOf } from '../../src/core/extract-sentences';
import type { ChatMessage } from '../../src/core/messages';
import { STANDS_ALONE, memo } from '../../src/core/sentence-memo';
import { balancedMarkup, standsAlone, wordCount } from '../../src/core/text';
import { contentWords, markupCount, wordIds } from '../../src/core/word-scan';
import { FIRST_PERSON, MARKUP, MY, QUESTION, SECOND_PERSON, SHORT_EXCLAMATION, traitsOf } from '../../src/core/traits';
import { internWord, lookupWord, resetVocabIfFull, vocabGeneration, wordOf } from '../../src/core/vocab';

/** Text mixing the cases the scan treats specially: apostrophes, accents, CJK, pronouns glued to
 * other letters, markup, astral characters. */
const mixedText = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 60 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc
    .array(
      fc.oneof(
        fc.constantFrom('I', "I'm", 'I’ve', 'my', 'My', 'me', 'our', 'You', "you're", "b'My", 'éyou', 'Ié', "don't", 'Café', 'ÉTÉ', 'İstanbul', 'ΑΣ', '会议记录', 'abc会议', 'テスト', '한국어', '😀', 'x9', 'foo_bar', '{', '`', '$x', 'a=b', ' ', '  ', '\t', '\n', ', ', '.', '?', '!', '—', "'", '’', '**', '*', '[', ']', '[[', ']]', '(', ')', ' | ', '|', 'Ié**'),
        fc.string({ maxLength: 3 }),
      ),
      { maxLength: 30 },
    )
    .map((parts) => parts.join('')),
);

describe('word scan', () => {
  it('gives distinct ids of exactly the content words, and the word and markup counts, in one walk', () => {
    fc.assert(
      fc.property(mixedText, (raw) => {
        const text = raw.trim();
        const words = contentWords(text);
        const scan = wordIds(text);
        expect(scan.ids.length).toBe(new Set(words).size);
        expect(scan.ids.map(wordOf)).toEqual([...new Set(words)]);
        expect(scan.count).toBe(words.length);
        expect(scan.words).toBe(wordCount(text));
        expect(scan.punct).toBe(markupCount(text));
        expect(scan.alone).toBe(balancedMarkup(text) && !text.includes(' | '));
      }),
      { numRuns: 3000 },
    );
  });

  it('lowercases whole only the text that needs it, with the same keys either way', () => {
    // ASCII capitals are lowered as the text is read; Greek needs the real lowercasing (final sigma).
    expect(contentWords('The PLAN for Zürich')).toEqual(['plan', 'zürich']);
    const greek = contentWords('ΟΔΟΣ Plan');
    expect(greek).toEqual(['ΟΔΟΣ'.toLowerCase(), 'plan']);
    expect(greek[0]?.endsWith('ς')).toBe(true);
  });

  it('tries the pronoun patterns wherever they could match, so the shortcut never changes a trait', () => {
    fc.assert(
      fc.property(mixedText, (raw) => {
        const text = raw.trim();
        const scan = wordIds(text);
        const wc = wordCount(text);
        expect(traitsOf(text, wc, scan.flags, scan.punct)).toBe(traitsOf(text, wc));
      }),
      { numRuns: 3000 },
    );
  });

  it('reads in its walk whether a prose sentence may stand alone, as standsAlone does', () => {
    fc.assert(
      fc.property(fc.array(mixedText, { minLength: 1, maxLength: 4 }), (lines) => {
        const m: ChatMessage = { id: 'm1', createdAt: 0, role: 'assistant', content: lines.join('\n') };
        for (const s of sentencesOf([{ ...m }])) expect(memo(s, STANDS_ALONE)).toBe(standsAlone(s.text));
      }),
      { numRuns: 1000 },
    );
    const [bold, table] = sentencesOf([{ id: 'm2', createdAt: 0, role: 'user', content: 'A Brief History** by Harari.\nThe plan | the budget | the date' }]);
    expect(bold && memo(bold, STANDS_ALONE)).toBe(false);
    expect(table && memo(table, STANDS_ALONE)).toBe(false);
  });

  it('reads the form of a sentence', () => {
    const t = (text: string): number => traitsOf(text, wordCount(text));
    expect(t('Where did I leave my keys?') & (QUESTION | FIRST_PERSON | MY)).toBe(QUESTION | FIRST_PERSON | MY);
    expect(t('Great job!')).toBe(SHORT_EXCLAMATION);
    expect(t('You should try it') & SECOND_PERSON).toBe(SECOND_PERSON);
    expect(t('x = {a: $(b) | c} <d>') & MARKUP).toBe(MARKUP);
    // "b'My" holds "My" after an apostrophe: the pattern sees it, and so does the shortcut.
    const quoted = "I am expecting b'My Content'";
    expect(traitsOf(quoted, wordCount(quoted), wordIds(quoted).flags) & MY).toBe(MY);
  });
});

describe('word table', () => {
  it('keeps ids while it is small and clears past its limit, after which cached sentences are read again', () => {
    const m: ChatMessage = { id: 'm1', createdAt: 0, role: 'user', content: 'The harbour opens at seven on Tuesdays.' };
    const before = sentencesOf([m])[0];
    const generation = vocabGeneration();
    resetVocabIfFull();
    expect(vocabGeneration()).toBe(generation);
    expect(sentencesOf([m])[0]).toBe(before);
    // Past the limit: the next compaction starts on a fresh table.
    for (let i = 0; i < 200_001; i++) internWord(`filler${i}`);
    resetVocabIfFull();
    expect(vocabGeneration()).toBe(generation + 1);
    expect(lookupWord('filler7')).toBe(-1);
    const after = sentencesOf([m])[0];
    expect(after).not.toBe(before);
    expect(after?.ids.map(wordOf)).toEqual(['harbour', 'opens', 'seven', 'tuesdays']);
  });
});
