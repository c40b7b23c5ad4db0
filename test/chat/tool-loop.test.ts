// The tools in the send loop (tool-loop.ts, run by the request loop): tool calls are run and the
// conversation continues (bounded rounds), no tools are sent when the setting is off, and a server
// without tool support is retried without them (remembered for the model).
import { afterEach, describe, expect, it } from 'vitest';
import type { ToolCall } from '../../src/core/messages';
import { MAX_TOOL_ROUNDS, type ToolRunner } from '../../src/chat/tool-loop';
import { VAULT_TOOL_DEFINITIONS } from '../../src/chat/tools/vault-tools';
import { type Harness, ollamaError, ollamaReply, ollamaToolCalls, startHarness } from './helpers/harness';

let h: Harness;
afterEach(async () => {
  await h.close();
});

const runner = (results: Record<string, string>): ToolRunner & { calls: ToolCall[] } => {
  const calls: ToolCall[] = [];
  return {
    calls,
    definitions: () => VAULT_TOOL_DEFINITIONS,
    run: (call) => {
      calls.push(call);
      return Promise.resolve({ content: results[call.name] ?? 'no such tool', ...(results[call.name] ? {} : { isError: true }) });
    },
  };
};

interface ToolBody {
  tools?: { function: { name: string } }[];
  messages: { role: string; content: string; tool_calls?: unknown[]; tool_name?: string }[];
}

describe('vault tools in the send loop', () => {
  it('runs the calls, sends the results back and continues until the model answers', async () => {
    const tools = runner({ read_note: '# Garden\nCompost in spring.' });
    h = await startHarness({}, {}, { tools });
    h.server.on('POST', '/api/chat', ollamaToolCalls({ name: 'read_note', arguments: { path: 'Garden.md' } }), ollamaReply('Compost goes in in spring.'));
    await h.session.send('When do I add compost?');
    expect(tools.calls.map((c): unknown[] => [c.name, JSON.parse(c.arguments) as unknown])).toEqual([['read_note', { path: 'Garden.md' }]]);
    const bodies = h.server.to('/api/chat').map((r) => JSON.parse(r.body) as ToolBody);
    expect(bodies).toHaveLength(2);
    expect(bodies[0]?.tools?.map((t) => t.function.name)).toEqual(VAULT_TOOL_DEFINITIONS.map((d) => d.name));
    const second = bodies[1]?.messages ?? [];
    expect(second.find((m) => m.role === 'tool')).toMatchObject({ content: '# Garden\nCompost in spring.' });
    expect(h.session.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(h.session.messages[3]?.content).toBe('Compost goes in in spring.');
  });

  it(`stops after ${MAX_TOOL_ROUNDS} tool rounds in one send`, async () => {
    const tools = runner({ list_folder: 'Inbox.md' });
    h = await startHarness({}, {}, { tools });
    h.server.on('POST', '/api/chat', ...Array.from({ length: MAX_TOOL_ROUNDS + 3 }, () => ollamaToolCalls({ name: 'list_folder', arguments: { path: '' } })));
    await h.session.send('Loop forever');
    expect(h.server.to('/api/chat')).toHaveLength(MAX_TOOL_ROUNDS + 1);
    expect(tools.calls).toHaveLength(MAX_TOOL_ROUNDS);
    expect(h.session.entries.at(-1)).toMatchObject({ kind: 'notice', level: 'warning' });
  });

  it('sends no tools when the setting is off, and retries without tools when the server refuses them', async () => {
    const tools = runner({});
    h = await startHarness({ vaultTools: false }, {}, { tools });
    h.server.on('POST', '/api/chat', ollamaReply('Plain.'));
    await h.session.send('Hi');
    expect((JSON.parse(h.server.to('/api/chat')[0]?.body ?? '{}') as ToolBody).tools).toBeUndefined();

    h.settings.vaultTools = true;
    h.session.settingsChanged();
    h.server.on('POST', '/api/chat', ollamaError(400, 'registry.ollama.ai/library/gemma:2b does not support tools'), ollamaReply('Without tools.'), ollamaReply('Still without.'));
    await h.session.send('Again');
    const bodies = h.server.to('/api/chat').map((r) => JSON.parse(r.body) as ToolBody);
    expect(bodies.map((b) => b.tools !== undefined)).toEqual([false, true, false]);
    expect(h.session.messages.at(-1)?.content).toBe('Without tools.');
    expect(h.session.entries.some((e) => e.kind === 'message' && e.status === 'error')).toBe(false);
    await h.session.send('Third');
    expect((JSON.parse(h.server.to('/api/chat')[3]?.body ?? '{}') as ToolBody).tools).toBeUndefined();
  });
});
