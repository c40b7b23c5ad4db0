// Between two people, a session's head names what that session adds, not what the friends name
// every time they talk (threads.ts: the phrases' rarity across sessions weighs squared). Hand-written
// conversation only.
import { describe, expect, it } from 'vitest';
import { compact } from '../../src/core/compact';
import type { ChatMessage } from '../../src/core/messages';
import { ok } from './compacted';

const DAY = 86_400_000;
const T0 = Date.UTC(2025, 4, 5, 19, 0);

/** Two friends over four evenings; the bookshop where one of them works comes up every evening,
 * each evening has its own news. */
function evenings(): ChatMessage[] {
  const said: [role: 'user' | 'assistant', text: string][][] = [
    [
      ['user', 'Hi Ruth! I started my new shifts at Harbor Books this week, at the branch on Dover Street.'],
      ['assistant', 'Hey Omar! Harbor Books is lovely. I just joined a canoe club on the river and my arms are sore.'],
      ['user', 'The canoe club sounds great. At Harbor Books the owner lets us pick the window display every month.'],
      ['assistant', 'My first canoe club race is on the Silver Lake in June, so we train three mornings a week.'],
    ],
    [
      ['user', 'Big news, Ruth: we adopted a rescue greyhound from the coastal shelter on Saturday.'],
      ['assistant', 'A rescue greyhound! Did you bring him to Harbor Books yet?'],
      ['user', 'He naps under the counter at Harbor Books while I sort the shelves. The coastal shelter in Pine Hill said he raced for four years.'],
      ['assistant', 'Does Harbor Books mind? Our neighbour has a rescue greyhound too and it sleeps twenty hours a day.'],
    ],
    [
      ['assistant', 'Omar, I sprained my wrist at the regatta and the doctor put it in a plaster cast for six weeks.'],
      ['user', 'Oh no, a plaster cast in summer! I can bring you novels from Harbor Books while you rest.'],
      ['assistant', 'Thanks. Our canoe team still came second, and the coach wants me back after the plaster cast comes off.'],
      ['user', 'Harbor Books has a new shelf of sailing memoirs from Cape Verde you might like while the wrist heals. Ask at Harbor Books for them.'],
    ],
    [
      ['user', 'Ruth, I got accepted into the sculpture workshop at the art college.'],
      ['assistant', 'A sculpture workshop suits you. Will you still work at Harbor Books?'],
      ['user', 'Yes, Harbor Books gave me two afternoons off, and the art college lends us the tools. Harbor Books is flexible.'],
      ['assistant', 'Bring me your first piece from the Blue Door gallery show when it is done.'],
      ['user', 'I will, see you soon.'],
    ],
  ];
  let id = 0;
  return said.flatMap((evening, d) => evening.map(([role, content], i) => ({ id: `m${id++}`, role, content, createdAt: T0 + d * 3 * DAY + i * 60_000 })));
}

describe('heads of sessions between two people', () => {
  const chat = evenings();
  const r = ok(compact(chat, { budgetTokens: 1000, cut: chat.length - 1, model: 'gpt-4o', now: 1 }));
  const heads = (r.record.threads ?? []).map((t) => t.text);

  it('reads the conversation as talk, one thread per evening', () => {
    expect(r.record.kind).toBe('talk');
    expect(heads).toHaveLength(4);
  });

  it('names each evening by its own news, not by the bookshop named every evening', () => {
    expect(heads[1]).toMatch(/rescue greyhound/);
    expect(heads[2]).toMatch(/plaster cast/);
    expect(heads[3]).toMatch(/sculpture workshop/);
    expect(heads.filter((h) => h.includes('Harbor Books')).length).toBeLessThanOrEqual(1);
  });
});
