// The errors the transport itself raises, before any HTTP status is read (errors.ts classifies
// the answers): the user's stop, a timeout in one of its three phases, and a connection that never
// formed. Shared by both exchanges and the transport, so each failure reads the same whichever
// way the request went.
import { ProviderError } from './errors';

export function abortedError(): ProviderError {
  return new ProviderError('aborted', 'Stopped.');
}

/** 'connect': no headers yet; 'idle': a streamed body went silent; 'buffered': a `requestUrl`
 * reply, which only arrives once the whole reply is generated. */
export function timeoutError(phase: 'connect' | 'idle' | 'buffered', ms: number): ProviderError {
  const seconds = Math.round(ms / 1000);
  const message =
    phase === 'idle'
      ? `The reply stalled: nothing arrived for ${seconds} s.`
      : `No answer within ${seconds} s.`;
  return new ProviderError('timeout', message, { detail: phase });
}

/** The server could not be reached; `detail` from {@link describeNetworkError}. */
export function connectionError(detail: string): ProviderError {
  return new ProviderError('connection', `Could not connect (${detail}).`, { detail });
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
