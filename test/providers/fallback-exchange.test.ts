// One buffered `requestUrl` exchange on its own, with a scripted `requestUrl` (the fallback over
// real HTTP is covered in transport.test.ts): the answer looks like a streamed one, and it cannot
// be cancelled but an abort or the buffered timeout stops waiting for it.
import { describe, expect, it } from 'vitest';
import { type FallbackRequest, requestUrlOnce } from '../../src/providers/fallback-exchange';
import type { HttpRequest } from '../../src/providers/http';

const request: HttpRequest = { url: 'http://127.0.0.1:1/api/chat', method: 'POST', headers: { Authorization: 'Bearer k' }, body: '{"a":1}' };
const never: FallbackRequest = () => new Promise(() => undefined);

describe('requestUrl exchange', () => {
  it('sends the request without throwing on HTTP errors and answers like a stream, headers in any case', async () => {
    let seen: Parameters<FallbackRequest>[0] | undefined;
    const fallback: FallbackRequest = (params) => {
      seen = params;
      return Promise.resolve({ status: 429, headers: { 'Retry-After': '3' }, text: 'slow down' });
    };
    const response = await requestUrlOnce(fallback, request, 5_000, undefined, 'why');
    expect(seen).toEqual({ url: request.url, method: 'POST', headers: request.headers, body: '{"a":1}', throw: false });
    expect(response).toMatchObject({ status: 429, ok: false, mode: 'requestUrl', fallbackReason: 'why' });
    expect(response.header('retry-after')).toBe('3');
    const chunks: string[] = [];
    for await (const chunk of response.chunks()) chunks.push(chunk);
    expect(chunks).toEqual(['slow down']);
    expect(await response.text()).toBe('slow down');
  });

  it('a request that fails outright is a connection error naming why', async () => {
    const error = new Error('net::ERR_CONNECTION_REFUSED');
    await expect(requestUrlOnce(() => Promise.reject(error), request, 5_000, undefined, '')).rejects.toMatchObject({
      kind: 'connection',
      detail: 'net::ERR_CONNECTION_REFUSED',
    });
  });

  it('an abort stops waiting for an answer that never comes', async () => {
    const controller = new AbortController();
    const pending = requestUrlOnce(never, request, 5_000, controller.signal, '');
    controller.abort();
    await expect(pending).rejects.toMatchObject({ kind: 'aborted' });
  });

  it('so does the buffered timeout', async () => {
    await expect(requestUrlOnce(never, request, 10, undefined, '')).rejects.toMatchObject({ kind: 'timeout', detail: 'buffered' });
  });
});
