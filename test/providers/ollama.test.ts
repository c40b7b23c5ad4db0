import { describe, expect, it } from 'vitest';
import type { ChatMessage, ToolDefinition } from '../../src/core/messages';
import { OllamaProvider } from '../../src/providers/ollama';
import type { ChatRequest } from '../../src/providers/types';
import { collect, errorOf, expectOneTerminal, ofType, testTransport, textOf } from './helpers/events';
import { closedPort, ndjson, rechunk, ScriptedServer, sentJson } from './helpers/server';
import { serverPerTest } from './helpers/suite';

const msg = (role: 'user' | 'assistant', content: string, id: string): ChatMessage => ({ id, createdAt: 0, role, content });

const readNote: ToolDefinition = {
  name: 'read_note',
  description: 'Read a note',
  parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
};

const request = (over: Partial<ChatRequest> = {}): ChatRequest => ({
  model: 'llama3.1:8b',
  systemPrompt: 'You are helpful.',
  messages: [msg('user', 'Hello', 'u1')],
  contextWindow: 32768,
  ...over,
});

const line = (content: string) => ({ model: 'llama3.1:8b', message: { role: 'assistant', content }, done: false });
const final = (extra: Record<string, unknown> = {}) => ({
  model: 'llama3.1:8b',
  message: { role: 'assistant', content: '' },
  done: true,
  done_reason: 'stop',
  prompt_eval_count: 42,
  eval_count: 7,
  ...extra,
});

describe('Ollama provider over real HTTP', () => {
  let server!: ScriptedServer;
  serverPerTest((s) => (server = s));

  it('streams text in order and sends num_ctx, options and the system prompt first', async () => {
    server.on('POST', '/api/chat', { chunks: ndjson(line('Hel'), line('lo, '), line('world'), final()), delayMs: 15 });
    const provider = new OllamaProvider({ baseUrl: server.url, transport: testTransport().transport });
    const events = await collect(provider.stream(request({ maxOutputTokens: 512, temperature: 0.2 })));

    expectOneTerminal(events);
    expect(events[0]).toEqual({ type: 'transport', mode: 'fetch' });
    expect(ofType(events, 'text').map((e) => e.delta)).toEqual(['Hel', 'lo, ', 'world']);
    expect(events[events.length - 1]).toEqual({ type: 'done', stopReason: 'end', rawStopReason: 'stop' });

    const sent = server.to('/api/chat')[0]!;
    expect(sent.headers['content-type']).toBe('application/json');
    expect(sent.headers.authorization).toBeUndefined();
    expect(JSON.parse(sent.body)).toEqual({
      model: 'llama3.1:8b',
      messages: [
        { role: 'system', content: 'You are helpful.' },
        { role: 'user', content: 'Hello' },
      ],
      stream: true,
      options: { num_ctx: 32768, num_predict: 512, temperature: 0.2 },
    });
  });

  it('reports prompt_eval_count as usage, flagged as a possible lower bound', async () => {
    server.on('POST', '/api/chat', { chunks: ndjson(line('ok'), final()) });
    const provider = new OllamaProvider({ baseUrl: server.url, transport: testTransport().transport });
    const events = await collect(provider.stream(request()));
    expect(ofType(events, 'usage')).toEqual([{ type: 'usage', usage: { promptTokens: 42, completionTokens: 7, promptTokensLowerBound: true } }]);
  });

  it('counts cached prompt tokens when the server reports them', async () => {
    server.on('POST', '/api/chat', { chunks: ndjson(line('ok'), final({ prompt_eval_count: 10, prompt_cached_count: 990 })) });
    const provider = new OllamaProvider({ baseUrl: server.url, transport: testTransport().transport });
    const events = await collect(provider.stream(request()));
    expect(ofType(events, 'usage')[0]?.usage).toEqual({ promptTokens: 1000, completionTokens: 7, cacheReadTokens: 990 });
  });

  it('parses lines split across arbitrary chunk boundaries', async () => {
    server.on('POST', '/api/chat', { chunks: rechunk(ndjson(line('α β '), line('γ — 漢字'), final()), 7), delayMs: 2 });
    const provider = new OllamaProvider({ baseUrl: server.url, transport: testTransport().transport });
    const events = await collect(provider.stream(request()));
    expect(textOf(events)).toBe('α β γ — 漢字');
    expect(events[events.length - 1]?.type).toBe('done');
  });

  it('emits tool calls (parallel ones too) with arguments as JSON text, sends tools in the documented shape', async () => {
    server.on('POST', '/api/chat', {
      chunks: ndjson(
        {
          message: {
            role: 'assistant',
            content: '',
            tool_calls: [
              { function: { name: 'read_note', arguments: { path: 'a.md' } } },
              { function: { name: 'read_note', arguments: { path: 'b.md' } } },
            ],
          },
          done: false,
        },
        final(),
      ),
    });
    const provider = new OllamaProvider({ baseUrl: server.url, transport: testTransport().transport });
    const events = await collect(provider.stream(request({ tools: [readNote] })));
    const calls = ofType(events, 'tool-call').map((e) => e.call);
    expect(calls.map((c) => [c.name, JSON.parse(c.arguments) as unknown])).toEqual([
      ['read_note', { path: 'a.md' }],
      ['read_note', { path: 'b.md' }],
    ]);
    expect(new Set(calls.map((c) => c.id)).size).toBe(2);
    expect(events[events.length - 1]).toMatchObject({ type: 'done', stopReason: 'tool-calls' });
    expect(sentJson(server.to('/api/chat')[0]).tools).toEqual([
      { type: 'function', function: { name: 'read_note', description: 'Read a note', parameters: readNote.parameters } },
    ]);
  });

  it('sends tool calls with object arguments ({} when invalid) and results with role tool and tool_name', async () => {
    server.on('POST', '/api/chat', { chunks: ndjson(final()) });
    const provider = new OllamaProvider({ baseUrl: server.url, transport: testTransport().transport });
    const messages: ChatMessage[] = [
      msg('user', 'Read a and b', 'u1'),
      {
        id: 'a1',
        createdAt: 0,
        role: 'assistant',
        content: '',
        toolCalls: [
          { id: 'c1', name: 'read_note', arguments: '{"path":"a.md"}' },
          { id: 'c2', name: 'read_note', arguments: '{"path": "b.md"' },
        ],
      },
      { id: 't1', createdAt: 0, role: 'tool', toolCallId: 'c1', name: 'read_note', content: 'A' },
      { id: 't2', createdAt: 0, role: 'tool', toolCallId: 'c2', name: 'read_note', content: 'bad args', isError: true },
    ];
    await collect(provider.stream(request({ messages, systemPrompt: '' })));
    expect(sentJson(server.to('/api/chat')[0]).messages).toEqual([
      { role: 'user', content: 'Read a and b' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [
          { function: { name: 'read_note', arguments: { path: 'a.md' } } },
          { function: { name: 'read_note', arguments: {} } },
        ],
      },
      { role: 'tool', content: 'A', tool_name: 'read_note' },
      { role: 'tool', content: 'Error: bad args', tool_name: 'read_note' },
    ]);
  });

  it('lists models from /api/tags', async () => {
    server.on('GET', '/api/tags', { headers: { 'content-type': 'application/json' }, chunks: [JSON.stringify({ models: [{ name: 'llama3.1:8b' }, { name: 'qwen3:4b' }] })] });
    const provider = new OllamaProvider({ baseUrl: server.url, transport: testTransport().transport });
    await expect(provider.listModels()).resolves.toEqual(['llama3.1:8b', 'qwen3:4b']);
  });

  it('an unknown model: 404 becomes model-not-found with the models the server has', async () => {
    server
      .on('POST', '/api/chat', { status: 404, headers: { 'content-type': 'application/json' }, chunks: ['{"error":"model \\"llama9\\" not found, try pulling it first"}'] })
      .on('GET', '/api/tags', { chunks: [JSON.stringify({ models: [{ name: 'llama3.1:8b' }, { name: 'qwen3:4b' }] })] });
    const provider = new OllamaProvider({ baseUrl: server.url, transport: testTransport().transport });
    const events = await collect(provider.stream(request({ model: 'llama9' })));
    const error = errorOf(events);
    expect(error.kind).toBe('model-not-found');
    expect(error.availableModels).toEqual(['llama3.1:8b', 'qwen3:4b']);
    expect(error.message).toContain('llama3.1:8b, qwen3:4b');
    expect(error.message).toContain('ollama pull llama9');
  });

  it('connection refused: asks whether Ollama is running', async () => {
    const port = await closedPort();
    const provider = new OllamaProvider({ baseUrl: `http://127.0.0.1:${port}`, transport: testTransport().transport });
    const events = await collect(provider.stream(request()));
    expectOneTerminal(events);
    const error = errorOf(events);
    expect(error.kind).toBe('connection');
    expect(error.message).toContain('Is Ollama running there?');
    expect(error.message).toContain('`ollama serve`');
    expect(error.message).toContain('ECONNREFUSED');
    // Each thing once: the address appears a single time.
    expect(error.message.split(`127.0.0.1:${port}`)).toHaveLength(2);
  });

  it('the default address gets the short hint', async () => {
    // Whatever listens on 11434 here (nothing, normally), the label is what this checks.
    const provider = new OllamaProvider({ transport: testTransport().transport });
    expect(provider.baseUrl).toBe('http://localhost:11434');
  });

  it('a malformed line stops the reply with a specific error and keeps the partial text', async () => {
    server.on('POST', '/api/chat', { chunks: [...ndjson(line('Partial ')), '{"message": {"content": "oops"\n', ...ndjson(final())] });
    const provider = new OllamaProvider({ baseUrl: server.url, transport: testTransport().transport });
    const events = await collect(provider.stream(request()));
    expectOneTerminal(events);
    const error = errorOf(events);
    expect(error.kind).toBe('malformed');
    expect(error.message).toContain('not valid JSON');
    expect(error.partialText).toBe('Partial ');
  });

  it('a connection cut mid-reply keeps the partial text and marks it interrupted', async () => {
    server.on('POST', '/api/chat', { chunks: ndjson(line('Half '), line('a reply')), breakAfter: true, delayMs: 5 });
    const provider = new OllamaProvider({ baseUrl: server.url, transport: testTransport().transport });
    const events = await collect(provider.stream(request()));
    expectOneTerminal(events);
    const error = errorOf(events);
    expect(error.kind).toBe('interrupted');
    expect(error.partialText).toBe('Half a reply');
  });

  it('a stream that ends without done is interrupted too', async () => {
    server.on('POST', '/api/chat', { chunks: ndjson(line('No end')) });
    const provider = new OllamaProvider({ baseUrl: server.url, transport: testTransport().transport });
    const error = errorOf(await collect(provider.stream(request())));
    expect(error.kind).toBe('interrupted');
    expect(error.partialText).toBe('No end');
  });

  it('an error line inside the stream is reported, overflow as context-overflow', async () => {
    server.on('POST', '/api/chat', { chunks: ndjson({ error: 'the input length exceeds the context length' }) });
    const provider = new OllamaProvider({ baseUrl: server.url, transport: testTransport().transport });
    const error = errorOf(await collect(provider.stream(request())));
    expect(error.kind).toBe('context-overflow');
    expect(error.message).toContain('llama3.1:8b');
  });

  it('a 500 that is a context overflow is not retried', async () => {
    server.on('POST', '/api/chat', { status: 500, chunks: ['{"error":"input length exceeds maximum context length"}'] });
    const { transport, waits } = testTransport();
    const provider = new OllamaProvider({ baseUrl: server.url, transport });
    const error = errorOf(await collect(provider.stream(request())));
    expect(error.kind).toBe('context-overflow');
    expect(waits).toEqual([]);
    expect(server.to('/api/chat')).toHaveLength(1);
  });
});
