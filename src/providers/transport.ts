// The only place in the plugin that calls `fetch`, wraps Obsidian's `requestUrl` and sets timers.
//
// Streaming needs `fetch`: `requestUrl` buffers the whole response. But `fetch` from the app is
// subject to CORS, and some servers (a local LM Studio without CORS enabled, some proxies) refuse
// cross-origin requests; `requestUrl` is not subject to CORS. A browser reports a CORS refusal and
// a network failure identically (a TypeError before any response), so a failed `fetch` is first
// diagnosed with two probes that carry no key and no body: when a plain `fetch` reaches the server
// after all, the failure was a network blip and the request is NOT re-sent (the server may have
// received it); when only `requestUrl` reaches it, CORS is confirmed and the request goes through
// `requestUrl`, and the origin goes straight there for a while (FALLBACK_MEMORY_MS), after which
// streaming is tried again.
//
// Redirects are never followed blindly (see redirect.ts): `fetch` runs with `redirect: 'manual'`
// and only same-origin hops are followed. `requestUrl` follows redirects itself and does not say
// where it ended up, so a request carrying a key is not sent through it unless the transport is
// told to allow that (`allowKeyedFallback`).
//
// The lint override for this file (fetch, bare timers) lives in eslint.config.mjs. Bare timers
// because this file also runs under Node in tests, where there is no `window`.
import { requestUrl } from 'obsidian';
import { ProviderError } from './errors';
import { followRedirect, hasCredentials, isRedirectStatus, originOf, withoutCredentials } from './redirect';
import type { TransportMode } from './types';

export interface HttpRequest {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
}

export interface HttpResponse {
  readonly status: number;
  readonly ok: boolean;
  readonly mode: TransportMode;
  /** Why the response came through `requestUrl` instead of a stream. */
  readonly fallbackReason: string | undefined;
  header(name: string): string | null;
  /**
   * The body as text, chunk by chunk as it arrives (one chunk for `requestUrl`). Throws a
   * ProviderError of kind 'interrupted', 'timeout' or 'aborted' when the body breaks off.
   * Leaving the loop early closes the connection.
   */
  chunks(): AsyncIterable<string>;
  /** The whole body (error bodies, model lists). */
  text(): Promise<string>;
  /** Closes the connection if the body is still open. Safe to call more than once. */
  close(): void;
}

/** The subset of Obsidian's `requestUrl` the fallback uses, injectable so tests can run it over
 * real HTTP without Obsidian. */
export type FallbackRequest = (params: {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
  throw: false;
}) => Promise<{ status: number; headers: Record<string, string>; text: string }>;

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export interface TransportOptions {
  /** `null` disables streaming (every request goes through the fallback). */
  fetch?: FetchLike | null;
  /** `null` disables the fallback. */
  requestUrl?: FallbackRequest | null;
  /** Until the response headers arrive. Generous: a local model may take a while to load. */
  connectTimeoutMs?: number;
  /** Longest silence between two chunks of a streamed body. */
  idleTimeoutMs?: number;
  /** For a buffered `requestUrl` reply, which only arrives once the whole reply is generated. */
  bufferedTimeoutMs?: number;
  /** Send requests that carry an API key through `requestUrl` too, although it follows redirects
   * without telling (the user's explicit choice for a server without CORS). */
  allowKeyedFallback?: boolean;
  /** How long an origin with a confirmed CORS refusal skips `fetch` before streaming is tried again. */
  fallbackMemoryMs?: number;
  /** Backoff waits; injectable so tests run without real delays. */
  sleep?: Sleep;
  now?: () => number;
  random?: () => number;
}

const DEFAULTS = {
  connectTimeoutMs: 120_000,
  idleTimeoutMs: 90_000,
  bufferedTimeoutMs: 600_000,
  fallbackMemoryMs: 10 * 60_000,
};

/** A redirect answer from `fetch` (status 0 and no location for a browser's opaque redirect). */
interface RedirectAnswer {
  redirect: { status: number; location: string | null };
}

const isRedirectAnswer = (value: HttpResponse | RedirectAnswer): value is RedirectAnswer => 'redirect' in value;

const obsidianRequest: FallbackRequest = async (params) => {
  const response = await requestUrl(params);
  return { status: response.status, headers: response.headers, text: response.text };
};

export function abortedError(): ProviderError {
  return new ProviderError('aborted', 'Stopped.');
}

function timeoutError(phase: 'connect' | 'idle' | 'buffered', ms: number): ProviderError {
  const seconds = Math.round(ms / 1000);
  const message =
    phase === 'idle'
      ? `The reply stalled: nothing arrived for ${seconds} s.`
      : `No answer within ${seconds} s.`;
  return new ProviderError('timeout', message, { detail: phase });
}

/** "ECONNREFUSED" from Node's fetch, "Failed to fetch" from a browser, Obsidian's net::ERR_… */
export function describeNetworkError(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as Error & { cause?: unknown }).cause;
    if (cause && typeof cause === 'object') {
      const code = (cause as { code?: unknown }).code;
      if (typeof code === 'string') return code;
      const message = (cause as { message?: unknown }).message;
      if (typeof message === 'string' && message) return message;
    }
    return error.message || error.name;
  }
  return String(error);
}

export const defaultSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortedError());
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortedError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

export class Transport {
  private readonly fetchImpl: FetchLike | null;
  private readonly fallback: FallbackRequest | null;
  private connectTimeoutMs: number;
  private idleTimeoutMs: number;
  private readonly bufferedTimeoutMs: number;
  private readonly allowKeyedFallback: boolean;
  private readonly fallbackMemoryMs: number;
  /** Origins with a confirmed CORS refusal → until when they skip `fetch`. This transport's only. */
  private readonly fetchBlocked = new Map<string, number>();
  readonly sleep: Sleep;
  readonly now: () => number;
  readonly random: () => number;

  constructor(options: TransportOptions = {}) {
    this.fetchImpl = options.fetch === undefined ? (url, init) => fetch(url, init) : options.fetch;
    this.fallback = options.requestUrl === undefined ? obsidianRequest : options.requestUrl;
    this.connectTimeoutMs = options.connectTimeoutMs ?? DEFAULTS.connectTimeoutMs;
    this.idleTimeoutMs = options.idleTimeoutMs ?? DEFAULTS.idleTimeoutMs;
    this.bufferedTimeoutMs = options.bufferedTimeoutMs ?? DEFAULTS.bufferedTimeoutMs;
    this.allowKeyedFallback = options.allowKeyedFallback ?? false;
    this.fallbackMemoryMs = options.fallbackMemoryMs ?? DEFAULTS.fallbackMemoryMs;
    this.sleep = options.sleep ?? defaultSleep;
    this.now = options.now ?? (() => Date.now());
    this.random = options.random ?? Math.random;
  }

  /** New timeouts (from the settings) for the requests sent from now on; what the transport
   * learned about origins is kept. */
  setTimeouts(timeouts: { connectTimeoutMs: number; idleTimeoutMs: number }): void {
    this.connectTimeoutMs = timeouts.connectTimeoutMs;
    this.idleTimeoutMs = timeouts.idleTimeoutMs;
  }

  /** Sends a request. Rejects only with a ProviderError: 'connection', 'timeout', 'aborted',
   * 'interrupted' (lost before the answer; not re-sent) or 'bad-request' (a refused redirect, a key
   * that would have to go through `requestUrl`). */
  async send(request: HttpRequest, signal?: AbortSignal): Promise<HttpResponse> {
    if (signal?.aborted) throw abortedError();
    const origin = originOf(request.url);
    const fetchImpl = this.fetchImpl;
    if (fetchImpl && !this.skipsFetch(origin)) {
      let fetchFailure: unknown;
      try {
        const response = await this.fetchFollowingRedirects(fetchImpl, request, signal);
        this.fetchBlocked.delete(origin);
        return response;
      } catch (error) {
        if (error instanceof ProviderError) throw error;
        fetchFailure = error;
      }
      const detail = describeNetworkError(fetchFailure);
      if (!this.fallback) throw new ProviderError('connection', `Could not connect (${detail}).`, { detail });
      const verdict = await this.diagnose(fetchImpl, this.fallback, request, signal);
      if (verdict === 'unreachable') throw new ProviderError('connection', `Could not connect (${detail}).`, { detail });
      if (verdict === 'fetch-works') {
        throw new ProviderError('interrupted', `The connection was lost before the reply began (${detail}). The message was not sent again, since the server may have received it: send it again to retry.`, { detail });
      }
      this.fetchBlocked.set(origin, this.now() + this.fallbackMemoryMs);
      const reason = `Streaming is unavailable for ${origin}: the direct request failed (${detail}), usually because the server does not allow cross-origin requests. Replies arrive all at once.`;
      return this.sendWithFallback(this.fallback, this.checkFallbackAllowed(request, origin), signal, reason);
    }
    if (!this.fallback) throw new ProviderError('connection', 'No way to send requests on this platform.');
    const reason = fetchImpl
      ? `Streaming is unavailable for ${origin} (an earlier direct request was refused, usually CORS). Replies arrive all at once.`
      : 'Streaming is unavailable on this platform. Replies arrive all at once.';
    return this.sendWithFallback(this.fallback, this.checkFallbackAllowed(request, origin), signal, reason);
  }

  private skipsFetch(origin: string): boolean {
    const until = this.fetchBlocked.get(origin);
    if (until === undefined) return false;
    if (this.now() < until) return true;
    this.fetchBlocked.delete(origin);
    return false;
  }

  /** `requestUrl` follows redirects without saying so: a key does not go through it unless allowed. */
  private checkFallbackAllowed(request: HttpRequest, origin: string): HttpRequest {
    if (this.allowKeyedFallback || !hasCredentials(request.headers)) return request;
    throw new ProviderError(
      'bad-request',
      `${origin} refuses direct requests from the app (usually CORS), and the fallback (Obsidian's requestUrl) follows redirects without showing them, so the API key is not sent through it. Allow cross-origin requests from app://obsidian.md on the server.`,
      { detail: 'cors' },
    );
  }

  /** `fetch` with redirects decided by hand (redirect.ts). */
  private async fetchFollowingRedirects(fetchImpl: FetchLike, request: HttpRequest, signal: AbortSignal | undefined): Promise<HttpResponse> {
    let current = request;
    for (let hop = 0; ; hop++) {
      const answer = await this.sendWithFetch(fetchImpl, current, signal);
      if (!isRedirectAnswer(answer)) return answer;
      current = followRedirect(current, answer.redirect.status, answer.redirect.location, hop);
    }
  }

  /**
   * Why `fetch` failed before any answer, asked with two probes that carry no key and no body:
   * 'fetch-works' (a plain `fetch` reaches the server: the failure was a blip), 'cors' (only
   * `requestUrl` reaches it) or 'unreachable' (neither does).
   */
  private async diagnose(fetchImpl: FetchLike, fallback: FallbackRequest, request: HttpRequest, signal: AbortSignal | undefined): Promise<'fetch-works' | 'cors' | 'unreachable'> {
    const probe: HttpRequest = { url: request.url, method: 'GET', headers: withoutCredentials(request.headers) };
    const settle = (error: unknown): 'unreachable' => {
      if (signal?.aborted) throw abortedError();
      if (error instanceof ProviderError && error.kind !== 'timeout' && error.kind !== 'connection') throw error;
      return 'unreachable';
    };
    try {
      const answer = await this.sendWithFetch(fetchImpl, probe, signal);
      if (!isRedirectAnswer(answer)) answer.close();
      return 'fetch-works';
    } catch (error) {
      if (error instanceof ProviderError) return settle(error);
    }
    try {
      await this.sendWithFallback(fallback, probe, signal, '');
      return 'cors';
    } catch (error) {
      return settle(error);
    }
  }

  /** Throws a ProviderError for abort/timeout; any other rejection means "fetch could not reach
   * the server" and is for the caller to fall back on. */
  private async sendWithFetch(fetchImpl: FetchLike, request: HttpRequest, signal: AbortSignal | undefined): Promise<HttpResponse | RedirectAnswer> {
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

    arm('connect', this.connectTimeoutMs);
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

    const idleTimeoutMs = this.idleTimeoutMs;
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

  private async sendWithFallback(fallback: FallbackRequest, request: HttpRequest, signal: AbortSignal | undefined, reason: string): Promise<HttpResponse> {
    // requestUrl cannot be cancelled: on abort or timeout we stop waiting and drop its result.
    let timer: ReturnType<typeof setTimeout> | undefined;
    let onAbort: (() => void) | undefined;
    const stop = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(timeoutError('buffered', this.bufferedTimeoutMs)), this.bufferedTimeoutMs);
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
      const detail = describeNetworkError(error);
      throw new ProviderError('connection', `Could not connect (${detail}).`, { detail });
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
}
