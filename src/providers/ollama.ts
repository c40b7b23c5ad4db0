// Ollama, the offline default: /api/chat streams NDJSON, one JSON object per line, the last with
// `done: true` and the counts. No key unless the user put Ollama behind an authenticating proxy.
import { classifyStreamError, ProviderError, shorten, type ProviderLabel } from './errors';
import { ndjsonLines } from './ndjson';
import { ollamaBody } from './ollama-format';
import { bearerHeaders, HttpChatProvider, type HttpProviderOptions } from './http-provider';
import { type DecodedEvent, requestJson } from './run';
import { argumentsText } from './tool-format';
import type { CallOptions, ChatRequest, ProviderUsage, StopReason } from './types';
import { count, isRecord, type Json } from './json';

export const OLLAMA_DEFAULT_URL = 'http://localhost:11434';

export type OllamaProviderOptions = HttpProviderOptions;


function stopReason(raw: unknown, sawToolCalls: boolean): StopReason {
  // Ollama reports "stop" even when the reply is a tool call.
  if (sawToolCalls) return 'tool-calls';
  if (raw === 'stop' || raw === undefined) return 'end';
  if (raw === 'length') return 'max-tokens';
  return 'other';
}

/** Ollama's final line carries `prompt_eval_count` and `eval_count`. When part of the prompt was
 * served from its KV cache, builds without a cached count leave those tokens out (or omit the
 * field), so the figure is flagged as a lower bound unless a cached count came with it. */
export function ollamaUsage(final: Json): ProviderUsage | null {
  const prompt = count(final.prompt_eval_count);
  const cached = count(final.prompt_cached_count);
  const completion = count(final.eval_count);
  if (prompt === undefined && cached === undefined) return null;
  const usage: ProviderUsage = { promptTokens: (prompt ?? 0) + (cached ?? 0) };
  if (completion !== undefined) usage.completionTokens = completion;
  if (cached !== undefined) usage.cacheReadTokens = cached;
  else usage.promptTokensLowerBound = true;
  return usage;
}

export async function* decodeOllama(chunks: AsyncIterable<string>, label: ProviderLabel, model: string, apiKey: string | undefined): AsyncGenerator<DecodedEvent> {
  let calls = 0;
  for await (const line of ndjsonLines(chunks)) {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new ProviderError('malformed', `${label.name} sent a line that is not valid JSON: ${shorten(line, 120)}`, { detail: shorten(line, 120) });
    }
    if (!isRecord(value)) throw new ProviderError('malformed', `${label.name} sent an unexpected line: ${shorten(line, 120)}`);
    if (value.error !== undefined) {
      throw classifyStreamError({ message: typeof value.error === 'string' ? value.error : JSON.stringify(value.error) }, label, model, apiKey);
    }
    const message = value.message;
    if (isRecord(message)) {
      // `thinking` (reasoning models) is not part of the reply and is not forwarded.
      if (typeof message.content === 'string' && message.content) yield { type: 'text', delta: message.content };
      if (Array.isArray(message.tool_calls)) {
        for (const raw of message.tool_calls) {
          const fn = isRecord(raw) && isRecord(raw.function) ? raw.function : null;
          if (!fn || typeof fn.name !== 'string') throw new ProviderError('malformed', `${label.name} sent a tool call without a name.`);
          calls += 1;
          // Ollama gives no id on older builds; ours must be unique within the conversation only
          // for pairing, and Ollama pairs results by tool name, so a local id is enough.
          const id = isRecord(raw) && typeof raw.id === 'string' && raw.id ? raw.id : `ollama_call_${Date.now().toString(36)}_${calls}`;
          yield { type: 'tool-call', call: { id, name: fn.name, arguments: argumentsText(fn.arguments) } };
        }
      }
    }
    if (value.done === true) {
      const usage = ollamaUsage(value);
      if (usage) yield { type: 'usage', usage };
      const raw = typeof value.done_reason === 'string' ? value.done_reason : undefined;
      yield raw === undefined ? { type: 'done', stopReason: stopReason(raw, calls > 0) } : { type: 'done', stopReason: stopReason(raw, calls > 0), rawStopReason: raw };
      return;
    }
  }
}

/** `<architecture>.context_length` of an `/api/show` reply's `model_info`. */
export function contextLengthOf(json: unknown): number | null {
  const info = isRecord(json) && isRecord(json.model_info) ? json.model_info : null;
  if (!info) return null;
  for (const [key, value] of Object.entries(info)) {
    if (key.endsWith('.context_length')) return count(value) ?? null;
  }
  return null;
}

export class OllamaProvider extends HttpChatProvider {
  readonly id = 'ollama' as const;
  protected readonly modelsPath = '/api/tags';

  constructor(options: OllamaProviderOptions = {}) {
    super((options.baseUrl?.trim() || OLLAMA_DEFAULT_URL).replace(/\/+$/, ''), options);
  }

  protected label(apiKey: string | undefined): ProviderLabel {
    const local = this.baseUrl === OLLAMA_DEFAULT_URL;
    return {
      name: local ? 'Ollama' : `Ollama at ${this.baseUrl}`,
      // The name already holds the address: the hint says each thing once.
      connectionHint: local ? 'Is Ollama running? Start it with `ollama serve`.' : 'Is Ollama running there? Start it with `ollama serve`, and check the address in the plugin settings.',
      usesKey: apiKey !== undefined && apiKey !== '',
      missingModelHint: (model) => `Pull it with \`ollama pull ${model}\` or choose another model in the plugin settings.`,
    };
  }

  protected headers(apiKey: string | undefined, json: boolean): Record<string, string> {
    return bearerHeaders(apiKey, json);
  }

  protected chat(request: ChatRequest): { path: string; body: unknown } {
    return { path: '/api/chat', body: ollamaBody(request) };
  }

  protected decode(chunks: AsyncIterable<string>, label: ProviderLabel, model: string, apiKey: string | undefined): AsyncIterable<DecodedEvent> {
    return decodeOllama(chunks, label, model, apiKey);
  }

  /** The model's maximum context from `/api/show` (`<architecture>.context_length` in its
   * `model_info`), or null when the server does not say. Rejects with a ProviderError. */
  async modelContextLength(model: string, options: CallOptions = {}): Promise<number | null> {
    const request = { url: `${this.baseUrl}/api/show`, method: 'POST' as const, headers: this.headers(options.apiKey, true), body: JSON.stringify({ model }) };
    return contextLengthOf(await requestJson(this.transport, request, this.label(options.apiKey), options.apiKey, options.signal));
  }

  protected modelNames(json: unknown): string[] {
    const models = isRecord(json) && Array.isArray(json.models) ? json.models : [];
    return models.flatMap((m) => (isRecord(m) && typeof m.name === 'string' ? [m.name] : isRecord(m) && typeof m.model === 'string' ? [m.model] : []));
  }
}
