// The saved conversation note: front matter, then one section per message or compaction round, in
// conversation order. Pure (no obsidian, no DOM): the plugin's store and the CLI both use it.
// docs/conversation-format.md describes the format for people and other tools.
//
// Every text payload (a message's content, a tool call's arguments) sits in a fenced block whose
// backtick fence is longer than any backtick run inside it, so any Markdown survives. Text that a
// plain fence could not carry exactly (lone surrogates, carriage returns, other control characters)
// is written as a JSON string in an `escaped` block instead, so the note is always valid UTF-8 and
// `parseConversation(serializeConversation(c))` gives `c` back for any conversation.
// The machine data of a section (ids, exact timestamps, tool call ids) is in one HTML comment line
// (`<!-- compact-chat {...} -->`), invisible in reading view; headings and dates are for people.
import type { ChatMessage, ImageAttachment, ToolCall } from '../core/messages';
import { type CompactionRecord, isCompactionRecord } from '../core/record';
import { dropLoneSurrogates } from '../core/text';
import type { StopReason } from '../providers/types';
import type { RestoredNotes } from './restore';

export const FORMAT_VERSION = 1;

export interface SavedCompaction {
  record: CompactionRecord;
  causes: string[];
  microCleared: string[];
  restored: RestoredNotes;
  promptBefore: number;
  promptAfter: number;
  /** The placeholder text sent for each micro-cleared tool result, by message id. */
  placeholders?: Record<string, string>;
}

export interface SavedMessage {
  kind: 'message';
  message: ChatMessage;
  /** Vault paths of the notes a user message mentioned (`[[…]]`), sent as context with it. */
  mentions?: string[];
  /** The model that wrote an assistant reply. */
  model?: string;
  /** A reply the user stopped (or that was cut off by a crash while streaming). */
  stopped?: boolean;
  stopReason?: StopReason;
  /** A reply that failed after some text arrived: how it ended, and the error as the user saw it. */
  failure?: SavedFailure;
  /** Pinned by the user: always sent verbatim, never removed by compaction. */
  pinned?: boolean;
}

export interface SavedFailure {
  /** 'interrupted': the connection broke, stalled or sent what could not be read; 'error': any other. */
  ended: 'interrupted' | 'error';
  /** The provider's error kind (kept as text: a note may come from a newer version). */
  kind: string;
  message: string;
}

export interface SavedCompactionItem {
  kind: 'compaction';
  compaction: SavedCompaction;
}

export type SavedItem = SavedMessage | SavedCompactionItem;

export interface SavedConversation {
  id: string;
  title: string;
  model: string;
  /** Milliseconds since the epoch. */
  created: number;
  updated: number;
  items: SavedItem[];
  /** Front matter lines this format does not know (a user's tags …), kept verbatim. */
  extraFrontMatter?: string[];
}

export type ParseResult =
  | { ok: true; conversation: SavedConversation }
  /** `line` is 1-based; `partial` holds what could be read before the problem. */
  | { ok: false; error: string; line: number; partial: SavedConversation | null };

const META_OPEN = '<!-- compact-chat ';
const META_CLOSE = ' -->';
const ESCAPED = 'escaped';
const ROLE_LABEL: Record<ChatMessage['role'], string> = { user: 'User', assistant: 'Assistant', system: 'System', tool: 'Tool result' };
const LABEL_ROLE = new Map(Object.entries(ROLE_LABEL).map(([role, label]) => [label.toLowerCase(), role as ChatMessage['role']]));
const KNOWN_KEYS = ['id', 'title', 'model', 'created', 'updated', 'compact-chat'];

// ── serialising ─────────────────────────────────────────────────────────────────────────────

export function serializeConversation(c: SavedConversation): string {
  const out: string[] = [
    '---',
    `id: ${yamlString(c.id)}`,
    `title: ${yamlString(c.title)}`,
    `model: ${yamlString(c.model)}`,
    `created: ${yamlTime(c.created)}`,
    `updated: ${yamlTime(c.updated)}`,
    `compact-chat: ${FORMAT_VERSION}`,
    ...(c.extraFrontMatter ?? []),
    '---',
  ];
  for (const item of c.items) {
    out.push('');
    if (item.kind === 'compaction') {
      const r = item.compaction.record;
      out.push(`### Compaction · round ${r.round} · ${humanTime(r.timestamp)}`);
      out.push(`${item.compaction.record.removedIds.length} messages summarised; the original messages stay above.`);
      out.push(...block(JSON.stringify(item.compaction, null, 2), 'json'));
      continue;
    }
    const m = item.message;
    const ending = item.failure ? ` · ${item.failure.ended}` : item.stopped ? ' · stopped' : '';
    out.push(`### ${ROLE_LABEL[m.role]}${m.role === 'tool' && m.name ? ` · ${oneLine(m.name)}` : ''} · ${humanTime(m.createdAt)}${ending}`);
    out.push(META_OPEN + metaJson(messageMeta(item)) + META_CLOSE);
    if (item.mentions?.length) out.push(`Mentioned: ${item.mentions.map((p) => `[[${oneLine(p)}]]`).join(', ')}`);
    out.push(...block(m.content, m.role === 'tool' ? 'text' : 'markdown'));
    if (m.role === 'assistant') {
      for (const call of m.toolCalls ?? []) {
        out.push(`Tool call \`${oneLine(call.name).replace(/`/g, "'")}\`:`);
        out.push(...block(call.arguments, 'json'));
      }
    }
  }
  return out.join('\n') + '\n';
}

function messageMeta(item: SavedMessage): Record<string, unknown> {
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
  if (item.stopped) meta.stopped = true;
  if (item.stopReason !== undefined) meta.stopReason = item.stopReason;
  if (item.failure) meta.failure = item.failure;
  if (item.pinned) meta.pinned = true;
  return meta;
}

/** One line of JSON that cannot close the HTML comment it sits in. */
function metaJson(value: unknown): string {
  return escapeSeparators(JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e'));
}

/** Whether a plain fence carries `text` exactly: no lone surrogates, no CR, no control characters,
 * and none of the other line breaks (U+0085, U+2028, U+2029) that some editors and Markdown readers
 * split lines on, so the note reads the same everywhere. */
function plainSafe(text: string): boolean {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is matched
  if (/[\u0000-\u0008\u000b-\u001f\u007f\u0085\u2028\u2029]/.test(text)) return false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return false;
      i++;
    } else if (c >= 0xdc00 && c <= 0xdfff) {
      return false;
    }
  }
  return true;
}

function block(text: string, info: string): string[] {
  const safe = plainSafe(text);
  const body = safe ? text : escapeSeparators(JSON.stringify(text));
  let longest = 0;
  for (const run of body.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return [fence + (safe ? info : ESCAPED), ...body.split('\n'), fence];
}

function yamlString(value: string): string {
  // A JSON string is a valid YAML double-quoted scalar (lone surrogates come out as \u escapes).
  return escapeSeparators(JSON.stringify(value));
}

/** U+0085 / U+2028 / U+2029 are line breaks to some editors and YAML readers: inside JSON strings
 * they are written as escapes, so no raw one is ever in the note. */
function escapeSeparators(json: string): string {
  return json.replace(/[\u0085\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function yamlTime(ms: number): string {
  const date = new Date(ms);
  return Number.isFinite(ms) && !Number.isNaN(date.getTime()) && Number.isInteger(ms) ? date.toISOString() : String(ms);
}

function humanTime(ms: number): string {
  const date = new Date(ms);
  if (Number.isNaN(date.getTime())) return 'unknown time';
  return date.toISOString().slice(0, 16).replace('T', ' ');
}

/** Text shown to people only (never parsed back): one line (every kind of line break becomes a
 * space), lone surrogates and control characters replaced, so the note stays valid UTF-8 whatever a name or path holds. */
function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is matched
  return dropLoneSurrogates(text.replace(/[\u0000-\u001f\u007f\u0085\u2028\u2029]+/g, ' '), '\uFFFD');
}

// ── parsing ─────────────────────────────────────────────────────────────────────────────────

class FormatError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
  }
}

/** Parses a conversation note; on a problem, the 1-based line and the reason. */
export function parseConversation(text: string): ParseResult {
  const lines = withoutBom(text).split('\n');
  // A file saved with CRLF line ends by another tool: the line ends are not content.
  if (lines.length > 1 && lines.slice(0, -1).every((l) => l.endsWith('\r'))) {
    for (let i = 0; i < lines.length; i++) lines[i] = (lines[i] as string).replace(/\r$/, '');
  }
  let conversation: SavedConversation | null = null;
  try {
    const { meta, next } = parseFrontMatter(lines);
    conversation = meta;
    parseBody(lines, next, conversation);
    return { ok: true, conversation };
  } catch (error) {
    if (error instanceof FormatError) return { ok: false, error: error.message, line: error.line, partial: conversation };
    throw error;
  }
}

/** Only the front matter (id, title, dates): cheap enough for a history list. */
export function parseConversationHeader(text: string): Omit<SavedConversation, 'items'> | null {
  try {
    return parseFrontMatter(withoutBom(text).split('\n').map((l) => l.replace(/\r$/, ''))).meta;
  } catch {
    return null;
  }
}

/** A byte-order mark another editor put at the start is not content (the note is written back
 * without it). */
function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function parseFrontMatter(lines: string[]): { meta: SavedConversation; next: number } {
  if (lines[0] !== '---') throw new FormatError('The note must start with front matter (a "---" line).', 1);
  const end = lines.indexOf('---', 1);
  if (end < 0) throw new FormatError('The front matter is not closed with a "---" line.', 1);
  const values = new Map<string, { value: string; line: number }>();
  const extra: string[] = [];
  for (let i = 1; i < end; i++) {
    const line = lines[i] as string;
    const m = /^([A-Za-z][\w-]*):(?:[ \t]+([\s\S]*))?$/.exec(line);
    if (m && KNOWN_KEYS.includes(m[1] as string)) values.set(m[1] as string, { value: (m[2] ?? '').trim(), line: i + 1 });
    else extra.push(line);
  }
  const str = (key: string, required: boolean): string => {
    const entry = values.get(key);
    if (!entry) {
      if (required) throw new FormatError(`The front matter has no "${key}".`, 1);
      return '';
    }
    return yamlScalar(entry.value, entry.line, key);
  };
  const time = (key: string): number => {
    const entry = values.get(key);
    if (!entry) return 0;
    const raw = yamlScalar(entry.value, entry.line, key);
    if (/^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(raw)) return Number(raw);
    const ms = Date.parse(raw);
    if (Number.isNaN(ms)) throw new FormatError(`"${key}" is not a date: ${raw}`, entry.line);
    return ms;
  };
  const version = values.get('compact-chat');
  if (version && Number(yamlScalar(version.value, version.line, 'compact-chat')) > FORMAT_VERSION) {
    throw new FormatError(`The note was written by a newer version of Compact Chat (format ${version.value}).`, version.line);
  }
  const meta: SavedConversation = {
    id: str('id', true),
    title: str('title', false),
    model: str('model', false),
    created: time('created'),
    updated: time('updated'),
    items: [],
  };
  if (!meta.id) throw new FormatError('The front matter "id" is empty.', values.get('id')?.line ?? 1);
  if (extra.length) meta.extraFrontMatter = extra;
  return { meta, next: end + 1 };
}

function yamlScalar(raw: string, line: number, key: string): string {
  if (raw.startsWith('"')) {
    try {
      const value: unknown = JSON.parse(raw);
      if (typeof value === 'string') return value;
    } catch {
      // reported below
    }
    throw new FormatError(`"${key}" is not a valid double-quoted string.`, line);
  }
  if (raw.startsWith("'")) {
    if (!raw.endsWith("'") || raw.length < 2) throw new FormatError(`"${key}" is not a valid single-quoted string.`, line);
    return raw.slice(1, -1).replace(/''/g, "'");
  }
  return raw;
}

interface Cursor {
  lines: string[];
  i: number;
}

function parseBody(lines: string[], start: number, conversation: SavedConversation): void {
  const cur: Cursor = { lines, i: start };
  const ids = new Set<string>();
  for (;;) {
    skipBlank(cur);
    if (cur.i >= lines.length) return;
    const headingLine = cur.i + 1;
    // [\s\S], not `.`: a heading may hold any character but \n (`.` stops at U+2028 / U+2029).
    const heading = /^### ([\s\S]+)$/.exec(lines[cur.i] as string);
    if (!heading) throw new FormatError('Expected a section heading ("### User · …", "### Assistant · …", "### Compaction · …").', headingLine);
    cur.i++;
    const label = (heading[1] as string).split(' · ')[0]?.trim().toLowerCase() ?? '';
    if (label === 'compaction') {
      const json = readBlock(cur, 'the compaction record', true);
      conversation.items.push({ kind: 'compaction', compaction: parseCompaction(json.text, json.line) });
      continue;
    }
    const role = LABEL_ROLE.get(label);
    if (!role) throw new FormatError(`Unknown section "${heading[1]}".`, headingLine);
    skipBlank(cur);
    const metaLine = cur.i + 1;
    const metaText = lines[cur.i] ?? '';
    if (!metaText.startsWith(META_OPEN) || !metaText.endsWith(META_CLOSE)) {
      throw new FormatError(`Expected the section's data line ("${META_OPEN.trim()} {…} -->").`, metaLine);
    }
    cur.i++;
    let meta: Record<string, unknown>;
    try {
      const value: unknown = JSON.parse(metaText.slice(META_OPEN.length, metaText.length - META_CLOSE.length));
      if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error('not an object');
      meta = value as Record<string, unknown>;
    } catch (error) {
      throw new FormatError(`The section's data line is not valid JSON (${error instanceof Error ? error.message : String(error)}).`, metaLine);
    }
    const content = readBlock(cur, 'the message text', true).text;
    const item = buildMessage(role, meta, content, metaLine);
    if (item.message.role === 'assistant' && item.message.toolCalls) {
      for (const call of item.message.toolCalls) {
        call.arguments = readBlock(cur, `the arguments of tool call "${call.name}"`, true).text;
      }
    }
    if (ids.has(item.message.id)) throw new FormatError(`Message id "${item.message.id}" appears twice.`, metaLine);
    ids.add(item.message.id);
    conversation.items.push(item);
  }
}

function skipBlank(cur: Cursor): void {
  while (cur.i < cur.lines.length && (cur.lines[cur.i] as string).trim() === '') cur.i++;
}

/** Reads the next fenced block, skipping prose lines before it (they are for people). */
function readBlock(cur: Cursor, what: string, required: boolean): { text: string; line: number } {
  while (cur.i < cur.lines.length) {
    const line = cur.lines[cur.i] as string;
    if (line.startsWith('### ')) break;
    const fence = /^(`{3,})(.*)$/.exec(line);
    if (fence) {
      const open = cur.i + 1;
      const ticks = fence[1] as string;
      const info = (fence[2] ?? '').trim();
      const end = cur.lines.indexOf(ticks, cur.i + 1);
      if (end < 0) throw new FormatError(`The code block of ${what} is not closed (a line of exactly ${ticks.length} backticks).`, open);
      const body = cur.lines.slice(cur.i + 1, end).join('\n');
      cur.i = end + 1;
      if (info !== ESCAPED) return { text: body, line: open };
      try {
        const value: unknown = JSON.parse(body);
        if (typeof value !== 'string') throw new Error('not a string');
        return { text: value, line: open };
      } catch {
        throw new FormatError(`The escaped block of ${what} must hold one JSON string.`, open);
      }
    }
    cur.i++;
  }
  if (required) throw new FormatError(`Missing the code block of ${what}.`, Math.min(cur.i + 1, cur.lines.length));
  return { text: '', line: cur.i + 1 };
}

function buildMessage(role: ChatMessage['role'], meta: Record<string, unknown>, content: string, line: number): SavedMessage {
  const fail = (detail: string): never => {
    throw new FormatError(`The section's data line: ${detail}.`, line);
  };
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
      if (meta.images !== undefined) {
        if (!Array.isArray(meta.images) || !meta.images.every((x: unknown) => typeof (x as ImageAttachment | null)?.mediaType === 'string')) fail('"images" must be a list of images');
        message.images = meta.images as ImageAttachment[];
      }
      break;
    }
    case 'assistant': {
      message = { ...base, role, content };
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
  return item;
}

function parseFailure(raw: unknown, fail: (detail: string) => never): SavedFailure {
  const f = raw as Partial<SavedFailure> | null;
  if (!f || typeof f !== 'object' || (f.ended !== 'interrupted' && f.ended !== 'error') || typeof f.kind !== 'string' || typeof f.message !== 'string') {
    return fail('"failure" needs "ended" (interrupted or error), "kind" and "message"');
  }
  return { ended: f.ended, kind: f.kind, message: f.message };
}

function parseCompaction(text: string, line: number): SavedCompaction {
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
