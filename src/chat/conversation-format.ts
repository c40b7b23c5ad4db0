// The saved conversation note: front matter, then one block per message or compaction round, in
// conversation order. Pure (no obsidian, no DOM): the plugin's store and the CLI both use it.
// docs/conversation-format.md describes the format for people and other tools.
//
// Format 2 (written now): message text is plain Markdown, so a person reading the note sees rendered
// replies and Obsidian indexes their links; the note's own lines are HTML comments starting
// `<!-- compact-chat`, and a message line that starts like one is escaped with a backslash, so
// `parseConversation(serializeConversation(c))` gives `c` back for any conversation. Each block ends
// with its own end line, so a block can be appended to the note and a torn append is seen
// (conversation-blocks.ts). Format 1 (every text in a fence) is still read
// (conversation-format-v1.ts) and written as format 2 on the next save.
import { openBlock, parseBlocks, serializeBlock } from './conversation-blocks';
import { parseBodyV1 } from './conversation-format-v1';
import type { SavedConversation, TornTail } from './conversation-types';
import { FormatError, isoTime, parseTime, withoutBom, yamlString } from './note-text';

export type { SavedCompaction, SavedCompactionItem, SavedConversation, SavedFailure, SavedHandItem, SavedItem, SavedMessage, TornTail } from './conversation-types';

export const FORMAT_VERSION = 2;

export type ParseResult =
  | { ok: true; conversation: SavedConversation; format: number; tail?: TornTail }
  /** `line` is 1-based; `partial` holds what could be read before the problem. */
  | { ok: false; error: string; line: number; partial: SavedConversation | null };

const KNOWN_KEYS = ['id', 'title', 'model', 'created', 'updated', 'compact-chat'];

// ── writing ─────────────────────────────────────────────────────────────────────────────────

/** The whole note. A last item still streaming is written open, as an append would leave it. */
export function serializeConversation(c: SavedConversation): string {
  let out = serializeHeader(c);
  c.items.forEach((item, i) => {
    out += i === c.items.length - 1 && item.kind === 'message' && item.streaming ? openBlock(item) : serializeBlock(item);
  });
  return out;
}

/** The front matter, from the first `---` line to the closing one and its line break. */
export function serializeHeader(c: SavedConversation): string {
  const lines = [
    '---',
    `id: ${yamlString(c.id)}`,
    `title: ${yamlString(c.title)}`,
    `model: ${yamlString(c.model)}`,
    `created: ${isoTime(c.created)}`,
    `updated: ${isoTime(c.updated)}`,
    `compact-chat: ${FORMAT_VERSION}`,
    ...(c.extraFrontMatter ?? []),
    '---',
  ];
  return `${lines.join('\n')}\n`;
}

// ── reading ─────────────────────────────────────────────────────────────────────────────────

/** Parses a conversation note; on a problem, the 1-based line and the reason. */
export function parseConversation(text: string): ParseResult {
  const lines = withoutBom(text).split('\n');
  // A file saved with CRLF line ends by another tool: the line ends are not content.
  if (lines.length > 1 && lines.slice(0, -1).every((l) => l.endsWith('\r'))) {
    for (let i = 0; i < lines.length; i++) lines[i] = (lines[i] as string).replace(/\r$/, '');
  }
  let conversation: SavedConversation | null = null;
  try {
    const { meta, next, version } = parseFrontMatter(lines);
    conversation = meta;
    if (version < 2) {
      parseBodyV1(lines, next, conversation);
      return { ok: true, conversation, format: version };
    }
    const { tail, saved } = parseBlocks(lines, next, conversation);
    if (saved !== undefined) conversation.updated = saved;
    return { ok: true, conversation, format: version, ...(tail ? { tail } : {}) };
  } catch (error) {
    if (error instanceof FormatError) return { ok: false, error: error.message, line: error.line, partial: conversation };
    throw error;
  }
}

/** Only the front matter (id, title, dates): cheap enough for a history list. `updated` is the
 * latest save: the front matter's, or the save time an append left on the note's last lines. */
export function parseConversationHeader(text: string): Omit<SavedConversation, 'items'> | null {
  try {
    const meta = parseFrontMatter(withoutBom(text).split('\n').map((l) => l.replace(/\r$/, ''))).meta;
    const saved = lastSaveStamp(text);
    if (saved !== undefined) meta.updated = saved;
    const { items: _items, ...header } = meta;
    return header;
  } catch {
    return null;
  }
}

/** The `saved=` time on the last end line that has one (appends write it; rewrites do not). */
function lastSaveStamp(text: string): number | undefined {
  const at = text.lastIndexOf('\n<!-- compact-chat end saved=');
  if (at < 0) return undefined;
  const m = /^\n<!-- compact-chat end saved=(\S+)/.exec(text.slice(at, at + 80));
  const ms = m ? parseTime(m[1] as string) : Number.NaN;
  return Number.isNaN(ms) ? undefined : ms;
}

function parseFrontMatter(lines: string[]): { meta: SavedConversation; next: number; version: number } {
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
    const ms = parseTime(raw);
    if (Number.isNaN(ms) && raw !== 'NaN') throw new FormatError(`"${key}" is not a date: ${raw}`, entry.line);
    return ms;
  };
  const versionEntry = values.get('compact-chat');
  // A note without the key is from before it was written: format 1.
  const version = versionEntry ? Number(yamlScalar(versionEntry.value, versionEntry.line, 'compact-chat')) : 1;
  if (!(version >= 1)) throw new FormatError(`"compact-chat" is not a format number: ${versionEntry?.value ?? ''}`, versionEntry?.line ?? 1);
  if (version > FORMAT_VERSION) {
    throw new FormatError(`The note was written by a newer version of Compact Chat (format ${versionEntry?.value ?? ''}).`, versionEntry?.line ?? 1);
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
  return { meta, next: end + 1, version };
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
