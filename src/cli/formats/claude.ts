// Claude.ai data export: `conversations.json`, an array of conversations with `chat_messages`
// (`sender` human / assistant, `text` and/or `content` blocks, `created_at` ISO times, attachments
// with their extracted text). Where messages name their parent and the conversation its current
// leaf, the current branch is followed; otherwise the messages are taken in order.
import type { ChatMessage, ImageAttachment } from '../../core';
import { convertTurn } from './anthropic';
import { type Conversation, type Json, MessageFormatError, expectArray, expectObject, imageFrom, isImageName, isObject, isoToMs, optionalString } from './types';

export function fromClaudeExport(data: unknown): Conversation[] {
  const list = Array.isArray(data) ? data : [data];
  const base = Array.isArray(data) ? (i: number): string => `$[${i}]` : (): string => '$';
  return list.map((item, i) => conversationOf(expectObject(item, base(i)), base(i), i));
}

function conversationOf(obj: Json, path: string, index: number): Conversation {
  const id = optionalString(obj, 'uuid', path) ?? optionalString(obj, 'id', path) ?? `conversation-${index + 1}`;
  const title = optionalString(obj, 'name', path) ?? '';
  const raw = expectArray(obj.chat_messages, `${path}.chat_messages`).map((m, k) => ({ obj: expectObject(m, `${path}.chat_messages[${k}]`), k }));
  const leaf = optionalString(obj, 'current_leaf_message_uuid', path);
  const branch = currentBranch(raw, leaf);
  const messages: ChatMessage[] = [];
  for (const { obj: m, k } of branch) messages.push(...messageOf(m, `${path}.chat_messages[${k}]`, `${id}-${k + 1}`));
  const conversation: Conversation = { id, title, messages };
  const model = optionalString(obj, 'model', path);
  if (model) conversation.model = model;
  return conversation;
}

type Raw = { obj: Json; k: number };

/** The messages on the current branch, oldest first. Linear exports (no parent links) as they are. */
function currentBranch(raw: readonly Raw[], leaf: string | undefined): readonly Raw[] {
  const byId = new Map<string, Raw>();
  for (const r of raw) if (typeof r.obj.uuid === 'string') byId.set(r.obj.uuid, r);
  const linked = raw.length > 0 && raw.every((r) => typeof r.obj.parent_message_uuid === 'string');
  if (!linked) return raw;
  const parents = raw.map((r) => r.obj.parent_message_uuid as string);
  const branched = new Set(parents).size < parents.length;
  if (!branched && !leaf) return raw;
  let at = (leaf !== undefined ? byId.get(leaf) : undefined) ?? raw[raw.length - 1];
  const out: Raw[] = [];
  const seen = new Set<Raw>();
  while (at && !seen.has(at)) {
    seen.add(at);
    out.push(at);
    at = byId.get(at.obj.parent_message_uuid as string);
  }
  return out.reverse();
}

function messageOf(m: Json, path: string, fallbackId: string): ChatMessage[] {
  const sender = m.sender;
  const role = sender === 'human' ? 'user' : sender === 'assistant' ? 'assistant' : null;
  if (!role) throw new MessageFormatError(`${path}.sender`, `unknown sender ${JSON.stringify(sender)} (expected human or assistant)`);
  const id = optionalString(m, 'uuid', path) ?? fallbackId;
  const createdAt = isoToMs(m.created_at);
  const extraText: string[] = [];
  const images: ImageAttachment[] = [];
  if (m.attachments !== undefined && m.attachments !== null) {
    expectArray(m.attachments, `${path}.attachments`).forEach((raw, k) => {
      const a = expectObject(raw, `${path}.attachments[${k}]`);
      const name = optionalString(a, 'file_name', `${path}.attachments[${k}]`) ?? 'attachment';
      const text = optionalString(a, 'extracted_content', `${path}.attachments[${k}]`) ?? '';
      extraText.push(text ? `[attachment: ${name}]\n${text}` : `[attachment: ${name}]`);
    });
  }
  const files = m.files ?? m.files_v2;
  if (Array.isArray(files)) {
    files.forEach((raw, k) => {
      const name = isObject(raw) ? optionalString(raw, 'file_name', `${path}.files[${k}]`) : undefined;
      if (name && isImageName(name)) images.push(imageFrom(name));
      else if (name) extraText.push(`[file: ${name}]`);
    });
  }
  const blocks = Array.isArray(m.content) && m.content.length > 0 ? m.content : (optionalString(m, 'text', path) ?? '');
  const contentPath = Array.isArray(m.content) && m.content.length > 0 ? `${path}.content` : `${path}.text`;
  if (role === 'assistant') return convertTurn(role, blocks, contentPath, id, createdAt);
  return convertTurn(role, blocks, contentPath, id, createdAt, extraText, images);
}
