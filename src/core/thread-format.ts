// How key facts are laid out when the conversation ran in several threads: each thread's head
// ("### 2–17 August 2023: fantasy novels, online magazine") over its facts, threads in the order
// they began, and in a chat with an assistant what the user said about themselves first, under
// "### About the user:". A conversation of one thread keeps the plain layout (groupFacts). The head
// is a sub-heading of the "Key facts:" section, so the panel reads the section as before. Pure.
import { describeDay } from './dates';
import { groupFacts, factText } from './block-format';
import type { ConversationKind, SourcedLine, ThreadLine } from './record';
import { dropLoneSurrogates } from './text';

export const ABOUT_USER_HEAD = '### About the user:';
export const THREAD_HEAD_PREFIX = '### ';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** The days a thread ran: "21 May 2023", "2–17 August 2023", "June–August 2023" (`short`: never
 * more than the month, so a state word still leaves the label at four words). '' when unknown. */
export function threadSpan(from: number, to: number, short = false): string {
  if (!(from > 0)) return '';
  const end = to > from ? to : from;
  const a = new Date(from);
  const b = new Date(end);
  const sameYear = a.getUTCFullYear() === b.getUTCFullYear();
  const sameMonth = sameYear && a.getUTCMonth() === b.getUTCMonth();
  if (sameMonth && a.getUTCDate() === b.getUTCDate()) return short ? describeDay(from) : describeDay(from);
  if (sameMonth) return short ? `${MONTHS[b.getUTCMonth()]} ${b.getUTCFullYear()}` : `${a.getUTCDate()}–${describeDay(end)}`;
  if (sameYear) return `${MONTHS[a.getUTCMonth()]}–${MONTHS[b.getUTCMonth()]} ${b.getUTCFullYear()}`;
  return `${MONTHS[a.getUTCMonth()]} ${a.getUTCFullYear()}–${MONTHS[b.getUTCMonth()]} ${b.getUTCFullYear()}`;
}

/** A thread's head line: its label (the state of a request still open, the days it ran) and its
 * head in its own words. A thread without a head in words is its label alone. */
export function threadHead(t: ThreadLine): string {
  const open = t.head === 'request' && t.state === 'open';
  const span = threadSpan(t.from, t.to, open);
  const label = [open ? 'Open' : '', span].filter(Boolean).join(', ') || (t.head === 'request' ? 'Asked' : 'Topic');
  return dropLoneSurrogates(t.text ? `${THREAD_HEAD_PREFIX}${label}: ${t.text}` : `${THREAD_HEAD_PREFIX}${label}:`);
}

/** Whether facts are laid out by thread: they span two threads or more (a conversation of one
 * thread keeps the plain layout). */
export function byThreads(facts: readonly SourcedLine[]): boolean {
  const seen = new Set<number>();
  for (const f of facts) if (f.thread !== undefined) seen.add(f.thread);
  return seen.size >= 2;
}

/** The group a fact is laid out in when facts go by thread: with an assistant, what the user said
 * about themselves ('about'); between two people, what a speaker said of who they are
 * ('who:<name>'); else its thread ('thread:<id>'), or none (''). */
export function factGroup(f: SourcedLine, kind: ConversationKind | undefined, roleOf: (id: string) => string | undefined): string {
  if (kind === 'assist' && f.about) return 'about';
  if (kind === 'talk' && f.identity) return `who:${roleOf(f.sources[0] ?? '') ?? ''}`;
  return f.thread === undefined ? '' : `thread:${f.thread}`;
}

/** A group's head line ('' for none). */
export function groupHead(key: string, threads: ReadonlyMap<number, ThreadLine>): string {
  if (key === 'about') return ABOUT_USER_HEAD;
  if (key.startsWith('who:')) {
    const who = key.slice(4);
    const name = who === 'user' || who === 'assistant' || who === '' ? `the ${who || 'speaker'}` : who;
    return `${THREAD_HEAD_PREFIX}About ${name}:`;
  }
  const t = key.startsWith('thread:') ? threads.get(Number(key.slice(7))) : undefined;
  return t ? threadHead(t) : '';
}

/**
 * The key facts' lines: by thread (see the file comment) when {@link byThreads} says so, else the
 * plain layout. Within a group, facts in conversation order, one turn per line (groupFacts).
 */
export function threadedFactLines(
  facts: readonly SourcedLine[],
  threads: readonly ThreadLine[],
  kind: ConversationKind | undefined,
  roleOf: (id: string) => string | undefined,
  textOf: (f: SourcedLine) => string = factText,
): string[] {
  if (!byThreads(facts)) return groupFacts(facts, roleOf, textOf);
  const lines: string[] = [];
  const byId = new Map(threads.map((t) => [t.id, t]));
  const groups = new Map<string, SourcedLine[]>();
  for (const f of facts) {
    const key = factGroup(f, kind, roleOf);
    const list = groups.get(key);
    if (list) list.push(f);
    else groups.set(key, [f]);
  }
  // Who the people are first (the user before the other side), then what belongs to no thread,
  // then the threads in the order they began.
  const people = [...groups.keys()].filter((k) => k === 'about' || k.startsWith('who:'));
  people.sort((a, b) => rank(a, roleOf, facts) - rank(b, roleOf, facts) || (a < b ? -1 : 1));
  for (const key of people) lines.push(groupHead(key, byId), ...groupFacts(groups.get(key) ?? [], () => undefined, textOf));
  const loose = (groups.get('') ?? []).concat(...[...groups].filter(([k]) => k.startsWith('thread:') && !byId.has(Number(k.slice(7)))).map(([, v]) => v));
  if (loose.length) lines.push(...groupFacts(loose, roleOf, textOf));
  for (const t of threads) {
    // (A fact that is the head itself is not said twice.)
    const own = (groups.get(`thread:${t.id}`) ?? []).filter((f) => !t.text.includes(f.text));
    if (!own.length) continue;
    lines.push(threadHead(t));
    // The head names the days: a fact line names its day only when it differs from the thread's
    // single day.
    const single = t.from > 0 && threadSpan(t.from, t.to) === describeDay(t.from) ? describeDay(t.from) : '';
    lines.push(...groupFacts(own, roleOf, textOf, single));
  }
  return lines;
}

/** The user's group before the other side's. */
function rank(key: string, roleOf: (id: string) => string | undefined, facts: readonly SourcedLine[]): number {
  if (key === 'about') return 0;
  const f = facts.find((x) => x.identity && `who:${roleOf(x.sources[0] ?? '') ?? ''}` === key);
  return f && f.about ? 1 : 2;
}
