// Which head a thread's shown facts stand under (with an assistant): the question the first shown
// list answers when none answers the thread's head, and a part of its own for a later list asked
// on another day or about another topic. Pure; FactLayout.lines (thread-format.ts) calls it.
import { describeDay } from './dates';
import type { SourcedLine, ThreadLine } from './record';
import { contentWords } from './word-scan';

/** A fact's order key (SourcedLine.seq) counts a message as this much. */
const SEQ_MESSAGE = 1e4;

/**
 * The thread as headed over the facts shown under it: when a list shown there answers another
 * question than the head and none shown answers the head's, the head is the question the first
 * such list answers, in the user's words — readers took bird-call apps for the tour operators the
 * head asked about. (A line "- Asked: …" beside the list said the same at a line's cost:
 * LongMemEval recall at 1,000 0.602 → 0.538.)
 */
export function headFor(t: ThreadLine, own: readonly SourcedLine[], askedOf: ReadonlyMap<SourcedLine, string>): ThreadLine {
  let other = '';
  let from = 0;
  // (In the order said: the first list's question heads the thread, not the best-ranked one's —
  // readers found a city's venues under the head of how its musicians promote their work, a later
  // list of its musicians under a part of its own. A later list on the same topic stays under the
  // first's question (laterAsked): a head line for every later list cost LongMemEval recall at
  // 1,000, 0.610 → 0.594.)
  for (const f of [...own].sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0))) {
    const asked = askedOf.get(f);
    if (asked === undefined) continue;
    // (A head of no words answers nothing: the list's question heads it.)
    if (t.text && (t.text.includes(asked) || asked.includes(t.text))) return t;
    if (!other) {
      other = asked;
      from = f.seq ?? 0;
    }
  }
  // (Not when a line shown under the head was said before that question was asked, at the message
  // before the list: "I think I'll go with the Lezyne light" stays under the bike lights it chose
  // from, not under the maintenance check asked two days later, and a line on the sextant under the
  // navigation tool it was said of, not under the watch repairers asked of next; laterAsked gives
  // the list its own head. Keeping those lines under the head with the list, unsplit, cost
  // LongMemEval recall at 1,000, 0.597 → 0.581; split, 0.598 → 0.600, at 2,000 0.767 → 0.758.)
  if (t.text && own.some((f) => (f.seq ?? 0) < from - SEQ_MESSAGE)) return t;
  return other ? { ...t, text: other, head: 'request' } : t;
}

/**
 * A thread's facts as laid out under heads: a list shown under the thread that answers another
 * question than its head, asked after a line shown there, heads the facts from it on by that
 * question ("Now I want a service check for my road bike" two days after the bike lights
 * chosen under their head): readers found a later session's checklist under the earlier head, with
 * only the day on its line to tell. Else the thread whole under its head.
 */
export function laterAsked(t: ThreadLine, own: readonly SourcedLine[], askedOf: ReadonlyMap<SourcedLine, string>, headed = false): [ThreadLine, SourcedLine[]][] {
  const sorted = [...own].sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0));
  // (On the same day too, when the question shares next to nothing with the head: "Do you have
  // any recommendations for photographers?" asked after the party's theme was chosen, its tips
  // read as theme ideas under the theme's head. A follow-up on the head's topic — "What are some
  // other wheel options …?" — stays under it: splitting those too cost LongMemEval recall at 2,000,
  // 0.778 → 0.759, a head line each.)
  const firstDay = sorted[0] && sorted[0].at > 0 ? describeDay(sorted[0].at) : '';
  const answers = (asked: string): boolean => t.text.includes(asked) || asked.includes(t.text);
  // (And whenever no list shown answers the head: the lines before the list stay under the head
  // they were said under — headFor keeps it then — and the list goes under its own question.)
  const headAnswered = sorted.some((f) => {
    const asked = askedOf.get(f);
    return asked !== undefined && answers(asked);
  });
  const at = sorted.findIndex((f, i) => {
    const asked = askedOf.get(f);
    if (i === 0 || asked === undefined || answers(asked)) return false;
    // (Under a head that is the first list's question — headFor —, a later list on another topic
    // asked that day: "Did the host city also train volunteers … ?" read as the head of
    // the games' security measures. At most HEADED_OVERLAP shared, so a follow-up on the first
    // list's topic stays under it: LongMemEval recall unchanged, 0.610/0.753 at 1,000/2,000.)
    return !headAnswered || (headed && sharesLittle(asked, t.text, HEADED_OVERLAP)) || (f.at > 0 && firstDay !== '' && describeDay(f.at) !== firstDay) || sharesLittle(asked, t.text);
  });
  if (at <= 0) return [[t, sorted]];
  const split = sorted[at] as SourcedLine;
  const before = sorted.slice(0, at);
  const lastBefore = Math.max(...before.map((f) => f.at));
  return [
    [{ ...t, to: Math.max(t.from, lastBefore) }, before],
    [{ ...t, text: askedOf.get(split) as string, head: 'request', from: split.at, to: Math.max(split.at, t.to) }, sorted.slice(at)],
  ];
}

/** Whether a question shares at most SAME_DAY_OVERLAP of its content words with a head (another
 * topic asked on the same day). */
function sharesLittle(asked: string, head: string, overlap = SAME_DAY_OVERLAP): boolean {
  const words = contentWords(asked);
  if (!words.length) return false;
  const headWords = new Set(contentWords(head));
  return words.filter((w) => headWords.has(w)).length <= overlap * words.length;
}
/** With a head that is its first list's question, the share of a later list's question's words
 * that head may hold at most for the later list to head a part of its own. */
const HEADED_OVERLAP = 0.3;
const SAME_DAY_OVERLAP = 0.1;
