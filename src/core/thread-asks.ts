// With an assistant, the follow-up questions of a thread headed by its own request: an answer list
// that answers another question than the head stands under a line naming that question ("- Asked:
// Are there any foods that help with anxiety?"), inside the thread, not as a head of its own and
// not in the head's place. Readers found follow-ups heading threads of their own, and a thread's
// own request ("My stomach has been unsettled for weeks …") replaced by a later list's question,
// so the user's reply after another answer ("I think I'll start with a lower CFU count") read as
// said of anxiety. Pure; FactLayout.lines (thread-format.ts) calls it.
import { describeDay } from './dates';
import type { SourcedLine, ThreadLine } from './record';
import { opensOnPointer } from './salience';
import { contentWords } from './word-scan';
import { GENERIC_WORDS } from './words';

/** A fact's order key (SourcedLine.seq) counts a message as this much. */
const SEQ_MESSAGE = 1e4;

/** A follow-up question of a thread and the facts said with its answer. */
export interface AskPart {
  /** The question, in the user's words. */
  ask: string;
  /** When its list was said (ms; 0 unknown). */
  at: number;
  facts: SourcedLine[];
}

/** The message a fact was said in (round and message, from its order key). */
const messageOf = (f: SourcedLine): number => Math.floor((f.seq ?? 0) / SEQ_MESSAGE);

/**
 * A thread's facts split into those under its head and its follow-up parts: each list whose
 * question (`askedOf`) is not the head's, with the facts of the message asking it, of the answer
 * and of the user's reply to it (what they chose of it). Other facts stay under the head, in the
 * order said. Parts in the order their lists were said; two lists answering one question share it.
 */
export function askParts(t: ThreadLine, own: readonly SourcedLine[], askedOf: ReadonlyMap<SourcedLine, string>): { under: SourcedLine[]; parts: AskPart[] } {
  const sorted = [...own].sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0));
  const parts: AskPart[] = [];
  // The messages each part holds: the question's, the answer's and the reply's; and the message of
  // its (first) list.
  const partOf = new Map<number, AskPart>();
  const listAt = new Map<AskPart, number>();
  const words = new Map<AskPart, Set<string>>();
  const headWords = new Set(topicWords(t.text));
  // The one question on the head's topic that its list answers under the head without a line of
  // its own: a second ("Do you have any favourite indie artists from Portland?" after the venues
  // there, under how Portland's artists promote their work) is told apart by its question.
  let onTopic: string | undefined;
  for (const f of sorted) {
    const ask = askedOf.get(f);
    if (!f.listed || ask === undefined) continue;
    if (t.text !== '' && (t.text.includes(ask) || ask.includes(t.text))) continue;
    if ((onTopic === undefined || onTopic === ask) && answersHead(t, ask)) {
      onTopic = ask;
      continue;
    }
    let part = parts.find((p) => p.ask === ask);
    if (!part) {
      part = { ask, at: f.at, facts: [] };
      parts.push(part);
      listAt.set(part, messageOf(f));
      words.set(part, new Set([...topicWords(ask), ...topicWords(f.text)].filter((w) => !headWords.has(w))));
    }
    const m = messageOf(f);
    for (const k of [m - 1, m, m + 1]) if (!partOf.has(k)) partOf.set(k, part);
  }
  const under: SourcedLine[] = [];
  for (const f of sorted) {
    const m = messageOf(f);
    // (Said later, a line goes on with the latest part before it when it names what that part's
    // question or list names beyond the head — "I'll probably order the KitchenAid Classic Plus"
    // after the stand mixers listed —, else it stands under the head: "I'll begin with a low-dose
    // probiotic" said of the probiotics, not of the foods for anxiety listed
    // before.)
    let part = partOf.get(m);
    if (!part) {
      const before = parts.filter((p) => (listAt.get(p) ?? Infinity) < m).at(-1);
      const mine = before && words.get(before);
      if (mine && topicWords(f.text).some((w) => mine.has(w))) part = before;
    }
    // (A line the question says is said by its line.)
    if (part && part.ask.includes(f.text)) continue;
    (part ? part.facts : under).push(f);
  }
  return { under, parts: parts.filter((p) => p.facts.length) };
}

/** Whether a list's question is the one a thread's head asks, or goes on with its topic: it shares
 * more than ON_TOPIC of its content words with the head ("Which foods or spices strengthen the
 * immune system?" under "What can I do to strengthen my immune system this winter?"). Such a list reads right under the head, and a line for its question costs what a
 * fact of the user's own would (LongMemEval recall at 1,000 0.610 → 0.511 with a line for every
 * list answering another question). */
export function answersHead(t: ThreadLine, ask: string): boolean {
  if (t.text === '') return false;
  if (t.text.includes(ask) || ask.includes(t.text)) return true;
  const words = topicWords(ask);
  const head = new Set(topicWords(t.text));
  // (Two words at least where it names more than two: "collectors" alone made the watch repairers
  // asked after the music appraisers read as appraisers.)
  const shared = words.filter((w) => head.has(w)).length;
  return shared > ON_TOPIC * words.length && (shared >= 2 || words.length <= 2);
}

/** A text's content words past the words of asking ("Do you know any reputable … I could reach
 * out to?" names watch repairers, not what "… music appraisers I could reach out to?" named). */
export function topicWords(text: string): string[] {
  return contentWords(text).filter((w) => !ASKING.has(w) && !GENERIC_WORDS.has(w));
}
const ASKING = new Set('know recommend recommended recommendation recommendations suggest suggestion suggestions tips tip advice reputable reach specific ideas idea options option good best great popular some any way ways wondering curious interested provide tell explain share list please thanks thank'.split(' '));
const ON_TOPIC = 0.3;

/** A follow-up's line: "- Asked: …" (`ask`: its question as shown), with its day when the head
 * names another or none (`shownDay`: the day the head names, '' for a span). */
export function askLine(part: AskPart, ask: string, shownDay: string): string {
  const day = part.at > 0 ? describeDay(part.at) : '';
  return day && day !== shownDay ? `- Asked, ${day}: ${ask}` : `- Asked: ${ask}`;
}

/** A head over its facts and the follow-up questions under it. */
export interface AskSection {
  line: ThreadLine;
  facts: SourcedLine[];
  asks: AskPart[];
}

/**
 * A thread laid out as sections: its head over the facts under it and the follow-ups asked the
 * same day. A follow-up asked on a later day — the thread came back — heads a section of its own
 * (readers found a later session's checklist under the earlier head, with only the day on its
 * line to tell). The head stays when nothing is said under it but a follow-up's list: "How can I
 * make my tennis serve more consistent?" says what "What about drills for my footwork?" was
 * about (as cheap in LongMemEval recall at 1,000 as giving way to the follow-up, 0.577).
 */
export function askSections(t: ThreadLine, own: readonly SourcedLine[], askedOf: ReadonlyMap<SourcedLine, string>): AskSection[] {
  const { under, parts } = askParts(t, own, askedOf);
  const sections: AskSection[] = [{ line: t, facts: under, asks: [] }];
  // (The head's day: the thread's first, whatever day the lines shown under it were said.)
  let day = dayOf(t.from || (under[0]?.at ?? 0));
  // The words said so far in the section: what a follow-up names when it goes on with it.
  // (With the words the thread said most, shown or not: "What about drills for my footwork and
  // agility?" goes on with the tennis serve whose answers spoke of footwork.)
  let said = new Set([t.text, ...under.map((f) => f.text)].flatMap((x) => topicWords(x)).concat(Object.keys(t.profile ?? {})));
  for (const part of parts) {
    const d = dayOf(part.at);
    // (Under a head with nothing of its own shown, the first follow-up goes under it whatever its
    // day, its line dated: a head alone over nothing says little.)
    const later = d !== '' && day !== '' && d !== day && (under.length > 0 || (sections[0] as AskSection).asks.length > 0);
    if (later || unrelated(part.ask, said)) {
      sections.push({ line: { ...t, text: part.ask, head: 'request' }, facts: part.facts, asks: [] });
      said = new Set();
      day = d;
    } else {
      const current = sections[sections.length - 1] as AskSection;
      // (The first follow-up under a head with nothing of its own sets the day the next go on in.)
      if (!current.facts.length && !current.asks.length && d !== '') day = d;
      current.asks.push(part);
    }
    for (const x of [part.ask, ...part.facts.map((f) => f.text)]) for (const w of topicWords(x)) said.add(w);
  }
  // Each head's span: the days of what is shown under it (the thread's first day for the first).
  sections.forEach((s, i) => {
    const ats = [...s.facts, ...s.asks.flatMap((p) => p.facts)].map((f) => f.at).filter((a) => a > 0);
    if (!ats.length) return;
    const from = i === 0 && t.from > 0 ? Math.min(t.from, ...ats) : Math.min(...ats);
    s.line = { ...s.line, from, to: Math.max(from, ...ats) };
  });
  return sections;
}

/**
 * A fact as shown under a head that says its first sentence: the rest of it ("### I want more
 * bands that sound like the ones I saw at the folk festival." over "- User: I've had them on
 * repeat all week …"), not the head again — readers counted the two as one thing said twice. Whole when the rest
 * would open on a pointer, or when nothing is left.
 */
export function pastHead(f: SourcedLine, head: string): SourcedLine {
  if (!head || f.listed || f.text.length <= head.length + 1 || !f.text.startsWith(head)) return f;
  const rest = f.text.slice(head.length).trimStart();
  if (rest === '' || rest.length === f.text.length - head.length || opensOnPointer(rest)) return f;
  return { ...f, text: rest };
}

/** A question that names nothing said before it in its section and leans on no pointer ("the two
 * countries", "this field"): another topic the thread's words joined to it ("Can you recommend any
 * tools to manage my business expenses?" after ad targeting), headed on its own, not read as a
 * follow-up of the head above it. */
function unrelated(ask: string, said: ReadonlySet<string>): boolean {
  // (A question naming one thing at most — "Could you suggest some cheaper options?" — says too
  // little to tell: it goes on with the head.)
  const words = topicWords(ask);
  return words.length >= 2 && !POINTS.test(ask) && !words.some((w) => said.has(w));
}
const POINTS = /\b(?:this|these|those|it|its|they|them|their|the two|the same|such|other|another|more)\b/i;

const dayOf = (at: number): string => (at > 0 ? describeDay(at) : '');
