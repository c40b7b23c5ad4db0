// The user's turns (src/chat/user-turns.ts) through the session, against a real loopback Ollama
// server: a paste too big for the window is held back until the user chooses, and a rewrite
// (regenerate, edit and resend) replaces a message still sent as written — never one a compaction
// already summarised, nor any in a read-only conversation.
import { afterEach, describe, expect, it } from 'vitest';
import type { MessageEntry } from '../../src/chat/entries';
import { type Harness, harnessPool, ollamaReply } from './helpers/harness';

const pool = harnessPool();
afterEach(pool.closeAll);
const start = pool.start;

const messagesOf = (h: Harness): MessageEntry[] => h.session.entries.filter((e): e is MessageEntry => e.kind === 'message');
const para = (topic: string, n: number): string =>
  Array.from({ length: n }, (_, i) => `Line ${i + 1} of ${topic}: the function returns the parsed value and the test checks it again.`).join('\n');

describe('an oversized message', () => {
  it('is held back with the figures, then sent trimmed or as it is when the user chooses', async () => {
    const h = await start({ contextWindowOverride: 4096, vaultTools: false });
    h.server.on('POST', '/api/chat', ollamaReply('Read the start.'), ollamaReply('Read it all.'));
    const paste = para('the pasted log', 400);
    const held = await h.session.send(paste);
    expect(held).toMatchObject({ kind: 'oversized' });
    if (held.kind !== 'oversized') return;
    expect(held.tokens).toBeGreaterThan(held.limit);
    expect(h.bodies()).toHaveLength(0);
    expect(h.session.messages).toHaveLength(0);

    expect(await h.session.send(paste, { oversized: 'trim' })).toEqual({ kind: 'sent' });
    const sent = h.bodies()[0]?.messages.find((m) => m.role === 'user')?.content ?? '';
    expect(sent.length).toBeLessThan(paste.length);
    expect(sent).toMatch(/Trimmed to fit the context window/);
    expect(paste.startsWith(sent.split('\n\n[Trimmed')[0] ?? '')).toBe(true);

    expect(await h.session.send(paste, { oversized: 'send' })).toEqual({ kind: 'sent' });
    expect(h.bodies()[1]?.messages.some((m) => m.content === paste)).toBe(true);
  });
});

describe('rewrites', () => {
  it('regenerates a reply and edits-and-resends a user message', async () => {
    const h = await start();
    h.server.on('POST', '/api/chat', ollamaReply('First.'), ollamaReply('Second.'), ollamaReply('Third.'));
    await h.session.send('Question one');
    const reply = messagesOf(h)[1];
    await h.session.regenerate(reply?.id ?? '');
    expect(messagesOf(h).map((e) => e.message.content)).toEqual(['Question one', 'Second.']);
    expect(h.bodies()[1]?.messages.map((m) => m.content).slice(1)).toEqual(['Question one']);

    await h.session.editAndResend(messagesOf(h)[0]?.id ?? '', 'Question one, reworded');
    expect(messagesOf(h).map((e) => e.message.content)).toEqual(['Question one, reworded', 'Third.']);
    expect(h.bodies()[2]?.messages.map((m) => m.content).slice(1)).toEqual(['Question one, reworded']);
  });

  it('a rewrite keeps the lines the user wrote in the note (under the replaced reply too), and never sends them', async () => {
    const h = await start();
    h.server.on('POST', '/api/chat', ollamaReply('Second.'), ollamaReply('Third.'));
    h.session.load([
      { kind: 'message', message: { id: 'u1', createdAt: 1, role: 'user', content: 'Question one' } },
      { kind: 'hand', text: 'My note under the question' },
      { kind: 'message', message: { id: 'a1', createdAt: 2, role: 'assistant', content: 'First.' } },
      { kind: 'hand', text: 'My note under the reply' },
    ]);
    await h.session.regenerate('a1');
    const hand = (): string[] => h.session.toSaved().flatMap((i) => (i.kind === 'hand' ? [i.text] : []));
    expect(hand()).toEqual(['My note under the question', 'My note under the reply']);
    expect(messagesOf(h).map((e) => e.message.content)).toEqual(['Question one', 'Second.']);
    await h.session.editAndResend('u1', 'Question one, reworded');
    expect(hand()).toEqual(['My note under the question', 'My note under the reply']);
    expect(JSON.stringify(h.bodies())).not.toContain('My note');
  });

  it('only a message still sent as written can be rewritten: not one a compaction summarised, nor any read-only', async () => {
    const h = await start({ contextWindowOverride: 8000, keepExchanges: 1, keepTokens: 500 });
    const topics = ['the parser', 'the dates', 'the tests', 'the docs', 'the build', 'the release'];
    for (const t of topics) h.server.on('POST', '/api/chat', ollamaReply(para(t, 3)));
    for (const t of topics) await h.session.send(`About ${t}: ${para(t, 2)}`);
    expect((await h.session.compactNow()).kind).toBe('compacted');
    const sent = new Set(h.session.sentMessages().map((m) => m.id));
    const summarised = messagesOf(h).filter((e) => !sent.has(e.id));
    expect(summarised.length).toBeGreaterThan(0);
    for (const e of messagesOf(h)) expect(h.session.canRewrite(e.id)).toBe(sent.has(e.id));

    // A summarised message is neither regenerated nor resent: nothing is sent, nothing dropped.
    const before = h.session.entries.length;
    const [first, firstReply] = summarised;
    expect([first?.message.role, firstReply?.message.role]).toEqual(['user', 'assistant']);
    await h.session.regenerate(firstReply?.id ?? '');
    await h.session.editAndResend(first?.id ?? '', 'Reworded');
    expect(h.session.entries).toHaveLength(before);
    expect(h.bodies()).toHaveLength(topics.length);

    h.session.load(h.session.toSaved(), 'Read only for the test.');
    expect(h.session.canRewrite(messagesOf(h).at(-1)?.id ?? '')).toBe(false);
    expect(h.session.canRewrite('no-such-id')).toBe(false);
  });
});
