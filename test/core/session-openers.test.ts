import { describe, expect, it } from 'vitest';
import { sentencesOf } from '../../src/core/extract-sentences';
import type { ChatMessage } from '../../src/core/messages';
import { openingMessages, openingNews } from '../../src/core/session-openers';
import { usableSentences } from '../../src/core/fact-sentences';

const msg = (id: string, role: 'user' | 'assistant', content: string): ChatMessage => ({ id, role, content, createdAt: 0 });

describe('session openers', () => {
  const chat = [
    msg('u1', 'user', 'Hey Dave! Long time no chat!'),
    msg('a1', 'assistant', 'Hey Calvin! How have you been?'),
    msg('u2', 'user', 'I had an incident last week where my place got flooded, but I saved my music gear. Anyway, the weather is nice today.'),
    msg('a2', 'assistant', 'Oh no, that sounds rough for your whole studio setup.'),
    msg('u3', 'user', 'I also booked a flight to Boston for the tour next month.'),
  ];
  const session = (s: { id: string }): number | undefined => (s.id === 'x' ? undefined : 1);

  it("takes each side's first message of a session that says something, not the greeting before it", () => {
    expect([...openingMessages(sentencesOf(chat), session)].sort()).toEqual(['a2', 'u2']);
  });

  it("takes the opening message's most newsworthy sentence, not a later message's news", () => {
    const news = [...openingNews(usableSentences(sentencesOf(chat), true).usable, session)].map((s) => s.text);
    expect(news).toEqual(['I had an incident last week where my place got flooded, but I saved my music gear.']);
  });

  it('looks past a first message that tells no news to the next one, but not further', () => {
    const later = [
      msg('u1', 'user', 'Hey Dave! Long time no chat! Lots has gone down since we last caught up.'),
      msg('a1', 'assistant', 'Hey Calvin! How has everything been going since we last caught up?'),
      msg('u2', 'user', 'I had an incident last week where my place got flooded, but I saved my music gear.'),
      msg('a2', 'assistant', 'Glad your gear made it through the whole thing in one piece.'),
      msg('a3', 'assistant', 'Sounds like a good time to check the roof of the studio as well.'),
      msg('a4', 'assistant', 'I just opened my own car maintenance shop downtown last week.'),
    ];
    // Calvin's greeting says nothing yet: his news is in his next message. Dave tells no news in
    // his first two messages: his opening stays his first, not the shop three messages later.
    expect([...openingMessages(sentencesOf(later), session)].sort()).toEqual(['a1', 'u2']);
  });
});
