// The key facts of a round's summary grouped by the thread they belong to, as the summary panel
// lists them: one group per thread (its head, span and state, then its facts as the block sent
// them, in the order they were said, and those it had no room for), and the facts of no known
// thread left as they were. Grouped only when the block was (core/thread-format.ts's byThreads:
// facts of two threads or more), so a conversation of one thread keeps the plain list. Pure: the
// panel renders it.
import type { ThreadLine } from '../core/record';
import { byThreads, threadSpan } from '../core/thread-format';
import type { SummaryLine, SummarySection } from './compaction-sections';

export interface ThreadGroup {
  thread: ThreadLine;
  /** The head in the conversation's words ("Asked" / "Topic" for a thread without one). */
  head: string;
  /** "2–17 August 2023 · Open": the days it ran and its state, each when known. */
  meta: string;
  sent: SummaryLine[];
  notSent: SummaryLine[];
}

export interface GroupedFacts {
  /** Facts of no known thread: listed where they were. */
  loose: { sent: SummaryLine[]; notSent: SummaryLine[] };
  /** Threads with at least one fact, oldest first. */
  threads: ThreadGroup[];
}

const STATE_TEXT: Record<NonNullable<ThreadLine['state']>, string> = { open: 'Open', answered: 'Answered' };

/** The facts section `section` grouped by `threads`; null when it is not laid out by threads. */
export function groupFactsByThread(section: SummarySection, threads: readonly ThreadLine[] | undefined): GroupedFacts | null {
  if (!threads?.length || !byThreads([...section.sent, ...section.notSent])) return null;
  const known = new Set(threads.map((t) => t.id));
  const isLoose = (l: SummaryLine): boolean => l.thread === undefined || !known.has(l.thread);
  const grouped: GroupedFacts = {
    loose: { sent: section.sent.filter(isLoose), notSent: section.notSent.filter(isLoose) },
    threads: [],
  };
  for (const thread of threads) {
    // (A fact that is the head itself is not said twice, as in the block.)
    const own = (l: SummaryLine): boolean => l.thread === thread.id && !thread.text.includes(l.full);
    const sent = inConversationOrder(section.sent.filter(own));
    const notSent = inConversationOrder(section.notSent.filter(own));
    if (sent.length + notSent.length === 0) continue;
    grouped.threads.push({ thread, head: threadTitle(thread), meta: threadMeta(thread), sent, notSent });
  }
  return grouped;
}

/** Under a thread's head the block writes its facts in the order they were said (block-format.ts),
 * so a reply follows its request; the panel lists them the same way, not by rank. */
function inConversationOrder(lines: SummaryLine[]): SummaryLine[] {
  return [...lines].sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0));
}

/** A thread's head on one line. */
export function threadTitle(t: ThreadLine): string {
  return t.text.replace(/\s+/g, ' ').trim() || (t.head === 'request' ? 'Asked' : 'Topic');
}

/** The days a thread ran and its state, " · " between them; '' when neither is known. */
export function threadMeta(t: ThreadLine): string {
  return [threadSpan(t.from, t.to), t.state ? STATE_TEXT[t.state] : ''].filter(Boolean).join(' · ');
}
