import { describe, expect, it } from 'vitest';
import { sentencesOf } from '../../src/core/extract-sentences';
import type { ChatMessage } from '../../src/core/messages';
import { openingHead, phrasesOf, requestHead } from '../../src/core/thread-heads';
import { extractThreads } from '../../src/core/threads';

const msg = (i: number, content: string): ChatMessage => ({ id: `h${i}`, role: i % 2 ? 'assistant' : 'user', content, createdAt: 0 });

describe('thread heads in the thread own words', () => {
  const phrases = (texts: string[]): string[] => phrasesOf(sentencesOf(texts.map((t, i) => msg(i, t))), () => 1, () => false);

  it('takes names and phrases said again, never a name with the verb after it nor a nickname', () => {
    const heads = phrases([
      'We saw the crowds in Tokyo react to the new album last night, and Cal said the Tokyo lit up.',
      'The Tokyo react was loud, and the new album sold out in Tokyo react style.',
      'Frank Ocean ends the tour in Osaka, so the new album launch waits for Frank Ocean ends.',
      'The vintage Mustang is back from the body shop, and the vintage Mustang runs again.',
    ]);
    expect(heads.length).toBeGreaterThan(0);
    for (const h of heads) {
      expect(h).not.toMatch(/^(?:Tokyo react|Tokyo lit|Frank Ocean ends|Cal)$/);
      expect(h).not.toMatch(/\bper\b/);
    }
    expect(heads.some((h) => /new album|vintage Mustang|Frank Ocean/.test(h))).toBe(true);
  });

  it('names a place once: not again with a possessive, nor again by its initials', () => {
    const heads = phrases([
      "Boston's music scene is the best, and Boston has the best venues.",
      "I love Boston's music scene, and Boston in the fall.",
      'Frank Ocean played in Boston.',
      'We flew to New York City and the subway in New York City confused us, but I loved visiting NYC.',
      'Next time I visit NYC I will see New York City from the ferry, and NYC at night.',
    ]);
    expect(heads).toContain("Boston's music scene");
    expect(heads).not.toContain('Boston');
    expect(heads.filter((h) => /New York City|NYC/.test(h))).toHaveLength(1);
  });

  it('never heads a thread with a sign-off or a phrase cut after "loved"', () => {
    const heads = phrases([
      'The greenhouse wedding let our loved ones celebrate with us. Stay safe!',
      'It was great to have loved ones celebrate in the greenhouse wedding. Stay safe!',
      'Stay safe on the drive back from the greenhouse wedding.',
    ]);
    expect(heads).toContain('greenhouse wedding');
    expect(heads.some((h) => /^(?:Stay safe|ones celebrate|ones)$/i.test(h))).toBe(false);
  });

  it('never heads a thread with a wish for the road nor a "thingy"', () => {
    const heads = phrases([
      'I went to a music thingy at the harbour festival. Have a safe trip!',
      'The music thingy at the harbour festival was loud. Safe trip back home!',
      'Safe trip, and tell me about the harbour festival later.',
    ]);
    expect(heads).toContain('harbour festival');
    expect(heads.some((h) => /safe trip|thingy/i.test(h))).toBe(false);
  });
});

describe('a session headed by what the user opened it with', () => {
  const user = (content: string): ReturnType<typeof sentencesOf> => sentencesOf([{ id: 'u', role: 'user', content, createdAt: 0 }]);

  it('takes a request of two content words, not one of too few words to name anything', () => {
    expect(requestHead(user("I'm looking for some gift ideas for my colleagues. They love puns."))).toBe("I'm looking for some gift ideas for my colleagues.");
    expect(requestHead(user('Can you suggest some recipes?'))).toBe('');
    expect(requestHead(user('Can you help me with that?'))).toBe('');
  });

  it('takes an opening the request patterns miss, not a greeting nor a sentence leaning back', () => {
    expect(openingHead(user('One tweet with three reflective questions on evaluating personal impact'))).toBe('One tweet with three reflective questions on evaluating personal impact');
    expect(openingHead(user('Hi there, how are you doing this fine morning?'))).toBe('');
    expect(openingHead(user('That sounds like a great plan for the garden.'))).toBe('');
    expect(openingHead(user('from the book "Golden Grant Rules" by David Kincade.'))).toBe('');
  });

  it('heads a session by its opening sentence when the request after it leans on it', () => {
    const at = Date.UTC(2025, 0, 1, 9);
    const messages: ChatMessage[] = [
      { id: 'a', role: 'user', content: "I'm thinking of trying out that new grocery delivery service that partners with local farmers. Do you know if they offer any discounts for first-time customers?", createdAt: at },
      { id: 'b', role: 'assistant', content: 'Many farm delivery services give new customers 10 to 20 percent off the first box.', createdAt: at + 1 },
      { id: 'c', role: 'user', content: 'Can you recommend a drip irrigation kit for twelve tomato plants in raised beds?', createdAt: at + 86_400_000 },
      { id: 'd', role: 'assistant', content: 'The Gardena Micro-Drip starter kit waters up to twenty plants from one tap.', createdAt: at + 86_400_001 },
    ];
    const { threads } = extractThreads(messages, sentencesOf(messages), 'assist', [], 1);
    expect(threads[0]?.text).toBe("I'm thinking of trying out that new grocery delivery service that partners with local farmers.");
    expect(threads[1]?.text).toBe('Can you recommend a drip irrigation kit for twelve tomato plants in raised beds?');
  });

  it('heads an assistant chat session the user opened without a known request', () => {
    const at = (d: number): number => Date.UTC(2025, 0, 1 + d, 9);
    const messages: ChatMessage[] = [
      { id: 'a', role: 'user', content: 'One tweet with three reflective questions on evaluating personal impact', createdAt: at(0) },
      { id: 'b', role: 'assistant', content: 'What difference did you make today? Who did you help grow? What will you change tomorrow?', createdAt: at(0) + 1 },
      { id: 'c', role: 'user', content: 'Can you recommend a drip irrigation kit for twelve tomato plants in raised beds?', createdAt: at(1) },
      { id: 'd', role: 'assistant', content: 'The Gardena Micro-Drip starter kit waters up to twenty plants from one tap.', createdAt: at(1) + 1 },
    ];
    const { threads } = extractThreads(messages, sentencesOf(messages), 'assist', [], 1);
    expect(threads.map((t) => t.text)).toEqual(['One tweet with three reflective questions on evaluating personal impact', 'Can you recommend a drip irrigation kit for twelve tomato plants in raised beds?']);
    expect(threads[0]?.sources).toEqual(['a']);
  });
});

describe('heads that name the thread, not what it points back at', () => {
  const user = (content: string): ReturnType<typeof sentencesOf> => sentencesOf([{ id: 'u', role: 'user', content, createdAt: 0 }]);
  const at = (d: number, i: number): number => Date.UTC(2025, 0, 1 + d, 9) + i * 60_000;

  it('never heads a thread with a prompt template, a heading or a date', () => {
    expect(requestHead(user('[INFO : you can add images to the reply by Markdown, write the image without backticks.]'))).toBe('');
    expect(requestHead(user('### 17 August 2023: Tuesday'))).toBe('');
    expect(requestHead(user('Please give me a packing list for a week of hiking in the Dolomites.'))).toBe('Please give me a packing list for a week of hiking in the Dolomites.');
  });

  it('never heads a session with the first line of a long text the user pasted', () => {
    const rules = Array.from({ length: 13 }, (_, i) => `Weapon ${i + 1} - chance to stun the opponent for ${i + 1} turns in the arena.`).join(' ');
    expect(openingHead(user(`Swords - chance to deflect an incoming attack in the arena. ${rules}`))).toBe('');
    expect(openingHead(user(`Can you balance these weapons for my card game? ${rules}`))).not.toBe('');
    // Nor with a request read in the middle of it, an e-mail's footer.
    const mail = Array.from({ length: 12 }, (_, i) => `The licence for site ${i + 1} costs 225 dollars a month under the agreement.`);
    mail.splice(6, 0, 'If you have received this message in error, please notify the sender and delete it immediately.');
    expect(requestHead(user(mail.join(' ')).slice(6))).toBe('');
    expect(requestHead(user(`Please summarise this e-mail in two lines. ${mail.join(' ')}`))).toBe('Please summarise this e-mail in two lines.');
  });

  it('keeps a follow-up on the answer in its thread, whatever words it shares', () => {
    const messages: ChatMessage[] = [
      { id: 'a', role: 'user', content: 'Can you write five taglines for an electric burr coffee grinder with precise grind settings?', createdAt: at(0, 0) },
      { id: 'b', role: 'assistant', content: '1. Grind it your way.\n2. Precision in every bean.\n3. Fresh coffee, exact grind.\n4. The burr that cares.\n5. Wake up to perfect grounds.', createdAt: at(0, 1) },
      { id: 'c', role: 'user', content: 'Could you put these in bullet points with a short price note beside each?', createdAt: at(0, 2) },
      { id: 'd', role: 'assistant', content: 'Sure: each slogan now sits on a bullet, priced at twenty dollars apiece for a banner.', createdAt: at(0, 3) },
    ];
    const { threads, threadOf } = extractThreads(messages, sentencesOf(messages), 'assist', [], 1);
    expect(threads).toHaveLength(1);
    expect(threadOf.get('c')).toBe(threadOf.get('a'));
  });

  it('heads a session whose first request follows up by the session opening, else its phrases', () => {
    const pasted = Array.from({ length: 3 }, () => 'The electric burr coffee grinder has a body without spilling grinds and precise grind settings for every brew.').join(' ');
    const messages: ChatMessage[] = [
      { id: 'a', role: 'user', content: 'Can you recommend a drip irrigation kit for twelve tomato plants in raised beds?', createdAt: at(0, 0) },
      { id: 'b', role: 'assistant', content: 'The Gardena Micro-Drip starter kit waters up to twenty plants from one tap.', createdAt: at(0, 1) },
      { id: 'c', role: 'user', content: pasted, createdAt: at(2, 0) },
      { id: 'd', role: 'assistant', content: 'Noted: an electric burr coffee grinder with precise grind settings and a body without spilling grinds.', createdAt: at(2, 1) },
      { id: 'e', role: 'user', content: 'Write a compelling product description using the above.', createdAt: at(2, 2) },
      { id: 'f', role: 'assistant', content: 'This electric burr coffee grinder gives precise grind settings in a body without spilling grinds.', createdAt: at(2, 3) },
    ];
    const { threads } = extractThreads(messages, sentencesOf(messages), 'assist', [], 1);
    expect(threads).toHaveLength(2);
    const head = threads[1]?.text ?? '';
    expect(head).not.toMatch(/using the above/);
    expect(head).toMatch(/coffee grinder|grind settings/);
  });
});
