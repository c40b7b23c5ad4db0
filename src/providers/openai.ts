// OpenAI-compatible chat completions: OpenAI, LM Studio, OpenRouter, Groq, llama.cpp server, vLLM.
// SSE: `data: {chunk}` lines, then a usage chunk with empty `choices` (asked for with
// `stream_options.include_usage`), then `data: [DONE]`.
import { classifyStreamError, parseServerError, ProviderError, shorten, type ProviderLabel } from './errors';
import { openaiBody } from './openai-format';
import { ToolCallAssembler } from './openai-tool-calls';
import { bearerHeaders, HttpChatProvider, type HttpProviderOptions } from './http-provider';
import type { DecodedEvent } from './run';
import { sseEvents } from './sse';
import type { ChatRequest, ProviderUsage, StopReason } from './types';
import { count, isRecord } from './json';

export const OPENAI_DEFAULT_URL = 'https://api.openai.com/v1';

export interface OpenAIProviderOptions extends HttpProviderOptions {
  /** Up to and including the version segment, e.g. `http://localhost:1234/v1`. A bare origin gets
   * `/v1`; a pasted `…/chat/completions` is trimmed. */
  baseUrl?: string;
  /** Some older compatible servers reject `stream_options`; they can turn it off. */
  includeUsage?: boolean;
}


export function normaliseOpenAIBase(baseUrl: string | undefined): string {
  let base = (baseUrl?.trim() || OPENAI_DEFAULT_URL).replace(/\/+$/, '');
  base = base.replace(/\/chat\/completions$/, '');
  try {
    if (new URL(base).pathname.replace(/\/+$/, '') === '') base += '/v1';
  } catch {
    // Not a URL: left as typed; the request fails with a connection error that shows it.
  }
  return base;
}

function stopReason(raw: string | undefined, sawToolCalls: boolean): StopReason {
  if (raw === 'tool_calls' || raw === 'function_call' || (sawToolCalls && raw === 'stop')) return 'tool-calls';
  if (raw === 'stop' || raw === undefined) return 'end';
  if (raw === 'length') return 'max-tokens';
  if (raw === 'content_filter') return 'refusal';
  return 'other';
}

/** `prompt_tokens` already includes cached tokens; `cached_tokens` (OpenAI) or
 * `prompt_cache_hit_tokens` (DeepSeek) say how many of them were cache reads. */
export function openaiUsage(raw: unknown): ProviderUsage | null {
  if (!isRecord(raw)) return null;
  const prompt = count(raw.prompt_tokens);
  if (prompt === undefined) return null;
  const usage: ProviderUsage = { promptTokens: prompt };
  const completion = count(raw.completion_tokens);
  if (completion !== undefined) usage.completionTokens = completion;
  const details = isRecord(raw.prompt_tokens_details) ? raw.prompt_tokens_details : {};
  const cached = count(details.cached_tokens) ?? count(raw.prompt_cache_hit_tokens);
  if (cached) usage.cacheReadTokens = cached;
  return usage;
}

export async function* decodeOpenAI(chunks: AsyncIterable<string>, label: ProviderLabel, model: string, apiKey: string | undefined): AsyncGenerator<DecodedEvent> {
  const calls = new ToolCallAssembler();
  let emittedCalls = 0;
  let finish: string | undefined;
  let usage: ProviderUsage | null = null;

  function* flushCalls(): Generator<DecodedEvent> {
    for (const call of calls.finish()) {
      if (!call.name) throw new ProviderError('malformed', `${label.name} sent a tool call without a name.`);
      emittedCalls += 1;
      yield { type: 'tool-call', call };
    }
  }
  function* end(): Generator<DecodedEvent> {
    yield* flushCalls();
    if (usage) yield { type: 'usage', usage };
    const reason = stopReason(finish, emittedCalls > 0);
    yield finish === undefined ? { type: 'done', stopReason: reason } : { type: 'done', stopReason: reason, rawStopReason: finish };
  }

  for await (const event of sseEvents(chunks)) {
    const data = event.data.trim();
    if (!data) continue;
    if (data === '[DONE]') {
      yield* end();
      return;
    }
    let chunk: unknown;
    try {
      chunk = JSON.parse(data);
    } catch {
      throw new ProviderError('malformed', `${label.name} sent an event that is not valid JSON: ${shorten(data, 120)}`, { detail: shorten(data, 120) });
    }
    if (!isRecord(chunk)) throw new ProviderError('malformed', `${label.name} sent an unexpected event: ${shorten(data, 120)}`);
    // OpenRouter and others report failures after the 200 as a chunk with an `error` object.
    if (chunk.error !== undefined && chunk.error !== null) throw classifyStreamError(parseServerError(data), label, model, apiKey);
    // Groq reports usage under `x_groq`; everyone else at the top level of the last chunk.
    const reported = openaiUsage(chunk.usage) ?? (isRecord(chunk.x_groq) ? openaiUsage(chunk.x_groq.usage) : null);
    if (reported) usage = reported;
    const choice = Array.isArray(chunk.choices) ? (chunk.choices[0] as unknown) : undefined;
    if (!isRecord(choice)) continue;
    const delta = isRecord(choice.delta) ? choice.delta : isRecord(choice.message) ? choice.message : {};
    // `reasoning_content` / `reasoning` (thinking models) is not part of the reply.
    if (typeof delta.content === 'string' && delta.content) yield { type: 'text', delta: delta.content };
    calls.add(delta.tool_calls);
    if (typeof choice.finish_reason === 'string' && choice.finish_reason) {
      finish = choice.finish_reason;
      // Calls are complete once the choice finishes; emit them now rather than at [DONE], so a
      // connection lost before the usage chunk still delivers them.
      yield* flushCalls();
    }
  }
  // A server that ends the stream after the finish reason without `[DONE]` finished the reply.
  if (finish !== undefined) yield* end();
}

export class OpenAIProvider extends HttpChatProvider {
  readonly id = 'openai' as const;
  /** `/models` where the server offers it; servers without one reject with kind 'not-found'. */
  protected readonly modelsPath = '/models';
  private readonly includeUsage: boolean;

  constructor(options: OpenAIProviderOptions = {}) {
    super(normaliseOpenAIBase(options.baseUrl), options);
    this.includeUsage = options.includeUsage ?? true;
  }

  private get isOpenAI(): boolean {
    return /^https:\/\/api\.openai\.com(\/|$)/.test(this.baseUrl);
  }

  protected label(): ProviderLabel {
    return this.isOpenAI
      ? { name: 'OpenAI', connectionHint: 'Check your internet connection.', usesKey: true }
      : {
          name: `the server at ${this.baseUrl}`,
          connectionHint: 'Is the server running, and is the base URL in the plugin settings right?',
          usesKey: true,
        };
  }

  protected headers(apiKey: string | undefined, json: boolean): Record<string, string> {
    return bearerHeaders(apiKey, json);
  }

  protected chat(request: ChatRequest): { path: string; body: unknown } {
    return { path: '/chat/completions', body: openaiBody(request, { maxTokensField: this.isOpenAI ? 'max_completion_tokens' : 'max_tokens', includeUsage: this.includeUsage }) };
  }

  protected decode(chunks: AsyncIterable<string>, label: ProviderLabel, model: string, apiKey: string | undefined): AsyncIterable<DecodedEvent> {
    return decodeOpenAI(chunks, label, model, apiKey);
  }

  protected modelNames(json: unknown): string[] {
    const data = isRecord(json) && Array.isArray(json.data) ? json.data : [];
    return data.flatMap((m) => (isRecord(m) && typeof m.id === 'string' ? [m.id] : []));
  }
}
