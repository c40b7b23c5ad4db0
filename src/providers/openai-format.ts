// The request body for OpenAI-compatible /chat/completions: the system prompt as the first
// message, assistant `tool_calls` with arguments as the model's raw JSON text (the API takes a
// string, so even invalid JSON round-trips unchanged), results as role "tool" with `tool_call_id`.
import type { ChatRequest } from './types';
import { pairTurns } from './pairing';
import { objectSchema, resultText } from './tool-format';

type OpenAIMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export function openaiMessages(request: ChatRequest): OpenAIMessage[] {
  const out: OpenAIMessage[] = [];
  if (request.systemPrompt) out.push({ role: 'system', content: request.systemPrompt });
  for (const turn of pairTurns(request.messages)) {
    switch (turn.kind) {
      case 'system':
      case 'user':
        out.push({ role: turn.kind, content: turn.text });
        break;
      case 'assistant':
        if (turn.calls.length) {
          out.push({
            role: 'assistant',
            // null rather than "" next to tool calls: some compatible servers reject an empty string.
            content: turn.text || null,
            tool_calls: turn.calls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } })),
          });
        } else {
          out.push({ role: 'assistant', content: turn.text });
        }
        break;
      case 'tool-results':
        for (const result of turn.results) {
          out.push({ role: 'tool', tool_call_id: result.call.id, content: resultText(result.content, result.isError) });
        }
        break;
    }
  }
  return out;
}

export interface OpenAIBodyOptions {
  /** OpenAI's own API wants `max_completion_tokens` (its reasoning models reject `max_tokens`);
   * most compatible servers only know `max_tokens`. */
  maxTokensField: 'max_tokens' | 'max_completion_tokens';
  /** `stream_options.include_usage`: the usage chunk the tracker anchors on. */
  includeUsage: boolean;
}

export function openaiBody(request: ChatRequest, options: OpenAIBodyOptions): Record<string, unknown> {
  const body: Record<string, unknown> = {
    model: request.model,
    messages: openaiMessages(request),
    stream: true,
  };
  if (options.includeUsage) body.stream_options = { include_usage: true };
  if (request.tools?.length) {
    body.tools = request.tools.map((tool) => ({
      type: 'function',
      function: { name: tool.name, description: tool.description, parameters: objectSchema(tool.parameters) },
    }));
  }
  if (request.maxOutputTokens !== undefined) body[options.maxTokensField] = request.maxOutputTokens;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  return body;
}
