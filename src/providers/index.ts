// The providers layer's public entry: one factory, the interface and the error type.
import { AnthropicProvider } from './anthropic';
import { OllamaProvider } from './ollama';
import { OpenAIProvider } from './openai';
import type { RetryPolicy } from './retry';
import { Transport, type TransportOptions } from './transport';
import type { ChatProvider, ProviderId } from './types';

export type { CallOptions, ChatProvider, ChatRequest, ProviderEvent, ProviderId, ProviderUsage, StopReason, TransportMode } from './types';
export { ProviderError, isProviderError } from './errors';
export type { ProviderErrorKind } from './errors';
export { OLLAMA_DEFAULT_URL, OllamaProvider } from './ollama';
export { OPENAI_DEFAULT_URL, OpenAIProvider } from './openai';
export { ANTHROPIC_DEFAULT_URL, AnthropicProvider } from './anthropic';
export { Transport } from './transport';
export type { TransportOptions } from './transport';
export { DEFAULT_RETRY_POLICY } from './retry';
export type { RetryPolicy } from './retry';

export interface ProviderConfig {
  id: ProviderId;
  /** Empty or absent: the provider's default (Ollama on localhost, the vendor's API). */
  baseUrl?: string;
  /** OpenAI-compatible only: turn off `stream_options` for servers that reject it. */
  includeUsage?: boolean;
  retry?: RetryPolicy;
  /** A shared transport keeps what it learned (which origins need the fallback) across providers. */
  transport?: Transport;
  transportOptions?: TransportOptions;
}

/** Builds the provider for the settings. Keys are not part of the config: pass them per call. */
export function createProvider(config: ProviderConfig): ChatProvider {
  const transport = config.transport ?? new Transport(config.transportOptions);
  const common = { transport, ...(config.retry ? { retry: config.retry } : {}), ...(config.baseUrl ? { baseUrl: config.baseUrl } : {}) };
  switch (config.id) {
    case 'ollama':
      return new OllamaProvider(common);
    case 'openai':
      return new OpenAIProvider(config.includeUsage === undefined ? common : { ...common, includeUsage: config.includeUsage });
    case 'anthropic':
      return new AnthropicProvider(common);
  }
}
