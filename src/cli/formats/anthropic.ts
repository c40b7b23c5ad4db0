// Anthropic Messages: `[{role, content}, …]` or a request body `{model, system, messages}`. Content
// is a string or blocks: text; image; tool_use (→ a tool call, input as JSON text); tool_result
// blocks inside a user turn (→ separate tool messages, before what the user wrote); thinking
// blocks are not sent back to the model and are skipped. No times in this format: they stay 0.
import type { AssistantMessage, ChatMessage, ImageAttachment, ToolCall } from '../../core';
import type { MessagesArrayOptions } from './openai';
import { type Conversation, type Json, MessageFormatError, expectArray, expectObject, imageFrom, isObject, joinText, optionalString } from './types';

export function fromAnthropic(data: unknown, options: MessagesArrayOptions = {}): Conversation[] {
  const messages: ChatMessage[] = [];
  let list: unknown[];
  let base = '$';
  let model: string | undefined;
  if (isObject(data)) {
    base = '$.messages';
    list = expectArray(data.messages, base);
    model = optionalString(data, 'model', '$');
    const system = blocksText(data.system, '$.system');
    if (system) messages.push({ id: 'system', createdAt: 0, role: 'system', content: system });
  } else {
    list = expectArray(data, '$');
  }
  messages.push(...anthropicMessages(list, base));
  const conversation: Conversation = { id: options.id ?? 'conversation', title: options.title ?? '', messages };
  if (model) conversation.model = model;
  return [conversation];
}

/** Converts one list of Anthropic messages; `idOf` names each turn's first message. */
export function anthropicMessages(list: readonly unknown[], base: string, idOf: (i: number, obj: Json) => string = (i) => `m${i + 1}`): ChatMessage[] {
  const out: ChatMessage[] = [];
  list.forEach((item, i) => {
    const path = `${base}[${i}]`;
    const obj = expectObject(item, path);
    const role = obj.role;
    if (role !== 'user' && role !== 'assistant' && role !== 'system') {
      throw new MessageFormatError(`${path}.role`, `unknown role ${JSON.stringify(role)} (expected user or assistant)`);
    }
    out.push(...convertTurn(role, obj.content, `${path}.content`, idOf(i, obj), 0));
  });
  return out;
}

/**
 * One turn's content (a string or blocks) as core messages. An assistant turn is split where a
 * tool result sits inside it (Claude.ai's server-side tools): the calls before, the results, then
 * the text after. A user turn yields its tool results first, then what the user wrote.
 */
export function convertTurn(role: 'user' | 'assistant' | 'system', content: unknown, path: string, id: string, createdAt: number, extraText: readonly string[] = [], extraImages: readonly ImageAttachment[] = []): ChatMessage[] {
  const out: ChatMessage[] = [];
  let texts: string[] = [];
  let calls: ToolCall[] = [];
  const images: ImageAttachment[] = [...extraImages];
  let part = 0;
  const nextId = (): string => (part++ === 0 ? id : `${id}-${part}`);
  const flushAssistant = (): void => {
    if (!texts.length && !calls.length) return;
    const message: AssistantMessage = { id: nextId(), createdAt, role: 'assistant', content: joinText(texts) };
    if (calls.length) message.toolCalls = calls;
    out.push(message);
    texts = [];
    calls = [];
  };
  /** Claude.ai exports may omit tool_use ids: results are then paired with calls in order. */
  const unanswered: ToolCall[] = [];
  let generatedCalls = 0;

  const blocks: unknown[] = typeof content === 'string' ? [{ type: 'text', text: content }] : content === undefined || content === null ? [] : expectArray(content, path);
  blocks.forEach((raw, k) => {
    const bpath = `${path}[${k}]`;
    if (typeof raw === 'string') {
      texts.push(raw);
      return;
    }
    const block = expectObject(raw, bpath);
    switch (block.type) {
      case 'text':
        texts.push(optionalString(block, 'text', bpath) ?? '');
        return;
      case 'image':
        images.push(imageOf(block, bpath));
        return;
      case 'document': {
        const title = optionalString(block, 'title', bpath);
        const source = isObject(block.source) ? block.source : {};
        const data = source.type === 'text' && typeof source.data === 'string' ? source.data : '';
        texts.push(joinText([`[document${title ? `: ${title}` : ''}]`, data]));
        return;
      }
      case 'tool_use':
      case 'server_tool_use': {
        const given = optionalString(block, 'id', bpath);
        generatedCalls += given ? 0 : 1;
        const call: ToolCall = {
          id: given ?? `${id}-call-${generatedCalls}`,
          name: optionalString(block, 'name', bpath) ?? 'tool',
          arguments: typeof block.input === 'string' ? block.input : JSON.stringify(block.input ?? {}),
        };
        if (role !== 'assistant') throw new MessageFormatError(`${bpath}.type`, `a ${role} turn cannot hold a tool_use block`);
        calls.push(call);
        unanswered.push(call);
        return;
      }
      case 'tool_result':
      case 'web_search_tool_result': {
        if (role === 'assistant') flushAssistant();
        const given = optionalString(block, 'tool_use_id', bpath);
        const name = optionalString(block, 'name', bpath);
        let callId = given;
        if (callId === undefined) {
          const index = unanswered.findIndex((c) => name === undefined || c.name === name);
          callId = index >= 0 ? (unanswered.splice(index, 1)[0] as ToolCall).id : `${id}-result-${k + 1}`;
        } else {
          const index = unanswered.findIndex((c) => c.id === callId);
          if (index >= 0) unanswered.splice(index, 1);
        }
        const isError = block.is_error === true;
        out.push({
          id: nextId(),
          createdAt,
          role: 'tool',
          toolCallId: callId,
          content: resultText(block.content, `${bpath}.content`),
          ...(name ? { name } : {}),
          ...(isError ? { isError } : {}),
        });
        return;
      }
      case 'thinking':
      case 'redacted_thinking':
        return;
      default:
        // Blocks of newer types (citations, containers …) carry nothing the compactor reads.
        return;
    }
  });
  texts.push(...extraText);
  if (role === 'assistant') flushAssistant();
  else if (texts.some((t) => t) || images.length || !out.length) {
    const content = joinText(texts);
    if (role === 'system') out.push({ id: nextId(), createdAt, role, content });
    else out.push(images.length ? { id: nextId(), createdAt, role, content, images } : { id: nextId(), createdAt, role, content });
  }
  if (!out.length) out.push({ id: nextId(), createdAt, role: 'assistant', content: '' });
  return out;
}

function imageOf(block: Json, path: string): ImageAttachment {
  const source = isObject(block.source) ? block.source : {};
  const mediaType = optionalString(source, 'media_type', `${path}.source`);
  const url = source.type === 'url' ? optionalString(source, 'url', `${path}.source`) : undefined;
  return imageFrom(url, mediaType);
}

/** A system prompt given as a string or as text blocks. */
function blocksText(value: unknown, path: string): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  return joinText(
    expectArray(value, path).map((raw, k) => {
      const block = expectObject(raw, `${path}[${k}]`);
      return optionalString(block, 'text', `${path}[${k}]`) ?? '';
    }),
  );
}

/** A tool result's content: a string, or blocks (text, search results, Claude.ai's "knowledge"). */
function resultText(value: unknown, path: string): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (!Array.isArray(value)) return JSON.stringify(value);
  return joinText(
    value.map((raw, k) => {
      if (typeof raw === 'string') return raw;
      const block = expectObject(raw, `${path}[${k}]`);
      const bpath = `${path}[${k}]`;
      if (block.type === 'image') return '[image]';
      const title = optionalString(block, 'title', bpath);
      const url = optionalString(block, 'url', bpath);
      const text = optionalString(block, 'text', bpath) ?? '';
      const head = [title, url].filter(Boolean).join(' — ');
      return head && text ? `${head}\n${text}` : head || text;
    }),
  );
}
