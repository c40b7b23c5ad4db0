// The send → compact → request → stream loop, against a real loopback server speaking Ollama's
// protocol: what is sent, what is kept, and what the user sees.
import { afterEach, describe, expect, it } from 'vitest';
import type { MessageEntry, NoticeEntry } from '../../src/chat/entries';
import { endlessReply, type Harness, ollamaError, ollamaReply, startHarness, systemOf, until } from './helpers/harness';

let h: Harness;
afterEach(async () => {
  h.session.dispose();
  await h.close();
});

const messagesOf = (h: Harness): MessageEntry[] => h.session.entries.filter((e): e is MessageEntry => e.kind === 'message');
const noticesOf = (h: Harness): NoticeEntry[] => h.session.entries.filter((e): e is NoticeEntry => e.kind === 'notice');
const para = (topic: string, n: number): string =>
  Array.from({ length: n }, (_, i) => `Point ${i + 1} about ${topic}: we keep the details of ${topic} in mind and check them again later.`).join(' ');

describe('sending', () => {
  it('streams the reply in, sends the system prompt and num_ctx, and keeps both messages', async () => {
    h = await startHarness({ systemPrompt: 'Be brief.' });
    h.server.on('POST', '/api/chat', ollamaReply('Hello there, **friend**.'));
    const deltas: string[] = [];
    h.session.events.on('delta', ({ delta }) => deltas.push(delta));
    await h.session.send('Hi');

    expect(deltas.join('')).toBe('Hello there, **friend**.');
    expect(deltas.length).toBeGreaterThan(1);
    const [user, reply] = messagesOf(h);
    expect(user?.message).toMatchObject({ role: 'user', content: 'Hi' });
    expect(reply).toMatchObject({ status: 'done', stopReason: 'end', message: { role: 'assistant', content: 'Hello there, **friend**.' } });
    const body = h.bodies()[0];
    expect(body?.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hi' },
    ]);
    // The default context size (8,192), not llama3.1's 131k maximum: what Ollama allocates is what the meter counts.
    expect(body?.options.num_ctx).toBe(8192);
    expect(h.session.busy).toBe(false);
  });

  it('stops mid-stream: the partial reply is kept, marked stopped, and sent with the next request', async () => {
    h = await startHarness();
    h.server.on('POST', '/api/chat', endlessReply('Partial answer'), ollamaReply('Next.'));
    const sending = h.session.send('Tell me a long story');
    await until(() => messagesOf(h)[1]?.message.content === 'Partial answer');
    h.session.stop();
    await sending;
    expect(messagesOf(h)[1]).toMatchObject({ status: 'stopped', message: { content: 'Partial answer' } });
    expect(await h.server.to('/api/chat')[0]?.closed).toBe(true);
    await h.session.send('Go on');
    expect(h.bodies()[1]?.messages.map((m) => m.content)).toEqual([expect.any(String), 'Tell me a long story', 'Partial answer', 'Go on']);
  });

  it('shows a provider error in the conversation, does not send it, and retries', async () => {
    h = await startHarness();
    h.server.on('POST', '/api/chat', ollamaError(400, 'invalid option "foo"'), ollamaReply('Works now.'));
    await h.session.send('Hi');
    const failed = messagesOf(h)[1];
    expect(failed?.status).toBe('error');
    expect(failed?.error?.kind).toBe('bad-request');
    expect(failed?.error?.message).toMatch(/invalid option/);
    expect(h.session.sentMessages().map((m) => m.content)).toEqual(['Hi']);

    await h.session.retry(failed?.id ?? '');
    expect(messagesOf(h).map((e) => [e.message.role, e.message.content, e.status])).toEqual([
      ['user', 'Hi', 'done'],
      ['assistant', 'Works now.', 'done'],
    ]);
  });

  it('records a tool call on the reply without breaking the loop', async () => {
    h = await startHarness();
    const call = {
      model: 'llama3.1:8b',
      message: { role: 'assistant', content: '', tool_calls: [{ function: { name: 'read_note', arguments: { path: 'A.md' } } }] },
      done: false,
    };
    h.server.on('POST', '/api/chat', {
      chunks: [`${JSON.stringify(call)}\n`, `${JSON.stringify({ model: 'x', message: { role: 'assistant', content: '' }, done: true, done_reason: 'stop' })}\n`],
    }, ollamaReply('Ok.'));
    await h.session.send('Read A');
    const reply = messagesOf(h)[1];
    expect(reply?.status).toBe('done');
    expect(reply?.message.role === 'assistant' && reply.message.toolCalls?.[0]?.name).toBe('read_note');
    await h.session.send('Thanks');
    expect(h.bodies()).toHaveLength(2);
  });

  it('says why it cannot send when no model is set', async () => {
    h = await startHarness({ model: '' });
    expect(h.session.disabledReason()).toMatch(/model/i);
    await h.session.send('Hi');
    expect(messagesOf(h)[1]?.error?.kind).toBe('no-model');
    expect(h.server.requests).toHaveLength(0);
  });
});

describe('compaction in the loop', () => {
  const small = {
    contextWindowOverride: 1200,
    replyReserve: 200,
    triggerPercent: 60,
    keepExchanges: 1,
    keepTokens: 0,
    contextBudget: 250,
    restoredNotesBudget: 300,
    systemPrompt: 'Be brief.',
  };

  it('compacts a long conversation: the next request carries <previous_context> and the restored notes; every message is kept', async () => {
    // A 2,400-token window: below about 2k the room a compaction leaves holds no restored notes.
    h = await startHarness({ ...small, contextWindowOverride: 2400 }, { 'Projects/Alpha.md': '# Alpha\nAlpha plan: ship version two by Friday.' });
    const topics = ['the [[Alpha]] project', 'the budget', 'the launch date', 'the team', 'the risks', 'the marketing', 'the retro', 'the pricing', 'the support plan', 'the roadmap', 'the hiring'];
    for (let i = 0; i < topics.length; i++) h.server.on('POST', '/api/chat', ollamaReply(para(topics[i] ?? '', 3)));
    for (const topic of topics) await h.session.send(`Let us talk about ${topic}. ${para(topic, 3)}`);

    expect(h.session.compactions.length).toBeGreaterThan(0);
    const bodies = h.bodies();
    const firstCompacted = bodies.findIndex((b) => systemOf(b).includes('<previous_context>'));
    expect(firstCompacted).toBeGreaterThan(0);
    const system = systemOf(bodies[firstCompacted]);
    expect(system.startsWith('Be brief.')).toBe(true);
    expect(system).toContain('</previous_context>');
    expect(system).toContain('<restored_notes>');
    expect(system).toContain('Alpha plan: ship version two by Friday.');
    // Fewer messages are sent than the conversation holds, and the conversation holds them all.
    expect(bodies[firstCompacted]?.messages.length).toBeLessThan(firstCompacted * 2 + 1);
    expect(messagesOf(h)).toHaveLength(topics.length * 2);
    expect(messagesOf(h).every((e) => e.status === 'done')).toBe(true);

    const state = h.session.compactions[0];
    expect(state?.record.round).toBe(1);
    expect(state?.record.removedThrough).toBe(state?.record.removedIds[state.record.removedIds.length - 1]);
    // The block as rendered, plus the line naming the history tool that request offered.
    // (In this small window the history tool is not offered, so the block is sent as made.)
    expect(state?.record.block ?? '').toBe(systemOf(bodies[firstCompacted]).match(/<previous_context>[\s\S]*<\/previous_context>/)?.[0]);
    expect(state?.restored.notes.map((n) => n.path)).toEqual(['Projects/Alpha.md']);
    expect(state?.promptAfter).toBeLessThan(state?.promptBefore ?? 0);
    expect(state?.causes).toEqual(['tokens']);
    expect(noticesOf(h).some((n) => n.compaction === state)).toBe(true);
    // Later rounds chain.
    const rounds = h.session.compactions.map((c) => c.record.round);
    expect(rounds).toEqual(rounds.map((_, i) => i + 1));
  });

  it('restores notes only into the room left below the compaction point', async () => {
    const bigNote = `# Alpha\n${para('the alpha plan', 60)}`;
    h = await startHarness({ ...small, restoredNotesBudget: 5000 }, { 'Projects/Alpha.md': bigNote });
    const topics = ['the [[Alpha]] project', 'the budget', 'the launch date', 'the team', 'the risks', 'the marketing', 'the retro'];
    for (let i = 0; i < topics.length; i++) h.server.on('POST', '/api/chat', ollamaReply(para(topics[i] ?? '', 3)));
    for (const topic of topics) await h.session.send(`Let us talk about ${topic}. ${para(topic, 2)}`);

    const state = h.session.compactions[0];
    expect(state).toBeDefined();
    // Window 1,200 at 60 %: the compaction point is 720; a 5,000-token budget would have blown it.
    expect(state?.promptAfter).toBeLessThanOrEqual(720);
    const restored = state?.restored.notes ?? [];
    expect(restored.every((n) => n.path !== 'Projects/Alpha.md' || n.truncated)).toBe(true);
    expect(noticesOf(h).some((n) => /would not shrink/.test(n.text))).toBe(false);
  });

  it('fires the message-count trigger on its own', async () => {
    h = await startHarness({ messageLimit: 4, keepExchanges: 1, keepTokens: 0 });
    for (let i = 0; i < 4; i++) h.server.on('POST', '/api/chat', ollamaReply(`Answer ${i}. ${para(`answer ${i}`, 1)}`));
    for (let i = 0; i < 4; i++) await h.session.send(`Question ${i}? ${para(`question ${i}`, 1)}`);
    expect(h.session.compactions[0]?.causes).toEqual(['messages']);
    const sentCounts = h.bodies().map((b) => b.messages.filter((m) => m.role !== 'system').length);
    expect(sentCounts[0]).toBe(1);
    expect(Math.max(...sentCounts)).toBeLessThanOrEqual(5);
    expect(systemOf(h.bodies()[3])).toContain('<previous_context>');
    expect(messagesOf(h)).toHaveLength(8);
  });

  it('does not apply a compaction that would not shrink the prompt, and says so once', async () => {
    const bigNote = `# Big\n${para('the big note', 40)}`;
    h = await startHarness(
      { messageLimit: 2, keepExchanges: 1, keepTokens: 0, restoredNotesBudget: 5000, contextBudget: 2000 },
      { 'Big.md': bigNote },
    );
    for (let i = 0; i < 3; i++) h.server.on('POST', '/api/chat', ollamaReply('Ok.'));
    // A plain Markdown link: not a mention, but a note the removed part worked with, so it is
    // restored in full — far more than the two short messages it would replace.
    await h.session.send('See [the big note](Big.md)');
    await h.session.send('And?');
    await h.session.send('More?');
    expect(h.session.compactions).toHaveLength(0);
    const warnings = noticesOf(h).filter((n) => n.level === 'warning');
    expect(warnings.length).toBeGreaterThanOrEqual(1);
    expect(warnings[0]?.text).toMatch(/would not shrink/);
    expect(systemOf(h.bodies()[2])).not.toContain('<previous_context>');
  });

  it('on a context-overflow error compacts once more and retries once', async () => {
    h = await startHarness({ keepExchanges: 1, keepTokens: 0, microCompaction: false });
    h.server.on('POST', '/api/chat', ollamaReply('One.'), ollamaReply('Two.'));
    h.server.on('POST', '/api/chat', ollamaError(400, 'input length exceeds the context length'), ollamaReply('Three.'));
    await h.session.send(`First. ${para('alpha', 2)}`);
    await h.session.send(`Second. ${para('beta', 2)}`);
    await h.session.send('Third?');
    expect(h.bodies()).toHaveLength(4);
    expect(systemOf(h.bodies()[3])).toContain('<previous_context>');
    expect(h.session.compactions[0]?.causes).toEqual(['overflow']);
    expect(messagesOf(h).map((e) => [e.message.content.slice(0, 6), e.status])).toEqual([
      ['First.', 'done'],
      ['One.', 'done'],
      ['Second', 'done'],
      ['Two.', 'done'],
      ['Third?', 'done'],
      ['Three.', 'done'],
    ]);
  });

  it('"Compact now" reports when there is nothing to compact', async () => {
    h = await startHarness();
    const outcome = await h.session.compactNow();
    expect(outcome.kind).toBe('skipped');
  });
});

describe('the active note', () => {
  it('is re-read on every send and cut to its own budget, never mid-pair', async () => {
    const long = Array.from({ length: 400 }, (_, i) => `Line ${i} of the plan 😀 with details.`).join('\n');
    h = await startHarness({ includeActiveNote: true, activeNoteBudget: 200 }, { 'Plan.md': long });
    h.notes.active = 'Plan.md';
    h.server.on('POST', '/api/chat', ollamaReply('Noted.'));
    h.server.on('POST', '/api/chat', ollamaReply('Noted again.'));
    await h.session.send('Summarise the plan');
    const first = systemOf(h.bodies()[0]);
    expect(first).toContain('<active_note path="Plan.md">\nLine 0 of the plan');
    expect(first).toContain('[… truncated]');
    expect(first).not.toContain('Line 399');
    expect(first.length).toBeLessThan(long.length / 3);
    expect(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/.test(first)).toBe(false);

    h.notes.notes.set('Plan.md', 'A short, rewritten plan.');
    await h.session.send('And now?');
    const second = systemOf(h.bodies()[1]);
    expect(second).toContain('A short, rewritten plan.');
    expect(second).not.toContain('[… truncated]');
  });
});
