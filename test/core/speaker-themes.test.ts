import { describe, expect, it } from 'vitest';
import { sentencesOf, type Sentence } from '../../src/core/extract-sentences';
import { usableSentences } from '../../src/core/fact-sentences';
import type { ChatMessage } from '../../src/core/messages';
import { speakerThemes } from '../../src/core/speaker-themes';
import { compact } from '../../src/core';

const msg = (id: string, role: 'user' | 'assistant', content: string): ChatMessage => ({ id, createdAt: 0, role, content });

/** Four sessions between Ines (user) and Omar (assistant): Ines keeps coming back to her pottery
 * studio and kiln, Omar to his sailing club; both say they love things every time. */
function sessions(): { messages: ChatMessage[]; sessionOf: Map<string, number> } {
  const talk: [string, string][][] = [
    [
      ['user', 'Hey Omar! I fired a new batch of bowls in the kiln at my pottery studio this week.'],
      ['assistant', 'Hey Ines! I love that. I spent my weekend at the sailing club fixing my old dinghy.'],
    ],
    [
      ['user', 'Hi Omar! I rebuilt the kiln shelves at my pottery studio, which took all of Saturday.'],
      ['assistant', 'Hi Ines! I love hearing that. My sailing club asked me to coach my junior regatta team.'],
    ],
    [
      ['user', 'Hey Omar! My pottery studio is hosting a glaze workshop, and my kiln is booked all month.'],
      ['assistant', 'Hey Ines! I love it. My sailing club won the harbour race against three other clubs.'],
    ],
    [
      ['user', 'Hi Omar! I love quiet mornings, and I bought a second kiln for my pottery studio.'],
      ['assistant', 'Hi Ines! I love that too. I am teaching knots at my sailing club on Sunday.'],
    ],
  ];
  const messages: ChatMessage[] = [];
  const sessionOf = new Map<string, number>();
  talk.forEach((turns, s) =>
    turns.forEach(([role, text], i) => {
      const id = `s${s}-${i}`;
      messages.push(msg(id, role as 'user' | 'assistant', text));
      sessionOf.set(id, s + 1);
    }),
  );
  return { messages, sessionOf };
}

const themesOf = (messages: ChatMessage[], sessionOf: (s: Sentence) => number | undefined, names: string[] = []): string[] =>
  [...speakerThemes(usableSentences(sentencesOf(messages)).usable, sessionOf, names)].map((s) => `${s.role}: ${s.text}`);

describe('speaker themes', () => {
  it("picks for each side the sentence holding what they come back to session after session, not what both say", () => {
    const { messages, sessionOf } = sessions();
    const themes = themesOf(messages, (s) => sessionOf.get(s.id), ['Ines', 'Omar']);
    expect(themes).toHaveLength(2);
    // (Pottery, studio and kiln recur for Ines in every session; "love" is said by both.)
    expect(themes.find((t) => t.startsWith('user:'))).toMatch(/pottery studio/);
    expect(themes.find((t) => t.startsWith('assistant:'))).toMatch(/sailing club/);
    expect(themes.join(' ')).not.toMatch(/quiet mornings/);
  });

  it('picks nothing for a side heard in fewer than three sessions, nor when sessions are unknown', () => {
    const { messages, sessionOf } = sessions();
    const early = messages.filter((m) => (sessionOf.get(m.id) ?? 0) <= 2);
    expect(themesOf(early, (s) => sessionOf.get(s.id))).toEqual([]);
    expect(themesOf(messages, () => undefined)).toEqual([]);
  });

  it('never picks a plan: who a speaker is outlasts what they look forward to', () => {
    const { messages, sessionOf } = sessions();
    // (First in the chat, it would win a tie of theme words.)
    const planned = messages.map((m) => (m.id === 's0-0' ? { ...m, content: `I am looking forward to the upcoming fair at my pottery studio with the new kiln. ${m.content}` } : m));
    const themes = themesOf(planned, (s) => sessionOf.get(s.id), ['Ines', 'Omar']);
    expect(themes.find((t) => t.startsWith('user:'))).toMatch(/pottery studio/);
    expect(themes.join(' ')).not.toMatch(/looking forward/);
  });

  it('never picks a question, a reaction or a sentence that leans on the one before', () => {
    const { messages, sessionOf } = sessions();
    // (Asked first in each message, a question would win a tie of theme words.)
    const asked = messages.map((m) => (m.role === 'user' ? { ...m, content: `Do you think my pottery studio kiln is too small? ${m.content}` } : m));
    const themes = themesOf(asked, (s) => sessionOf.get(s.id));
    expect(themes.join(' ')).not.toMatch(/\?/);
  });

  it('marks the sentence standing for a speaker as who they are in a compacted chat (laid out under "About <name>")', () => {
    const { messages } = sessions();
    // Dated sessions, as a chat between two people is stamped ("(1:56 pm on 8 May, 2023)").
    const days = ['8 May, 2023', '20 May, 2023', '2 June, 2023', '19 June, 2023'];
    const stamped = messages.map((m, i) => (i % 2 === 0 ? { ...m, content: `(1:56 pm on ${days[i / 2]}) ${m.content}` } : m));
    const tail = [msg('t1', 'user', 'Anyway, what are you up to today?'), msg('t2', 'assistant', 'Just resting, honestly.')];
    const res = compact([...stamped, ...tail], { budgetTokens: 1000, cut: stamped.length });
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    const who = res.record.facts.filter((f) => f.identity).map((f) => f.text);
    expect(who.some((t) => /pottery studio/.test(t))).toBe(true);
    expect(who.some((t) => /sailing club/.test(t))).toBe(true);
  });
});
