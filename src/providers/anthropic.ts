// Anthropic Messages API. SSE with named events: message_start (input usage), content_block_start
// / _delta / _stop per text or tool_use block (tool input streamed as `input_json_delta` pieces),
// message_delta (stop reason, output usage), message_stop; `ping` keep-alives; `error` mid-stream.
import { classifyStreamError, parseServerError, ProviderError, shorten, type ProviderLabel } from './errors';
import { anthropicBody } from './anthropic-format';
import { HttpChatProvider, type HttpProviderOptions } from './http-provider';
import type { DecodedEvent } from './run';
import { sseEvents } from './sse';
import type { ChatRequest, ProviderUsage, StopReason } from './types';
import { count, isRecord } from './json';

export const ANTHROPIC_DEFAULT_URL = 'https://api.anthropic.com';
export const ANTHROPIC_VERSION = '2023-06-01';

export interface AnthropicProviderOptions extends HttpProviderOptions {
  /** Without the `/v1` segment. */
  baseUrl?: string;
}


function stopReason(raw: string | undefined): StopReason {
  switch (raw) {
    case undefined:
    case 'end_turn':
    case 'stop_sequence':
      return 'end';
    case 'tool_use':
      return 'tool-calls';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'max-tokens';
    case 'refusal':
      return 'refusal';
    default:
      return 'other';
  }
}

/** Running usage: message_start gives the input side, message_delta the (cumulative) output and,
 * on newer API versions, updated input figures. Every prompt token counts toward the anchor:
 * uncached input + cache writes + cache reads. */
class UsageAccumulator {
  private input: number | undefined;
  private cacheWrite: number | undefined;
  private cacheRead: number | undefined;
  private output: number | undefined;

  merge(raw: unknown): void {
    if (!isRecord(raw)) return;
    this.input = count(raw.input_tokens) ?? this.input;
    this.cacheWrite = count(raw.cache_creation_input_tokens) ?? this.cacheWrite;
    this.cacheRead = count(raw.cache_read_input_tokens) ?? this.cacheRead;
    this.output = count(raw.output_tokens) ?? this.output;
  }

  report(): ProviderUsage | null {
    if (this.input === undefined) return null;
    const usage: ProviderUsage = { promptTokens: this.input + (this.cacheWrite ?? 0) + (this.cacheRead ?? 0) };
    if (this.output !== undefined) usage.completionTokens = this.output;
    if (this.cacheRead) usage.cacheReadTokens = this.cacheRead;
    if (this.cacheWrite) usage.cacheWriteTokens = this.cacheWrite;
    return usage;
  }
}

interface OpenToolUse {
  id: string;
  name: string;
  json: string;
  /** `input` from content_block_start, used when no input_json_delta follows. */
  initial: unknown;
}

export async function* decodeAnthropic(chunks: AsyncIterable<string>, label: ProviderLabel, model: string, apiKey: string | undefined): AsyncGenerator<DecodedEvent> {
  const usage = new UsageAccumulator();
  const tools = new Map<number, OpenToolUse>();
  let stop: string | undefined;

  for await (const event of sseEvents(chunks)) {
    if (!event.data.trim()) continue;
    let data: unknown;
    try {
      data = JSON.parse(event.data);
    } catch {
      throw new ProviderError('malformed', `${label.name} sent an event that is not valid JSON: ${shorten(event.data, 120)}`, {
        detail: shorten(event.data, 120),
      });
    }
    if (!isRecord(data)) throw new ProviderError('malformed', `${label.name} sent an unexpected event: ${shorten(event.data, 120)}`);
    const type = typeof data.type === 'string' ? data.type : event.event;
    switch (type) {
      case 'message_start':
        usage.merge(isRecord(data.message) ? data.message.usage : undefined);
        break;
      case 'content_block_start': {
        const block = isRecord(data.content_block) ? data.content_block : {};
        const index = typeof data.index === 'number' ? data.index : -1;
        if (block.type === 'text' && typeof block.text === 'string' && block.text) yield { type: 'text', delta: block.text };
        if (block.type === 'tool_use') {
          if (typeof block.id !== 'string' || typeof block.name !== 'string') {
            throw new ProviderError('malformed', `${label.name} sent a tool call without an id or name.`);
          }
          tools.set(index, { id: block.id, name: block.name, json: '', initial: block.input });
        }
        break;
      }
      case 'content_block_delta': {
        const delta = isRecord(data.delta) ? data.delta : {};
        if (delta.type === 'text_delta' && typeof delta.text === 'string' && delta.text) yield { type: 'text', delta: delta.text };
        else if (delta.type === 'input_json_delta' && typeof delta.partial_json === 'string') {
          const tool = tools.get(typeof data.index === 'number' ? data.index : -1);
          if (tool) tool.json += delta.partial_json;
        }
        // thinking_delta / signature_delta: reasoning is not part of the reply.
        break;
      }
      case 'content_block_stop': {
        const index = typeof data.index === 'number' ? data.index : -1;
        const tool = tools.get(index);
        if (tool) {
          tools.delete(index);
          const initial = isRecord(tool.initial) && Object.keys(tool.initial).length ? JSON.stringify(tool.initial) : '{}';
          yield { type: 'tool-call', call: { id: tool.id, name: tool.name, arguments: tool.json || initial } };
        }
        break;
      }
      case 'message_delta':
        if (isRecord(data.delta) && typeof data.delta.stop_reason === 'string') stop = data.delta.stop_reason;
        usage.merge(data.usage);
        break;
      case 'message_stop': {
        const report = usage.report();
        if (report) yield { type: 'usage', usage: report };
        yield stop === undefined ? { type: 'done', stopReason: stopReason(stop) } : { type: 'done', stopReason: stopReason(stop), rawStopReason: stop };
        return;
      }
      case 'error':
        throw classifyStreamError(parseServerError(event.data), label, model, apiKey);
      default:
        // `ping` and event types added after this was written.
        break;
    }
  }
}

export class AnthropicProvider extends HttpChatProvider {
  readonly id = 'anthropic' as const;
  protected readonly modelsPath = '/v1/models?limit=1000';

  constructor(options: AnthropicProviderOptions = {}) {
    super((options.baseUrl?.trim() || ANTHROPIC_DEFAULT_URL).replace(/\/+$/, '').replace(/\/v1$/, ''), options);
  }

  protected label(): ProviderLabel {
    return this.baseUrl === ANTHROPIC_DEFAULT_URL
      ? { name: 'Anthropic', connectionHint: 'Check your internet connection.', usesKey: true }
      : { name: `the Anthropic-compatible server at ${this.baseUrl}`, connectionHint: 'Is the server running, and is the base URL in the plugin settings right?', usesKey: true };
  }

  protected headers(apiKey: string | undefined, json: boolean): Record<string, string> {
    const headers: Record<string, string> = {
      'anthropic-version': ANTHROPIC_VERSION,
      // Required for requests from a browser context (Obsidian is one); without it the API
      // refuses the CORS preflight.
      'anthropic-dangerous-direct-browser-access': 'true',
    };
    if (json) headers['content-type'] = 'application/json';
    if (apiKey) headers['x-api-key'] = apiKey;
    return headers;
  }

  protected chat(request: ChatRequest): { path: string; body: unknown } {
    return { path: '/v1/messages', body: anthropicBody(request) };
  }

  protected decode(chunks: AsyncIterable<string>, label: ProviderLabel, model: string, apiKey: string | undefined): AsyncIterable<DecodedEvent> {
    return decodeAnthropic(chunks, label, model, apiKey);
  }

  protected modelNames(json: unknown): string[] {
    const data = isRecord(json) && Array.isArray(json.data) ? json.data : [];
    return data.flatMap((m) => (isRecord(m) && typeof m.id === 'string' ? [m.id] : []));
  }
}
