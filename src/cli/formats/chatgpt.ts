// ChatGPT data export: `conversations.json`, an array of conversations, each a `mapping` tree of
// nodes ({id, message, parent, children}). The conversation as the user last saw it is the branch
// from `current_node` up through `parent` to the root, reversed. Hidden nodes, empty system
// messages and the model's private reasoning are skipped; `create_time` is in seconds.
// An assistant message addressed to a tool (`recipient` other than "all": python, web, dalle …)
// becomes a tool call, and the `tool` messages that follow become its results.
import type { AssistantMessage, ChatMessage, ImageAttachment, ToolCall } from '../../core';
import { type Conversation, type Json, MessageFormatError, expectObject, imageFrom, isObject, joinText, optionalString, secondsToMs } from './types';

export function fromChatGPTExport(data: unknown): Conversation[] {
  const list = Array.isArray(data) ? data : [data];
  const base = Array.isArray(data) ? (i: number): string => `$[${i}]` : (): string => '$';
  return list.map((item, i) => conversationOf(expectObject(item, base(i)), base(i), i));
}

function conversationOf(obj: Json, path: string, index: number): Conversation {
  const id = optionalString(obj, 'conversation_id', path) ?? optionalString(obj, 'id', path) ?? `conversation-${index + 1}`;
  const title = optionalString(obj, 'title', path) ?? '';
  const mapping = expectObject(obj.mapping, `${path}.mapping`);
  const nodes = branchOf(mapping, optionalString(obj, 'current_node', path), `${path}.mapping`);
  const messages: ChatMessage[] = [];
  let pending: ToolCall | null = null;
  let model = optionalString(obj, 'default_model_slug', path);
  for (const { key, node } of nodes) {
    const npath = `${path}.mapping[${JSON.stringify(key)}].message`;
    if (node.message === null || node.message === undefined) continue;
    const message = expectObject(node.message, npath);
    const metadata = isObject(message.metadata) ? message.metadata : {};
    if (metadata.is_visually_hidden_from_conversation === true) continue;
    const author = expectObject(message.author, `${npath}.author`);
    const role = author.role;
    const messageId = optionalString(message, 'id', npath) ?? key;
    const createdAt = secondsToMs(message.create_time);
    const { text, images, skip } = contentOf(message.content, `${npath}.content`);
    if (skip) continue;
    const recipient = typeof message.recipient === 'string' ? message.recipient : 'all';
    if (typeof metadata.model_slug === 'string' && !model) model = metadata.model_slug;
    switch (role) {
      case 'system':
        if (!text.trim()) continue;
        messages.push({ id: messageId, createdAt, role: 'system', content: text });
        break;
      case 'user':
        if (!text.trim() && !images.length) continue;
        messages.push(images.length ? { id: messageId, createdAt, role: 'user', content: text, images } : { id: messageId, createdAt, role: 'user', content: text });
        break;
      case 'assistant': {
        if (recipient !== 'all') {
          // Code for the python tool, a search query … addressed to a tool: a tool call.
          pending = { id: `call-${messageId}`, name: recipient, arguments: isJsonObject(text) ? text : JSON.stringify({ input: text }) };
          const call: AssistantMessage = { id: messageId, createdAt, role: 'assistant', content: '', toolCalls: [pending] };
          messages.push(call);
          break;
        }
        if (!text.trim()) continue;
        messages.push({ id: messageId, createdAt, role: 'assistant', content: text });
        break;
      }
      case 'tool': {
        const name = optionalString(author, 'name', `${npath}.author`) ?? 'tool';
        if (!text.trim() && !pending) continue;
        // A result answers the call addressed to its tool; one without a call (a tool speaking on
        // its own, e.g. a browsing display) stays an orphan result, which the core keeps as its own unit.
        const toolCallId = pending ? pending.id : `orphan-${messageId}`;
        pending = null;
        messages.push({ id: messageId, createdAt, role: 'tool', toolCallId, name, content: text });
        break;
      }
      default:
        throw new MessageFormatError(`${npath}.author.role`, `unknown role ${JSON.stringify(role)} (expected one of system, user, assistant, tool)`);
    }
  }
  const conversation: Conversation = { id, title, messages };
  if (model) conversation.model = model;
  return conversation;
}

/** The nodes from the root to `current` (or, without it, to the newest leaf). */
function branchOf(mapping: Json, current: string | undefined, path: string): { key: string; node: Json }[] {
  const keys = Object.keys(mapping);
  if (!keys.length) return [];
  let at = current;
  if (at === undefined || !(at in mapping)) {
    if (current !== undefined) throw new MessageFormatError(`${path}`, `current_node ${JSON.stringify(current)} is not in the mapping`);
    // No current node: the last leaf (exports list nodes in creation order).
    at = [...keys].reverse().find((k) => {
      const node = mapping[k];
      return isObject(node) && (!Array.isArray(node.children) || node.children.length === 0);
    });
  }
  const out: { key: string; node: Json }[] = [];
  const seen = new Set<string>();
  while (at !== undefined && !seen.has(at)) {
    seen.add(at);
    const node = expectObject(mapping[at], `${path}[${JSON.stringify(at)}]`);
    out.push({ key: at, node });
    at = typeof node.parent === 'string' && node.parent in mapping ? node.parent : undefined;
  }
  return out.reverse();
}

function isJsonObject(text: string): boolean {
  try {
    return isObject(JSON.parse(text));
  } catch {
    return false;
  }
}

/** Text and images of a message's content, by `content_type`; `skip` for private reasoning. */
function contentOf(value: unknown, path: string): { text: string; images: ImageAttachment[]; skip: boolean } {
  const images: ImageAttachment[] = [];
  if (!isObject(value)) return { text: '', images, skip: false };
  const type = value.content_type;
  switch (type) {
    case 'thoughts':
    case 'reasoning_recap':
    case 'model_editable_context':
      return { text: '', images, skip: true };
    case 'user_editable_context': {
      // Custom instructions: sent as a system message.
      const text = joinText([optionalString(value, 'user_profile', path) ?? '', optionalString(value, 'user_instructions', path) ?? '']);
      return { text, images, skip: false };
    }
    default:
      break;
  }
  const texts: string[] = [];
  if (Array.isArray(value.parts)) {
    value.parts.forEach((part, k) => {
      if (typeof part === 'string') texts.push(part);
      else if (isObject(part) && part.content_type === 'image_asset_pointer') {
        images.push(imageFrom(optionalString(part, 'asset_pointer', `${path}.parts[${k}]`), 'image/*'));
      } else if (isObject(part) && typeof part.text === 'string') texts.push(part.text);
    });
  } else {
    // code, execution_output, tether_quote, tether_browsing_display, system_error …
    const title = optionalString(value, 'title', path);
    const url = optionalString(value, 'url', path);
    for (const key of ['text', 'result', 'summary']) {
      const s = value[key];
      if (typeof s === 'string' && s) texts.push(s);
    }
    if (title || url) texts.unshift([title, url].filter(Boolean).join(' — '));
  }
  return { text: joinText(texts), images, skip: false };
}
