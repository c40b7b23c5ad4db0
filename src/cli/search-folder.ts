// `compact-chat search DIR QUERY` / `--queries FILE`: every conversation file directly inside DIR
// (any format `compact` reads, the plugin's notes included) searched together with the core's
// cross-conversation index (core/cross-search.ts): conversations best first, each with its best
// messages. A file that does not parse is skipped with one line on stderr; the run fails only when
// no file could be read. `--date` is when the questions are asked, for "two weeks ago" (without
// it: within a week after the folder's newest conversation).
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { CrossIndex, conversationDate } from '../core';
import { CliError } from './errors';
import type { FormatId } from './formats';
import { loadConversations, readSource } from './input';
import type { Io } from './io';

export interface FolderResult {
  /** The file's path relative to the folder. */
  file: string;
  /** The conversation's id, when the file holds more than one (a ChatGPT or Claude export). */
  conversation?: string;
  /** 0-based position of the message in its conversation as read. */
  index: number;
  role: string;
  score: number;
  text: string;
}

interface Key {
  file: string;
  conversation?: string;
}

/** Reads every regular file directly inside `dir` (hidden files left out) into one index. */
export async function indexFolder(dir: string, from: FormatId | undefined, io: Io): Promise<CrossIndex<Key>> {
  let names: string[];
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    names = entries.filter((e) => e.isFile() && !e.name.startsWith('.')).map((e) => e.name).sort();
  } catch (error) {
    throw new CliError(`cannot read folder ${dir}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const index = new CrossIndex<Key>();
  let read = 0;
  for (const name of names) {
    let input;
    try {
      input = loadConversations(await readSource(join(dir, name), io), name, from);
    } catch (error) {
      if (!(error instanceof CliError)) throw error;
      io.stderr.write(`compact-chat: skipping ${name}: ${error.message.split('\n')[0] ?? ''}\n`);
      continue;
    }
    read++;
    const many = input.conversations.length > 1;
    for (const c of input.conversations) {
      const key: Key = many ? { file: name, conversation: c.id } : { file: name };
      index.sync(key, c.messages.map((m) => ({ text: m.content, role: m.role })), conversationDate(c.messages));
    }
  }
  if (!read) throw new CliError(names.length ? `${dir}: none of its ${names.length} files is a conversation the CLI reads` : `${dir} holds no files`);
  return index;
}

/** How long after a folder's newest conversation its questions are taken to be asked, when their
 * date is not given: a new chat within a week of the last one. */
const ASKED_WITHIN_MS = 7 * 86_400_000;

/** One ranked list per query, in query order. Times ("two weeks ago") are read against `asked`
 * when given; else against the days from the folder's newest conversation to a week after it (a
 * folder may be an export of long ago, and the question comes after what it holds); else now. */
export function searchFolder(index: CrossIndex<Key>, queries: readonly string[], k: number, asked?: number): FolderResult[][] {
  const newest = index.newestDate();
  const when = asked !== undefined ? { now: asked } : newest ? { now: newest, askedBy: newest + ASKED_WITHIN_MS } : { now: Date.now() };
  return queries.map((q) =>
    index.search(q, { limit: k, asker: 'user', ...when }).map((h) => ({ ...h.conversation, index: h.index, role: h.role, score: h.score, text: h.text })),
  );
}

/** Text: the query, then one line per match (file, position, role, score, the text on one line). */
export function folderText(queries: readonly string[], results: readonly FolderResult[][]): string {
  return queries
    .map((q, i) => {
      const rows = results[i] ?? [];
      const lines = rows.map((r, rank) => `${rank + 1}. ${r.file}${r.conversation ? ` (${r.conversation})` : ''} [${r.index}] ${r.role} (${r.score}): ${r.text.replace(/\s+/g, ' ').trim()}`);
      return `${q}\n${lines.length ? lines.join('\n') : '(no match)'}\n`;
    })
    .join('\n');
}
