// The one message model every layer speaks. Provider wire formats, saved notes and exported
// conversations are converted to and from it at the edges (providers/, chat/, the CLI).

export type Role = 'system' | 'user' | 'assistant' | 'tool';

export const ROLES: readonly Role[] = ['system', 'user', 'assistant', 'tool'];

/** A tool call requested by the assistant. `arguments` is the raw JSON text the model produced:
 * kept as text because models do emit truncated or invalid JSON, and that must survive a round trip. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** An image attached to a message. Counted at a fixed token cost; the bytes are never estimated. */
export interface ImageAttachment {
  mediaType: string;
  /** Vault path or URL of the image, when there is one. */
  source?: string;
}

interface MessageBase {
  /** Unique within a conversation; compaction records refer to messages by id. */
  id: string;
  /** Milliseconds since the epoch. */
  createdAt: number;
}

export interface SystemMessage extends MessageBase {
  role: 'system';
  content: string;
}

export interface UserMessage extends MessageBase {
  role: 'user';
  content: string;
  images?: ImageAttachment[];
}

export interface AssistantMessage extends MessageBase {
  role: 'assistant';
  content: string;
  toolCalls?: ToolCall[];
}

export interface ToolResultMessage extends MessageBase {
  role: 'tool';
  /** The id of the tool call this result answers. */
  toolCallId: string;
  /** The tool's name, when known (some formats only carry it on the call). */
  name?: string;
  content: string;
  isError?: boolean;
}

export type ChatMessage = SystemMessage | UserMessage | AssistantMessage | ToolResultMessage;

/** A tool the model may call, as sent to the provider. */
export interface ToolDefinition {
  name: string;
  description: string;
  /** JSON Schema of the arguments. */
  parameters: Record<string, unknown>;
}

/** Thrown by {@link parseMessage} with the path of the offending field, so a user can fix their file. */
export class MessageFormatError extends Error {
  constructor(
    readonly path: string,
    detail: string,
  ) {
    super(`${path}: ${detail}`);
    this.name = 'MessageFormatError';
  }
}

let fallbackCounter = 0;

/** A new message id. Uses `crypto.randomUUID` where the platform has it (Obsidian desktop and
 * mobile, Node ≥ 19); the fallback only needs uniqueness within one conversation. */
export function newMessageId(): string {
  const c = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  if (c?.randomUUID) return c.randomUUID();
  fallbackCounter += 1;
  return `m-${Date.now().toString(36)}-${fallbackCounter.toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** Parses a tool call's arguments; `null` when they are not a JSON object (the model erred). */
export function parseToolArguments(call: ToolCall): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(call.arguments);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

const str = (obj: Record<string, unknown>, key: string, path: string, required: boolean): string | undefined => {
  const value = obj[key];
  if (value === undefined || value === null) {
    if (required) throw new MessageFormatError(`${path}.${key}`, 'is missing');
    return undefined;
  }
  if (typeof value !== 'string') throw new MessageFormatError(`${path}.${key}`, `must be a string, got ${typeof value}`);
  return value;
};

/**
 * Validates an untrusted value (a parsed file, an export) as a {@link ChatMessage}. Missing ids and
 * timestamps are filled in; anything else malformed — an unknown role, a non-string content, a tool
 * result without the id of its call — is a {@link MessageFormatError} naming the field.
 */
export function parseMessage(value: unknown, path = 'message'): ChatMessage {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new MessageFormatError(path, 'must be an object');
  }
  const obj = value as Record<string, unknown>;
  const role = obj.role;
  if (!isRole(role)) {
    throw new MessageFormatError(`${path}.role`, `unknown role ${JSON.stringify(role)} (expected one of ${ROLES.join(', ')})`);
  }
  const id = str(obj, 'id', path, false) ?? newMessageId();
  const rawTime = obj.createdAt;
  if (rawTime !== undefined && (typeof rawTime !== 'number' || !Number.isFinite(rawTime))) {
    throw new MessageFormatError(`${path}.createdAt`, 'must be a finite number of milliseconds');
  }
  const createdAt = typeof rawTime === 'number' ? rawTime : Date.now();
  const content = str(obj, 'content', path, false) ?? '';
  switch (role) {
    case 'system':
      return { id, createdAt, role, content };
    case 'user': {
      const message: UserMessage = { id, createdAt, role, content };
      if (obj.images !== undefined) message.images = parseImages(obj.images, `${path}.images`);
      return message;
    }
    case 'assistant': {
      const message: AssistantMessage = { id, createdAt, role, content };
      if (obj.toolCalls !== undefined) message.toolCalls = parseToolCalls(obj.toolCalls, `${path}.toolCalls`);
      return message;
    }
    case 'tool': {
      const toolCallId = str(obj, 'toolCallId', path, true) as string;
      const message: ToolResultMessage = { id, createdAt, role, toolCallId, content };
      const name = str(obj, 'name', path, false);
      if (name !== undefined) message.name = name;
      if (obj.isError !== undefined) {
        if (typeof obj.isError !== 'boolean') throw new MessageFormatError(`${path}.isError`, 'must be a boolean');
        message.isError = obj.isError;
      }
      return message;
    }
  }
}

function parseToolCalls(value: unknown, path: string): ToolCall[] {
  if (!Array.isArray(value)) throw new MessageFormatError(path, 'must be an array');
  return value.map((item: unknown, i) => {
    const p = `${path}[${i}]`;
    if (item === null || typeof item !== 'object') throw new MessageFormatError(p, 'must be an object');
    const obj = item as Record<string, unknown>;
    const args = obj.arguments;
    return {
      id: str(obj, 'id', p, true) as string,
      name: str(obj, 'name', p, true) as string,
      // Arguments given as an object (some exports do) are kept as their JSON text.
      arguments: typeof args === 'string' ? args : JSON.stringify(args ?? {}),
    };
  });
}

function parseImages(value: unknown, path: string): ImageAttachment[] {
  if (!Array.isArray(value)) throw new MessageFormatError(path, 'must be an array');
  return value.map((item: unknown, i) => {
    const p = `${path}[${i}]`;
    if (item === null || typeof item !== 'object') throw new MessageFormatError(p, 'must be an object');
    const obj = item as Record<string, unknown>;
    const image: ImageAttachment = { mediaType: str(obj, 'mediaType', p, true) as string };
    const source = str(obj, 'source', p, false);
    if (source !== undefined) image.source = source;
    return image;
  });
}
