// Small conversions every protocol needs for tools.
import { parseToolArguments, type ToolCall } from '../core/messages';

/** Arguments as an object, for protocols that require one (Ollama, Anthropic). A model that
 * produced invalid or non-object JSON gets `{}`: the call still pairs with its result, and the
 * result usually already says the arguments were wrong. */
export function argumentsObject(call: ToolCall): Record<string, unknown> {
  return parseToolArguments(call) ?? {};
}

/** Every protocol wants an object schema at the top; a tool declared with `{}` gets an empty one. */
export function objectSchema(parameters: Record<string, unknown>): Record<string, unknown> {
  if (parameters.type !== undefined) return parameters;
  return { type: 'object', properties: {}, ...parameters };
}

/** Tool results that failed, for protocols without an error flag (OpenAI, Ollama). */
export function resultText(content: string, isError: boolean): string {
  return isError ? `Error: ${content}` : content;
}

/** Arguments streamed as an object by some servers are kept as JSON text, as ToolCall expects. */
export function argumentsText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '{}';
  return JSON.stringify(value);
}
