// What the user controls about compaction: "Compact now" (with a focus that steers the ranking,
// disabled with a reason when there is nothing to compact) and undoing the last round (the
// boundary moves back; the next request body is what it would have been without that round).
import { afterEach, describe, expect, it } from 'vitest';
import type { CompactChatSettings } from '../../src/chat/settings';
import { type Harness, harnessPool, ollamaReply, systemOf } from './helpers/harness';

const pool = harnessPool();
afterEach(pool.closeAll);

const start = (overrides: Partial<CompactChatSettings> = {}, files: Record<string, string> = {}): Promise<Harness> =>
  pool.start({ keepExchanges: 1, keepTokens: 0, ...overrides }, files);

const para = (topic: string, n: number): string =>
  Array.from({ length: n }, (_, i) => `Point ${i + 1} about ${topic}: we keep the details of ${topic} in mind and check them again later.`).join(' ');

/** The same conversation in every harness it is given: `turns` exchanges, scripted replies. */
async function converse(h: Harness, turns: readonly string[]): Promise<void> {
  for (const topic of turns) h.server.on('POST', '/api/chat', ollamaReply(`About ${topic}. ${para(topic, 2)}`));
  for (const topic of turns) await h.session.send(`Let us talk about ${topic}. ${para(topic, 2)}`);
}

describe('Compact now', () => {
  it('is unavailable with a reason when there is nothing to compact, and available once there is', async () => {
    const h = await start();
    expect(h.session.compactNowBlocker()).toMatch(/empty/i);
    await converse(h, ['the budget']);
    // The latest exchange is always kept: still nothing to compact.
    expect(h.session.compactNowBlocker()).toMatch(/nothing to compact/i);
    await converse(h, ['the launch']);
    expect(h.session.compactNowBlocker()).toBeNull();
    const outcome = await h.session.compactNow();
    expect(outcome.kind).toBe('compacted');
    expect(h.session.compactions[0]?.record.trigger).toBe('manual');
    expect(h.session.compactNowBlocker()).toMatch(/nothing new to compact/i);
  });

  it('ranks the facts that match the focus first', async () => {
    const turns = ['the budget', 'the launch date', 'the hiring plan', 'the office move'];
    const plain = await start();
    const focused = await start();
    await converse(plain, turns);
    await converse(focused, turns);
    // Two focuses on the same conversation: each puts its own topic first.
    await plain.session.compactNow('launch date');
    await focused.session.compactNow('hiring plan');

    const top = (h: Harness): string => [...(h.session.compactions[0]?.record.facts ?? [])].sort((a, b) => b.score - a.score)[0]?.text ?? '';
    expect(focused.session.compactions[0]?.record.focus).toBe('hiring plan');
    expect(top(focused)).toMatch(/hiring plan/);
    expect(top(plain)).toMatch(/launch date/);
  });
});

describe('undo the last compaction', () => {
  it('after "Compact now": the next request body equals the one without the compaction', async () => {
    const turns = ['the budget', 'the launch date', 'the team'];
    const compacted = await start();
    const twin = await start();
    await converse(compacted, turns);
    await converse(twin, turns);
    const before = compacted.session.meter().used;

    expect((await compacted.session.compactNow('the budget')).kind).toBe('compacted');
    expect(compacted.session.meter().used).toBeLessThan(before);
    const undone = compacted.session.undoLastCompaction();
    expect(undone?.record.round).toBe(1);
    expect(compacted.session.compactions).toHaveLength(0);
    expect(compacted.session.meter().used).toBe(twin.session.meter().used);
    expect(compacted.session.systemPrompt()).toBe(twin.session.systemPrompt());

    for (const h of [compacted, twin]) {
      h.server.on('POST', '/api/chat', ollamaReply('Fine.'));
      await h.session.send('What next?');
    }
    const last = (h: Harness) => h.bodies()[h.bodies().length - 1];
    expect(last(compacted)).toEqual(last(twin));
    expect(systemOf(last(compacted))).not.toContain('<previous_context>');
    // Nothing was deleted: every message is still there, and the compaction notice says it was undone.
    expect(compacted.session.messages.map((m) => m.content)).toEqual(twin.session.messages.map((m) => m.content));
    expect(compacted.session.entries.some((e) => e.kind === 'notice' && e.compaction === undone && e.undone === true)).toBe(true);
  });

  it('after two rounds: round 1 is sent again, from its boundary', async () => {
    const h = await start();
    await converse(h, ['the budget', 'the launch date', 'the team']);
    await h.session.compactNow();
    await converse(h, ['the risks', 'the marketing']);
    await h.session.compactNow();
    expect(h.session.compactions.map((c) => c.record.round)).toEqual([1, 2]);
    const round1 = h.session.compactions[0]?.record;
    const sentAfterRound1 = h.session.messages.slice(h.session.messages.findIndex((m) => m.id === round1?.removedThrough) + 1);

    const events: number[] = [];
    h.session.events.on('compactions', (list) => events.push(list.length));
    h.session.undoLastCompaction();
    expect(events).toEqual([1]);
    expect(h.session.sentMessages().map((m) => m.id)).toEqual(sentAfterRound1.map((m) => m.id));
    expect(h.session.systemPrompt()).toContain(round1?.block ?? 'missing');

    h.server.on('POST', '/api/chat', ollamaReply('Ok.'));
    await h.session.send('Go on');
    const body = h.bodies()[h.bodies().length - 1];
    expect(systemOf(body)).toContain(round1?.block ?? 'missing');
    expect(body?.messages.slice(1).map((m) => m.content)).toEqual([...sentAfterRound1.map((m) => m.content), 'Go on']);

    expect(h.session.undoLastCompaction()?.record.round).toBe(1);
    expect(h.session.undoLastCompaction()).toBeNull();
    expect(h.session.undoBlocker()).toMatch(/no compaction/i);
    expect(h.session.sentMessages()).toHaveLength(h.session.messages.length);
  });

  it('after an automatic compaction: the next request is sent in full, the one after compacts again once — no loop', async () => {
    const h = await start({ messageLimit: 4 });
    for (let i = 0; i < 6; i++) h.server.on('POST', '/api/chat', ollamaReply(`Answer ${i}. ${para(`answer ${i}`, 1)}`));
    for (let i = 0; i < 3; i++) await h.session.send(`Question ${i}? ${para(`question ${i}`, 1)}`);
    expect(h.session.compactions).toHaveLength(1);
    expect(h.session.compactions[0]?.causes).toEqual(['messages']);

    h.session.undoLastCompaction();
    const sentBefore = h.session.sentMessages().length;
    await h.session.send('Question 3?');
    // Held off once: the user just asked for the longer prompt, and it fits the window.
    expect(h.session.compactions).toHaveLength(0);
    expect(h.bodies()[3]?.messages.length).toBe(1 + sentBefore + 1);
    expect(systemOf(h.bodies()[3])).not.toContain('<previous_context>');

    await h.session.send('Question 4?');
    expect(h.session.compactions).toHaveLength(1);
    expect(systemOf(h.bodies()[4])).toContain('<previous_context>');
    await h.session.send('Question 5?');
    expect(h.session.compactions.length).toBeLessThanOrEqual(2);
    expect(h.bodies()).toHaveLength(6);
  });
});
