// One streamed `fetch` exchange on its own, with a scripted `fetch` (the transport and the
// providers over real HTTP are covered in transport.test.ts and the protocol suites): redirects
// come back unfollowed, a body split inside a multi-byte character decodes whole, and each way a
// connection fails has its own error.
import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../src/providers/errors';
import { type FetchLike, fetchOnce, isRedirectAnswer } from '../../src/providers/fetch-exchange';
import type { HttpRequest, HttpResponse } from '../../src/providers/http';

const request: HttpRequest = { url: 'http://127.0.0.1:1/v1/chat', method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' };
const timeouts = { connectTimeoutMs: 5_000, idleTimeoutMs: 5_000 };
const encoder = new TextEncoder();

/** A body that yields these byte arrays, then fails with `error` when given. */
function bodyOf(parts: Uint8Array[], error?: Error): ReadableStream<Uint8Array> {
  let next = 0;
  return new ReadableStream({
    pull(controller) {
      if (next < parts.length) controller.enqueue(parts[next++]);
      else if (error) controller.error(error);
      else controller.close();
    },
  });
}

async function exchange(fetchImpl: FetchLike, signal?: AbortSignal, limits = timeouts): Promise<HttpResponse> {
  const answer = await fetchOnce(fetchImpl, request, limits, signal);
  if (isRedirectAnswer(answer)) throw new Error('unexpected redirect');
  return answer;
}

const failureOf = async (run: () => Promise<unknown>): Promise<ProviderError> => {
  try {
    await run();
  } catch (error) {
    if (error instanceof ProviderError) return error;
    throw error;
  }
  throw new Error('expected a ProviderError');
};

describe('fetch exchange', () => {
  it('sends the request as given, with redirects left to the caller', async () => {
    let seen: RequestInit | undefined;
    const response = await exchange((_url, init) => {
      seen = init;
      return Promise.resolve(new Response('ok', { status: 200 }));
    });
    expect(seen).toMatchObject({ method: 'POST', body: '{}', redirect: 'manual', headers: { 'Content-Type': 'application/json' } });
    expect(response.mode).toBe('fetch');
    expect(await response.text()).toBe('ok');
  });

  it('returns a redirect unfollowed, with its status and location', async () => {
    const answer = await fetchOnce(() => Promise.resolve(new Response(null, { status: 307, headers: { location: '/elsewhere' } })), request, timeouts, undefined);
    expect(answer).toEqual({ redirect: { status: 307, location: '/elsewhere' } });
  });

  it('decodes a body split inside multi-byte characters whole', async () => {
    const bytes = encoder.encode('née 日本 😀 end');
    const parts = Array.from(bytes, (byte) => new Uint8Array([byte]));
    const response = await exchange(() => Promise.resolve(new Response(bodyOf(parts))));
    let text = '';
    for await (const chunk of response.chunks()) text += chunk;
    expect(text).toBe('née 日本 😀 end');
  });

  it('a body that breaks off is interrupted, with the network error named', async () => {
    const response = await exchange(() => Promise.resolve(new Response(bodyOf([encoder.encode('part')], new Error('socket hang up')))));
    const error = await failureOf(async () => {
      for await (const chunk of response.chunks()) void chunk;
    });
    expect(error.kind).toBe('interrupted');
    expect(error.detail).toBe('socket hang up');
  });

  it('no headers within the connect timeout is a connect timeout', async () => {
    const hang: FetchLike = (_url, init) =>
      new Promise((_, reject) => init.signal?.addEventListener('abort', () => reject(new Error('aborted by the exchange'))));
    const error = await failureOf(() => fetchOnce(hang, request, { connectTimeoutMs: 10, idleTimeoutMs: 5_000 }, undefined));
    expect(error).toMatchObject({ kind: 'timeout', detail: 'connect' });
  });

  it("the caller's abort is 'aborted', not a connection failure", async () => {
    const controller = new AbortController();
    const hang: FetchLike = (_url, init) =>
      new Promise((_, reject) => init.signal?.addEventListener('abort', () => reject(new Error('aborted by the exchange'))));
    const pending = failureOf(() => fetchOnce(hang, request, timeouts, controller.signal));
    controller.abort();
    expect((await pending).kind).toBe('aborted');
  });

  it('any other failure before an answer is passed on as it is, for the transport to diagnose', async () => {
    const refused = new TypeError('Failed to fetch');
    await expect(fetchOnce(() => Promise.reject(refused), request, timeouts, undefined)).rejects.toBe(refused);
  });
});
