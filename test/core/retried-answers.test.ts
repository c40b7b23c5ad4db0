// With an assistant, an answer the user sent back is no fact, and a list of guesses the answer
// after the user's reply says missed is no answer (issue 29). Hand-written conversations only.
import { describe, expect, it } from 'vitest';
import { sentencesOf } from '../../src/core/extract-sentences';
import { listedAnswers } from '../../src/core/listed-answers';
import type { ChatMessage } from '../../src/core/messages';
import { retries, withoutRetried } from '../../src/core/retried-answers';

let seq = 0;
const msg = (role: 'user' | 'assistant', content: string): ChatMessage => ({ id: `r${seq++}`, role, content, createdAt: 0 });
const words = (text: string): { text: string; wc: number } => ({ text, wc: text.split(/\s+/).length });

describe('a user sending an answer back', () => {
  it('is a short sentence asking to try again or saying it is wrong', () => {
    for (const t of ['almost, try again', 'the composer lived before Bach. can you try again?', "No, that's wrong.", 'Not quite.', 'Guess again!'])
      expect(retries(words(t)), t).toBe(true);
    for (const t of ["I'll try again next spring with a lighter pot.", 'That is exactly right, thanks!', 'I tried this again yesterday and it worked, but the second time the dough did not rise at all.'])
      expect(retries(words(t)), t).toBe(false);
  });

  it("drops the sent-back answer's sentences, keeping the user's and the next answer's", () => {
    seq = 0;
    const chat = [
      msg('user', 'Which painter made the portrait with a convex mirror behind the couple?'),
      msg('assistant', 'That is Salvador Dalí. The painting was created in 1931 and hangs in New York.'),
      msg('user', 'The painter lived long before Dalí. Can you try again?'),
      msg('assistant', 'Then it is Jan van Eyck, whose Arnolfini Portrait of 1434 shows the couple in a convex mirror.'),
    ];
    const kept = withoutRetried(sentencesOf(chat), chat).map((s) => s.text);
    expect(kept.some((t) => t.includes('1931'))).toBe(false);
    expect(kept.some((t) => t.includes('Arnolfini Portrait of 1434'))).toBe(true);
    expect(kept).toContain('The painter lived long before Dalí.');
  });
});

describe('a list of guesses that missed', () => {
  const guesses = 'Here are a few more possibilities:\n1. "Grainy"\n2. "Rangy"\n3. "Imag" (short for imaging)';
  it('is no answer when the answer after the reply confirms what none of them names', () => {
    seq = 0;
    const chat = [
      msg('user', 'Can you guess the one real word the name Gary Niami is an anagram of?'),
      msg('assistant', guesses),
      msg('user', "well, I think I used the word 'imaginary' does that fit?"),
      msg('assistant', 'Yes, "Gary Niami" is indeed an anagram of the word "imaginary." An anagram rearranges all the letters.'),
    ];
    expect(listedAnswers(chat, sentencesOf(chat))).toEqual([]);
  });

  it('stays when the confirmation names one of them', () => {
    seq = 0;
    const chat = [
      msg('user', 'Can you guess the one real word the name Gary Niami is an anagram of?'),
      msg('assistant', guesses),
      msg('user', 'Is it the second one?'),
      msg('assistant', 'Yes, "Rangy" is indeed one of the words it contains.'),
    ];
    expect(listedAnswers(chat, sentencesOf(chat)).map((a) => a.heads)).toEqual([['"Grainy"', '"Rangy"', '"Imag" (short for imaging)']]);
  });
});
