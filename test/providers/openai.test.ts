import { describe, expect, it } from 'vitest';
import type { ChatMessage, ToolDefinition } from '../../src/core/messages';
import { normaliseOpenAIBase, OpenAIProvider } from '../../src/providers/openai';
import { defaultSleep } from '../../src/providers/transport';
import type { ChatRequest } from '../../src/providers/types';
import { collect, errorOf, expectOneTerminal, ofType, testTransport, textOf } from './helpers/events';
import { rechunk, ScriptedServer, sse, sentJson } from './helpers/server';
import { serverPerTest } from './helpers/suite';

const KEY = 'sk-test-SECRET-1234567890';

const request = (over: Partial<ChatRequest> = {}): ChatRequest => ({
  model: 'gpt-4o-mini',
  systemPrompt: 'Be brief.',
  messages: [{ id: 'u1', createdAt: 0, role: 'user', content: 'Hi' }],
  contextWindow: 128000,
  ...over,
});

const tool: ToolDefinition = { name: 'search', description: 'Search the vault', parameters: { type: 'object', properties: { q: { type: 'string' } } } };

const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  choices: [{ index: 0, delta, finish_reason: finish }],
});
const usageChunk = (usage: Record<string, unknown>) => ({ id: 'chatcmpl-1', object: 'chat.completion.chunk', choices: [], usage });
const SSE_HEADERS = { 'content-type': 'text/event-stream' };

describe('OpenAI-compatible provider over real HTTP', () => {
  let server!: ScriptedServer;
  serverPerTest((s) => (server = s));

  it('streams text, asks for usage, reports it, and sends the documented body and headers', async () => {
    server.on('POST', '/v1/chat/completions', {
      headers: SSE_HEADERS,
      delayMs: 10,
      chunks: sse(
        { data: chunk({ role: 'assistant', content: '' }) },
        { data: chunk({ content: 'One' }) },
        { data: chunk({ content: ', two' }) },
        { data: chunk({}, 'stop') },
        { data: usageChunk({ prompt_tokens: 1200, completion_tokens: 3, total_tokens: 1203, prompt_tokens_details: { cached_tokens: 1024 } }) },
        '[DONE]',
      ),
    });
    const provider = new OpenAIProvider({ baseUrl: `${server.url}/v1`, transport: testTransport().transport });
    const events = await collect(provider.stream(request({ tools: [tool], maxOutputTokens: 300, temperature: 0 }), { apiKey: KEY }));

    expectOneTerminal(events);
    expect(ofType(events, 'text').map((e) => e.delta)).toEqual(['One', ', two']);
    expect(ofType(events, 'usage')[0]?.usage).toEqual({ promptTokens: 1200, completionTokens: 3, cacheReadTokens: 1024 });
    expect(events[events.length - 1]).toEqual({ type: 'done', stopReason: 'end', rawStopReason: 'stop' });

    const sent = server.to('/v1/chat/completions')[0]!;
    expect(sent.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(JSON.parse(sent.body)).toEqual({
      model: 'gpt-4o-mini',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi' },
      ],
      stream: true,
      stream_options: { include_usage: true },
      tools: [{ type: 'function', function: { name: 'search', description: 'Search the vault', parameters: tool.parameters } }],
      max_tokens: 300,
      temperature: 0,
    });
  });

  it('sends no Authorization header without a key (LM Studio, llama.cpp)', async () => {
    server.on('POST', '/v1/chat/completions', { chunks: sse({ data: chunk({ content: 'x' }, 'stop') }, '[DONE]') });
    const provider = new OpenAIProvider({ baseUrl: server.url, transport: testTransport().transport });
    await collect(provider.stream(request()));
    expect(server.to('/v1/chat/completions')[0]!.headers.authorization).toBeUndefined();
  });

  it('assembles tool calls from deltas: parallel calls interleaved, arguments split mid-token', async () => {
    server.on('POST', '/v1/chat/completions', {
      delayMs: 3,
      chunks: rechunk(
        sse(
          { data: chunk({ role: 'assistant', content: null, tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'search', arguments: '' } }] }) },
          { data: chunk({ tool_calls: [{ index: 0, function: { arguments: '{"q":"ka' } }] }) },
          { data: chunk({ tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'search', arguments: '{"q"' } }] }) },
          { data: chunk({ tool_calls: [{ index: 0, function: { arguments: 'nban"}' } }] }) },
          { data: chunk({ tool_calls: [{ index: 1, function: { arguments: ':"日本"}' } }] }) },
          { data: chunk({}, 'tool_calls') },
          { data: usageChunk({ prompt_tokens: 50, completion_tokens: 20 }) },
          '[DONE]',
        ),
        11,
      ),
    });
    const provider = new OpenAIProvider({ baseUrl: server.url, transport: testTransport().transport });
    const events = await collect(provider.stream(request({ tools: [tool] })));
    expect(ofType(events, 'tool-call').map((e) => e.call)).toEqual([
      { id: 'call_a', name: 'search', arguments: '{"q":"kanban"}' },
      { id: 'call_b', name: 'search', arguments: '{"q":"日本"}' },
    ]);
    expect(events[events.length - 1]).toMatchObject({ type: 'done', stopReason: 'tool-calls' });
    // Tool calls are complete before the usage arrives.
    expect(events.findIndex((e) => e.type === 'tool-call')).toBeLessThan(events.findIndex((e) => e.type === 'usage'));
  });

  it('handles servers that reuse index 0 for parallel calls and omit [DONE]', async () => {
    server.on('POST', '/v1/chat/completions', {
      chunks: sse(
        { data: chunk({ tool_calls: [{ index: 0, id: 'x1', function: { name: 'search', arguments: '{"q":"a"}' } }] }) },
        { data: chunk({ tool_calls: [{ index: 0, id: 'x2', function: { name: 'search', arguments: '{"q":"b"}' } }] }) },
        { data: chunk({}, 'tool_calls') },
      ),
    });
    const provider = new OpenAIProvider({ baseUrl: server.url, transport: testTransport().transport });
    const events = await collect(provider.stream(request({ tools: [tool] })));
    expect(ofType(events, 'tool-call').map((e) => e.call.id)).toEqual(['x1', 'x2']);
    expect(events[events.length - 1]?.type).toBe('done');
  });

  it('sends tool calls with the raw argument text (even invalid JSON) and results as role tool', async () => {
    server.on('POST', '/v1/chat/completions', { chunks: sse({ data: chunk({ content: 'ok' }, 'stop') }, '[DONE]') });
    const provider = new OpenAIProvider({ baseUrl: server.url, transport: testTransport().transport });
    const messages: ChatMessage[] = [
      { id: 'u1', createdAt: 0, role: 'user', content: 'Find it' },
      { id: 'a1', createdAt: 0, role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'search', arguments: '{"q": "unterminated' }] },
      { id: 't1', createdAt: 0, role: 'tool', toolCallId: 'call_1', content: 'Invalid arguments', isError: true },
    ];
    await collect(provider.stream(request({ messages, systemPrompt: '' })));
    expect(sentJson(server.to('/v1/chat/completions')[0]).messages).toEqual([
      { role: 'user', content: 'Find it' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'search', arguments: '{"q": "unterminated' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: 'Error: Invalid arguments' },
    ]);
  });

  it('401: a bad key gets a specific message that never contains the key', async () => {
    server.on('POST', '/v1/chat/completions', {
      status: 401,
      headers: { 'content-type': 'application/json' },
      chunks: [JSON.stringify({ error: { message: `Incorrect API key provided: ${KEY}.`, type: 'invalid_request_error', code: 'invalid_api_key' } })],
    });
    const provider = new OpenAIProvider({ baseUrl: server.url, transport: testTransport().transport });
    const error = errorOf(await collect(provider.stream(request(), { apiKey: KEY })));
    expect(error.kind).toBe('auth');
    expect(error.status).toBe(401);
    expect(error.message).toContain('rejected the API key');
    expect(error.message).not.toContain(KEY);
    expect(error.detail).not.toContain(KEY);
  });

  it('401 without a key asks for one; 403 says the key lacks access', async () => {
    server
      .on('POST', '/v1/chat/completions', { status: 401, chunks: ['{"error":{"message":"Missing bearer"}}'] })
      .on('POST', '/v1/chat/completions', { status: 403, chunks: ['{"error":{"message":"Project does not have access to model"}}'] });
    const provider = new OpenAIProvider({ baseUrl: server.url, transport: testTransport().transport });
    const noKey = errorOf(await collect(provider.stream(request())));
    expect(noKey.kind).toBe('auth');
    expect(noKey.message).toContain('needs an API key');
    const forbidden = errorOf(await collect(provider.stream(request(), { apiKey: KEY })));
    expect(forbidden.kind).toBe('auth');
    expect(forbidden.message).toContain('403');
  });

  it('404 unknown model lists /v1/models', async () => {
    server
      .on('POST', '/v1/chat/completions', {
        status: 404,
        chunks: [JSON.stringify({ error: { message: 'The model `gpt-9` does not exist or you do not have access to it.', code: 'model_not_found' } })],
      })
      .on('GET', '/v1/models', { chunks: [JSON.stringify({ object: 'list', data: [{ id: 'gpt-4o' }, { id: 'gpt-4o-mini' }] })] });
    const provider = new OpenAIProvider({ baseUrl: server.url, transport: testTransport().transport });
    const error = errorOf(await collect(provider.stream(request({ model: 'gpt-9' }), { apiKey: KEY })));
    expect(error.kind).toBe('model-not-found');
    expect(error.availableModels).toEqual(['gpt-4o', 'gpt-4o-mini']);
    expect(error.message).toContain('gpt-4o, gpt-4o-mini');
    expect(server.to('/v1/models')[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('404 on a server without a model list says to check the base URL', async () => {
    server.on('POST', '/v1/chat/completions', { status: 404, chunks: ['Not Found'] }).on('GET', '/v1/models', { status: 404, chunks: ['Not Found'] });
    const provider = new OpenAIProvider({ baseUrl: server.url, transport: testTransport().transport });
    const error = errorOf(await collect(provider.stream(request())));
    expect(error.kind).toBe('not-found');
    expect(error.message).toContain('base URL');
  });

  it('429 is retried after the retry-after the server gave, then succeeds', async () => {
    server
      .on('POST', '/v1/chat/completions', { status: 429, headers: { 'retry-after': '2' }, chunks: ['{"error":{"message":"Rate limit reached"}}'] })
      .on('POST', '/v1/chat/completions', { status: 429, headers: { 'retry-after-ms': '1350' }, chunks: ['{"error":{"message":"Rate limit reached"}}'] })
      .on('POST', '/v1/chat/completions', { chunks: sse({ data: chunk({ content: 'finally' }, 'stop') }, '[DONE]') });
    const { transport, waits } = testTransport();
    const provider = new OpenAIProvider({ baseUrl: server.url, transport });
    const events = await collect(provider.stream(request()));
    expect(waits).toEqual([2000, 1350]);
    expect(ofType(events, 'retry').map((e) => [e.attempt, e.delayMs])).toEqual([
      [1, 2000],
      [2, 1350],
    ]);
    expect(textOf(events)).toBe('finally');
    expect(server.to('/v1/chat/completions')).toHaveLength(3);
  });

  it('5xx retries are bounded (two) with growing backoff, then a server error is reported', async () => {
    for (let i = 0; i < 3; i++) server.on('POST', '/v1/chat/completions', { status: 503, chunks: ['{"error":{"message":"upstream unavailable"}}'] });
    const { transport, waits } = testTransport();
    const provider = new OpenAIProvider({ baseUrl: server.url, transport });
    const events = await collect(provider.stream(request()));
    const error = errorOf(events);
    expect(error.kind).toBe('server');
    expect(error.message).toContain('Gave up after 2 retries');
    expect(server.to('/v1/chat/completions')).toHaveLength(3);
    expect(waits).toHaveLength(2);
    expect(waits[0]!).toBeLessThan(waits[1]!);
  });

  it('a retry-after longer than the policy allows is reported, not waited for', async () => {
    server.on('POST', '/v1/chat/completions', { status: 429, headers: { 'retry-after': '3600' }, chunks: ['{"error":{"message":"slow down"}}'] });
    const { transport, waits } = testTransport();
    const provider = new OpenAIProvider({ baseUrl: server.url, transport });
    const error = errorOf(await collect(provider.stream(request())));
    expect(error.kind).toBe('rate-limit');
    expect(error.retryAfterMs).toBe(3_600_000);
    expect(error.message).toContain('Try again in 3600 s');
    expect(waits).toEqual([]);
  });

  it('an exhausted quota is not retried', async () => {
    server.on('POST', '/v1/chat/completions', { status: 429, chunks: ['{"error":{"message":"You exceeded your current quota","code":"insufficient_quota"}}'] });
    const { transport, waits } = testTransport();
    const provider = new OpenAIProvider({ baseUrl: server.url, transport });
    const error = errorOf(await collect(provider.stream(request())));
    expect(error.kind).toBe('rate-limit');
    expect(error.message).toContain('quota');
    expect(waits).toEqual([]);
  });

  it('a context-length error becomes context-overflow so the chat loop can compact', async () => {
    server.on('POST', '/v1/chat/completions', {
      status: 400,
      chunks: [JSON.stringify({ error: { message: "This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.", code: 'context_length_exceeded' } })],
    });
    const provider = new OpenAIProvider({ baseUrl: server.url, transport: testTransport().transport });
    const error = errorOf(await collect(provider.stream(request())));
    expect(error.kind).toBe('context-overflow');
    expect(error.status).toBe(400);
  });

  it('other 400s are bad requests quoting the server', async () => {
    server.on('POST', '/v1/chat/completions', { status: 400, chunks: ['{"error":{"message":"Invalid value for temperature"}}'] });
    const provider = new OpenAIProvider({ baseUrl: server.url, transport: testTransport().transport });
    const error = errorOf(await collect(provider.stream(request())));
    expect(error.kind).toBe('bad-request');
    expect(error.message).toContain('Invalid value for temperature');
  });

  it('an error chunk inside the stream (OpenRouter) ends the reply with the partial text kept', async () => {
    server.on('POST', '/v1/chat/completions', {
      chunks: sse({ data: chunk({ content: 'Start' }) }, { data: { error: { code: 502, message: 'Provider returned error' } } }),
    });
    const provider = new OpenAIProvider({ baseUrl: server.url, transport: testTransport().transport });
    const error = errorOf(await collect(provider.stream(request())));
    expect(error.kind).toBe('server');
    expect(error.message).toContain('Provider returned error');
    expect(error.partialText).toBe('Start');
  });

  it('ignores SSE comments (keep-alives) and reads Groq usage', async () => {
    server.on('POST', '/v1/chat/completions', {
      chunks: [': OPENROUTER PROCESSING\n\n', ...sse({ data: chunk({ content: 'a' }) }, { data: { ...chunk({}, 'stop'), x_groq: { usage: { prompt_tokens: 9, completion_tokens: 1 } } } }, '[DONE]')],
    });
    const provider = new OpenAIProvider({ baseUrl: server.url, transport: testTransport().transport });
    const events = await collect(provider.stream(request()));
    expect(textOf(events)).toBe('a');
    expect(ofType(events, 'usage')[0]?.usage).toEqual({ promptTokens: 9, completionTokens: 1 });
  });

  it('malformed JSON in an event is a malformed error with the partial text', async () => {
    server.on('POST', '/v1/chat/completions', { chunks: [...sse({ data: chunk({ content: 'Good ' }) }), 'data: {"choices": [\n\n'] });
    const provider = new OpenAIProvider({ baseUrl: server.url, transport: testTransport().transport });
    const error = errorOf(await collect(provider.stream(request())));
    expect(error.kind).toBe('malformed');
    expect(error.partialText).toBe('Good ');
  });

  it('a connection cut mid-reply is interrupted, partial text kept', async () => {
    server.on('POST', '/v1/chat/completions', { chunks: sse({ data: chunk({ content: 'Cut ' }) }, { data: chunk({ content: 'here' }) }), breakAfter: true, delayMs: 5 });
    const provider = new OpenAIProvider({ baseUrl: server.url, transport: testTransport().transport });
    const events = await collect(provider.stream(request()));
    expectOneTerminal(events);
    const error = errorOf(events);
    expect(error.kind).toBe('interrupted');
    expect(error.partialText).toBe('Cut here');
  });

  it('abort mid-stream: the server sees the connection close, the partial text is kept', async () => {
    server.on('POST', '/v1/chat/completions', { chunks: sse({ data: chunk({ content: 'Before stop' }) }), holdOpen: true });
    const provider = new OpenAIProvider({ baseUrl: server.url, transport: testTransport().transport });
    const controller = new AbortController();
    const events = [];
    for await (const event of provider.stream(request(), { signal: controller.signal })) {
      events.push(event);
      if (event.type === 'text') controller.abort();
    }
    expectOneTerminal(events);
    const error = errorOf(events);
    expect(error.kind).toBe('aborted');
    expect(error.partialText).toBe('Before stop');
    await expect(server.to('/v1/chat/completions')[0]!.closed).resolves.toBe(true);
  });

  it('breaking out of the loop closes the connection too', async () => {
    server.on('POST', '/v1/chat/completions', { chunks: sse({ data: chunk({ content: 'x' }) }), holdOpen: true });
    const provider = new OpenAIProvider({ baseUrl: server.url, transport: testTransport().transport });
    for await (const event of provider.stream(request())) if (event.type === 'text') break;
    await expect(server.to('/v1/chat/completions')[0]!.closed).resolves.toBe(true);
  });

  it('an already-aborted signal sends nothing', async () => {
    const provider = new OpenAIProvider({ baseUrl: server.url, transport: testTransport().transport });
    const controller = new AbortController();
    controller.abort();
    const error = errorOf(await collect(provider.stream(request(), { signal: controller.signal })));
    expect(error.kind).toBe('aborted');
    expect(server.requests).toHaveLength(0);
  });

  it('abort during a backoff wait stops the retries', async () => {
    server.on('POST', '/v1/chat/completions', { status: 503, chunks: ['{}'] });
    const controller = new AbortController();
    // The real sleep: the first backoff is about a second, the abort comes during it.
    const { transport } = testTransport({ sleep: defaultSleep });
    const provider = new OpenAIProvider({ baseUrl: server.url, transport });
    const events = [];
    for await (const event of provider.stream(request(), { signal: controller.signal })) {
      events.push(event);
      if (event.type === 'retry') setTimeout(() => controller.abort(), 20);
    }
    expect(errorOf(events).kind).toBe('aborted');
    expect(server.to('/v1/chat/completions')).toHaveLength(1);
  });

  it('a server that never answers times out', async () => {
    server.on('POST', '/v1/chat/completions', { hang: true });
    const provider = new OpenAIProvider({ baseUrl: server.url, transport: testTransport({ connectTimeoutMs: 150 }).transport });
    const error = errorOf(await collect(provider.stream(request())));
    expect(error.kind).toBe('timeout');
    expect(error.message).toContain('did not answer in time');
  });

  it('a stream that stalls mid-reply times out with the partial text kept', async () => {
    server.on('POST', '/v1/chat/completions', { chunks: sse({ data: chunk({ content: 'Stalled' }) }), holdOpen: true });
    const provider = new OpenAIProvider({ baseUrl: server.url, transport: testTransport({ idleTimeoutMs: 150 }).transport });
    const error = errorOf(await collect(provider.stream(request())));
    expect(error.kind).toBe('timeout');
    expect(error.partialText).toBe('Stalled');
    await expect(server.to('/v1/chat/completions')[0]!.closed).resolves.toBe(true);
  });

  it('lists models from /v1/models', async () => {
    server.on('GET', '/v1/models', { chunks: [JSON.stringify({ data: [{ id: 'qwen2.5-7b-instruct' }, { id: 'text-embedding-nomic' }] })] });
    const provider = new OpenAIProvider({ baseUrl: `${server.url}/v1/`, transport: testTransport().transport });
    await expect(provider.listModels()).resolves.toEqual(['qwen2.5-7b-instruct', 'text-embedding-nomic']);
  });
});

describe('OpenAI-compatible base URLs', () => {
  it('adds /v1 to a bare origin, keeps versioned and vendor paths, trims a pasted endpoint', () => {
    expect(normaliseOpenAIBase(undefined)).toBe('https://api.openai.com/v1');
    expect(normaliseOpenAIBase('http://localhost:1234')).toBe('http://localhost:1234/v1');
    expect(normaliseOpenAIBase('http://localhost:1234/')).toBe('http://localhost:1234/v1');
    expect(normaliseOpenAIBase('https://openrouter.ai/api/v1')).toBe('https://openrouter.ai/api/v1');
    expect(normaliseOpenAIBase('https://api.groq.com/openai/v1/')).toBe('https://api.groq.com/openai/v1');
    expect(normaliseOpenAIBase('http://localhost:8080/v1/chat/completions')).toBe('http://localhost:8080/v1');
  });
});
