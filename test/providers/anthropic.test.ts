import { describe, expect, it } from 'vitest';
import type { ChatMessage, ToolDefinition } from '../../src/core/messages';
import { AnthropicProvider } from '../../src/providers/anthropic';
import type { ChatRequest } from '../../src/providers/types';
import { collect, errorOf, expectOneTerminal, ofType, testTransport, textOf } from './helpers/events';
import { rechunk, ScriptedServer, sse, sentJson } from './helpers/server';
import { serverPerTest } from './helpers/suite';

const KEY = 'sk-ant-api03-SECRET-abcdef';

const tool: ToolDefinition = { name: 'read_note', description: 'Read a note', parameters: { type: 'object', properties: { path: { type: 'string' } } } };

const request = (over: Partial<ChatRequest> = {}): ChatRequest => ({
  model: 'claude-sonnet-4-5',
  systemPrompt: 'You help with notes.',
  messages: [{ id: 'u1', createdAt: 0, role: 'user', content: 'Hi' }],
  contextWindow: 200000,
  ...over,
});

const start = (usage: Record<string, unknown> = { input_tokens: 20, cache_creation_input_tokens: 100, cache_read_input_tokens: 1000, output_tokens: 1 }) => ({
  event: 'message_start',
  data: { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', content: [], model: 'claude-sonnet-4-5', stop_reason: null, usage } },
});
const textBlock = (index: number, ...pieces: string[]) => [
  { event: 'content_block_start', data: { type: 'content_block_start', index, content_block: { type: 'text', text: '' } } },
  ...pieces.map((text) => ({ event: 'content_block_delta', data: { type: 'content_block_delta', index, delta: { type: 'text_delta', text } } })),
  { event: 'content_block_stop', data: { type: 'content_block_stop', index } },
];
const toolBlock = (index: number, id: string, name: string, ...json: string[]) => [
  { event: 'content_block_start', data: { type: 'content_block_start', index, content_block: { type: 'tool_use', id, name, input: {} } } },
  ...json.map((partial_json) => ({ event: 'content_block_delta', data: { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json } } })),
  { event: 'content_block_stop', data: { type: 'content_block_stop', index } },
];
const end = (stop_reason: string, output_tokens: number) => [
  { event: 'message_delta', data: { type: 'message_delta', delta: { stop_reason, stop_sequence: null }, usage: { output_tokens } } },
  { event: 'message_stop', data: { type: 'message_stop' } },
];

describe('Anthropic provider over real HTTP', () => {
  let server!: ScriptedServer;
  serverPerTest((s) => (server = s));

  it('streams text, sends the key, version and browser-access headers and a top-level system prompt', async () => {
    server.on('POST', '/v1/messages', {
      delayMs: 8,
      chunks: sse(start(), { event: 'ping', data: { type: 'ping' } }, ...textBlock(0, 'Hello', ' there'), ...end('end_turn', 5)),
    });
    const provider = new AnthropicProvider({ baseUrl: server.url, transport: testTransport().transport });
    const events = await collect(provider.stream(request({ tools: [tool], temperature: 0.5 }), { apiKey: KEY }));

    expectOneTerminal(events);
    expect(ofType(events, 'text').map((e) => e.delta)).toEqual(['Hello', ' there']);
    expect(events[events.length - 1]).toEqual({ type: 'done', stopReason: 'end', rawStopReason: 'end_turn' });

    const sent = server.to('/v1/messages')[0]!;
    expect(sent.headers['x-api-key']).toBe(KEY);
    expect(sent.headers['anthropic-version']).toBe('2023-06-01');
    expect(sent.headers['anthropic-dangerous-direct-browser-access']).toBe('true');
    expect(sent.headers.authorization).toBeUndefined();
    expect(JSON.parse(sent.body)).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 4096,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
      stream: true,
      system: 'You help with notes.',
      tools: [{ name: 'read_note', description: 'Read a note', input_schema: tool.parameters }],
      temperature: 0.5,
    });
  });

  it('usage: prompt tokens include cache reads and writes; output from message_delta', async () => {
    server.on('POST', '/v1/messages', { chunks: sse(start(), ...textBlock(0, 'x'), ...end('end_turn', 42)) });
    const provider = new AnthropicProvider({ baseUrl: server.url, transport: testTransport().transport });
    const events = await collect(provider.stream(request(), { apiKey: KEY }));
    expect(ofType(events, 'usage')[0]?.usage).toEqual({ promptTokens: 1120, completionTokens: 42, cacheReadTokens: 1000, cacheWriteTokens: 100 });
  });

  it('assembles tool_use input from input_json_delta pieces, for parallel calls, across odd chunk edges', async () => {
    server.on('POST', '/v1/messages', {
      delayMs: 2,
      chunks: rechunk(
        sse(
          start(),
          ...textBlock(0, 'Reading both.'),
          ...toolBlock(1, 'toolu_1', 'read_note', '{"pa', 'th": "a.', 'md"}'),
          ...toolBlock(2, 'toolu_2', 'read_note', '', '{"path": "日本.md"}'),
          ...end('tool_use', 30),
        ),
        13,
      ),
    });
    const provider = new AnthropicProvider({ baseUrl: server.url, transport: testTransport().transport });
    const events = await collect(provider.stream(request({ tools: [tool] }), { apiKey: KEY }));
    expect(textOf(events)).toBe('Reading both.');
    expect(ofType(events, 'tool-call').map((e) => e.call)).toEqual([
      { id: 'toolu_1', name: 'read_note', arguments: '{"path": "a.md"}' },
      { id: 'toolu_2', name: 'read_note', arguments: '{"path": "日本.md"}' },
    ]);
    expect(events[events.length - 1]).toMatchObject({ type: 'done', stopReason: 'tool-calls' });
  });

  it('a tool call with no input deltas gets {}', async () => {
    server.on('POST', '/v1/messages', { chunks: sse(start(), ...toolBlock(0, 'toolu_9', 'list_folder'), ...end('tool_use', 3)) });
    const provider = new AnthropicProvider({ baseUrl: server.url, transport: testTransport().transport });
    const events = await collect(provider.stream(request(), { apiKey: KEY }));
    expect(ofType(events, 'tool-call')[0]?.call).toEqual({ id: 'toolu_9', name: 'list_folder', arguments: '{}' });
  });

  it('maps tool calls to tool_use and results to tool_result blocks in one merged user message', async () => {
    server.on('POST', '/v1/messages', { chunks: sse(start(), ...textBlock(0, 'ok'), ...end('end_turn', 1)) });
    const provider = new AnthropicProvider({ baseUrl: server.url, transport: testTransport().transport });
    const messages: ChatMessage[] = [
      { id: 'u1', createdAt: 0, role: 'user', content: 'Compare a and b' },
      {
        id: 'a1',
        createdAt: 0,
        role: 'assistant',
        content: 'Reading.',
        toolCalls: [
          { id: 'toolu_a', name: 'read_note', arguments: '{"path":"a.md"}' },
          { id: 'toolu_b', name: 'read_note', arguments: 'not json' },
        ],
      },
      { id: 't1', createdAt: 0, role: 'tool', toolCallId: 'toolu_a', content: 'A text' },
      { id: 't2', createdAt: 0, role: 'tool', toolCallId: 'toolu_b', content: 'bad arguments', isError: true },
      { id: 'u2', createdAt: 0, role: 'user', content: 'And?' },
    ];
    await collect(provider.stream(request({ messages }), { apiKey: KEY }));
    expect(sentJson(server.to('/v1/messages')[0]).messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Compare a and b' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Reading.' },
          { type: 'tool_use', id: 'toolu_a', name: 'read_note', input: { path: 'a.md' } },
          { type: 'tool_use', id: 'toolu_b', name: 'read_note', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_a', content: 'A text' },
          { type: 'tool_result', tool_use_id: 'toolu_b', content: 'bad arguments', is_error: true },
          { type: 'text', text: 'And?' },
        ],
      },
    ]);
  });

  it('an error event mid-stream (overloaded) keeps the partial text', async () => {
    server.on('POST', '/v1/messages', {
      chunks: sse(start(), ...textBlock(0, 'Partly').slice(0, 2), { event: 'error', data: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } }),
    });
    const provider = new AnthropicProvider({ baseUrl: server.url, transport: testTransport().transport });
    const error = errorOf(await collect(provider.stream(request(), { apiKey: KEY })));
    expect(error.kind).toBe('server');
    expect(error.message).toContain('overloaded');
    expect(error.partialText).toBe('Partly');
  });

  it('529 overloaded is retried with backoff', async () => {
    server
      .on('POST', '/v1/messages', { status: 529, chunks: ['{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}'] })
      .on('POST', '/v1/messages', { chunks: sse(start(), ...textBlock(0, 'Back'), ...end('end_turn', 1)) });
    const { transport, waits } = testTransport();
    const provider = new AnthropicProvider({ baseUrl: server.url, transport });
    const events = await collect(provider.stream(request(), { apiKey: KEY }));
    expect(waits).toHaveLength(1);
    expect(ofType(events, 'retry')[0]?.reason).toContain('overloaded');
    expect(textOf(events)).toBe('Back');
  });

  it('retry-after as an HTTP date is honoured', async () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    server
      .on('POST', '/v1/messages', { status: 429, headers: { 'retry-after': new Date(now + 5000).toUTCString() }, chunks: ['{"type":"error","error":{"type":"rate_limit_error","message":"Rate limited"}}'] })
      .on('POST', '/v1/messages', { chunks: sse(start(), ...textBlock(0, 'ok'), ...end('end_turn', 1)) });
    const { transport, waits } = testTransport({ now: () => now });
    const provider = new AnthropicProvider({ baseUrl: server.url, transport });
    await collect(provider.stream(request(), { apiKey: KEY }));
    expect(waits).toEqual([5000]);
  });

  it('"prompt is too long" is a context overflow', async () => {
    server.on('POST', '/v1/messages', {
      status: 400,
      chunks: ['{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 210000 tokens > 200000 maximum"}}'],
    });
    const provider = new AnthropicProvider({ baseUrl: server.url, transport: testTransport().transport });
    const error = errorOf(await collect(provider.stream(request(), { apiKey: KEY })));
    expect(error.kind).toBe('context-overflow');
    expect(error.message).toContain('210000 tokens');
  });

  it('401 with a bad key never echoes it', async () => {
    server.on('POST', '/v1/messages', { status: 401, chunks: [`{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key ${KEY}"}}`] });
    const provider = new AnthropicProvider({ baseUrl: server.url, transport: testTransport().transport });
    const error = errorOf(await collect(provider.stream(request(), { apiKey: KEY })));
    expect(error.kind).toBe('auth');
    expect(error.message).not.toContain(KEY);
  });

  it('404 for an unknown model lists the models', async () => {
    server
      .on('POST', '/v1/messages', { status: 404, chunks: ['{"type":"error","error":{"type":"not_found_error","message":"model: claude-nine"}}'] })
      .on('GET', '/v1/models', { chunks: [JSON.stringify({ data: [{ id: 'claude-sonnet-4-5', type: 'model' }, { id: 'claude-haiku-4-5', type: 'model' }], has_more: false })] });
    const provider = new AnthropicProvider({ baseUrl: server.url, transport: testTransport().transport });
    const error = errorOf(await collect(provider.stream(request({ model: 'claude-nine' }), { apiKey: KEY })));
    expect(error.kind).toBe('model-not-found');
    expect(error.availableModels).toEqual(['claude-sonnet-4-5', 'claude-haiku-4-5']);
    expect(server.to('/v1/models')[0]!.headers['x-api-key']).toBe(KEY);
  });

  it('lists models from /v1/models with the key (the chat header picker)', async () => {
    server.on('GET', '/v1/models', { chunks: [JSON.stringify({ data: [{ id: 'claude-sonnet-4-5', type: 'model' }, { id: 'claude-haiku-4-5', type: 'model' }], has_more: false })] });
    const provider = new AnthropicProvider({ baseUrl: server.url, transport: testTransport().transport });
    await expect(provider.listModels({ apiKey: KEY })).resolves.toEqual(['claude-sonnet-4-5', 'claude-haiku-4-5']);
    expect(server.to('/v1/models')[0]!.headers['x-api-key']).toBe(KEY);
  });

  it('a stream without message_stop is interrupted', async () => {
    server.on('POST', '/v1/messages', { chunks: sse(start(), ...textBlock(0, 'Almost')) });
    const provider = new AnthropicProvider({ baseUrl: server.url, transport: testTransport().transport });
    const error = errorOf(await collect(provider.stream(request(), { apiKey: KEY })));
    expect(error.kind).toBe('interrupted');
    expect(error.partialText).toBe('Almost');
  });
});
