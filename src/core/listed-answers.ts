// The assistant's answers that hold a list, among the removed messages, each as its items' heads
// (answer-shape.ts) with the request it answers — the user's question or request in the message
// just before it — which heads the list's thread when only keyword phrases did (headByAsked). A
// line "- Asked: …" beside each list cost a thread's line of room (LongMemEval at 1,000, recall
// 0.554 → 0.585 without it, threads shown unchanged): the thread's head says what was asked. Pure.
import { codeAnswerOf, listHeadsOf } from './answer-shape';
import { isRequestText } from './extract-goal';
import type { Sentence } from './extract-sentences';
import type { ListedAnswer } from './fact-candidates';
import type { ChatMessage } from './messages';
import type { ThreadLine } from './record';
import { opensOnPointer } from './salience';
import { confirmsAnswer } from './thread-outcomes';
import { QUESTION } from './traits';
import { contentWords } from './word-scan';

/** The assistant's answers that hold a list, as their items' heads (answer-shape.ts), each with
 * the request it answers: the user's request or question in the message just before it. */
export function listedAnswers(removed: readonly ChatMessage[], sentences: readonly Sentence[]): ListedAnswer[] {
  const out: ListedAnswer[] = [];
  const atOf = new Map<number, number>();
  const askedOf = new Map<number, string>();
  const rejected = new Set<number>();
  const intentOf = new Map<number, string>();
  const firstOf = new Map<number, string>();
  // (What a request leaning on a pointer at its end points at: the user's sentence before it.)
  const pointedAt = new Map<number, string>();
  let before: Sentence | undefined;
  for (const s of sentences) {
    if (!firstOf.has(s.message)) firstOf.set(s.message, s.text);
    const prior = before?.message === s.message && before.role === 'user' ? before : undefined;
    before = s;
    // ("I've heard Lake Bohinj is a must-see, but I'm not sure how to get there from the
    // city. Can you help me with that?": the list of ways there answers the sentence the question
    // points at, not the trip to Sydney the user opened with, which headed it before — readers
    // could not tell what the options were options for. Not a sentence naming its own subject
    // by "they": "… curious about how they handle the other costs".)
    if (s.role === 'user' && prior && !pointedAt.has(s.message) && !askedOf.has(s.message) && s.traits & QUESTION && leansOnPointer(s.text) && prior.wc <= ASKED_WORDS && contentWords(prior.text).length >= 3 && !opensOnPointer(prior.text) && !/\b(?:they|them|their)\b/i.test(prior.text)) pointedAt.set(s.message, prior.text);
    if (!atOf.has(s.message)) atOf.set(s.message, s.at);
    // (The reply's opening two sentences: "Honestly, none of those are really doing it for me.")
    if (s.role === 'user' && s.index < 2 && rejects(s.text)) rejected.add(s.message);
    // (A question that leans on what came before, "Do you think they're worth it?", says too little.)
    if (s.role === 'user' && !askedOf.has(s.message) && s.wc <= ASKED_WORDS && (s.traits & QUESTION || isRequestText(s.text)) && contentWords(s.text).length >= 3 && !opensOnPointer(s.text) && !leansOnPointer(s.text) && !asksForMore(s.text)) askedOf.set(s.message, s.text);
    // (Else what the user said they were about to do before it: "Now, I'm thinking of scheduling
    // a maintenance check for my road bike." before a question too long to head anything.)
    if (s.role === 'user' && !intentOf.has(s.message) && !askedOf.has(s.message) && s.wc <= ASKED_WORDS && INTENT.test(s.text) && contentWords(s.text).length >= 3 && !opensOnPointer(s.text)) intentOf.set(s.message, s.text);
  }
  // (A question that leans on what it does not name — "Can you recommend some affordable
  // options?" — says less than the user's plan before it: "I'm planning to buy some new cookware
  // online and I'm on a budget.")
  for (const [m, text] of intentOf) if (!askedOf.has(m) || VAGUE.test(askedOf.get(m) as string)) askedOf.set(m, text);
  // (Below what the user said they were about to do: "I'm thinking about getting an electric car and I'd
  // like to know more about the running costs of the two models I shortlisted." says more
  // than a remark on one figure the question after it points at.)
  // A sentence saying what the user does not know ("I'm not sure how to get there from the station")
  // is the need itself, and goes first.
  for (const [m, text] of pointedAt) if (!askedOf.has(m) || NEED.test(text)) askedOf.set(m, text);
  removed.forEach((m, i) => {
    if (m.role !== 'assistant') return;
    // (Else the command or query it gave, when its one code block is one line and the user asked
    // for it in the message before.)
    const list = listHeadsOf(m);
    const code = list.length || removed[i - 1]?.role !== 'user' ? '' : codeAnswerOf(m);
    const heads = code ? [code] : list;
    // A list the user turned down in their reply is no answer they will come back for.
    if (!heads.length || (removed[i + 1]?.role === 'user' && rejected.has(i + 1))) return;
    // Nor a list of guesses the answer after the user's reply says missed: the assistant's yes to
    // what the user put forward instead, naming none of them ("Yes, "Gary Niami" is indeed an
    // anagram of the word "imaginary."" after "Grainy; Rangy; …"). Readers met the wrong guesses
    // kept, the right answer lost.
    if (removed[i + 1]?.role === 'user' && removed[i + 2]?.role === 'assistant' && missed(heads, firstOf.get(i + 2) ?? '')) return;
    const asked = removed[i - 1]?.role === 'user' ? askedOf.get(i - 1) : undefined;
    out.push({ id: m.id, at: atOf.get(i) ?? (m.createdAt > 0 ? m.createdAt : 0), message: i, heads, ...(asked ? { asked } : {}) });
  });
  return out;
}

/** Whether an answer's first sentence confirms something (thread-outcomes.ts confirmsAnswer)
 * that none of the list's heads names. */
function missed(heads: readonly string[], confirm: string): boolean {
  if (!confirmsAnswer(confirm)) return false;
  const said = confirm.toLowerCase();
  return !heads.some((h) => {
    const bare = h.replace(/\s*\(.*$/u, '').replace(/["“”'‘’]/g, '').trim().toLowerCase();
    // (As whole words: "Imag" is no name of "imaginary".)
    // (No lookbehind: iOS before 16.4 cannot parse one — the bundle check refuses it.)
    return bare !== '' && new RegExp(`(?:^|[^\\p{L}\\p{N}])${bare.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}])`, 'u').test(said);
  });
}

/** A reply turning down the options just given ("none of those suggestions are doing it for me",
 * "I'm not interested in any of those", "that's not what I'm looking for"). */
const REJECTS = /\b(?:none of (?:those|these|them|the above|your)|not (?:really )?interested in (?:any of )?(?:those|these|them)|(?:don['’]t|do not) (?:really )?(?:like|want|care for) (?:any of )?(?:those|these|them)\b(?! (?:\w+ )?(?:too|as well|both))|not (?:quite )?what I(?:['’]m| am| was) looking for|(?:those|these) (?:don['’]t|do not) (?:really )?(?:appeal|interest|work for) me)/i;
export const rejects = (text: string): boolean => REJECTS.test(text);

/** The user saying what they are about to do or look for: what a list after it answers. */
const INTENT = /^(?:\w+,\s+)?I(?:['’]m| am) (?:thinking of|planning|looking for|looking to|trying to|considering|interested in|hoping to)\b|^(?:\w+,\s+)?I(?:['’]d| would) (?:like|love) to\b|^(?:\w+,\s+)?I want to\b/i;

/** A question asking for more of what the answer before gave ("Are there any other hidden gems
 * that you can recommend?", "how many more unique forms do you have?", "What's the most popular
 * book among these recommendations?", "the artist lived before Dali. can you try again?"): as a
 * thread's head it names nothing the thread is about — readers met it over lists they could not
 * place, the question the list answers lost. One pointing back by "these" / "those" / "the above"
 * / "again" in five content words or fewer, or asking for "other" / "more" / "else" in three or fewer. */
export function asksForMore(text: string): boolean {
  const words = contentWords(text).length;
  // (One naming what it asks for beside the pointer — "websites or stores where I can find these
  // types of gifts" — still heads its list.)
  // ("Can you tell me a bit more about Parks and Recreation?" names what it asks more of by its name:
  // its cast list headed by the TV shows asked for before it read as a list of shows.)
  return (POINTS_BACK.test(text) && words <= POINTING_WORDS) || (MORE.test(text) && words <= MORE_WORDS && !MORE_ABOUT.test(text));
}
/** "more about" a name ("… about Brooklyn Nine-Nine", not "… about the hotel" the answer named). */
const MORE_ABOUT = /\bmore (?:about|on) \p{Lu}/u;
const POINTS_BACK = /\b(?:these|those|the above|the same|again|another one|instead)\b/i;
const MORE = /\b(?:other|others|more|else|another)\b/i;
const MORE_WORDS = 3;
const POINTING_WORDS = 5;

/** A request ending on a pointer ("Can you help me with that?", "… would go well with it?"), or
 * asking of a pointer ("Don't they care about …?", "Is it worth …?"): it names its subject by the
 * sentence before it, which heads its list instead — readers met "Don't they care about the
 * future of our planet?" over a list they could not place. */
const LEANS_END = /\b(?:that|this|it|them|those|these)\s*[?.!]*$/i;
const LEANS_START = /^(?:\w+,\s+)?(?:do|does|did|don['’]t|doesn['’]t|didn['’]t|are|aren['’]t|is|isn['’]t|can|could|will|would|should|were|was) (?:they|it|these|those|that)\b/i;
/** A sentence saying what the user does not know or needs help with. */
const NEED = /\b(?:not sure|unsure|(?:don['’]t|do not) know|no idea|need (?:some )?(?:help|advice|tips))\b/i;
/** Content words a request ending on a pointer may have to lean on it: one with more names its
 * subject ("… the different kinds of climbing ropes and … store them safely?"). */
const LEANING_WORDS = 4;
export const leansOnPointer = (text: string): boolean => LEANS_START.test(text) || (LEANS_END.test(text) && contentWords(text).length <= LEANING_WORDS);

/** A question that names its subject by a pointer or a word for any kind of thing. */
const VAGUE = /\b(?:they|them|it|these|those|this|options|ones)\b/i;

/** Words a request shown beside its list may have: a longer one is a paragraph, not a label. */
const ASKED_WORDS = 24;

/**
 * A thread of this round headed by its phrases, with an answer list the user asked for in it: headed
 * by that request instead (the first), in the user's words. Keyword heads did not describe the lines
 * under them; the request says what the thread's list answers. In place.
 */
export function headByAsked(threads: ThreadLine[], answers: readonly ListedAnswer[], removed: readonly ChatMessage[], threadOf: ReadonlyMap<string, number>, round: number): void {
  for (const a of answers) {
    const t = threads.find((x) => x.id === threadOf.get(a.id));
    const asker = removed[a.message - 1];
    if (!t || !a.asked || !asker || t.round !== round || (t.head === 'request' && t.text)) continue;
    t.text = a.asked;
    t.head = 'request';
    t.sources = [asker.id];
  }
}
