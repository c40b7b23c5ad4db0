// Fault suite, transport: redirects to another origin (the key and the conversation never arrive
// there, through fetch or requestUrl), same-origin redirects followed, a reset before the headers
// (one request per send, streaming stays on), and streaming coming back after a CORS refusal.
// Every server is a real HTTP server on 127.0.0.1.
import { afterEach, describe, expect, it } from 'vitest';
import { AnthropicProvider } from '../../src/providers/anthropic';
import { OllamaProvider } from '../../src/providers/ollama';
import { OpenAIProvider } from '../../src/providers/openai';
import { MAX_REDIRECTS } from '../../src/providers/redirect';
import { Transport } from '../../src/providers/transport';
import type { ChatProvider, ChatRequest } from '../../src/providers/types';
import { collect, errorOf, expectOneTerminal, ofType, textOf } from './helpers/events';
import { browserFetch, browserFetchOpaqueRedirects, nodeRequestUrl } from './helpers/http-clients';
import { ndjson, ScriptedServer, sse, type Scripted } from './helpers/server';

const KEY = 'sk-test-0123456789-SECRET-abcdef';
const request: ChatRequest = { model: 'm', systemPrompt: '', messages: [{ id: 'u1', createdAt: 0, role: 'user', content: 'My private note says 42' }], contextWindow: 8192 };

interface Protocol {
  name: string;
  chatPath: string;
  modelsPath: string;
  make(baseUrl: string, transport: Transport): ChatProvider;
  ok(text: string): Scripted;
}

const protocols: Protocol[] = [
  {
    name: 'anthropic',
    chatPath: '/v1/messages',
    modelsPath: '/v1/models',
    make: (baseUrl, transport) => new AnthropicProvider({ baseUrl, transport }),
    ok: (text) => ({
      chunks: sse(
        { event: 'message_start', data: { type: 'message_start', message: { usage: { input_tokens: 3 } } } },
        { event: 'content_block_start', data: { type: 'content_block_start', index: 0, content_block: { type: 'text', text } } },
        { event: 'message_delta', data: { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 1 } } },
        { event: 'message_stop', data: { type: 'message_stop' } },
      ),
    }),
  },
  {
    name: 'openai',
    chatPath: '/v1/chat/completions',
    modelsPath: '/v1/models',
    make: (baseUrl, transport) => new OpenAIProvider({ baseUrl, transport }),
    ok: (text) => ({ chunks: sse({ data: { choices: [{ index: 0, delta: { content: text }, finish_reason: 'stop' }] } }, '[DONE]') }),
  },
  {
    name: 'ollama',
    chatPath: '/api/chat',
    modelsPath: '/api/tags',
    make: (baseUrl, transport) => new OllamaProvider({ baseUrl, transport }),
    ok: (text) => ({ chunks: ndjson({ message: { role: 'assistant', content: text }, done: false }, { done: true, done_reason: 'stop' }) }),
  },
];

const clients = [
  { name: 'fetch', transport: () => new Transport({ requestUrl: nodeRequestUrl }), opaque: false },
  { name: 'browser fetch (CORS)', transport: () => new Transport({ fetch: browserFetch, requestUrl: nodeRequestUrl }), opaque: false },
  { name: 'browser fetch (opaque redirects)', transport: () => new Transport({ fetch: browserFetchOpaqueRedirects, requestUrl: nodeRequestUrl }), opaque: true },
];

const servers: ScriptedServer[] = [];
const start = async (cors = true): Promise<ScriptedServer> => {
  const server = await ScriptedServer.start({ cors });
  servers.push(server);
  return server;
};
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** Nothing of the conversation or the key reached `server`. */
function expectUntouched(server: ScriptedServer): void {
  expect(server.requests).toEqual([]);
}

describe('fault suite: redirects to another origin', () => {
  for (const protocol of protocols) {
    for (const client of clients) {
      for (const status of [301, 302, 303, 307, 308]) {
        it(`${protocol.name}, ${client.name}: HTTP ${status} to another origin is refused and the key never arrives there`, async () => {
          const evil = await start();
          evil.on('POST', protocol.chatPath, protocol.ok('leaked')).on('GET', protocol.chatPath, protocol.ok('leaked'));
          const origin = await start();
          origin.on('POST', protocol.chatPath, { status, headers: { location: `${evil.url}${protocol.chatPath}?d=1` } });
          const events = await collect(protocol.make(origin.url, client.transport()).stream(request, { apiKey: KEY }));
          expectOneTerminal(events);
          const error = errorOf(events);
          expect(error.kind).toBe('bad-request');
          // A browser hides the new address: the refusal says so instead of naming it.
          expect(error.message).toContain(client.opaque ? 'redirected the request to an address the app cannot see' : `redirected the request to ${evil.url}`);
          expect(error.message).not.toContain(KEY);
          expect(origin.posts(protocol.chatPath)).toHaveLength(1);
          expectUntouched(evil);
        });
      }
    }

    it(`${protocol.name}: a redirected model list is refused too`, async () => {
      const evil = await start();
      const origin = await start();
      origin.on('GET', protocol.modelsPath, { status: 302, headers: { location: `${evil.url}/models` } });
      await expect(protocol.make(origin.url, new Transport({ requestUrl: nodeRequestUrl })).listModels({ apiKey: KEY })).rejects.toMatchObject({ kind: 'bad-request' });
      expectUntouched(evil);
    });

    it(`${protocol.name}: a same-origin redirect is followed with the key and the body`, async () => {
      const origin = await start();
      origin.on('POST', protocol.chatPath, { status: 308, headers: { location: `/moved${protocol.chatPath}` } });
      origin.on('POST', `/moved${protocol.chatPath}`, protocol.ok('followed'));
      const events = await collect(protocol.make(origin.url, new Transport({ requestUrl: nodeRequestUrl })).stream(request, { apiKey: KEY }));
      expect(textOf(events)).toBe('followed');
      const [moved] = origin.posts(`/moved${protocol.chatPath}`);
      expect(moved?.body).toContain('My private note says 42');
      expect(JSON.stringify(moved?.headers)).toContain(KEY);
    });
  }

  it('in a browser a same-origin redirect is refused too: its address is hidden, so it cannot be checked', async () => {
    const origin = await start();
    origin.on('POST', '/v1/messages', { status: 307, headers: { location: '/v2/messages' } });
    const error = errorOf(await collect(new AnthropicProvider({ baseUrl: origin.url, transport: new Transport({ fetch: browserFetchOpaqueRedirects, requestUrl: nodeRequestUrl }) }).stream(request, { apiKey: KEY })));
    expect(error.kind).toBe('bad-request');
    expect(error.message).toContain('enter it there');
    expect(origin.posts('/v2/messages')).toEqual([]);
  });

  it('a redirect loop within the origin ends with a clear error', async () => {
    const origin = await start();
    for (let i = 0; i <= MAX_REDIRECTS; i++) origin.on('POST', '/api/chat', { status: 307, headers: { location: '/api/chat' } });
    const error = errorOf(await collect(new OllamaProvider({ baseUrl: origin.url, transport: new Transport({ requestUrl: nodeRequestUrl }) }).stream(request)));
    expect(error.kind).toBe('bad-request');
    expect(error.message).toContain(`more than ${MAX_REDIRECTS} times`);
  });

  it('requestUrl (which follows redirects unseen) never carries the key: a CORS-less server that redirects gets no key, and neither does the target', async () => {
    const evil = await start();
    evil.on('POST', '/v1/messages', protocols[0]!.ok('leaked'));
    const origin = await start(false);
    origin.on('POST', '/v1/messages', { status: 307, headers: { location: `${evil.url}/v1/messages` } });
    origin.on('GET', '/v1/messages', { status: 307, headers: { location: `${evil.url}/v1/messages` } });
    // No requestUrl given: the test runtime's, which follows redirects as Obsidian's does.
    const provider = new AnthropicProvider({ baseUrl: origin.url, transport: new Transport({ fetch: browserFetch }) });
    const error = errorOf(await collect(provider.stream(request, { apiKey: KEY })));
    expect(error.kind).toBe('bad-request');
    expect(error.message).toContain('API key is not sent');
    expect(error.message).toContain('app://obsidian.md');
    for (const r of [...origin.requests, ...origin.preflights, ...evil.requests]) expect(JSON.stringify(r.headers)).not.toContain(KEY);
    expect(evil.posts('/v1/messages')).toEqual([]);
  });
});

describe('fault suite: resets and the requestUrl fallback', () => {
  for (const protocol of protocols) {
    it(`${protocol.name}: a reset before the headers sends the request once, and streaming stays on`, async () => {
      const server = await start();
      server.on('POST', protocol.chatPath, { reset: true }, protocol.ok('second try'));
      const provider = protocol.make(server.url, new Transport({ requestUrl: nodeRequestUrl }));
      const first = await collect(provider.stream(request, { apiKey: KEY }));
      expectOneTerminal(first);
      expect(errorOf(first).kind).toBe('interrupted');
      expect(errorOf(first).message).toContain('not sent again');
      expect(server.posts(protocol.chatPath)).toHaveLength(1);
      const second = await collect(provider.stream(request, { apiKey: KEY }));
      expect(ofType(second, 'transport')[0]).toEqual({ type: 'transport', mode: 'fetch' });
      expect(textOf(second)).toBe('second try');
      expect(server.posts(protocol.chatPath)).toHaveLength(2);
    });
  }

  it('after a confirmed CORS refusal, streaming is tried again once the memory expires', async () => {
    let now = 1_000_000;
    const server = await start(false);
    server.on('POST', '/api/chat', protocols[2]!.ok('one'), protocols[2]!.ok('two'), protocols[2]!.ok('three'));
    const transport = new Transport({ fetch: browserFetch, requestUrl: nodeRequestUrl, now: () => now, fallbackMemoryMs: 60_000 });
    const provider = new OllamaProvider({ baseUrl: server.url, transport });
    expect(ofType(await collect(provider.stream(request)), 'transport')[0]?.mode).toBe('requestUrl');
    const preflights = server.preflights.length;
    await collect(provider.stream(request));
    expect(server.preflights.length).toBe(preflights);
    now += 60_001;
    const third = await collect(provider.stream(request));
    expect(textOf(third)).toBe('three');
    expect(server.preflights.length).toBeGreaterThan(preflights);
  });

  it('a keyless request still uses the fallback; allowKeyedFallback lets a key through it by choice', async () => {
    const server = await start(false);
    server.on('POST', '/v1/messages', protocols[0]!.ok('by choice'));
    const provider = new AnthropicProvider({ baseUrl: server.url, transport: new Transport({ fetch: browserFetch, requestUrl: nodeRequestUrl, allowKeyedFallback: true }) });
    const events = await collect(provider.stream(request, { apiKey: KEY }));
    expect(ofType(events, 'transport')[0]?.mode).toBe('requestUrl');
    expect(textOf(events)).toBe('by choice');
  });
});
