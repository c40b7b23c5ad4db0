// Token cost of whole messages and tool definitions, on top of the text estimator. The overheads
// stand for the framing every chat format adds (role markers, separators, tool-call wrappers);
// they are small, fixed, and chosen to round up, because an under-count is what overflows a window.
import type { ChatMessage, ToolDefinition } from './messages';
import { estimateTokens } from './tokens';

/** Role marker and separators around every message (OpenAI's format costs 3–4, Anthropic's similar). */
export const MESSAGE_OVERHEAD_TOKENS = 4;
/** Wrapper of one tool call: type tag, the JSON object around name and arguments. */
export const TOOL_CALL_OVERHEAD_TOKENS = 8;
/** Wrapper of one tool result: type tag and the id of the call it answers. */
export const TOOL_RESULT_OVERHEAD_TOKENS = 6;
/** One image at the size providers scale to (Anthropic: ≈1,600 for 1.15 megapixels; OpenAI high
 * detail ≤ 1,105 for 1024×1024 tiles). The bytes are never looked at. */
export const IMAGE_TOKENS = 1600;
/** Priming every request pays once (the assistant turn the reply is written into). */
export const REQUEST_OVERHEAD_TOKENS = 3;
/** Wrapper of one tool definition in the tools list. */
export const TOOL_DEFINITION_OVERHEAD_TOKENS = 8;

/**
 * Estimated tokens of a tool-call id, from its length alone. Ids are opaque and minted from the
 * clock or at random (Ollama's local ids hold Date.now in base 36, other providers' are random), so
 * reading their characters made the count, and with it when compaction fires and what the block
 * holds, depend on the moment a reply arrived. Random alphanumerics cost about a token per two
 * characters, so this rounds up as the overheads do.
 */
export function estimateIdTokens(id: string): number {
  return id ? Math.ceil(id.length / 2) : 0;
}

/** Estimated tokens one message adds to a prompt: text, tool calls, tool-result framing, images. */
export function estimateMessageTokens(message: ChatMessage, model?: string): number {
  let total = MESSAGE_OVERHEAD_TOKENS + estimateTokens(message.content, model);
  switch (message.role) {
    case 'assistant':
      for (const call of message.toolCalls ?? []) {
        total +=
          TOOL_CALL_OVERHEAD_TOKENS +
          estimateIdTokens(call.id) +
          estimateTokens(call.name, model) +
          estimateTokens(call.arguments, model);
      }
      break;
    case 'tool':
      total += TOOL_RESULT_OVERHEAD_TOKENS + estimateIdTokens(message.toolCallId);
      break;
    case 'user':
      total += (message.images?.length ?? 0) * IMAGE_TOKENS;
      break;
    case 'system':
      break;
  }
  return total;
}

/** Estimated tokens of the tools list sent with a request. */
export function estimateToolDefinitionsTokens(tools: readonly ToolDefinition[], model?: string): number {
  let total = 0;
  for (const tool of tools) total += TOOL_DEFINITION_OVERHEAD_TOKENS + estimateTokens(JSON.stringify(tool), model);
  return total;
}

/** Estimated tokens of a system prompt (0 when there is none: no system message is sent then). */
export function estimateSystemPromptTokens(systemPrompt: string, model?: string): number {
  return systemPrompt ? MESSAGE_OVERHEAD_TOKENS + estimateTokens(systemPrompt, model) : 0;
}

/** Full, non-incremental estimate of a request: what the tracker's running total must equal. */
export function estimatePromptTokens(
  request: { systemPrompt: string; messages: readonly ChatMessage[]; tools?: readonly ToolDefinition[] },
  model?: string,
): number {
  let total = REQUEST_OVERHEAD_TOKENS + estimateSystemPromptTokens(request.systemPrompt, model);
  total += estimateToolDefinitionsTokens(request.tools ?? [], model);
  for (const message of request.messages) total += estimateMessageTokens(message, model);
  return total;
}
