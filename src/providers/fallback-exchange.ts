// One request through Obsidian's `requestUrl`, the buffered way: not subject to CORS, but the
// whole reply arrives at once, it follows redirects without saying where it ended up, and it
// cannot be cancelled — on abort or after the buffered timeout we stop waiting and drop its result.
// The answer is shaped like a streamed one (one chunk), so the decoders never know the difference.
//
// Its own module so the transport (transport.ts) only decides *when* this path is taken (no
// `fetch`, a confirmed CORS refusal, a remembered origin) and whether a key may go through it.
// Bare timers (lint override in eslint.config.mjs): this also runs under Node in tests.
import { requestUrl } from 'obsidian';
import { ProviderError } from './errors';
import type { HttpRequest, HttpResponse } from './http';
import { abortedError, connectionError, describeNetworkError, timeoutError } from './transport-errors';

/** The subset of Obsidian's `requestUrl` the fallback uses, injectable so tests can run it over
 * real HTTP without Obsidian. */
export type FallbackRequest = (params: {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
  throw: false;
}) => Promise<{ status: number; headers: Record<string, string>; text: string }>;

export const obsidianRequest: FallbackRequest = async (params) => {
  const response = await requestUrl(params);
  return { status: response.status, headers: response.headers, text: response.text };
};

/** Sends `request` through `fallback`; `reason` (why streaming is unavailable) rides on the answer.
 * Rejects only with a ProviderError: 'aborted', 'timeout' ('buffered') or 'connection'. */
export async function requestUrlOnce(fallback: FallbackRequest, request: HttpRequest, bufferedTimeoutMs: number, signal: AbortSignal | undefined, reason: string): Promise<HttpResponse> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const stop = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(timeoutError('buffered', bufferedTimeoutMs)), bufferedTimeoutMs);
    onAbort = () => reject(abortedError());
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  const params: Parameters<FallbackRequest>[0] = { url: request.url, method: request.method, headers: request.headers, throw: false };
  if (request.body !== undefined) params.body = request.body;
  let result: Awaited<ReturnType<FallbackRequest>>;
  try {
    result = await Promise.race([fallback(params), stop]);
  } catch (error) {
    if (error instanceof ProviderError) throw error;
    throw connectionError(describeNetworkError(error));
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
  const headers = new Map<string, string>();
  for (const [key, value] of Object.entries(result.headers)) headers.set(key.toLowerCase(), value);
  const text = result.text;
  return {
    status: result.status,
    ok: result.status >= 200 && result.status < 300,
    mode: 'requestUrl',
    fallbackReason: reason,
    header: (name) => headers.get(name.toLowerCase()) ?? null,
    // An async generator, so the buffered body has the same shape as a streamed one.
    chunks: async function* () {
      if (text) yield text;
    },
    text: () => Promise.resolve(text),
    close: () => undefined,
  };
}
