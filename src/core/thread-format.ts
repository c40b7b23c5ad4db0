// How key facts are laid out when the conversation ran in several threads: each thread's head
// ("### 2–17 August 2023: fantasy novels, online magazine") over its facts, threads in the order
// they began; before them, who the people are — with an assistant what the user said about
// themselves ("### About the user:"), between two people what each said of who they are ("### About
// Tim:"). A conversation of one thread keeps the plain layout (groupFacts). A head is a sub-heading
// of the "Key facts:" section, so the panel reads the section as before. Which facts the budget
// takes first when facts go by thread (`spread`) is decided here too, beside the groups. Pure.
import { describeDay } from './dates';
import { groupFacts, factText } from './block-format';
import type { ConversationKind, SourcedLine, ThreadLine } from './record';
import { isChoice, saysChosen } from './fact-prior';
import { leansOnAbsent, newsRank, profileRank } from './salience';
import type { Speakers } from './speakers';
import { dropLoneSurrogates } from './text';
import { confirmsAnswer, userConfirms } from './thread-outcomes';
import { headFor, laterAsked } from './thread-parts';
import { answersHead, askLine, askSections, pastHead } from './thread-asks';
import { shownHead } from './session-heads';
import { latestThread } from './thread-keeps';

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
  if (sameMonth && a.getUTCDate() === b.getUTCDate()) return describeDay(from);
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
  const text = t.head === 'request' ? withoutSegue(t.text) : t.text;
  return dropLoneSurrogates(text ? `${THREAD_HEAD_PREFIX}${label}: ${text}` : `${THREAD_HEAD_PREFIX}${label}:`);
}

/** Words by which the user moved on to a request ("By the way, ", "Speaking of winter, ", "Anyway,
 * back to my question, "): a head is read as a title, away from the talk they turned from. */
const SEGUE = /^(?:(?:by the way|btw|anyway|anyhow|also|oh|so|okay|ok|now|well|actually|on (?:another|a different|a related|a side) note|changing the subject|one more thing|speaking of [^,.?!]{1,40}|(?:and )?back to (?:my|the|our) (?:question|topic|\w+(?: \w+)?))(?:[,:]|\.\.\.|…)\s+)+/i;

/** A request head without the words it moved on by, its first letter then a capital. */
export function withoutSegue(text: string): string {
  const m = SEGUE.exec(text);
  if (!m) return text;
  const rest = text.slice(m[0].length);
  // (Not down to a fragment: "So, what now?" stays whole.)
  if (rest.split(/\s+/).length < 4) return text;
  return rest.charAt(0).toUpperCase() + rest.slice(1);
}

/** Whether facts are laid out by thread: they span two threads or more (a conversation of one
 * thread keeps the plain layout). */
export function byThreads(facts: readonly SourcedLine[]): boolean {
  const seen = new Set<number>();
  for (const f of facts) if (f.thread !== undefined) seen.add(f.thread);
  return seen.size >= 2;
}

/** Facts of the latest thread taken in the spread beyond its best (see FactLayout.spread): with
 * two, LoCoMo recall at 1,000 0.529 → 0.541, LongMemEval at 2,000 0.741 → 0.751 (its recall on
 * what the assistant said 0.68 → 0.74); three added nothing. */
const LATEST_EXTRA = 2;

/** What a session's news gains in its spread's pick (between two people) when its speaker came back
 * with it (SourcedLine.opens), and when it names its session's head topic. */
const OPENING_NEWS = 0.5;
const HEAD_TOPIC_NEWS = 0.5;
/** What the news a speaker came back with gains in the latest session: more than any news told
 * later in it can have over it. */
const LATEST_OPENING_NEWS = 2;

/** The groups of people, in the order they are written (the user before the other side). */
const PEOPLE = ['about', 'who:user', 'who:assistant'] as const;

/** What laying out a record's facts needs to know. */
export interface FactLayoutInput {
  threads: readonly ThreadLine[];
  kind: ConversationKind | undefined;
  /** Who said a fact, by its first source id: 'user' or 'assistant'. */
  roleOf: (id: string) => string | undefined;
  /** The names the text gives the two sides (between two people). */
  speakers?: Speakers;
}

/** How one record's facts are grouped, headed and laid out. */
export class FactLayout {
  private readonly byId: ReadonlyMap<number, ThreadLine>;

  /** Whether the facts are of two people talking. */
  get talk(): boolean {
    return this.input.kind === 'talk';
  }

  constructor(private readonly input: FactLayoutInput) {
    this.byId = new Map(input.threads.map((t) => [t.id, t]));
  }

  /** A fact's label: its speaker's name when the text gives one, else the role. */
  readonly labelOf = (id: string): string | undefined => {
    const role = this.input.roleOf(id);
    return (role === 'user' || role === 'assistant' ? this.input.speakers?.[role] : undefined) ?? role;
  };

  /** The group a fact is laid out in: with an assistant, what the user said about themselves
   * ('about'); between two people, what a side said of who they are ('who:user' / 'who:assistant');
   * else its thread ('thread:<id>'), or none (''). */
  group(f: SourcedLine): string {
    const { kind, roleOf } = this.input;
    // (What the user chose goes under the thread whose options it picks from: its outcome. What
    // heads its thread is said there, once: readers met it twice, under "About the user" and as
    // the head.)
    if (kind === 'assist' && f.about && !(f.thread !== undefined && this.byId.has(f.thread) && (isChoice(f.text) || this.headSays(f)))) return 'about';
    if (kind === 'talk' && f.identity) {
      const role = roleOf(f.sources[0] ?? '');
      if (role === 'user' || role === 'assistant') return `who:${role}`;
    }
    return f.thread === undefined ? '' : `thread:${f.thread}`;
  }

  /** Whether a fact's text is its own thread's head, or inside it. */
  private headSays(f: SourcedLine): boolean {
    const t = f.thread === undefined ? undefined : this.byId.get(f.thread);
    return t !== undefined && t.text.length > 0 && t.text.includes(f.text);
  }

  /** Whether a fact says the first phrase its thread's head names (between two people). */
  private namesHeadTopic(group: string, f: SourcedLine): boolean {
    const t = this.byId.get(Number(group.slice(7)));
    if (!t || t.head !== 'phrases' || !t.text) return false;
    const first = t.text.split(', ')[0] as string;
    return f.text.toLowerCase().includes(first.toLowerCase());
  }

  /** The names the text gives the two sides. */
  private speakerNames(): string[] {
    const { user, assistant } = this.input.speakers ?? {};
    return [user, assistant].filter((x): x is string => !!x);
  }

  /** A group's head line ('' for none). */
  head(key: string): string {
    if (key === 'about') return ABOUT_USER_HEAD;
    if (key === 'who:user' || key === 'who:assistant') {
      const role = key.slice(4) as 'user' | 'assistant';
      return `${THREAD_HEAD_PREFIX}About ${this.input.speakers?.[role] ?? `the ${role}`}:`;
    }
    const t = key.startsWith('thread:') ? this.byId.get(Number(key.slice(7))) : undefined;
    return t ? threadHead(t) : '';
  }

  /**
   * The facts the budget takes first when facts go by thread, from `ranked` (best first): each
   * group's best fact — between two people, a thread's most newsworthy one (salience.ts newsRank:
   * the wedding told as last week's news, not what a friend said of it) — then, between two people,
   * each thread's next event or news, so a session's main events come before any one's details.
   * Groups in the order of their best facts; the latest thread's next facts after them.
   */
  spread(ranked: readonly SourcedLine[]): SourcedLine[] {
    const talk = this.input.kind === 'talk';
    const firstOf = new Map<string, SourcedLine>();
    // Between two people, each thread's most newsworthy fact (the wedding told as news, not what
    // a friend said of it), the first in rank among those as newsworthy.
    const eventOf = new Map<string, { f: SourcedLine; rank: number }>();
    const latestKey = `thread:${latestThread(this.input.threads)?.id}`;
    for (const f of ranked) {
      const g = this.group(f);
      if (g === '') continue;
      if (!firstOf.has(g)) firstOf.set(g, f);
      // With an assistant, a thread's answer carried as its list's heads is what the user comes
      // back for: it goes first under the request it answers.
      if (!talk && f.listed && g.startsWith('thread:') && !(eventOf.get(g)?.rank === 2)) eventOf.set(g, { f, rank: 2 });
      // Else the assistant's best-ranked sentence: the answer is what the user comes back for,
      // not their own question or remark under its head.
      if (this.input.kind === 'assist' && !f.listed && g.startsWith('thread:') && !eventOf.has(g) && this.input.roleOf(f.sources[0] ?? '') === 'assistant') eventOf.set(g, { f, rank: 1 });
      // (Before which the assistant's yes to what the user put forward, "Yes, "Gary Niami" is
      // indeed an anagram of the word "imaginary."": the thread's answer, where its best-ranked
      // sentence was a remark on a film from an earlier part of the session.)
      if (this.input.kind === 'assist' && !f.listed && g.startsWith('thread:') && (eventOf.get(g)?.rank ?? 0) < CONFIRMED_RANK && this.input.roleOf(f.sources[0] ?? '') === 'assistant' && confirmsAnswer(f.text)) eventOf.set(g, { f, rank: CONFIRMED_RANK });
      // Between two people, a speaker's profile (what they own, run or work as) heads what is said
      // of who they are, before what ranks higher there.
      if (talk && g.startsWith('who:') && !eventOf.has(g) && profileRank(f.text)) eventOf.set(g, { f, rank: 1 });
      if (!talk || !g.startsWith('thread:')) continue;
      // (News a speaker came back with, in their first message of the session that says
      // something, outranks news told later in it: "A competing shop snagged a deal we were trying
      // to secure for months" before "That's why I love my job". Readers asked for each session's
      // opening news; LoCoMo events 0.611/0.875 → 0.639/0.882 at 1,000/2,000, recall at 1,000
      // 0.550 → 0.538.)
      // (And news that names what its session's head names first — the flood under "music gear",
      // the Mustang's engine under "vintage Mustang" — outranks news beside it: readers found the
      // head's topic in no line under it. LoCoMo recall 0.386/0.546/0.714 → 0.385/0.558/0.726 at
      // 500/1,000/2,000, events at 1,000 0.604 → 0.590.)
      // (In the latest session, which the kept messages go on with, the news a speaker came back
      // with goes first whatever else was told there: "A rival bakery took the contract we had
      // chased for months" is what the last exchange answers, not "Playing that gig was really
      // cool". A fresh reader preferred it in both blocks it
      // changed (one strongly); LoCoMo recall 0.385/0.558/0.726 → 0.377/0.534/0.721 at
      // 500/1,000/2,000, events 0.271/0.590/0.882 → 0.257/0.597/0.882.)
      // (News that leans on a thing it does not name is not a session's news: "On that board, I
      // pinned …" stood for its session, the board in a photo the reader never saw — readers named such lines. LoCoMo at 1,000 it gave way to "… after we
      // talked I finally picked up a book"; recall 0.554/0.731 → 0.548/0.728 at 1,000/2,000, events
      // and the blocks at 500 unchanged.)
      const news = leansOnAbsent(f.text) ? 0 : newsRank(f.text);
      const rank = news > 0 ? news + (f.opens ? (g === latestKey ? LATEST_OPENING_NEWS : OPENING_NEWS) : 0) + (this.namesHeadTopic(g, f) ? HEAD_TOPIC_NEWS : 0) : 0;
      const best = eventOf.get(g);
      if (rank > 0 && (!best || rank > best.rank)) eventOf.set(g, { f, rank });
    }
    // (Between two people, who each of them is comes before any session's news: a reader meets
    // the people first; then the latest session, which the kept messages go on with — its best
    // fact often ranks below older sessions' and was left out of the spread's share, so a block
    // ended on the session before: LoCoMo recall at 1,000 0.551 → 0.550, events 0.625 → 0.611.)
    const order = (g: string): number => (g.startsWith('who:') ? 2 : g === latestKey ? 1 : 0);
    // (With an assistant too, the latest thread first: the kept messages go on with it, and its
    // best line, ranked below older threads' lists, was left out — the left-off line then followed
    // no head of its own.)
    const groups = talk ? [...firstOf].sort(([a], [b]) => order(b) - order(a)) : [...firstOf].sort(([a], [b]) => Number(b === latestKey) - Number(a === latestKey));
    const out = groups.map(([g, f]) => eventOf.get(g)?.f ?? f);
    // With an assistant, each thread's outcome (the user's choice, thread-outcomes.ts) next: the
    // options without the one chosen were what readers could not go on from.
    if (this.input.kind === 'assist') {
      const choiceOf = new Map<string, SourcedLine>();
      for (const f of ranked) {
        const g = this.group(f);
        // (A choice said in so many words: what the user only takes up — "I think I'll start with
        // a hybrid approach" — competes by its rank, as under "About the user" before; taking it
        // here cost LongMemEval recall at 1,000, 0.596 → 0.578.)
        // (Or the assistant's yes to what the user asked it to confirm: thread-outcomes.ts.)
        const role = this.input.roleOf(f.sources[0] ?? '');
        const outcome = (f.about && saysChosen(f.text)) || (role === 'assistant' && confirmsAnswer(f.text)) || (role === 'user' && userConfirms(f.text));
        if (!g.startsWith('thread:') || !outcome) continue;
        const had = choiceOf.get(g);
        if (!had || (f.seq ?? 0) > (had.seq ?? 0)) choiceOf.set(g, f);
      }
      for (const f of choiceOf.values()) if (!out.includes(f)) out.push(f);
    }
    // The latest thread goes on in the messages kept after the block: what it was about so far is
    // what a reader needs to follow them, so its next facts come before other threads' seconds.
    // (Latest by its last message; a thread that came back may stand earlier in the list.)
    const latest = latestThread(this.input.threads);
    if (latest) {
      const key = `thread:${latest.id}`;
      let n = 0;
      for (const f of ranked) {
        if (n >= LATEST_EXTRA) break;
        if (this.group(f) !== key || out.includes(f)) continue;
        out.push(f);
        n++;
      }
    }
    if (!talk) return out;
    const taken = new Set(out);
    const second = new Set<string>();
    for (const f of ranked) {
      const g = this.group(f);
      if (!g.startsWith('thread:') || second.has(g) || taken.has(f) || !newsRank(f.text)) continue;
      second.add(g);
      out.push(f);
    }
    return out;
  }

  /**
   * The key facts' lines: by thread (see the file comment) when {@link byThreads} says so, else the
   * plain layout. Within a group, facts in conversation order, one turn per line (groupFacts).
   */
  lines(all: readonly SourcedLine[], textOf: (f: SourcedLine) => string = factText): string[] {
    // A list's request is shown only under a thread another request heads (below).
    const facts = all.map(withoutAsked);
    const askedOf = new Map<SourcedLine, string>();
    all.forEach((f, i) => {
      if (f.asked?.trim()) askedOf.set(facts[i] as SourcedLine, f.asked.trim());
    });
    // (Without the threads' heads — a small block — the people's heads would stand over facts of
    // no thread that follow them: Tim's trip read as said "About John". The plain layout then.)
    if (!byThreads(facts) || !this.input.threads.length) return groupFacts(facts, this.labelOf, textOf, '', this.input.kind === 'work');
    const groups = new Map<string, SourcedLine[]>();
    for (const f of facts) {
      const key = this.group(f);
      const list = groups.get(key);
      if (list) list.push(f);
      else groups.set(key, [f]);
    }
    // The threads' lines first, so what a head shown says is not said again under "About the
    // user" (a list's question heading its part: "I'm planning to buy some new cookware online").
    const threadLines: string[] = [];
    const heads: string[] = [];
    for (const t of this.input.threads) {
      // (A fact that is the head itself is not said twice: the head alone says it — shown alone
      // for what the user said of themselves, which "About the user" held before; a request alone
      // is left out, its room going to threads' answers and outcomes.)
      const all = groups.get(`thread:${t.id}`) ?? [];
      const own = all.filter((f) => !t.text.includes(f.text));
      if (!own.length) {
        if (this.input.kind === 'assist' && all.some((f) => f.about)) {
          threadLines.push(threadHead(t));
          heads.push(t.text);
        }
        continue;
      }
      // (With an assistant, a thread its own request heads keeps it: its follow-up questions stand
      // under it, thread-asks.ts.)
      if (this.input.kind === 'assist' && t.head === 'request' && t.text) {
        threadLines.push(...this.nested(t, own, askedOf, textOf, heads));
        continue;
      }
      const head = headFor(t, own, askedOf);
      for (const [part, facts] of laterAsked(head, own, askedOf, head !== t)) {
        // (Between two people a session without a head takes one from its lines: session-heads.ts.)
        const bare = this.input.kind === 'talk' && part.head === 'phrases' && !part.text;
        threadLines.push(threadHead(bare ? { ...part, text: shownHead(part, facts.map(textOf), this.speakerNames()) } : part));
        heads.push(part.text);
        // The head names the days: a fact line names its day only when it differs from the
        // thread's single day.
        const single = part.from > 0 && threadSpan(part.from, part.to) === describeDay(part.from) ? describeDay(part.from) : '';
        // (Nor a line that its part's head, a list's question, says.)
        threadLines.push(...groupFacts(part === head ? facts : facts.filter((f) => !part.text.includes(f.text)), this.labelOf, textOf, single));
      }
    }
    const lines: string[] = [];
    // Who the people are first (their facts under their head, without a speaker's label), then
    // what belongs to no thread known here, then the threads in the order they began.
    for (const key of PEOPLE) {
      const own = groups.get(key)?.filter((f) => key !== 'about' || !heads.some((h) => h.includes(f.text)));
      if (own?.length) lines.push(this.head(key), ...groupFacts(own, () => undefined, textOf));
    }
    const loose = facts.filter((f) => {
      const key = this.group(f);
      return key === '' || (key.startsWith('thread:') && !this.byId.has(Number(key.slice(7))));
    });
    if (loose.length) lines.push(...groupFacts(loose, this.labelOf, textOf));
    lines.push(...threadLines);
    return lines;
  }

  /** The follow-up question a fact's list answers when shown on a line of its own (thread-asks.ts). */
  askOf(f: SourcedLine): string {
    if (!f.listed || !f.asked || f.thread === undefined || this.input.kind !== 'assist') return '';
    const t = this.byId.get(f.thread);
    return t && t.head === 'request' && t.text && !answersHead(t, f.asked) ? f.asked : '';
  }

  /** A thread its own request heads (with an assistant): the head, the facts under it, then each
   * follow-up question's line over the facts said with its answer (thread-asks.ts). The questions
   * shown go to `heads`. */
  private nested(t: ThreadLine, own: readonly SourcedLine[], askedOf: ReadonlyMap<SourcedLine, string>, textOf: (f: SourcedLine) => string, heads: string[]): string[] {
    const out: string[] = [];
    for (const { line, facts, asks } of askSections(t, own, askedOf)) {
      if (!facts.length && !asks.length) continue;
      out.push(threadHead(line));
      heads.push(line.text);
      // (A fact line names its day only when it differs from the head's single day.)
      const single = line.from > 0 && threadSpan(line.from, line.to) === describeDay(line.from) ? describeDay(line.from) : '';
      out.push(...groupFacts(facts.map((f) => pastHead(f, line.text)), this.labelOf, textOf, single));
      for (const part of asks) {
        out.push(askLine(part, withoutSegue(part.ask), single));
        heads.push(part.ask);
        out.push(...groupFacts(part.facts, this.labelOf, textOf, single || (part.at > 0 ? describeDay(part.at) : '')));
      }
    }
    return out;
  }
}

/** A thread's confirmed answer in the spread: above the assistant's best sentence (1), below a
 * list (2). */
const CONFIRMED_RANK = 1.5;

/** A fact without the request of its list (SourcedLine.asked). */
function withoutAsked(f: SourcedLine): SourcedLine {
  if (f.asked === undefined) return f;
  const { asked: _asked, ...rest } = f;
  return rest;
}
