// What every provider over HTTP shares: its base URL, transport and retry policy, the one streamed
// chat request (handed to runStream, which owns the event contract) and the one model-list
// request. A protocol module says only what differs: how the server is named in errors, its
// headers, where the chat goes with which body and decoder, and where its model list is.
import type { ProviderLabel } from './errors';
import type { RetryPolicy } from './retry';
import { requestJson, runStream, type DecodedEvent } from './run';
import { Transport } from './transport';
import type { CallOptions, ChatProvider, ChatRequest, ProviderEvent, ProviderId } from './types';

export interface HttpProviderOptions {
  baseUrl?: string;
  transport?: Transport;
  retry?: RetryPolicy;
}

/** Headers of the protocols that take a key as a bearer token (OpenAI-compatible, Ollama). No
 * header without a key: local servers need none, and some reject an empty bearer token. */
export function bearerHeaders(apiKey: string | undefined, json: boolean): Record<string, string> {
  const headers: Record<string, string> = {};
  if (json) headers['Content-Type'] = 'application/json';
  if (apiKey) headers.Authorization = `Bearer ${apiKey}`;
  return headers;
}

export abstract class HttpChatProvider implements ChatProvider {
  abstract readonly id: ProviderId;
  readonly baseUrl: string;
  protected readonly transport: Transport;
  private readonly retry: RetryPolicy | undefined;

  /** `baseUrl`: the protocol's normalised form of the configured URL. */
  protected constructor(baseUrl: string, options: HttpProviderOptions) {
    this.baseUrl = baseUrl;
    this.transport = options.transport ?? new Transport();
    this.retry = options.retry;
  }

  /** How errors name the server and what they suggest. */
  protected abstract label(apiKey: string | undefined): ProviderLabel;
  /** Request headers; `json` when a JSON body goes with them. */
  protected abstract headers(apiKey: string | undefined, json: boolean): Record<string, string>;
  /** Where a chat request goes (after the base URL) and its body. */
  protected abstract chat(request: ChatRequest): { path: string; body: unknown };
  protected abstract decode(chunks: AsyncIterable<string>, label: ProviderLabel, model: string, apiKey: string | undefined): AsyncIterable<DecodedEvent>;
  /** Where the model list is (after the base URL) and the names in it. */
  protected abstract readonly modelsPath: string;
  protected abstract modelNames(json: unknown): string[];

  stream(request: ChatRequest, options: CallOptions = {}): AsyncIterable<ProviderEvent> {
    const label = this.label(options.apiKey);
    const apiKey = options.apiKey;
    const { path, body } = this.chat(request);
    return runStream(
      this.transport,
      {
        label,
        model: request.model,
        apiKey,
        request: { url: `${this.baseUrl}${path}`, method: 'POST', headers: this.headers(apiKey, true), body: JSON.stringify(body) },
        decode: (chunks) => this.decode(chunks, label, request.model, apiKey),
        listModels: (signal) => this.listModels(signal ? { signal, apiKey } : { apiKey }),
      },
      options.signal,
      this.retry,
    );
  }

  async listModels(options: CallOptions = {}): Promise<string[]> {
    const request = { url: `${this.baseUrl}${this.modelsPath}`, method: 'GET' as const, headers: this.headers(options.apiKey, false) };
    return this.modelNames(await requestJson(this.transport, request, this.label(options.apiKey), options.apiKey, options.signal));
  }
}
