// The one line of the chat's compaction notice that names the threads a round carried: "Carried 4
// threads: Garden plan (answered), drip irrigation kits (open), soil test and 1 more." A thread
// counts as carried when the block wrote its head (core/thread-format.ts's threadHead), so the
// line says what the model was sent, not every thread the record knows. Pure: the UI renders it.
import type { CompactionRecord, ThreadLine } from '../core/record';
import { threadHead } from '../core/thread-format';

/** How many threads the line names before "and N more". */
export const NAMED_THREADS = 3;
/** A head longer than this is cut at a word boundary. */
export const HEAD_CHARS = 40;

/** The threads whose head line the round's block carried, oldest first. */
export function carriedThreads(record: CompactionRecord): ThreadLine[] {
  if (!record.block || !record.threads?.length) return [];
  const lines = new Set(record.block.split('\n'));
  return record.threads.filter((t) => lines.has(threadHead(t)));
}

/** The notice's thread line; '' when the block was not laid out by threads. */
export function carriedThreadsText(record: CompactionRecord): string {
  const threads = carriedThreads(record);
  if (!threads.length) return '';
  const named = threads.slice(0, NAMED_THREADS).map(threadName);
  const more = threads.length - named.length;
  const list = more > 0 ? `${named.join(', ')} and ${more} more` : joinLast(named);
  return `Carried ${threads.length} thread${threads.length === 1 ? '' : 's'}: ${list}.`;
}

/** A thread as the line names it: its head shortened, and its state when it has one. */
export function threadName(t: ThreadLine): string {
  const head = shortHead(t.text) || (t.head === 'request' ? 'a request' : 'a topic');
  return t.state ? `${head} (${t.state})` : head;
}

/** `text` on one line, without its closing punctuation, cut at the last word boundary within
 * `max` characters (then "…"); a first word longer than that is cut where it reaches it. */
export function shortHead(text: string, max = HEAD_CHARS): string {
  const flat = text.replace(/\s+/g, ' ').trim().replace(/[\s.!?;:,]+$/u, '');
  const chars = [...flat];
  if (chars.length <= max) return flat;
  const room = chars.slice(0, max - 1).join('');
  const space = room.lastIndexOf(' ');
  const cut = space > 0 ? room.slice(0, space) : room;
  return `${cut.replace(/[\s,;:–—-]+$/u, '')}…`;
}

function joinLast(items: readonly string[]): string {
  if (items.length < 2) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1] ?? ''}`;
}
