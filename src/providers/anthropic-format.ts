// The request body for Anthropic's Messages API. Its rules differ from the chat-completions
// family: the system prompt is a top-level field; tool calls are `tool_use` blocks in the assistant
// content and their results `tool_result` blocks in the *next user* message; roles must alternate
// (consecutive same-role messages are merged here); text blocks must not be empty; tool input
// must be an object.
import type { ChatRequest } from './types';
import { pairTurns } from './pairing';
import { argumentsObject, objectSchema } from './tool-format';

type Block =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }
  | { type: 'tool_result'; tool_use_id: string; content: string; is_error?: boolean };

export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: Block[];
}

/** Anthropic-compatible gateways (Bedrock-style) reject a conversation that opens with the
 * assistant, which a compacted conversation can; this neutral opener keeps it valid. */
export const CONTINUATION_OPENER = '(Continuing an earlier conversation.)';

/** Anthropic caps output per request and requires the field; 4096 is accepted by every Claude
 * model, and the chat layer passes its reply reserve when it has one. */
export const DEFAULT_MAX_TOKENS = 4096;

export function anthropicPayload(request: ChatRequest): { system: string; messages: AnthropicMessage[] } {
  const system: string[] = request.systemPrompt ? [request.systemPrompt] : [];
  const messages: AnthropicMessage[] = [];
  const push = (role: AnthropicMessage['role'], blocks: Block[]) => {
    if (!blocks.length) return;
    const last = messages[messages.length - 1];
    if (last && last.role === role) last.content.push(...blocks);
    else messages.push({ role, content: blocks });
  };
  const text = (value: string): Block[] => (value.trim() ? [{ type: 'text', text: value }] : []);

  for (const turn of pairTurns(request.messages)) {
    switch (turn.kind) {
      case 'system':
        // No system role inside `messages`: later system messages join the top-level prompt.
        if (turn.text.trim()) system.push(turn.text);
        break;
      case 'user':
        push('user', text(turn.text));
        break;
      case 'assistant':
        push('assistant', [
          ...text(turn.text),
          ...turn.calls.map((call): Block => ({ type: 'tool_use', id: call.id, name: call.name, input: argumentsObject(call) })),
        ]);
        break;
      case 'tool-results':
        push(
          'user',
          turn.results.map((result): Block => ({
            type: 'tool_result',
            tool_use_id: result.call.id,
            content: result.content || '(no output)',
            ...(result.isError ? { is_error: true } : {}),
          })),
        );
        break;
    }
  }
  for (const message of messages) {
    // The API wants tool_result blocks before any text in a user message.
    if (message.role === 'user') {
      message.content = [...message.content.filter((b) => b.type === 'tool_result'), ...message.content.filter((b) => b.type !== 'tool_result')];
    }
  }
  if (messages[0]?.role === 'assistant') messages.unshift({ role: 'user', content: [{ type: 'text', text: CONTINUATION_OPENER }] });
  // A final assistant message is a prefill, which may not end in whitespace.
  const last = messages[messages.length - 1];
  const tail = last?.role === 'assistant' ? last.content[last.content.length - 1] : undefined;
  if (tail?.type === 'text') tail.text = tail.text.trimEnd();
  return { system: system.join('\n\n'), messages };
}

export function anthropicBody(request: ChatRequest): Record<string, unknown> {
  const { system, messages } = anthropicPayload(request);
  const body: Record<string, unknown> = {
    model: request.model,
    max_tokens: request.maxOutputTokens ?? DEFAULT_MAX_TOKENS,
    messages,
    stream: true,
  };
  if (system) body.system = system;
  if (request.tools?.length) {
    body.tools = request.tools.map((tool) => ({ name: tool.name, description: tool.description, input_schema: objectSchema(tool.parameters) }));
  }
  if (request.temperature !== undefined) body.temperature = request.temperature;
  return body;
}
