// Format 2's blocks: one per message or compaction round, each complete in itself so that a save can
// append blocks to the note, and a reader can tell a complete block from one an interrupted append
// left behind. docs/conversation-format.md is the description for people; the layout, for a reply:
//
//     (blank line)
//     ## Assistant · 2026-11-20 08:31                    ← for people; not read back
//     <!-- compact-chat assistant {"id":…,"createdAt":…} -->
//     (blank line)
//     The reply, as plain Markdown, [[links]] and all.
//     (a closing line when the reply leaves a fence open: markdown-tail.ts)
//     (blank line)
//     <!-- compact-chat status -->                       ← only for a reply stopped or failed:
//     *Reply interrupted: The connection dropped.*          how it ended, for people
//     (blank line)
//     <!-- compact-chat tool-call -->                    ← one per tool call, with its arguments
//     Tool call `read_note`:
//     ```json
//     {"path":"Garden.md"}
//     ```
//     (blank line)
//     <!-- compact-chat end {…the rest of the metadata…} -->
//
// The note's own lines all start `<!-- compact-chat`; any line of carried text (a message, a tool
// result, arguments) that starts with that, after any spaces, gets one more space in front, and the
// reader takes one off (CommonMark reads an HTML comment with up to three spaces before it alike). A block with no end line is incomplete: a reply still being written (an
// "open" block, which later saves extend by appending its new lines) or an append cut off.
import type { ChatMessage } from '../core/messages';
import type { SavedConversation, SavedItem, SavedMessage, TornTail } from './conversation-types';
import { buildMessage, messageMeta, parseCompaction } from './conversation-meta';
import { closingLine } from './markdown-tail';
import { ESCAPED, FormatError, blockText, escapeSeparators, fenceFor, humanTime, isoTime, metaJson, oneLine, parseTime, plainSafe } from './note-text';

const MARK = '<!-- compact-chat';
const END = `${MARK} end`;
const TOOL_CALL = `${MARK} tool-call -->`;
/** Before a line for people saying how a reply ended (not read back: the metadata holds it). */
const STATUS = `${MARK} status -->`;
const LABEL: Record<ChatMessage['role'], string> = { user: 'User', assistant: 'Assistant', system: 'System', tool: 'Tool result' };
const START = /^<!-- compact-chat (user|assistant|system|tool|compaction)( escaped)?(?: (\{.*\}))? -->$/;
const END_LINE = /^<!-- compact-chat end(?: saved=(\S+))?(?: close=(\S+))?(?: (\{.*\}))? -->$/;
/** A line of carried text that must be escaped (or, read back, unescaped): the escape is one more
 * leading space, which CommonMark reads the same way (up to three spaces before an HTML block). */
const LOOKS_LIKE_MARK = /^ *<!-- compact-chat/;
/** The heading the writer puts before a block's start line (for people; not read back). */
const HEADING = /^## (?:User|Assistant|System|Tool result|Compaction)(?: · .*)?$/;

// ── writing ─────────────────────────────────────────────────────────────────────────────────

/** A complete block, from its leading blank line to its end line's line break. A person's own
 * text is written as it is, between blank lines. */
export function serializeBlock(item: SavedItem): string {
  if (item.kind === 'hand') return `\n${item.text}\n`;
  if (item.kind === 'compaction') {
    const c = item.compaction;
    return [
      '',
      `## Compaction · round ${c.record.round} · ${humanTime(c.record.timestamp)}`,
      `${MARK} compaction -->`,
      '',
      `${c.record.removedIds.length} messages summarised; the original messages stay above.`,
      '',
      ...fenced(JSON.stringify(c, null, 2), 'json'),
      '',
      `${END} -->`,
      '',
    ].join('\n');
  }
  const m = item.message;
  const prose = m.role !== 'tool';
  const plain = prose && plainSafe(m.content);
  let out = head(item, prose && !plain);
  if (plain) {
    const lines = m.content.split('\n').map(escapeLine);
    out += `${lines.join('\n')}\n`;
    const close = closingLine(lines);
    if (close !== null) out += `${close}\n`;
    out += '\n';
    return out + tail(item, close);
  }
  out += `${fenced(m.content, 'text').join('\n')}\n\n`;
  return out + tail(item, null);
}

/** The part of a streaming reply's block that stays as it is while the reply grows: the heading,
 * the start line and the lines of text completed so far. Appending the rest of `serializeBlock`
 * once the reply is done gives exactly the complete block. */
export function openBlock(item: SavedMessage): string {
  const m = item.message;
  let out = head(item, false);
  if (m.role === 'tool' || !plainSafe(m.content)) return out;
  const lines = m.content.split('\n');
  for (let i = 0; i < lines.length - 1; i++) out += `${escapeLine(lines[i] as string)}\n`;
  return out;
}

/** The block with the save's time on its end line (the last block an append writes carries it). */
export function withSaveStamp(block: string, updated: number): string {
  const at = block.lastIndexOf(`\n${END}`);
  if (at < 0) return block;
  const from = at + 1 + END.length;
  return `${block.slice(0, from)} saved=${isoTime(updated)}${block.slice(from)}`;
}

function head(item: SavedMessage, escaped: boolean): string {
  const m = item.message;
  const tool = m.role === 'tool' && m.name ? ` · ${oneLine(m.name)}` : '';
  return `\n## ${LABEL[m.role]}${tool} · ${humanTime(m.createdAt)}\n${MARK} ${m.role}${escaped ? ` ${ESCAPED}` : ''} ${metaJson({ id: m.id, createdAt: m.createdAt })} -->\n\n`;
}

/** How a reply ended, for people (after its text, so a streaming reply's block only grows); then
 * the tool calls' arguments and the end line with the rest of the metadata. */
function tail(item: SavedMessage, close: string | null): string {
  let out = '';
  const m = item.message;
  if (item.failure) out += `${STATUS}\n*Reply ${item.failure.ended}: ${oneLine(item.failure.message)}*\n\n`;
  else if (item.stopped || item.streaming) out += `${STATUS}\n*Reply stopped.*\n\n`;
  if (m.role === 'assistant') {
    for (const call of m.toolCalls ?? []) {
      out += `${TOOL_CALL}\nTool call \`${oneLine(call.name).replace(/`/g, "'")}\`:\n${fenced(call.arguments, 'json').join('\n')}\n\n`;
    }
  }
  const { id: _id, createdAt: _createdAt, ...rest } = messageMeta(item);
  const json = Object.keys(rest).length ? ` ${metaJson(rest)}` : '';
  return `${out}${END}${close !== null ? ` close=${close}` : ''}${json} -->\n`;
}

/** A fenced block carrying `text` exactly: as it is (lines that look like the note's own escaped),
 * or as one JSON string in an `escaped` block when it holds what a note cannot carry as it is. */
function fenced(text: string, info: string): string[] {
  const safe = plainSafe(text);
  const body = safe ? text.split('\n').map(escapeLine) : [escapeSeparators(JSON.stringify(text))];
  const fence = fenceFor(body);
  return [fence + (safe ? info : ESCAPED), ...body, fence];
}

function escapeLine(line: string): string {
  return LOOKS_LIKE_MARK.test(line) ? ` ${line}` : line;
}

function unescapeLine(line: string): string {
  return line.startsWith(' ') && LOOKS_LIKE_MARK.test(line) ? line.slice(1) : line;
}

// ── reading ─────────────────────────────────────────────────────────────────────────────────

interface Region {
  /** Index of its first line. */
  from: number;
  lines: string[];
}

/**
 * Reads the blocks from line index `start` into `conversation.items`. Lines between blocks (the
 * headings, anything a person added there) are skipped. An incomplete last block is the torn tail:
 * the text of a message whose start line is whole is recovered (a reply marked stopped); anything
 * else is left out and reported. `saved` is the save time on the last end line that has one.
 */
export function parseBlocks(lines: string[], start: number, conversation: SavedConversation): { tail?: TornTail; saved?: number } {
  // The line break that ends the last line does not start another one. Without it, the last line
  // may be cut off: one of the note's own lines that does not read there is a torn end.
  const complete = lines.length > start && lines[lines.length - 1] === '';
  const end = complete ? lines.length - 1 : lines.length;
  const cutOff = (at: number): boolean => !complete && at === end - 1;
  const ids = new Set<string>();
  let saved: number | undefined;
  let i = start;
  for (;;) {
    // Between blocks: the writer's heading just before a start line, and whatever a person wrote.
    const between = i;
    while (i < end && !(lines[i] as string).startsWith(MARK)) i++;
    if (i >= end) {
      // The end of the note: a person's lines are kept; only the writer's own heading (or the start
      // of one, cut off) with nothing after it is a torn append.
      let to = end;
      while (to > between && (lines[to - 1] as string).trim() === '') to--;
      const last = to > between ? (lines[to - 1] as string) : null;
      const torn = last !== null && (HEADING.test(last) || (cutOff(to - 1) && isHeadingStart(last)));
      pushHand(conversation, lines, between, torn ? to - 1 : to);
      if (!torn) return { saved };
      return { saved, tail: { line: to, recovered: false, dropped: last } };
    }
    const startAt = i;
    const startMatch = START.exec(lines[i] as string);
    const heading = i - 1 >= between && HEADING.test(lines[i - 1] as string) ? i - 1 : i;
    pushHand(conversation, lines, between, heading);
    const blockStart = heading < i ? heading : -1;
    if (!startMatch && cutOff(i)) {
      const from = blockStart >= 0 ? blockStart : i;
      return { saved, tail: { line: from + 1, recovered: false, dropped: lines.slice(from, end).join('\n') } };
    }
    if (!startMatch) throw new FormatError(`Expected the start of a message ("${MARK} user {…} -->" …); found another of the note's own lines.`, i + 1);
    const kind = startMatch[1] as ChatMessage['role'] | 'compaction';
    const escaped = startMatch[2] !== undefined;
    const startJson = startMatch[3] === undefined ? {} : jsonObject(startMatch[3], i + 1);
    i++;
    const body = region(lines, i, end);
    i += body.lines.length;
    // How a reply ended, for people: the end line's metadata holds it.
    if (i < end && lines[i] === STATUS) i += 1 + region(lines, i + 1, end).lines.length;
    const calls: Region[] = [];
    while (i < end && lines[i] === TOOL_CALL) {
      const call = region(lines, i + 1, end);
      calls.push(call);
      i += 1 + call.lines.length;
    }
    if (i >= end || (cutOff(i) && !END_LINE.test(lines[i] as string))) {
      const tailStart = blockStart >= 0 ? blockStart : startAt;
      const recovered = kind === 'compaction' || kind === 'tool' || escaped ? null : recoverOpen(kind, startJson, body, startAt + 1, ids, !complete);
      if (recovered) conversation.items.push(recovered);
      const dropped = recovered ? lines.slice(calls[0] ? calls[0].from - 1 : end, end).join('\n') : lines.slice(tailStart, end).join('\n');
      return { saved, tail: { line: tailStart + 1, recovered: recovered !== null, dropped } };
    }
    const endMatch = END_LINE.exec(lines[i] as string);
    if (!endMatch) throw new FormatError(`The block that starts at line ${startAt + 1} has no end line ("${END} -->") before this line.`, i + 1);
    const endJson = endMatch[3] === undefined ? {} : jsonObject(endMatch[3], i + 1);
    if (endMatch[1] !== undefined) {
      const time = parseTime(endMatch[1]);
      if (Number.isNaN(time) && endMatch[1] !== 'NaN') throw new FormatError(`"saved=${endMatch[1]}" is not a time.`, i + 1);
      saved = time;
    }
    i++;
    if (kind === 'compaction') {
      if (calls.length) throw new FormatError('A compaction round has no tool calls.', calls[0]!.from);
      const json = readFenced(body, 'the compaction record');
      conversation.items.push({ kind: 'compaction', compaction: parseCompaction(json.text, json.line) });
      continue;
    }
    const content = kind === 'tool' || escaped ? readFenced(body, 'the message text').text : readProse(body, endMatch[2] ?? null);
    const item = buildMessage(kind, { ...endJson, ...startJson }, content, startAt + 1);
    const toolCalls = item.message.role === 'assistant' ? (item.message.toolCalls ?? []) : [];
    if (toolCalls.length !== calls.length) {
      throw new FormatError(`The message lists ${toolCalls.length} tool call(s) but has ${calls.length} block(s) of arguments.`, startAt + 1);
    }
    toolCalls.forEach((call, n) => {
      call.arguments = readFenced(calls[n] as Region, `the arguments of tool call "${call.name}"`).text;
    });
    if (ids.has(item.message.id)) throw new FormatError(`Message id "${item.message.id}" appears twice.`, startAt + 1);
    ids.add(item.message.id);
    conversation.items.push(item);
  }
}

/** A person's text in lines [from, to), without the blank lines around it, as an item (none when blank). */
function pushHand(conversation: SavedConversation, lines: string[], from: number, to: number): void {
  let a = from;
  let b = to;
  while (a < b && (lines[a] as string).trim() === '') a++;
  while (b > a && (lines[b - 1] as string).trim() === '') b--;
  if (a < b) conversation.items.push({ kind: 'hand', text: lines.slice(a, b).join('\n') });
}

/** Whether a line cut off at the end of a note could be the start of the writer's heading. */
function isHeadingStart(line: string): boolean {
  return ['## User', '## Assistant', '## System', '## Tool result', '## Compaction'].some((h) => h.startsWith(line) || line.startsWith(h));
}

/** The lines from `from` up to the next line of the note's own (or `end`). */
function region(lines: string[], from: number, end: number): Region {
  let to = from;
  while (to < end && !(lines[to] as string).startsWith(MARK)) to++;
  return { from, lines: lines.slice(from, to) };
}

function jsonObject(text: string, line: number): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error('not an object');
    return value as Record<string, unknown>;
  } catch (error) {
    throw new FormatError(`The line's data is not a JSON object (${error instanceof Error ? error.message : String(error)}).`, line);
  }
}

/** Message text written as it is: the blank lines the writer puts around it and its closing line come off. */
function readProse(body: Region, close: string | null): string {
  const lines = [...body.lines];
  if (lines[0] === '') lines.shift();
  if (lines.length && lines[lines.length - 1] === '') lines.pop();
  if (close !== null) {
    if (lines[lines.length - 1] !== close) throw new FormatError(`The message should end with the closing line "${close}".`, body.from + lines.length);
    lines.pop();
  }
  return lines.map(unescapeLine).join('\n');
}

/** The first fenced block of a region (lines before it are for people). */
function readFenced(body: Region, what: string): { text: string; line: number } {
  const at = body.lines.findIndex((l) => /^`{3,}/.test(l));
  if (at < 0) throw new FormatError(`Missing the code block of ${what}.`, body.from + 1);
  const opener = /^(`{3,})(.*)$/.exec(body.lines[at] as string) as RegExpExecArray;
  const ticks = opener[1] as string;
  const info = (opener[2] ?? '').trim();
  const close = body.lines.indexOf(ticks, at + 1);
  const line = body.from + at + 1;
  if (close < 0) throw new FormatError(`The code block of ${what} is not closed (a line of exactly ${ticks.length} backticks).`, line);
  return blockText(info, body.lines.slice(at + 1, close).map(unescapeLine).join('\n'), what, line);
}

/** The message an incomplete block holds, when its start line is whole and it has text: a reply
 * that was being written (or a message whose append was cut off); a reply is marked stopped. */
function recoverOpen(role: ChatMessage['role'], startJson: Record<string, unknown>, body: Region, line: number, ids: Set<string>, cutOff: boolean): SavedMessage | null {
  const lines = [...body.lines];
  if (lines[0] === '') lines.shift();
  // A line cut off while the writer's own line after the text was being written is not text; nor
  // are the blank lines the writer puts after it. (A closing line the writer added may stay: the
  // text is recovered as far as it can be told.)
  const last = lines[lines.length - 1];
  if (cutOff && last !== undefined && last !== '' && (MARK.startsWith(last) || last.startsWith(MARK))) lines.pop();
  while (lines.length && lines[lines.length - 1] === '') lines.pop();
  const content = lines.map(unescapeLine).join('\n');
  if (content.trim() === '') return null;
  let item: SavedMessage;
  try {
    item = buildMessage(role, startJson, content, line);
  } catch {
    return null;
  }
  if (ids.has(item.message.id)) return null;
  if (role === 'assistant') item.stopped = true;
  return item;
}
