// Format detection and dispatch. Detection looks only at the shape of the parsed JSON (never at
// the file name); `--from` overrides it.
import { fromAnthropic } from './anthropic';
import { fromChatGPTExport } from './chatgpt';
import { fromClaudeExport } from './claude';
import { fromOpenAI } from './openai';
import { fromPluginNote } from './plugin';
import { type Conversation, FORMATS, type FormatId, isObject, withUniqueIds } from './types';

export { FORMATS, type Conversation, type FormatId } from './types';
export { fromAnthropic, fromChatGPTExport, fromClaudeExport, fromOpenAI, fromPluginNote };

export function isFormatId(value: string): value is FormatId {
  return FORMATS.some((f) => f.id === value);
}

export function knownFormatsText(): string {
  return FORMATS.map((f) => `  ${f.id.padEnd(10)} ${f.description}`).join('\n');
}

export function convert(format: FormatId, data: unknown, options: { id?: string; title?: string } = {}): Conversation[] {
  return withUniqueIds(convertRaw(format, data, options));
}

function convertRaw(format: FormatId, data: unknown, options: { id?: string; title?: string }): Conversation[] {
  switch (format) {
    case 'openai':
      return fromOpenAI(data, options);
    case 'anthropic':
      return fromAnthropic(data, options);
    case 'chatgpt':
      return fromChatGPTExport(data);
    case 'claude':
      return fromClaudeExport(data);
    case 'plugin':
      // The only format that is not JSON: `data` is the note's text.
      return fromPluginNote(typeof data === 'string' ? data : '');
  }
}

/** OpenAI-only marks: roles and fields the Anthropic format does not have. */
const OPENAI_ROLES = new Set(['system', 'developer', 'tool', 'function']);
const OPENAI_PARTS = new Set(['image_url', 'input_audio', 'refusal', 'file', 'input_text', 'output_text']);
const ANTHROPIC_BLOCKS = new Set(['tool_use', 'tool_result', 'image', 'thinking', 'redacted_thinking', 'document', 'server_tool_use', 'web_search_tool_result']);

/** Which format a parsed JSON value is, or null when its shape matches none. */
export function detectFormat(data: unknown): Exclude<FormatId, 'plugin'> | null {
  const items = Array.isArray(data) ? data : [data];
  const first = items.find(isObject);
  if (!first) return null;
  if (isObject(first.mapping)) return 'chatgpt';
  if (Array.isArray(first.chat_messages)) return 'claude';
  let messages: unknown[];
  if (!Array.isArray(data)) {
    if (!Array.isArray(first.messages)) return null;
    messages = first.messages;
    // A top-level `system` is Anthropic's request shape.
    if (first.system !== undefined) return 'anthropic';
  } else {
    messages = items;
  }
  const objects = messages.filter(isObject);
  if (!objects.length || !objects.every((m) => typeof m.role === 'string')) return null;
  let anthropic = 0;
  let openai = 0;
  for (const m of objects) {
    if (OPENAI_ROLES.has(m.role as string) || m.tool_calls !== undefined || m.function_call !== undefined || m.tool_call_id !== undefined) openai++;
    if (Array.isArray(m.content)) {
      for (const part of m.content) {
        if (!isObject(part) || typeof part.type !== 'string') continue;
        if (ANTHROPIC_BLOCKS.has(part.type)) anthropic++;
        if (OPENAI_PARTS.has(part.type)) openai++;
      }
    }
  }
  // Plain text turns read the same either way; OpenAI is the more common file.
  return anthropic > openai ? 'anthropic' : 'openai';
}
