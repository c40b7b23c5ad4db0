// A saved message's metadata (ids, exact times, tool call ids, how a reply ended …) to and from the
// JSON the note keeps it in, and the compaction record's checks. Shared by both formats' readers.
// Keys this version does not know are kept in `extra` and written back, so a note written by a newer
// version (or a feature that adds a flag) loses nothing when this one saves it.
import type { ChatMessage, ImageAttachment, ToolCall } from '../core/messages';
import { isCompactionRecord } from '../core/record';
import type { StopReason } from '../providers/types';
import type { SavedCompaction, SavedFailure, SavedMessage } from './conversation-types';
import { FormatError } from './note-text';

/** Everything about a message but its text and tool call arguments, as saved (unknown keys last). */
export function messageMeta(item: SavedMessage): Record<string, unknown> {
  const m = item.message;
  const meta: Record<string, unknown> = { id: m.id, createdAt: m.createdAt };
  if (m.role === 'user' && m.images) meta.images = m.images;
  if (m.role === 'assistant' && m.toolCalls) meta.toolCalls = m.toolCalls.map((c) => ({ id: c.id, name: c.name }));
  if (m.role === 'tool') {
    meta.toolCallId = m.toolCallId;
    if (m.name !== undefined) meta.name = m.name;
    if (m.isError !== undefined) meta.isError = m.isError;
  }
  if (item.mentions) meta.mentions = item.mentions;
  if (item.model !== undefined) meta.model = item.model;
  if (item.stopped || item.streaming) meta.stopped = true;
  if (item.stopReason !== undefined) meta.stopReason = item.stopReason;
  if (item.failure) meta.failure = item.failure;
  if (item.pinned) meta.pinned = true;
  for (const [key, value] of Object.entries(item.extra ?? {})) if (!(key in meta)) meta[key] = value;
  return meta;
}

/** The message a saved block describes; keys this version does not use go to `extra`. Tool call
 * arguments are filled in by the caller. */
export function buildMessage(role: ChatMessage['role'], meta: Record<string, unknown>, content: string, line: number): SavedMessage {
  const fail = (detail: string): never => {
    throw new FormatError(`The message's data line: ${detail}.`, line);
  };
  const used = new Set(['id', 'createdAt', 'mentions', 'model', 'stopped', 'stopReason', 'failure', 'pinned']);
  const str = (key: string, required: boolean): string | undefined => {
    const value = meta[key];
    if (value === undefined) return required ? fail(`"${key}" is missing`) : undefined;
    return typeof value === 'string' ? value : fail(`"${key}" must be a string`);
  };
  const id = str('id', true) as string;
  const createdAt = meta.createdAt;
  if (typeof createdAt !== 'number' || !Number.isFinite(createdAt)) fail('"createdAt" must be a number of milliseconds');
  const base = { id, createdAt: createdAt as number };
  let message: ChatMessage;
  switch (role) {
    case 'system':
      message = { ...base, role, content };
      break;
    case 'user': {
      message = { ...base, role, content };
      used.add('images');
      if (meta.images !== undefined) {
        if (!Array.isArray(meta.images) || !meta.images.every((x: unknown) => typeof (x as ImageAttachment | null)?.mediaType === 'string')) fail('"images" must be a list of images');
        message.images = meta.images as ImageAttachment[];
      }
      break;
    }
    case 'assistant': {
      message = { ...base, role, content };
      used.add('toolCalls');
      if (meta.toolCalls !== undefined) {
        if (!Array.isArray(meta.toolCalls)) fail('"toolCalls" must be a list');
        message.toolCalls = (meta.toolCalls as unknown[]).map((raw): ToolCall => {
          const call = raw as Partial<ToolCall> | null;
          if (typeof call?.id !== 'string' || typeof call.name !== 'string') fail('each tool call needs an "id" and a "name"');
          return { id: (call as ToolCall).id, name: (call as ToolCall).name, arguments: '' };
        });
      }
      break;
    }
    case 'tool': {
      message = { ...base, role, toolCallId: str('toolCallId', true) as string, content };
      used.add('toolCallId').add('name').add('isError');
      const name = str('name', false);
      if (name !== undefined) message.name = name;
      if (meta.isError !== undefined) {
        if (typeof meta.isError !== 'boolean') fail('"isError" must be true or false');
        message.isError = meta.isError as boolean;
      }
      break;
    }
  }
  const item: SavedMessage = { kind: 'message', message };
  if (meta.mentions !== undefined) {
    if (!Array.isArray(meta.mentions) || !meta.mentions.every((p) => typeof p === 'string')) fail('"mentions" must be a list of note paths');
    item.mentions = meta.mentions as string[];
  }
  const model = str('model', false);
  if (model !== undefined) item.model = model;
  if (meta.stopped === true) item.stopped = true;
  if (meta.pinned === true) item.pinned = true;
  const stopReason = str('stopReason', false);
  if (stopReason !== undefined) item.stopReason = stopReason as StopReason;
  if (meta.failure !== undefined) item.failure = parseFailure(meta.failure, fail);
  const extra = Object.entries(meta).filter(([key]) => !used.has(key));
  if (extra.length) item.extra = Object.fromEntries(extra);
  return item;
}

function parseFailure(raw: unknown, fail: (detail: string) => never): SavedFailure {
  const f = raw as Partial<SavedFailure> | null;
  if (!f || typeof f !== 'object' || (f.ended !== 'interrupted' && f.ended !== 'error') || typeof f.kind !== 'string' || typeof f.message !== 'string') {
    return fail('"failure" needs "ended" (interrupted or error), "kind" and "message"');
  }
  return { ended: f.ended, kind: f.kind, message: f.message };
}

export function parseCompaction(text: string, line: number): SavedCompaction {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new FormatError(`The compaction record is not valid JSON (${error instanceof Error ? error.message : String(error)}).`, line);
  }
  const c = value as Partial<SavedCompaction> | null;
  if (!c || typeof c !== 'object' || !isCompactionRecord(c.record)) throw new FormatError('The compaction record is not one this version can read.', line);
  if (!Array.isArray(c.causes) || !Array.isArray(c.microCleared) || !c.restored || typeof c.promptBefore !== 'number' || typeof c.promptAfter !== 'number') {
    throw new FormatError('The compaction record lacks its causes, cleared results, restored notes or token figures.', line);
  }
  return c as SavedCompaction;
}
