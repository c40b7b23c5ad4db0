// Retry policy for 429 and 5xx answers: bounded, exponential with jitter, and the server's own
// `retry-after` wins when it gives one. Pure functions; the waiting itself is the transport's.

export interface RetryPolicy {
  /** Retries after the first attempt (so at most maxRetries + 1 requests). */
  maxRetries: number;
  /** Fewer for a 5xx: a server error is rarely fixed by waiting, and each retry re-sends the
   * whole conversation. */
  maxServerRetries: number;
  /** The least a server's `retry-after` makes us wait: "0" or a date in the past must not turn
   * into immediate retries. */
  minRetryAfterMs: number;
  /** First backoff step. */
  baseDelayMs: number;
  /** No computed backoff waits longer than this. */
  maxDelayMs: number;
  /** A server asking for a longer wait than this is not waited for: the user is told instead,
   * because a chat that hangs for minutes without saying why is worse than an error. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 3,
  maxServerRetries: 2,
  minRetryAfterMs: 1000,
  baseDelayMs: 1000,
  maxDelayMs: 20_000,
  maxRetryAfterMs: 60_000,
};

/**
 * Milliseconds the server asked us to wait, from `retry-after-ms` (OpenAI), `retry-after` in
 * seconds, or `retry-after` as an HTTP date. Undefined when absent or unreadable.
 */
export function parseRetryAfter(header: (name: string) => string | null, now: number): number | undefined {
  const ms = header('retry-after-ms');
  if (ms !== null && ms.trim() !== '') {
    const value = Number(ms);
    if (Number.isFinite(value) && value >= 0) return Math.round(value);
  }
  const raw = header('retry-after');
  if (raw === null || raw.trim() === '') return undefined;
  const trimmed = raw.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  // An HTTP date names a weekday or month; without letters ("-5") it is junk, not year -5.
  if (!/[a-z]/i.test(trimmed)) return undefined;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/**
 * Delay before retry number `attempt` (1-based). Exponential with "equal jitter" (half fixed, half
 * random) so clients that failed together do not retry together, capped at maxDelayMs.
 */
export function backoffDelay(attempt: number, policy: RetryPolicy, random: () => number): number {
  const exp = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  const jitter = Math.min(1, Math.max(0, random()));
  return Math.round(exp / 2 + (exp / 2) * jitter);
}

/** The wait before the next attempt, or null when the server's requested wait is too long. */
export function retryDelay(attempt: number, retryAfterMs: number | undefined, policy: RetryPolicy, random: () => number): number | null {
  if (retryAfterMs !== undefined) return retryAfterMs > policy.maxRetryAfterMs ? null : Math.max(retryAfterMs, policy.minRetryAfterMs);
  return backoffDelay(attempt, policy, random);
}

/** How many retries an answer with `status` gets. */
export function retriesFor(status: number, policy: RetryPolicy): number {
  return status >= 500 ? Math.min(policy.maxRetries, policy.maxServerRetries) : policy.maxRetries;
}
