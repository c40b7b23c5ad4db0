// OpenAI chat messages: `[{role, content, tool_calls}, …]` or a request body `{model, messages}`.
// Content is a string, null, or an array of parts (text, image_url, refusal …); `developer` is the
// newer name of `system`; the legacy `function_call` / role `function` pair becomes a tool call and
// its result. OpenAI messages carry no times: they stay 0 (unknown).
import type { AssistantMessage, ChatMessage, ImageAttachment, ToolCall } from '../../core';
import { type Conversation, type Json, MessageFormatError, describe, expectArray, expectObject, imageFrom, isObject, joinText, optionalString } from './types';

export interface MessagesArrayOptions {
  id?: string;
  title?: string;
}

export function fromOpenAI(data: unknown, options: MessagesArrayOptions = {}): Conversation[] {
  let list: unknown[];
  let base = '$';
  let model: string | undefined;
  if (isObject(data)) {
    base = '$.messages';
    list = expectArray(data.messages, base);
    model = optionalString(data, 'model', '$');
  } else {
    list = expectArray(data, '$');
  }
  const messages = openAIMessages(list, base);
  const conversation: Conversation = { id: options.id ?? 'conversation', title: options.title ?? '', messages };
  if (model) conversation.model = model;
  return [conversation];
}

export function openAIMessages(list: readonly unknown[], base: string): ChatMessage[] {
  const out: ChatMessage[] = [];
  const ids = new Set<string>();
  let legacyCalls = 0;
  /** The id of the latest legacy `function_call`, answered by the next role `function` message. */
  let pendingFunction: string | null = null;
  list.forEach((item, i) => {
    const path = `${base}[${i}]`;
    const obj = expectObject(item, path);
    const given = optionalIdOf(obj);
    const id = given !== undefined && !ids.has(given) ? given : uniqueId(`m${i + 1}`, ids);
    ids.add(id);
    const role = obj.role;
    const { text, images } = contentOf(obj.content, `${path}.content`);
    switch (role) {
      case 'system':
      case 'developer':
        out.push({ id, createdAt: 0, role: 'system', content: text });
        return;
      case 'user': {
        out.push(images.length ? { id, createdAt: 0, role: 'user', content: text, images } : { id, createdAt: 0, role: 'user', content: text });
        return;
      }
      case 'assistant': {
        const refusal = optionalString(obj, 'refusal', path);
        const message: AssistantMessage = { id, createdAt: 0, role: 'assistant', content: text || refusal || '' };
        const calls: ToolCall[] = [];
        if (obj.tool_calls !== undefined && obj.tool_calls !== null) {
          expectArray(obj.tool_calls, `${path}.tool_calls`).forEach((raw, j) => calls.push(toolCallOf(raw, `${path}.tool_calls[${j}]`)));
        }
        if (isObject(obj.function_call)) {
          const fpath = `${path}.function_call`;
          legacyCalls += 1;
          pendingFunction = `call-legacy-${legacyCalls}`;
          calls.push({ id: pendingFunction, name: requiredString(obj.function_call, 'name', fpath), arguments: argumentsOf(obj.function_call.arguments) });
        }
        if (calls.length) message.toolCalls = calls;
        out.push(message);
        return;
      }
      case 'tool': {
        const toolCallId = obj.tool_call_id;
        if (typeof toolCallId !== 'string' || !toolCallId) {
          throw new MessageFormatError(`${path}.tool_call_id`, 'is missing (a tool message must name the call it answers)');
        }
        const name = optionalString(obj, 'name', path);
        out.push({ id, createdAt: 0, role: 'tool', toolCallId, content: text, ...(name ? { name } : {}) });
        return;
      }
      case 'function': {
        const name = optionalString(obj, 'name', path);
        legacyCalls += pendingFunction ? 0 : 1;
        const toolCallId = pendingFunction ?? `call-legacy-${legacyCalls}`;
        pendingFunction = null;
        out.push({ id, createdAt: 0, role: 'tool', toolCallId, content: text, ...(name ? { name } : {}) });
        return;
      }
      default:
        throw new MessageFormatError(
          `${path}.role`,
          `unknown role ${JSON.stringify(role)} (expected one of system, developer, user, assistant, tool, function)`,
        );
    }
  });
  return out;
}

function optionalIdOf(obj: Json): string | undefined {
  return typeof obj.id === 'string' && obj.id ? obj.id : undefined;
}

function uniqueId(candidate: string, ids: ReadonlySet<string>): string {
  let id = candidate;
  for (let k = 2; ids.has(id); k++) id = `${candidate}-${k}`;
  return id;
}

function requiredString(obj: Json, key: string, path: string): string {
  const value = optionalString(obj, key, path);
  if (value === undefined) throw new MessageFormatError(`${path}.${key}`, 'is missing');
  return value;
}

/** Tool-call arguments are a JSON string in OpenAI's format; an object (some exports) is kept as its JSON. */
function argumentsOf(value: unknown): string {
  if (typeof value === 'string') return value;
  return JSON.stringify(value ?? {});
}

function toolCallOf(raw: unknown, path: string): ToolCall {
  const call = expectObject(raw, path);
  const id = requiredString(call, 'id', path);
  const fn = call.function;
  if (isObject(fn)) return { id, name: requiredString(fn, 'name', `${path}.function`), arguments: argumentsOf(fn.arguments) };
  // A custom tool call (`{type: 'custom', custom: {name, input}}`).
  if (isObject(call.custom)) {
    return { id, name: requiredString(call.custom, 'name', `${path}.custom`), arguments: argumentsOf(call.custom.input) };
  }
  throw new MessageFormatError(`${path}.function`, `must be an object with name and arguments, got ${describe(fn)}`);
}

/** The text and images of a `content` field: a string, null, or an array of parts. */
function contentOf(value: unknown, path: string): { text: string; images: ImageAttachment[] } {
  const images: ImageAttachment[] = [];
  if (value === undefined || value === null) return { text: '', images };
  if (typeof value === 'string') return { text: value, images };
  const parts = expectArray(value, path);
  const texts: string[] = [];
  parts.forEach((raw, k) => {
    const ppath = `${path}[${k}]`;
    if (typeof raw === 'string') {
      texts.push(raw);
      return;
    }
    const part = expectObject(raw, ppath);
    switch (part.type) {
      case 'text':
      case 'input_text':
      case 'output_text':
        texts.push(optionalString(part, 'text', ppath) ?? '');
        return;
      case 'refusal':
        texts.push(optionalString(part, 'refusal', ppath) ?? '');
        return;
      case 'image_url': {
        const url = typeof part.image_url === 'string' ? part.image_url : isObject(part.image_url) ? optionalString(part.image_url, 'url', `${ppath}.image_url`) : undefined;
        images.push(imageFrom(url));
        return;
      }
      case 'file': {
        const name = isObject(part.file) ? optionalString(part.file, 'filename', `${ppath}.file`) : undefined;
        texts.push(`[file${name ? `: ${name}` : ''}]`);
        return;
      }
      default:
        // Audio and parts of newer types carry nothing the compactor reads.
        return;
    }
  });
  return { text: joinText(texts), images };
}
