// The only place in the plugin that calls `fetch`, wraps Obsidian's `requestUrl` and sets timers.
//
// Streaming needs `fetch`: `requestUrl` buffers the whole response. But `fetch` from the app is
// subject to CORS, and some servers (a local LM Studio without CORS enabled, some proxies) refuse
// cross-origin requests; `requestUrl` is not subject to CORS. So: try `fetch`; when it fails before
// any response (a browser reports a CORS refusal and a network failure identically, as a
// TypeError), retry the same request through `requestUrl` and say so on the response. An origin
// that needed the fallback once goes straight to it for the rest of this transport's life, rather
// than paying for a failing `fetch` on every message.
//
// The lint override for this file (fetch, bare timers) lives in eslint.config.mjs. Bare timers
// because this file also runs under Node in tests, where there is no `window`.
import { requestUrl } from 'obsidian';
import { ProviderError } from './errors';
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
  /** Backoff waits; injectable so tests run without real delays. */
  sleep?: Sleep;
  now?: () => number;
  random?: () => number;
}

const DEFAULTS = {
  connectTimeoutMs: 120_000,
  idleTimeoutMs: 90_000,
  bufferedTimeoutMs: 600_000,
};

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

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

export class Transport {
  private readonly fetchImpl: FetchLike | null;
  private readonly fallback: FallbackRequest | null;
  private readonly connectTimeoutMs: number;
  private readonly idleTimeoutMs: number;
  private readonly bufferedTimeoutMs: number;
  /** Origins where `fetch` failed but `requestUrl` worked (CORS): owned by this transport only. */
  private readonly fetchBlocked = new Set<string>();
  readonly sleep: Sleep;
  readonly now: () => number;
  readonly random: () => number;

  constructor(options: TransportOptions = {}) {
    this.fetchImpl = options.fetch === undefined ? (url, init) => fetch(url, init) : options.fetch;
    this.fallback = options.requestUrl === undefined ? obsidianRequest : options.requestUrl;
    this.connectTimeoutMs = options.connectTimeoutMs ?? DEFAULTS.connectTimeoutMs;
    this.idleTimeoutMs = options.idleTimeoutMs ?? DEFAULTS.idleTimeoutMs;
    this.bufferedTimeoutMs = options.bufferedTimeoutMs ?? DEFAULTS.bufferedTimeoutMs;
    this.sleep = options.sleep ?? defaultSleep;
    this.now = options.now ?? (() => Date.now());
    this.random = options.random ?? Math.random;
  }

  /** Sends a request. Rejects only with a ProviderError: 'connection', 'timeout' or 'aborted'. */
  async send(request: HttpRequest, signal?: AbortSignal): Promise<HttpResponse> {
    if (signal?.aborted) throw abortedError();
    const origin = originOf(request.url);
    if (this.fetchImpl && !this.fetchBlocked.has(origin)) {
      let fetchFailure: unknown;
      try {
        return await this.sendWithFetch(this.fetchImpl, request, signal);
      } catch (error) {
        if (error instanceof ProviderError) throw error;
        fetchFailure = error;
      }
      if (!this.fallback) {
        throw new ProviderError('connection', `Could not connect (${describeNetworkError(fetchFailure)}).`, {
          detail: describeNetworkError(fetchFailure),
        });
      }
      const reason = `Streaming is unavailable for ${origin}: the direct request failed (${describeNetworkError(fetchFailure)}), usually because the server does not allow cross-origin requests. Replies arrive all at once.`;
      const response = await this.sendWithFallback(this.fallback, request, signal, reason);
      this.fetchBlocked.add(origin);
      return response;
    }
    if (!this.fallback) throw new ProviderError('connection', 'No way to send requests on this platform.');
    const reason = this.fetchImpl
      ? `Streaming is unavailable for ${origin} (an earlier direct request was refused, usually CORS). Replies arrive all at once.`
      : 'Streaming is unavailable on this platform. Replies arrive all at once.';
    return this.sendWithFallback(this.fallback, request, signal, reason);
  }

  /** Throws a ProviderError for abort/timeout; any other rejection means "fetch could not reach
   * the server" and is for the caller to fall back on. */
  private async sendWithFetch(fetchImpl: FetchLike, request: HttpRequest, signal: AbortSignal | undefined): Promise<HttpResponse> {
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
      const init: RequestInit = { method: request.method, headers: request.headers, signal: controller.signal };
      if (request.body !== undefined) init.body = request.body;
      response = await fetchImpl(request.url, init);
    } catch (error) {
      release();
      const known = failure(error);
      if (known) throw known;
      throw error;
    }
    clearTimeout(timer);

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
