// Reading a conversation file (or stdin) and turning it into conversations: read with a progress
// line for big files, parse JSON with line/column on error, detect the format, convert.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Readable, Writable } from 'node:stream';
import { getHeapStatistics } from 'node:v8';
import { CliError, UsageError } from './errors';
import { MessageFormatError } from '../core';
import { type Conversation, type FormatId, FORMATS, convert, detectFormat, knownFormatsText } from './formats';
import { JsonSyntaxError, parseJson } from './json';

/** Files above this size get a progress line on stderr. */
export const PROGRESS_BYTES = 4 * 1024 * 1024;

/** A run's peak memory is about this many times its input's size (measured on exports: 2.1 GB for
 * 200 MB, 2.6 GB with --rounds), so an input larger than heap limit / this would end in a V8
 * out-of-memory crash half-way. It is refused up front instead, with the limit and the way round. */
export const MEMORY_PER_INPUT_BYTE = 14;

/** The largest input this process can read within its heap limit. */
export function maxInputBytes(): number {
  return Math.floor(getHeapStatistics().heap_size_limit / MEMORY_PER_INPUT_BYTE);
}

function tooLarge(name: string, size: number | null, limit: number): CliError {
  const mb = (n: number): string => (n / 1024 / 1024).toFixed(1);
  const heap = getHeapStatistics().heap_size_limit;
  const what = size === null ? `${name} is over` : `${name} is ${mb(size)} MB, over`;
  const needed = Math.ceil(((size ?? limit * 2) * MEMORY_PER_INPUT_BYTE) / 1024 / 1024 / 256) * 256;
  return new CliError(`${what} the ${mb(limit)} MB this run can read with Node's ${mb(heap)} MB memory limit; raise it with NODE_OPTIONS=--max-old-space-size=${needed}`);
}

export interface LoadedInput {
  format: FormatId;
  conversations: Conversation[];
  /** Display name of the source ('stdin' for -). */
  name: string;
}

export interface ReadOptions {
  stderr: Writable & { isTTY?: boolean };
  stdin: Readable;
}

export async function readSource(file: string, io: ReadOptions): Promise<string> {
  const name = file === '-' ? 'stdin' : file;
  let size = 0;
  if (file !== '-') {
    try {
      const info = await stat(file);
      if (info.isDirectory()) throw new CliError(`cannot read ${file}: it is a directory`);
      size = info.size;
    } catch (error) {
      if (error instanceof CliError) throw error;
      throw new CliError(`cannot read ${file}: ${systemMessage(error)}`);
    }
  }
  const limit = maxInputBytes();
  if (size > limit) throw tooLarge(name, size, limit);
  const stream = file === '-' ? io.stdin : createReadStream(file);
  const chunks: Buffer[] = [];
  let read = 0;
  let lastShown = -1;
  const progress = (done: boolean): void => {
    if (size ? size < PROGRESS_BYTES : read < PROGRESS_BYTES) return;
    const mb = (n: number): string => (n / 1024 / 1024).toFixed(1);
    const line = size ? `reading ${name}: ${mb(read)} / ${mb(size)} MB` : `reading ${name}: ${mb(read)} MB`;
    if (io.stderr.isTTY) io.stderr.write(`\r${line}${done ? '\n' : ''}`);
    else {
      // Not a terminal: one line when reading starts and one when it ends.
      const step = done ? 2 : 1;
      if (step > lastShown) io.stderr.write(`${line}${done ? ', done' : ' …'}\n`);
      lastShown = step;
    }
  };
  try {
    for await (const chunk of stream) {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      chunks.push(buffer);
      read += buffer.length;
      // stdin has no size to check up front: stop as soon as it passes the limit.
      if (read > limit) throw tooLarge(name, null, limit);
      progress(false);
    }
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(`cannot read ${name}: ${systemMessage(error)}`);
  }
  progress(true);
  const text = Buffer.concat(chunks).toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Parses and converts the text of a source; `from` forces a format. */
export function loadConversations(text: string, name: string, from: FormatId | undefined): LoadedInput {
  const trimmed = text.trimStart();
  if (!trimmed) throw new CliError(`${name} is empty: no conversation to read`);
  // A saved conversation note is Markdown (front matter first); everything else is JSON.
  if (from === 'plugin' || (!from && /^---\s*\n/.test(trimmed))) return convertOrExplain('plugin', text, name);
  if (!from && !/^[[{]/.test(trimmed)) {
    throw new CliError(`${name}: unknown format (neither JSON nor a saved conversation note). Known formats:\n${knownFormatsText()}`);
  }
  let data: unknown;
  try {
    data = parseJson(text);
  } catch (error) {
    if (error instanceof JsonSyntaxError) throw new CliError(`${name} is not valid JSON: ${error.message}`);
    throw error;
  }
  const format = from ?? detectFormat(data);
  if (!format) {
    throw new CliError(`${name}: unknown format (the JSON matches none of the shapes the CLI reads). Known formats:\n${knownFormatsText()}\nChoose one with --from.`);
  }
  return convertOrExplain(format, data, name);
}

/** Converts parsed input, turning a format error into a message that names the file and format. */
function convertOrExplain(format: FormatId, data: unknown, name: string): LoadedInput {
  const base = name.replace(/^.*[\\/]/, '').replace(/\.[^.]+$/, '') || 'conversation';
  try {
    return { format, conversations: convert(format, data, { id: base, title: base }), name };
  } catch (error) {
    if (error instanceof MessageFormatError) throw new CliError(`${name} (read as ${format}): ${error.message}`);
    throw error;
  }
}

export function parseFormatOption(value: string | undefined): FormatId | undefined {
  if (value === undefined || value === 'auto') return undefined;
  const known = FORMATS.find((f) => f.id === value);
  if (!known) throw new UsageError(`unknown --from format ${JSON.stringify(value)}. Known formats:\n${knownFormatsText()}`);
  return known.id;
}

/** The conversations `--conversation ID|INDEX|all` picks (INDEX is 1-based, as `stats` lists them). */
export function selectConversations(input: LoadedInput, choice: string | undefined): Conversation[] {
  const all = input.conversations;
  if (!all.length) throw new CliError(`${input.name} holds no conversation`);
  if (choice === undefined) {
    if (all.length === 1) return all;
    throw new UsageError(
      `${input.name} holds ${all.length} conversations; choose one with --conversation ID|INDEX|all:\n${listConversations(all, 10)}`,
    );
  }
  if (choice === 'all') return all;
  const byId = all.filter((c) => c.id === choice);
  if (byId.length) return byId;
  if (/^\d+$/.test(choice)) {
    const index = Number(choice);
    const found = all[index - 1];
    if (found && index >= 1) return [found];
    throw new UsageError(`--conversation ${choice}: ${input.name} holds ${all.length} conversation${all.length === 1 ? '' : 's'} (1–${all.length})`);
  }
  const byPrefix = all.filter((c) => c.id.startsWith(choice));
  if (byPrefix.length === 1) return byPrefix;
  throw new UsageError(
    byPrefix.length > 1
      ? `--conversation ${choice} matches ${byPrefix.length} conversations; give more of the id`
      : `--conversation ${choice}: no conversation with that id in ${input.name}:\n${listConversations(all, 10)}`,
  );
}

export function listConversations(all: readonly Conversation[], limit = Infinity): string {
  const lines = all.slice(0, limit).map((c, i) => `  ${String(i + 1).padStart(3)}  ${c.id}  ${c.title ? JSON.stringify(c.title) : '(untitled)'}  ${c.messages.length} messages`);
  if (all.length > limit) lines.push(`  … and ${all.length - limit} more (compact-chat stats FILE lists them all)`);
  return lines.join('\n');
}

function systemMessage(error: unknown): string {
  const e = error as { code?: string; message?: string };
  switch (e.code) {
    case 'ENOENT':
      return 'no such file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'it is a directory';
    default:
      return e.message ?? String(error);
  }
}
