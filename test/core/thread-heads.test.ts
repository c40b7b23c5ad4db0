import { describe, expect, it } from 'vitest';
import { sentencesOf } from '../../src/core/extract-sentences';
import type { ChatMessage } from '../../src/core/messages';
import { phrasesOf } from '../../src/core/thread-heads';

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
