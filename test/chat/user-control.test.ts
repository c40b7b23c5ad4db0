// The user decides what is carried (user-control.ts), end to end through the session and a real
// loopback provider: a pinned message is sent verbatim after every compaction (a pinned tool call
// with its results); a removed line of the summary leaves the next request body and a rewritten
// one is sent as written; both survive saving the conversation as a note and loading it again, an
// undo of a later round, and are undone by "undo last edit".
import { afterEach, describe, expect, it } from 'vitest';
import { parseConversation, serializeConversation } from '../../src/chat/conversation-format';
import type { ChatSession } from '../../src/chat/session';
import type { ToolRunner } from '../../src/chat/tool-loop';
import type { CompactChatSettings } from '../../src/chat/settings';
import { VAULT_TOOL_DEFINITIONS } from '../../src/chat/tools/vault-tools';
import { lineKey } from '../../src/core/edits';
import type { SourcedLine } from '../../src/core/record';
import { type Harness, type OllamaBody, harnessPool, ollamaReply, ollamaToolCalls, systemOf } from './helpers/harness';

const pool = harnessPool();
afterEach(pool.closeAll);

const start = (overrides: Partial<CompactChatSettings> = {}, tools?: ToolRunner): Promise<Harness> =>
  tools ? pool.start({ keepExchanges: 1, keepTokens: 0, ...overrides }, {}, { tools }) : pool.start({ keepExchanges: 1, keepTokens: 0, ...overrides });

const TURNS: [string, string][] = [
  ['Help me plan the garden renovation. The budget is 3,500 euros. Never suggest removing the old apple tree.', 'Happy to help. The soil pH is 6.2, which suits vegetables and most herbs.'],
  ['We decided to put the greenhouse on the south side, next to the shed.', 'The greenhouse on the south side gets the most light in winter.'],
  ['I ordered 40 lavender plants from Hortus Nursery for the border.', 'Lavender needs full sun and well-drained soil, so the border works.'],
  ['Can you draft the planting schedule for April?', 'Here is a first draft: peas in week 1, lettuce in week 2, beans in week 3.'],
];

async function converse(h: Harness, turns: readonly [string, string][]): Promise<void> {
  for (const [, reply] of turns) h.server.on('POST', '/api/chat', ollamaReply(reply));
  for (const [text] of turns) await h.session.send(text);
}

/** Sends one more message and returns the body the server received for it. */
async function nextBody(h: Harness, text = 'What comes next?'): Promise<OllamaBody> {
  h.server.on('POST', '/api/chat', ollamaReply('Next, we prepare the beds.'));
  await h.session.send(text);
  const bodies = h.bodies();
  const body = bodies[bodies.length - 1];
  if (!body) throw new Error('no request');
  return body;
}

/** The saved note of a session, loaded into a fresh session (as a restart would). */
async function reloaded(h: Harness): Promise<Harness> {
  const note = serializeConversation({ id: 'c1', title: 'Garden', model: 'llama3.1:8b', created: 1, updated: 2, items: h.session.toSaved() });
  const parsed = parseConversation(note);
  if (!parsed.ok) throw new Error(parsed.error);
  const fresh = await start();
  fresh.session.load(parsed.conversation.items);
  return fresh;
}

function latestRecord(session: ChatSession) {
  const record = session.compactions[session.compactions.length - 1]?.record;
  if (!record) throw new Error('no round');
  return record;
}

/** A line of `section` that the latest block sent. */
function sentLine(session: ChatSession, section: 'facts' | 'constraints', not: readonly string[] = []): SourcedLine {
  const record = latestRecord(session);
  const line = record[section].find((l) => record.block.includes(l.text) && !not.includes(l.text));
  if (!line) throw new Error(`no ${section} line was sent`);
  return line;
}

const messageTexts = (body: OllamaBody): string[] => body.messages.filter((m) => m.role !== 'system').map((m) => m.content);

describe('edits of the carried lines', () => {
  it('reach the next request body, survive reload, and "undo last edit" restores the line', async () => {
    const h = await start();
    await converse(h, TURNS);
    expect((await h.session.compactNow()).kind).toBe('compacted');
    const removed = sentLine(h.session, 'facts');
    const rewritten = sentLine(h.session, 'constraints', [removed.text]);

    expect(h.session.editCarriedLine('facts', lineKey(removed.text), null)).toEqual({ ok: true, message: '' });
    expect(h.session.editCarriedLine('constraints', lineKey(rewritten.text), '  Keep the old apple tree,\nwhatever the plan.  ')).toEqual({ ok: true, message: '' });

    const body = await nextBody(h);
    const system = systemOf(body);
    expect(system).toContain('<previous_context>');
    expect(system).not.toContain(removed.text);
    expect(system).not.toContain(rewritten.text);
    expect(system).toContain('- Keep the old apple tree, whatever the plan.');

    // Saved with the round, restored on reload: the same block in the next request.
    const again = await reloaded(h);
    expect(latestRecord(again.session).edits).toHaveLength(2);
    const reloadedSystem = systemOf(await nextBody(again));
    expect(reloadedSystem).not.toContain(removed.text);
    expect(reloadedSystem).toContain('- Keep the old apple tree, whatever the plan.');

    // Undo last edit (the rewrite), then the removal: each line comes back.
    expect(again.session.undoLineEdit()?.text).toBe('Keep the old apple tree, whatever the plan.');
    const afterOne = systemOf(await nextBody(again));
    expect(afterOne).toContain(rewritten.text);
    expect(afterOne).not.toContain('whatever the plan');
    expect(afterOne).not.toContain(removed.text);
    expect(again.session.undoLineEdit()?.removed).toBe(true);
    expect(systemOf(await nextBody(again))).toContain(removed.text);
    expect(again.session.undoLineEdit()).toBeNull();
    expect(again.session.lineEditUndoBlocker()).toMatch(/no edit/i);
  });

  it('a later round keeps them, and undoing that round brings back the edited one', async () => {
    const h = await start();
    await converse(h, TURNS.slice(0, 3));
    await h.session.compactNow();
    const removed = sentLine(h.session, 'facts');
    const rewritten = sentLine(h.session, 'constraints', [removed.text]);
    h.session.editCarriedLine('facts', lineKey(removed.text), '');
    h.session.editCarriedLine('constraints', lineKey(rewritten.text), 'The apple tree stays.');

    await converse(h, TURNS.slice(3));
    await nextBody(h, 'And the watering plan for the beds?');
    expect((await h.session.compactNow()).kind).toBe('compacted');
    expect(latestRecord(h.session).round).toBe(2);
    const second = systemOf(await nextBody(h));
    expect(second).not.toContain(removed.text);
    expect(second).not.toContain(rewritten.text);
    expect(second).toContain('The apple tree stays.');

    // Undo round 2: round 1's block is sent again, with its edits.
    expect(h.session.undoLastCompaction()?.record.round).toBe(2);
    const first = systemOf(await nextBody(h));
    expect(first).not.toContain(removed.text);
    expect(first).toContain('The apple tree stays.');
  });

  it('a restored line is sent as extracted; edits need a round and an idle chat', async () => {
    const h = await start();
    expect(h.session.lineEditBlocker()).toMatch(/no compaction/i);
    await converse(h, TURNS);
    await h.session.compactNow();
    const line = sentLine(h.session, 'facts');
    h.session.editCarriedLine('facts', lineKey(line.text), null);
    expect(h.session.restoreCarriedLine('facts', lineKey(line.text)).ok).toBe(true);
    expect(systemOf(await nextBody(h))).toContain(line.text);
    expect(h.session.editCarriedLine('facts', 'no such line', null)).toEqual({ ok: false, message: 'That line is no longer in the latest round.' });
  });

  it('a rewrite too long for the budget is kept but said not to be sent', async () => {
    const h = await start({ contextBudget: 200 });
    await converse(h, TURNS);
    await h.session.compactNow();
    const line = sentLine(h.session, 'facts');
    const long = Array.from({ length: 80 }, (_, i) => `Clause ${i} of a very long rewrite.`).join(' ');
    const outcome = h.session.editCarriedLine('facts', lineKey(line.text), long);
    expect(outcome.ok).toBe(true);
    expect(outcome.message).toMatch(/does not fit in the summary's budget .* not sent/);
    expect(systemOf(await nextBody(h))).not.toContain('Clause 79');
  });
});

describe('pinned messages', () => {
  const PINNED = TURNS[0]?.[0] ?? '';

  it('are sent verbatim after a compaction, after a reload and after an undo; unpinned, the next round summarises them', async () => {
    const h = await start();
    await converse(h, TURNS);
    const first = h.session.messages[0];
    if (!first) throw new Error('no message');
    expect(h.session.setPinned(first.id, true)).toEqual({ ok: true, message: '' });
    expect(h.session.isPinned(first.id)).toBe(true);
    expect((await h.session.compactNow()).kind).toBe('compacted');
    expect(latestRecord(h.session).removedIds).not.toContain(first.id);

    const body = await nextBody(h);
    expect(messageTexts(body)[0]).toBe(PINNED);
    // Its neighbours were compacted away.
    expect(messageTexts(body)).not.toContain(TURNS[1]?.[0]);

    const again = await reloaded(h);
    expect(again.session.isPinned(first.id)).toBe(true);
    expect(messageTexts(await nextBody(again))[0]).toBe(PINNED);

    // Undo the round: still pinned, and everything is sent again.
    expect(again.session.undoLastCompaction()).not.toBeNull();
    const undone = messageTexts(await nextBody(again));
    expect(undone[0]).toBe(PINNED);
    expect(undone).toContain(TURNS[1]?.[0]);

    // Unpinned after a round passed it: still sent until the next round summarises it.
    await again.session.compactNow();
    expect(again.session.setPinned(first.id, false).ok).toBe(true);
    expect(messageTexts(await nextBody(again))[0]).toBe(PINNED);
    expect((await again.session.compactNow()).kind).toBe('compacted');
    expect(latestRecord(again.session).removedIds).toContain(first.id);
    expect(messageTexts(await nextBody(again))).not.toContain(PINNED);
  });

  it('a pinned tool call keeps its results paired after a compaction', async () => {
    const tools: ToolRunner = { definitions: () => VAULT_TOOL_DEFINITIONS, run: () => Promise.resolve({ content: '# Garden\nCompost goes in in spring, never in summer.' }) };
    const h = await start({ vaultTools: true }, tools);
    h.server.on('POST', '/api/chat', ollamaToolCalls({ name: 'read_note', arguments: { path: 'Garden.md' } }), ollamaReply('Compost goes in in spring.'));
    await h.session.send('When do I add compost?');
    await converse(h, TURNS.slice(1));
    const call = h.session.messages.find((m) => m.role === 'assistant' && m.toolCalls?.length);
    if (!call) throw new Error('no tool call');
    h.session.setPinned(call.id, true);
    expect((await h.session.compactNow()).kind).toBe('compacted');
    const body = (await nextBody(h)) as unknown as { messages: { role: string; content: string; tool_calls?: unknown[] }[] };
    const rest = body.messages.filter((m) => m.role !== 'system');
    expect(rest[0]?.tool_calls).toHaveLength(1);
    expect(rest[1]).toMatchObject({ role: 'tool', content: '# Garden\nCompost goes in in spring, never in summer.' });
    // The user message that asked was not pinned: compacted away.
    expect(rest.some((m) => m.content === 'When do I add compost?')).toBe(false);
  });

  it('that fill the window are said to, and everything pinned leaves nothing to compact', async () => {
    const h = await start({ contextWindowOverride: 4096, replyReserve: 512 });
    const big = Array.from({ length: 120 }, (_, i) => `Fact ${i}: the border holds lavender, thyme and sage in a sunny row.`).join(' ');
    h.server.on('POST', '/api/chat', ollamaReply('Noted.'), ollamaReply('Noted again.'));
    await h.session.send(big);
    await h.session.send('Short question about the beds?');
    const first = h.session.messages[0];
    const reply = h.session.messages[1];
    if (!first || !reply) throw new Error('no messages');
    expect(h.session.setPinned(first.id, true).message).toMatch(/^Pinned messages take about [\d,]+ tokens, more than the [\d,]+ a compaction can leave/);
    h.session.setPinned(reply.id, true);
    expect(h.session.compactNowBlocker()).toMatch(/pinned.*Unpin some/);
    h.session.setPinned(reply.id, false);

    // An automatic compaction with them pinned says so once, and still keeps them.
    const more = (n: number): string => Array.from({ length: 25 }, (_, i) => `Note ${n}.${i}: the beds get compost and mulch in spring.`).join(' ');
    for (let n = 0; n < 4; n++) h.server.on('POST', '/api/chat', ollamaReply(`Reply ${n}.`));
    for (let n = 0; n < 4; n++) await h.session.send(more(n));
    expect(h.session.compactions.length).toBeGreaterThan(0);
    const warnings = h.session.entries.filter((e) => e.kind === 'notice' && e.text.startsWith('Pinned messages take about'));
    expect(warnings).toHaveLength(1);
    const last = h.bodies()[h.bodies().length - 1];
    expect(last?.messages.filter((m) => m.role !== 'system')[0]?.content).toBe(big);
  });
});
