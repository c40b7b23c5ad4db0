// Reading format 1 notes (Compact Chat before format 2): every text in a fenced block, sections
// started by `### User · …` headings with a `<!-- compact-chat {JSON} -->` data line. Only read:
// the store writes such a note as format 2 on its next save. docs/conversation-format.md keeps the
// format's description.
import type { ChatMessage } from '../core/messages';
import type { SavedConversation } from './conversation-types';
import { buildMessage, parseCompaction } from './conversation-meta';
import { FormatError, blockText } from './note-text';

const META_OPEN = '<!-- compact-chat ';
const META_CLOSE = ' -->';
const LABEL_ROLE = new Map<string, ChatMessage['role']>([
  ['user', 'user'],
  ['assistant', 'assistant'],
  ['system', 'system'],
  ['tool result', 'tool'],
]);

interface Cursor {
  lines: string[];
  i: number;
}

export function parseBodyV1(lines: string[], start: number, conversation: SavedConversation): void {
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
      const json = readBlock(cur, 'the compaction record');
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
    const content = readBlock(cur, 'the message text').text;
    const item = buildMessage(role, meta, content, metaLine);
    if (item.message.role === 'assistant' && item.message.toolCalls) {
      for (const call of item.message.toolCalls) call.arguments = readBlock(cur, `the arguments of tool call "${call.name}"`).text;
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
function readBlock(cur: Cursor, what: string): { text: string; line: number } {
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
      return blockText(info, body, what, open);
    }
    cur.i++;
  }
  throw new FormatError(`Missing the code block of ${what}.`, Math.min(cur.i + 1, cur.lines.length));
}
