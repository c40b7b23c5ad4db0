// One request through `fetch`, the streamed way: the connect timeout until the headers, then the
// idle timeout between two chunks of the body, the body decoded as UTF-8 chunk by chunk, and the
// caller's abort wired to the connection. Redirects are not followed here (`redirect: 'manual'`):
// a redirect comes back as a `RedirectAnswer` for the transport to decide with redirect.ts.
//
// Its own module because this is the one piece that holds a live connection and its timers; the
// transport (transport.ts) only chooses between this and the `requestUrl` fallback. `fetch` itself
// is injected: the global is named only in transport.ts. Bare timers (lint override in
// eslint.config.mjs) because this also runs under Node in tests, where there is no `window`.
import { ProviderError } from './errors';
import type { HttpRequest, HttpResponse } from './http';
import { isRedirectStatus } from './redirect';
import { abortedError, describeNetworkError, timeoutError } from './transport-errors';

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

/** A redirect answer from `fetch` (status 0 and no location for a browser's opaque redirect). */
export interface RedirectAnswer {
  redirect: { status: number; location: string | null };
}

export const isRedirectAnswer = (value: HttpResponse | RedirectAnswer): value is RedirectAnswer => 'redirect' in value;

export interface FetchTimeouts {
  /** Until the response headers arrive. */
  connectTimeoutMs: number;
  /** Longest silence between two chunks of a streamed body. */
  idleTimeoutMs: number;
}

/** Throws a ProviderError for abort/timeout; any other rejection means "fetch could not reach
 * the server" and is for the caller to fall back on. */
export async function fetchOnce(fetchImpl: FetchLike, request: HttpRequest, timeouts: FetchTimeouts, signal: AbortSignal | undefined): Promise<HttpResponse | RedirectAnswer> {
  const controller = new AbortController();
  let timedOut: ProviderError | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = (phase: 'connect' | 'idle', ms: number) => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timedOut = timeoutError(phase, ms);
      controller.abort();
    }, ms);
  };
  const onAbort = () => controller.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  const release = () => {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  };
  /** What a failure of the connection means right now. */
  const failure = (error: unknown): ProviderError | null => {
    if (signal?.aborted) return abortedError();
    if (timedOut) return timedOut;
    return error instanceof ProviderError ? error : null;
  };

  arm('connect', timeouts.connectTimeoutMs);
  let response: Response;
  try {
    const init: RequestInit = { method: request.method, headers: request.headers, signal: controller.signal, redirect: 'manual' };
    if (request.body !== undefined) init.body = request.body;
    response = await fetchImpl(request.url, init);
  } catch (error) {
    release();
    const known = failure(error);
    if (known) throw known;
    throw error;
  }
  clearTimeout(timer);
  // A browser hides a manual redirect (type 'opaqueredirect', status 0); Node shows the 3xx.
  if (response.type === 'opaqueredirect' || isRedirectStatus(response.status)) {
    release();
    await response.body?.cancel().catch(() => undefined);
    return { redirect: { status: response.status, location: response.type === 'opaqueredirect' ? null : response.headers.get('location') } };
  }

  const idleTimeoutMs = timeouts.idleTimeoutMs;
  let open = true;
  const close = () => {
    if (!open) return;
    open = false;
    release();
    controller.abort();
  };
  const body = response.body;
  async function* chunks(): AsyncGenerator<string> {
    if (!body) {
      open = false;
      release();
      return;
    }
    const reader = body.getReader();
    const decoder = new TextDecoder();
    let finished = false;
    try {
      for (;;) {
        arm('idle', idleTimeoutMs);
        let result: ReadableStreamReadResult<Uint8Array>;
        try {
          result = await reader.read();
        } catch (error) {
          const known = failure(error);
          if (known) throw known;
          throw new ProviderError('interrupted', `The connection broke off mid-reply (${describeNetworkError(error)}).`, {
            detail: describeNetworkError(error),
          });
        } finally {
          clearTimeout(timer);
        }
        if (result.done) break;
        const text = decoder.decode(result.value, { stream: true });
        if (text) yield text;
      }
      const tail = decoder.decode();
      if (tail) yield tail;
      finished = true;
    } finally {
      if (!finished) reader.cancel().catch(() => undefined);
      if (finished) {
        open = false;
        release();
      } else {
        close();
      }
    }
  }
  let consumed = false;
  return {
    status: response.status,
    ok: response.ok,
    mode: 'fetch',
    fallbackReason: undefined,
    header: (name) => response.headers.get(name),
    chunks: () => {
      consumed = true;
      return chunks();
    },
    text: async () => {
      if (consumed) throw new Error('The body was already read');
      let all = '';
      for await (const part of chunks()) all += part;
      return all;
    },
    close,
  };
}
