// The requestUrl fallback, driven by a genuine CORS refusal: the server answers the browser-style
// preflight without Access-Control-Allow-Origin, so the CORS-enforcing fetch fails as a browser's
// would, and the request goes through `requestUrl` — by default the `obsidian` module's own (in
// tests, the runtime in test/obsidian, over real HTTP).
import { afterEach, describe, expect, it } from 'vitest';
import { OllamaProvider } from '../../src/providers/ollama';
import { OpenAIProvider } from '../../src/providers/openai';
import { Transport } from '../../src/providers/transport';
import type { ChatRequest } from '../../src/providers/types';
import { collect, errorOf, ofType, textOf } from './helpers/events';
import { APP_ORIGIN, browserFetch, nodeRequestUrl } from './helpers/http-clients';
import { closedPort, ndjson, ScriptedServer, sse } from './helpers/server';

const request: ChatRequest = {
  model: 'local-model',
  systemPrompt: '',
  messages: [{ id: 'u1', createdAt: 0, role: 'user', content: 'Hi' }],
  contextWindow: 8192,
};
const reply = (text: string) =>
  sse({ data: { choices: [{ index: 0, delta: { content: text }, finish_reason: null }] } }, { data: { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] } }, { data: { choices: [], usage: { prompt_tokens: 11, completion_tokens: 2 } } }, '[DONE]');

describe('transport', () => {
  let server: ScriptedServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('streams with fetch when the server allows cross-origin requests', async () => {
    server = await ScriptedServer.start({ cors: true });
    server.on('POST', '/v1/chat/completions', { chunks: reply('streamed'), delayMs: 5 });
    const provider = new OpenAIProvider({ baseUrl: server.url, transport: new Transport({ fetch: browserFetch }) });
    const events = await collect(provider.stream(request));
    expect(events[0]).toEqual({ type: 'transport', mode: 'fetch' });
    expect(textOf(events)).toBe('streamed');
    expect(server.preflights).toHaveLength(1);
    expect(server.to('/v1/chat/completions')[0]!.headers.origin).toBe(APP_ORIGIN);
  });

  it('falls back to Obsidian requestUrl when CORS refuses fetch, says so, and keeps usage', async () => {
    server = await ScriptedServer.start({ cors: false });
    server.on('POST', '/v1/chat/completions', { chunks: reply('buffered'), delayMs: 5 }, { chunks: reply('again') });
    // No requestUrl given: the transport uses the one from 'obsidian'.
    const provider = new OpenAIProvider({ baseUrl: server.url, transport: new Transport({ fetch: browserFetch }) });
    const events = await collect(provider.stream(request));
    const transportEvent = ofType(events, 'transport')[0]!;
    expect(transportEvent.mode).toBe('requestUrl');
    expect(transportEvent.reason).toContain('Streaming is unavailable');
    expect(transportEvent.reason).toContain('cross-origin');
    expect(textOf(events)).toBe('buffered');
    expect(ofType(events, 'usage')[0]?.usage).toEqual({ promptTokens: 11, completionTokens: 2 });
    expect(events[events.length - 1]?.type).toBe('done');
    // The request the server received through the fallback is the same request.
    const [viaFallback] = server.posts('/v1/chat/completions');
    expect(viaFallback!.headers.origin).toBeUndefined();
    expect(JSON.parse(viaFallback!.body)).toMatchObject({ model: 'local-model', stream: true });

    // Two preflights: the request's, and the keyless probe's that confirmed CORS. One POST.
    expect(server.preflights).toHaveLength(2);
    expect(server.posts('/v1/chat/completions')).toHaveLength(1);

    // The origin is remembered: the next request skips the failing fetch (no further preflight).
    const second = await collect(provider.stream(request));
    expect(ofType(second, 'transport')[0]?.mode).toBe('requestUrl');
    expect(textOf(second)).toBe('again');
    expect(server.preflights).toHaveLength(2);
  });

  it('HTTP errors through the fallback are classified the same way', async () => {
    server = await ScriptedServer.start({ cors: false });
    server.on('POST', '/api/chat', { status: 404, chunks: ['{"error":"model \\"nope\\" not found, try pulling it first"}'] });
    server.on('GET', '/api/tags', { chunks: [JSON.stringify({ models: [{ name: 'gemma3:1b' }] })] });
    const provider = new OllamaProvider({ baseUrl: server.url, transport: new Transport({ fetch: browserFetch, requestUrl: nodeRequestUrl }) });
    const error = errorOf(await collect(provider.stream({ ...request, model: 'nope' })));
    expect(error.kind).toBe('model-not-found');
    expect(error.availableModels).toEqual(['gemma3:1b']);
  });

  it('the fallback carries a whole NDJSON body too', async () => {
    server = await ScriptedServer.start({ cors: false });
    server.on('POST', '/api/chat', {
      chunks: ndjson({ message: { role: 'assistant', content: 'one ' }, done: false }, { message: { role: 'assistant', content: 'piece' }, done: false }, { done: true, done_reason: 'stop', prompt_eval_count: 5, eval_count: 2 }),
    });
    const provider = new OllamaProvider({ baseUrl: server.url, transport: new Transport({ fetch: browserFetch, requestUrl: nodeRequestUrl }) });
    const events = await collect(provider.stream(request));
    expect(ofType(events, 'transport')[0]?.mode).toBe('requestUrl');
    expect(textOf(events)).toBe('one piece');
    const body = JSON.parse(server.posts('/api/chat')[0]!.body) as { options: { num_ctx: number } };
    expect(body.options.num_ctx).toBe(8192);
  });

  it('without fetch at all, requests go through requestUrl', async () => {
    server = await ScriptedServer.start({ cors: false });
    server.on('POST', '/v1/chat/completions', { chunks: reply('no fetch') });
    const provider = new OpenAIProvider({ baseUrl: server.url, transport: new Transport({ fetch: null, requestUrl: nodeRequestUrl }) });
    const events = await collect(provider.stream(request));
    expect(ofType(events, 'transport')[0]).toMatchObject({ mode: 'requestUrl' });
    expect(textOf(events)).toBe('no fetch');
  });

  it('when both fetch and the fallback fail to connect, the error is a connection error', async () => {
    const port = await closedPort();
    const provider = new OpenAIProvider({ baseUrl: `http://127.0.0.1:${port}`, transport: new Transport({ fetch: browserFetch, requestUrl: nodeRequestUrl }) });
    const error = errorOf(await collect(provider.stream(request)));
    expect(error.kind).toBe('connection');
    expect(error.message).toContain('Is the server running');
    await expect(provider.listModels()).rejects.toMatchObject({ kind: 'connection' });
  });

  it('the fallback cannot be cancelled, but an abort stops waiting for it', async () => {
    server = await ScriptedServer.start({ cors: false });
    server.on('POST', '/v1/chat/completions', { hang: true });
    const provider = new OpenAIProvider({ baseUrl: server.url, transport: new Transport({ fetch: null, requestUrl: nodeRequestUrl }) });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const error = errorOf(await collect(provider.stream(request, { signal: controller.signal })));
    expect(error.kind).toBe('aborted');
  });
});
