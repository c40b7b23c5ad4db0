// Fault suite, streams and error answers over real loopback servers: an NDJSON line or SSE event
// over the cap (a clear error, the partial reply kept), retry-after edge values (never an
// immediate retry), bounded 5xx retries, HTML error pages summarised, and the key redacted from
// server text however it is echoed (whole, minus a character, split across lines or in pieces).
import { describe, expect, it } from 'vitest';
import { redact } from '../../src/providers/errors';
import { MAX_FRAME_CHARS } from '../../src/providers/limits';
import { ndjsonLines } from '../../src/providers/ndjson';
import { OllamaProvider } from '../../src/providers/ollama';
import { OpenAIProvider } from '../../src/providers/openai';
import type { ChatRequest } from '../../src/providers/types';
import { collect, errorOf, expectOneTerminal, ofType, testTransport, textOf } from './helpers/events';
import { ndjson, ScriptedServer, sse } from './helpers/server';
import { serverPerTest } from './helpers/suite';

const KEY = 'sk-proj-4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c';
const request: ChatRequest = { model: 'm', systemPrompt: '', messages: [{ id: 'u1', createdAt: 0, role: 'user', content: 'Hi' }], contextWindow: 8192 };
const okOpenAI = sse({ data: { choices: [{ index: 0, delta: { content: 'fine' }, finish_reason: 'stop' }] } }, '[DONE]');

let server!: ScriptedServer;
serverPerTest((s) => (server = s));

describe('fault suite: oversized frames', () => {
  it('an NDJSON line over the cap ends the reply with a clear error and keeps the text before it', async () => {
    const huge = 'x'.repeat(1024 * 1024);
    const chunks = [...ndjson({ message: { role: 'assistant', content: 'kept ' }, done: false }), '{"message":{"content":"'];
    for (let i = 0; i <= MAX_FRAME_CHARS / huge.length; i++) chunks.push(huge);
    server.on('POST', '/api/chat', { chunks });
    const events = await collect(new OllamaProvider({ baseUrl: server.url, transport: testTransport().transport }).stream(request));
    expectOneTerminal(events);
    const error = errorOf(events);
    expect(error.kind).toBe('malformed');
    expect(error.message).toContain(`longer than ${MAX_FRAME_CHARS.toLocaleString('en-US')} characters`);
    expect(error.partialText).toBe('kept ');
  });

  it('an SSE event over the cap does the same', async () => {
    const huge = 'y'.repeat(1024 * 1024);
    const chunks = [...sse({ data: { choices: [{ index: 0, delta: { content: 'kept' } }] } }), 'data: {"choices":"'];
    for (let i = 0; i <= MAX_FRAME_CHARS / huge.length; i++) chunks.push(huge);
    server.on('POST', '/v1/chat/completions', { chunks });
    const error = errorOf(await collect(new OpenAIProvider({ baseUrl: server.url, transport: testTransport().transport }).stream(request)));
    expect(error.kind).toBe('malformed');
    expect(error.message).toContain('An event in the stream was longer than');
    expect(error.partialText).toBe('kept');
  });

  it('NDJSON lines split anywhere, one character per chunk included, come out whole', async () => {
    const text = '{"a":1}\n\n{"b":"two"}\r\n{"c":3}';
    async function* oneByOne() {
      for (const c of text) yield c;
    }
    const lines: string[] = [];
    for await (const line of ndjsonLines(oneByOne())) lines.push(line);
    expect(lines).toEqual(['{"a":1}', '{"b":"two"}', '{"c":3}']);
    async function* overCap() {
      yield 'z'.repeat(6);
      yield 'z'.repeat(6);
    }
    await expect(collectLines(ndjsonLines(overCap(), 10))).rejects.toThrow('A line in the stream was longer than');
  });
});

async function collectLines(lines: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const line of lines) out.push(line);
  return out;
}

describe('fault suite: retry-after edge values', () => {
  for (const [value, expected] of [
    ['-5', 'backoff'],
    ['0', 1000],
    ['0.01', 1000],
    ['', 'backoff'],
    ['soon', 'backoff'],
    ['Thu, 01 Jan 1970 00:00:00 GMT', 1000],
    ['3', 3000],
  ] as const) {
    it(`retry-after: "${value}" waits ${expected === 'backoff' ? 'the backoff' : `${expected} ms`}, never 0`, async () => {
      server.on('POST', '/v1/chat/completions', { status: 429, headers: { 'retry-after': value }, chunks: ['{"error":{"message":"slow down"}}'] }, { chunks: okOpenAI });
      const { transport, waits } = testTransport();
      const events = await collect(new OpenAIProvider({ baseUrl: server.url, transport }).stream(request));
      expect(textOf(events)).toBe('fine');
      expect(waits).toHaveLength(1);
      // testTransport's random is 0.5: the first backoff step is 750 ms.
      expect(waits[0]).toBe(expected === 'backoff' ? 750 : expected);
    });
  }

  it('a retry-after over a minute is not waited for: the user is told', async () => {
    server.on('POST', '/v1/chat/completions', { status: 429, headers: { 'retry-after': '3600' }, chunks: ['{"error":{"message":"slow down"}}'] });
    const { transport, waits } = testTransport();
    const error = errorOf(await collect(new OpenAIProvider({ baseUrl: server.url, transport }).stream(request)));
    expect(error.kind).toBe('rate-limit');
    expect(waits).toEqual([]);
  });

  it('HTTP 500 is retried twice, not three times', async () => {
    for (let i = 0; i < 4; i++) server.on('POST', '/v1/chat/completions', { status: 500, chunks: ['{"error":{"message":"boom"}}'] });
    const { transport } = testTransport();
    const events = await collect(new OpenAIProvider({ baseUrl: server.url, transport }).stream(request));
    expect(ofType(events, 'retry').map((e) => `${e.attempt}/${e.maxRetries}`)).toEqual(['1/2', '2/2']);
    expect(server.posts('/v1/chat/completions')).toHaveLength(3);
  });
});

describe('fault suite: HTML error pages', () => {
  it('are summarised to the status and the page title, never quoted raw', async () => {
    const page = '<!DOCTYPE html><html><head><title>502 Bad Gateway &amp; more</title><script>alert(1)</script></head><body><h1>Bad</h1>' + '<p>padding</p>'.repeat(500) + '</body></html>';
    server.on('POST', '/v1/chat/completions', { status: 502, headers: { 'content-type': 'text/html' }, chunks: [page] }, { status: 502, chunks: [page] }, { status: 502, chunks: [page] });
    const error = errorOf(await collect(new OpenAIProvider({ baseUrl: server.url, transport: testTransport().transport }).stream(request)));
    expect(error.message).toContain('HTTP 502');
    expect(error.message).toContain('an HTML page titled "502 Bad Gateway & more"');
    expect(error.message).not.toMatch(/<|script|padding/);
  });
});

describe('fault suite: the key in server text', () => {
  const echoes: [string, string][] = [
    ['whole', `invalid key ${KEY} given`],
    ['minus its last character', `invalid key ${KEY.slice(0, -1)} given`],
    ['minus its first character', `invalid key ${KEY.slice(1)} given`],
    ['split by a newline', `invalid key ${KEY.slice(0, 20)}\n${KEY.slice(20)} given`],
    ['split by spaces and a zero-width space', `invalid key ${KEY.slice(0, 14)} ${KEY.slice(14, 30)}\u200b${KEY.slice(30)} given`],
    ['as a 12-character fragment', `key fragment ${KEY.slice(10, 22)} seen`],
    ['in the JSON of the error', JSON.stringify({ error: { message: `bad key: ${KEY.slice(3, -3)}` } })],
  ];
  for (const [how, body] of echoes) {
    it(`an echo of the key ${how} is hidden from the message (401 over HTTP)`, async () => {
      server.on('POST', '/v1/chat/completions', { status: 401, chunks: [body] });
      const error = errorOf(await collect(new OpenAIProvider({ baseUrl: server.url, transport: testTransport().transport }).stream(request, { apiKey: KEY })));
      const shown = `${error.message} ${error.detail ?? ''}`;
      for (let i = 0; i + 12 <= KEY.length; i++) expect(shown.replace(/\s/g, '')).not.toContain(KEY.slice(i, i + 12));
      expect(shown).toContain('***');
    });
  }

  it('inside a 200 stream too, and ordinary text is left alone', async () => {
    server.on('POST', '/api/chat', { chunks: ndjson({ message: { role: 'assistant', content: 'a' }, done: false }, { error: `token ${KEY.slice(0, 16)}\n${KEY.slice(16)} rejected` }) });
    const error = errorOf(await collect(new OllamaProvider({ baseUrl: server.url, transport: testTransport().transport }).stream(request, { apiKey: KEY })));
    expect(error.message).toContain('token *** rejected');
    expect(redact('nothing secret here, sk-proj is a prefix', KEY)).toBe('nothing secret here, sk-proj is a prefix');
  });
});
