// How a provider's request reaches its server: the only place in the plugin that names `fetch`, and
// the one that decides between it and Obsidian's `requestUrl`.
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
// Its parts: the streamed exchange (fetch-exchange.ts), the buffered one (fallback-exchange.ts),
// the errors both raise (transport-errors.ts), the shape of a request and an answer (http.ts).
// This file owns the choice between the two exchanges and what it learned about origins.
//
// The lint override for this file (fetch, bare timers) lives in eslint.config.mjs. Bare timers
// because this file also runs under Node in tests, where there is no `window`.
import { ProviderError } from './errors';
import { type FallbackRequest, obsidianRequest, requestUrlOnce } from './fallback-exchange';
import { type FetchLike, fetchOnce, isRedirectAnswer } from './fetch-exchange';
import type { HttpRequest, HttpResponse } from './http';
import { followRedirect, hasCredentials, originOf, withoutCredentials } from './redirect';
import { abortedError, connectionError, describeNetworkError } from './transport-errors';

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
      if (!this.fallback) throw connectionError(detail);
      const verdict = await this.diagnose(fetchImpl, this.fallback, request, signal);
      if (verdict === 'unreachable') throw connectionError(detail);
      if (verdict === 'fetch-works') {
        throw new ProviderError('interrupted', `The connection was lost before the reply began (${detail}). The message was not sent again, since the server may have received it: send it again to retry.`, { detail });
      }
      this.fetchBlocked.set(origin, this.now() + this.fallbackMemoryMs);
      const reason = `Streaming is unavailable for ${origin}: the direct request failed (${detail}), usually because the server does not allow cross-origin requests. Replies arrive all at once.`;
      return requestUrlOnce(this.fallback, this.checkFallbackAllowed(request, origin), this.bufferedTimeoutMs, signal, reason);
    }
    if (!this.fallback) throw new ProviderError('connection', 'No way to send requests on this platform.');
    const reason = fetchImpl
      ? `Streaming is unavailable for ${origin} (an earlier direct request was refused, usually CORS). Replies arrive all at once.`
      : 'Streaming is unavailable on this platform. Replies arrive all at once.';
    return requestUrlOnce(this.fallback, this.checkFallbackAllowed(request, origin), this.bufferedTimeoutMs, signal, reason);
  }

  private fetchTimeouts(): { connectTimeoutMs: number; idleTimeoutMs: number } {
    return { connectTimeoutMs: this.connectTimeoutMs, idleTimeoutMs: this.idleTimeoutMs };
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
      const answer = await fetchOnce(fetchImpl, current, this.fetchTimeouts(), signal);
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
      const answer = await fetchOnce(fetchImpl, probe, this.fetchTimeouts(), signal);
      if (!isRedirectAnswer(answer)) answer.close();
      return 'fetch-works';
    } catch (error) {
      if (error instanceof ProviderError) return settle(error);
    }
    try {
      await requestUrlOnce(fallback, probe, this.bufferedTimeoutMs, signal, '');
      return 'cors';
    } catch (error) {
      return settle(error);
    }
  }
}
