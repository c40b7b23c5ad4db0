// What one HTTP exchange looks like to the protocol modules, whichever way it went: a streamed
// `fetch` (fetch-exchange.ts) or Obsidian's buffered `requestUrl` (fallback-exchange.ts). Types
// only, so the redirect rules, the runner and both exchanges share them without importing the
// transport that chooses between the two.
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
