import { describe, expect, it } from 'vitest';
import { classifyHttpError, looksLikeContextOverflow, parseServerError, redact, type ProviderLabel } from '../../src/providers/errors';
import { backoffDelay, DEFAULT_RETRY_POLICY, parseRetryAfter, retryDelay } from '../../src/providers/retry';

const headers = (values: Record<string, string>) => (name: string) => values[name] ?? null;
const label: ProviderLabel = { name: 'Test', connectionHint: 'Start it.', usesKey: true };

describe('retry-after', () => {
  const now = Date.parse('2026-03-01T12:00:00Z');
  it('reads seconds, milliseconds and HTTP dates; ignores junk', () => {
    expect(parseRetryAfter(headers({ 'retry-after': '7' }), now)).toBe(7000);
    expect(parseRetryAfter(headers({ 'retry-after': '1.5' }), now)).toBe(1500);
    expect(parseRetryAfter(headers({ 'retry-after-ms': '250', 'retry-after': '9' }), now)).toBe(250);
    expect(parseRetryAfter(headers({ 'retry-after': 'Sun, 01 Mar 2026 12:00:30 GMT' }), now)).toBe(30_000);
    expect(parseRetryAfter(headers({ 'retry-after': 'Sun, 01 Mar 2026 11:00:00 GMT' }), now)).toBe(0);
    expect(parseRetryAfter(headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(parseRetryAfter(headers({}), now)).toBeUndefined();
  });

  it('backoff grows exponentially, is jittered within [half, full] and capped', () => {
    const p = DEFAULT_RETRY_POLICY;
    expect(backoffDelay(1, p, () => 0)).toBe(500);
    expect(backoffDelay(1, p, () => 1)).toBe(1000);
    expect(backoffDelay(3, p, () => 1)).toBe(4000);
    expect(backoffDelay(30, p, () => 1)).toBe(p.maxDelayMs);
    expect(retryDelay(1, 120_000, p, () => 0)).toBeNull();
    expect(retryDelay(1, 3000, p, () => 0)).toBe(3000);
  });
});

describe('error classification', () => {
  const classify = (status: number, body: string, apiKey?: string) =>
    classifyHttpError({ status, body, label, model: 'm', apiKey, retryAfterMs: undefined });

  it('maps statuses to kinds and says which are worth retrying', () => {
    expect([401, 403, 404, 408, 413, 429, 500, 502, 503, 529, 400, 422].map((s) => {
      const c = classify(s, '{}', 'k-123456');
      return `${s}:${c.error.kind}:${c.retryable}`;
    })).toEqual([
      '401:auth:false',
      '403:auth:false',
      '404:not-found:false',
      '408:timeout:true',
      '413:context-overflow:false',
      '429:rate-limit:true',
      '500:server:true',
      '502:server:true',
      '503:server:true',
      '529:server:true',
      '400:bad-request:false',
      '422:bad-request:false',
    ]);
  });

  it('recognises context overflow in the words of each server family', () => {
    for (const message of [
      "This model's maximum context length is 8192 tokens. However, you requested 9000 tokens",
      'prompt is too long: 210000 tokens > 200000 maximum',
      'the request exceeds the available context size, try increasing it',
      'Please reduce the length of the messages or completion.',
      'input length exceeds the context length',
    ]) {
      expect(looksLikeContextOverflow({ message }), message).toBe(true);
    }
    expect(looksLikeContextOverflow({ message: 'Invalid value for temperature' })).toBe(false);
  });

  it('reads the error shapes of Ollama, OpenAI, Anthropic and FastAPI servers', () => {
    expect(parseServerError('{"error":"boom"}')).toEqual({ message: 'boom' });
    expect(parseServerError('{"error":{"message":"m","code":"c","type":"t"}}')).toEqual({ message: 'm', code: 'c', type: 't' });
    expect(parseServerError('{"type":"error","error":{"type":"api_error","message":"x"}}')).toEqual({ message: 'x', type: 'api_error' });
    expect(parseServerError('{"detail":"d"}')).toEqual({ message: 'd' });
    expect(parseServerError('<html>Bad gateway</html>')).toEqual({ message: 'an HTML page' });
  });

  it('never lets the key into a message', () => {
    const key = 'sk-live-abcdefghijkl';
    expect(redact(`bad key ${key} and ${key}`, key)).toBe('bad key *** and ***');
    const { error } = classify(500, `{"error":"upstream said ${key}"}`, key);
    expect(error.message).not.toContain(key);
  });
});
