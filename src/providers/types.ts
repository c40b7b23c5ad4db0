// The one interface every wire protocol sits behind. The chat layer talks to a ChatProvider and
// never sees a URL, a header or a wire format; see README.md in this folder for the event contract.
import type { ChatMessage, ToolCall, ToolDefinition } from '../core/messages';
import type { UsageReport } from '../core/tracker';
import type { ProviderError } from './errors';

export type ProviderId = 'ollama' | 'openai' | 'anthropic';

export interface ChatRequest {
  model: string;
  systemPrompt: string;
  messages: readonly ChatMessage[];
  tools?: readonly ToolDefinition[];
  /** The window the token tracker works with. Ollama gets it as `num_ctx` so it never silently
   * drops the front of the prompt; other providers know their own window. */
  contextWindow: number;
  maxOutputTokens?: number;
  temperature?: number;
}

/** Per-call inputs that must not live on the provider object: the key comes from SecretStorage at
 * call time and is dropped when the call ends. */
export interface CallOptions {
  signal?: AbortSignal;
  apiKey?: string;
}

/** Usage normalised to the tracker's anchor. `promptTokens` counts every prompt token, cached or
 * not, so the tracker can compare it with its own estimate of the whole prompt. */
export interface ProviderUsage extends UsageReport {
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
  /** Set when the server may have left KV-cached prefix tokens out of its prompt count (Ollama):
   * the figure is then a lower bound and anchoring on it could under-count the prompt. */
  promptTokensLowerBound?: boolean;
}

/** Why the model stopped. `raw` keeps the server's own word for logs and the UI. */
export type StopReason = 'end' | 'tool-calls' | 'max-tokens' | 'refusal' | 'other';

export type TransportMode = 'fetch' | 'requestUrl';

export type ProviderEvent =
  /** First event of every stream that reached a server: how the reply travels. With
   * 'requestUrl' the reply arrives all at once and `reason` says why streaming was not possible. */
  | { type: 'transport'; mode: TransportMode; reason?: string }
  /** The server asked us to wait (429 / 5xx) and the request will be retried after `delayMs`. */
  | { type: 'retry'; attempt: number; maxRetries: number; delayMs: number; reason: string }
  | { type: 'text'; delta: string }
  /** A complete tool call: emitted only once its arguments have fully arrived. */
  | { type: 'tool-call'; call: ToolCall }
  | { type: 'usage'; usage: ProviderUsage }
  /** Terminal: the reply is complete. */
  | { type: 'done'; stopReason: StopReason; rawStopReason?: string }
  /** Terminal: the reply failed or was stopped; `error.partialText` keeps what had arrived. */
  | { type: 'error'; error: ProviderError };

export interface ChatProvider {
  readonly id: ProviderId;
  /**
   * Streams one reply. Never throws and never rejects: every failure is an `error` event. The
   * stream ends with exactly one terminal event (`done` or `error`). Breaking out of the loop or
   * aborting `options.signal` closes the connection.
   */
  stream(request: ChatRequest, options?: CallOptions): AsyncIterable<ProviderEvent>;
  /** Models the server offers. Rejects with a ProviderError. */
  listModels(options?: CallOptions): Promise<string[]>;
}
