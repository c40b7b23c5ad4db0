// What every format converter produces: conversations in the core's one message model. The
// converters are pure functions of parsed JSON; reading files and detecting formats is elsewhere.
import { type ChatMessage, type ImageAttachment, MessageFormatError } from '../../core';

export interface Conversation {
  /** The export's own id when it has one, otherwise a stable one derived from the position. */
  id: string;
  title: string;
  messages: ChatMessage[];
  /** The model the export names for the conversation, when it does (used for token estimates). */
  model?: string;
}

export type FormatId = 'openai' | 'chatgpt' | 'anthropic' | 'claude' | 'plugin';

export interface FormatInfo {
  id: FormatId;
  description: string;
}

export const FORMATS: readonly FormatInfo[] = [
  { id: 'openai', description: 'OpenAI messages array ([{role, content, tool_calls}, …] or {messages: […]})' },
  { id: 'chatgpt', description: 'ChatGPT data export (conversations.json with a mapping tree per conversation)' },
  { id: 'anthropic', description: 'Anthropic messages array ([{role, content: string | blocks}, …] or {system, messages: […]})' },
  { id: 'claude', description: 'Claude.ai data export (conversations.json with chat_messages)' },
  { id: 'plugin', description: "Compact Chat's saved conversation note (Markdown with front matter)" },
];

export { MessageFormatError };

export type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A string field, or a {@link MessageFormatError} naming the path when it has another type. */
export function optionalString(obj: Json, key: string, path: string): string | undefined {
  const value = obj[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new MessageFormatError(`${path}.${key}`, `must be a string, got ${describe(value)}`);
  return value;
}

export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : typeof value;
}

export function expectArray(value: unknown, path: string): unknown[] {
  if (!Array.isArray(value)) throw new MessageFormatError(path, `must be an array, got ${describe(value)}`);
  return value;
}

export function expectObject(value: unknown, path: string): Json {
  if (!isObject(value)) throw new MessageFormatError(path, `must be an object, got ${describe(value)}`);
  return value;
}

/** Seconds since the epoch (ChatGPT) → ms; 0 when absent or not a number. */
export function secondsToMs(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.round(value * 1000) : 0;
}

/** An ISO date (Claude.ai) → ms; 0 when absent or unparsable. */
export function isoToMs(value: unknown): number {
  if (typeof value !== 'string') return 0;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms : 0;
}

const IMAGE_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  bmp: 'image/bmp',
  heic: 'image/heic',
};

/** An image attachment from a URL or file name. `data:` URLs give their media type and are not
 * kept as the source (the bytes are never needed; only the fixed token cost is). */
export function imageFrom(urlOrName: string | undefined, mediaType?: string): ImageAttachment {
  if (urlOrName?.startsWith('data:')) {
    const type = /^data:([^;,]+)/.exec(urlOrName)?.[1];
    return { mediaType: mediaType ?? type ?? 'image/*' };
  }
  const ext = urlOrName ? /\.([a-z0-9]+)(?:[?#].*)?$/i.exec(urlOrName)?.[1]?.toLowerCase() : undefined;
  const image: ImageAttachment = { mediaType: mediaType ?? (ext ? IMAGE_TYPES[ext] : undefined) ?? 'image/*' };
  if (urlOrName) image.source = urlOrName;
  return image;
}

export function isImageName(name: string): boolean {
  const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase();
  return ext !== undefined && ext in IMAGE_TYPES;
}

/** Text parts joined the way chat UIs show them: paragraphs separated by a blank line. */
export function joinText(parts: readonly string[]): string {
  return parts.filter((p) => p.length > 0).join('\n\n');
}

/** Makes message ids unique within each conversation (exports with duplicated ids exist; the
 * core refers to messages by id). The first use of an id keeps it; later ones get a suffix. */
export function withUniqueIds(conversations: Conversation[]): Conversation[] {
  for (const c of conversations) {
    const seen = new Set<string>();
    c.messages = c.messages.map((m) => {
      if (!seen.has(m.id)) {
        seen.add(m.id);
        return m;
      }
      let k = 2;
      while (seen.has(`${m.id}-${k}`)) k++;
      const id = `${m.id}-${k}`;
      seen.add(id);
      return { ...m, id };
    });
  }
  return conversations;
}
