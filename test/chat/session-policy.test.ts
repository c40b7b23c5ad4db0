// The compaction policy as the chat session applies it, against a real loopback Ollama server:
// a tool loop that outgrows a small window is compacted inside its turn (the request after it
// carries the block and the user's message whole), "Compact now" at the point compacts, and the
// session and the CLI replay agree event for event on the same conversation (an oversized paste:
// user-turns.test.ts).
import { afterEach, describe, expect, it } from 'vitest';
import type { ToolRunner } from '../../src/chat/tool-loop';
import { replay } from '../../src/cli/replay';
import { CLI_DEFAULTS, resolve } from '../../src/cli/settings';
import { estimatePromptTokens } from '../../src/core/message-tokens';
import type { ChatMessage, ToolCall } from '../../src/core/messages';
import { harnessPool, ollamaReply, ollamaToolCalls, systemOf } from './helpers/harness';

const pool = harnessPool();
afterEach(pool.closeAll);
const start = pool.start;

const para = (topic: string, n: number): string =>
  Array.from({ length: n }, (_, i) => `Line ${i + 1} of ${topic}: the function returns the parsed value and the test checks it again.`).join('\n');

/** A tool runner whose every result is a long listing (an agent reading file after file). */
const bulkyTools = (lines: number): ToolRunner & { calls: ToolCall[] } => {
  const calls: ToolCall[] = [];
  return {
    calls,
    definitions: () => [{ name: 'read_note', description: 'Read a note.', parameters: { type: 'object', properties: { path: { type: 'string' } } } }],
    run: (call) => {
      calls.push(call);
      return Promise.resolve({ content: para(`file ${calls.length}`, lines) });
    },
  };
};

describe('compaction inside a turn', () => {
  it('compacts older tool rounds of the current turn when the loop outgrows a small window; the next request carries the block and the request whole', async () => {
    const tools = bulkyTools(12);
    const h = await start({ contextWindowOverride: 3000, microCompaction: false }, {}, { tools });
    const rounds = 7;
    h.server.on('POST', '/api/chat', ...Array.from({ length: rounds }, (_, i) => ollamaToolCalls({ name: 'read_note', arguments: { path: `File ${i}.md` } })), ollamaReply('All files read.'));
    const task = 'Read every file of the project and tell me which one parses dates.';
    await h.session.send(task);

    const state = h.session.compactions[0];
    expect(state).toBeDefined();
    // Inside the turn: the round removed tool rounds after the only user message.
    const userId = h.session.messages[0]?.id;
    expect(state?.record.removedIds).toContain(userId);
    expect(state?.record.removedIds.length).toBeGreaterThan(1);
    const bodies = h.bodies();
    const firstCompacted = bodies.findIndex((b) => systemOf(b).includes('<previous_context>'));
    expect(firstCompacted).toBeGreaterThan(0);
    // Every request after it still starts with the user's message, verbatim, and carries a block.
    for (const body of bodies.slice(firstCompacted)) {
      expect(body.messages.find((m) => m.role === 'user')?.content).toBe(task);
      expect(systemOf(body)).toContain('<previous_context>');
    }
    // The compaction landed at half the prompt, and no request outgrew the window.
    expect(state?.promptAfter).toBeLessThanOrEqual((state?.promptBefore ?? 0) / 2);
    for (const body of bodies) {
      const messages = body.messages.filter((m) => m.role !== 'system').map((m, i): ChatMessage => ({ id: `b${i}`, createdAt: 0, role: m.role === 'assistant' ? 'assistant' : 'user', content: m.content }));
      expect(estimatePromptTokens({ systemPrompt: systemOf(body), messages }, 'llama3.1:8b')).toBeLessThanOrEqual(3000);
    }
    expect(h.session.messages.at(-1)?.content).toBe('All files read.');
  });
});

describe('"Compact now"', () => {
  it('compacts at the compaction point even within the keep settings, and says exactly why when it cannot', async () => {
    const h = await start({ contextWindowOverride: 3000, keepExchanges: 2, keepTokens: 2000 });
    expect(h.session.compactNowBlocker()).toMatch(/empty/);
    const topics = ['the parser', 'the dates', 'the tests'];
    for (const t of topics) h.server.on('POST', '/api/chat', ollamaReply(para(t, 3)));
    await h.session.send(`About ${topics[0]}: ${para(topics[0] ?? '', 2)}`);
    expect(h.session.compactNowBlocker()).toMatch(/only the latest exchange is sent/);
    for (const t of topics.slice(1)) await h.session.send(`About ${t}: ${para(t, 2)}`);
    expect(h.session.compactions).toHaveLength(0);
    expect(h.session.compactNowBlocker()).toBeNull();
    const before = h.session.sentMessages();
    const outcome = await h.session.compactNow();
    expect(outcome.kind).toBe('compacted');
    // Older exchanges went; the latest exchange is sent whole.
    const after = h.session.sentMessages();
    expect(after.length).toBeLessThan(before.length);
    expect(after.slice(-2)).toEqual(before.slice(-2));
  });
});

describe('the session and the CLI replay', () => {
  it('agree event for event on the same conversation', async () => {
    const tools = bulkyTools(20);
    const settings = { contextWindowOverride: 4096, systemPrompt: '', restoredNotesBudget: 0 } as const;
    const h = await start(settings, {}, { tools });
    const turns = 24;
    for (let t = 0; t < turns; t++) {
      if (t % 2) h.server.on('POST', '/api/chat', ollamaToolCalls({ name: 'read_note', arguments: { path: `N${t}.md` } }), ollamaToolCalls({ name: 'read_note', arguments: { path: `M${t}.md` } }));
      h.server.on('POST', '/api/chat', ollamaReply(para(`answer ${t}`, 4)));
    }
    for (let t = 0; t < turns; t++) await h.session.send(`Question ${t}: ${para(`question ${t}`, 3)}`);
    const session = h.session.compactions;
    expect(session.length).toBeGreaterThan(1);

    const transcript = h.session.messages;
    const s = resolve({ ...CLI_DEFAULTS, window: 4096, model: 'llama3.1:8b' }, { id: 'c', title: '', messages: transcript });
    const r = replay(transcript, s, { tools: tools.definitions() });
    const cli = r.events.filter((e) => e.kind === 'compaction');
    const view = (e: { record: { round: number; removedIds: string[]; keptIds: string[] }; promptBefore: number; promptAfter: number }) => ({
      round: e.record.round,
      removed: e.record.removedIds,
      kept: e.record.keptIds,
      before: e.promptBefore,
      after: e.promptAfter,
    });
    expect(cli.map(view)).toEqual(session.map(view));
  });
});
