// What the core read of one message object, in one record: its sentences, references, rules, error
// lines, prose words, date stamp, request start, tool result and listed answers, each kept by the
// module that reads it in a slot of its own. One WeakMap entry per message rather than one per
// module: adding an entry to a WeakMap costs more than most of what is kept there (a cold
// compaction of a thousand messages added ten thousand), and the garbage collector visits each.
// The record is dropped when the message's content or role changes (messages are immutable; an
// edit makes a new text). Output never depends on it, only speed does.
import type { ChatMessage } from './messages';

export interface MessageMemo {
  readonly content: string;
  readonly role: ChatMessage['role'];
  /** extract-sentences: the sentences and stamp (with the word table generation they hold ids of). */
  pieces: unknown;
  /** conversation-analysis: references and file operations. */
  refs: unknown;
  /** extract-rules: the standing rules. */
  rules: unknown;
  /** extract-summary: the error lines. */
  errors: unknown;
  /** message-words: the prose words' tally. */
  words: unknown;
  /** message-words: whether it opens on a date stamp. */
  stamped: unknown;
  /** threads: where its request starts. */
  request: unknown;
  /** tool-output: a tool result's output and return code. */
  result: unknown;
  /** answer-shape: its list's heads and its one-line code answer. */
  heads: unknown;
  code: unknown;
}

const memos = new WeakMap<ChatMessage, MessageMemo>();

/** The record of `m` (a fresh one when it has none yet, or its content or role changed). */
export function memoOf(m: ChatMessage): MessageMemo {
  const hit = memos.get(m);
  if (hit !== undefined && hit.content === m.content && hit.role === m.role) return hit;
  // (Every slot from the start: one object shape for all records.)
  const fresh: MessageMemo = { content: m.content, role: m.role, pieces: undefined, refs: undefined, rules: undefined, errors: undefined, words: undefined, stamped: undefined, request: undefined, result: undefined, heads: undefined, code: undefined };
  memos.set(m, fresh);
  return fresh;
}
