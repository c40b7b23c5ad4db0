// What a sentence is worth beyond its words (the ranking's prior): who said it, about whom, and how.
// What the user says about themselves ranks far above an assistant's explanations (both sides count
// when two people are chatting); questions, short exclamations, remarks to the other side, markup
// and announcements rank lower; between two people an event outranks a reaction (salience.ts).
import type { Sentence } from './extract-sentences';
import { isRequestText } from './extract-goal';
import type { ConversationKind } from './record';
import { instructsAssistant, isReaction, opensOnPointer, profileRank, remarksOnAnswer, salienceOf, saysWhoTheyAre } from './salience';
import { ANNOUNCEMENT, FIRST_PERSON, MARKUP, QUESTION, SECOND_PERSON, SHORT_EXCLAMATION, traitsOf } from './traits';
import { wordCount } from './text';
import { memo, question } from './sentence-memo';

/** The user saying what they chose of what the answer offered ("I think I'll go with a warm white
 * LED bulb", "I've decided to take the Python course"): the outcome of the thread. */
const CHOICE = /\bI(?:['’]ll| will| think I['’]ll| am going to|['’]m going to)? (?:go with|going with|opt for|settle on|stick with)\b|\bI(?:['’]ve| have)? (?:decided|chosen|chose|picked|settled on|opted)\b/i;

/** Rank multiplier of a user's choice with an assistant (CHOICE): readers found the question kept and
 * the choice lost ("the 2700K bulb"). LongMemEval recall 0.447/0.589/0.779 → 0.457/0.589/0.781 at
 * 500/1,000/2,000 (single-session-assistant at 1,000 0.607 → 0.551: the user's lines take room). */
const CHOICE_RANK = 1.5;

/** The user saying what they will do with what the answer offered, in other words than choosing
 * ("I think I'll book a Strip View Room", "I'll check out Everlane and Cuyana", "I think I'll start
 * with Coursera", "I am leaning towards AWS"): a thread's outcome as well. Readers found these under
 * "About the user", away from the options they pick from. Not ranked up as CHOICE is (the user's
 * lines take an answer's room). */
const TAKES_UP =
  /\bI(?:['’]ll| will| think I['’]ll| think I will)(?: definitely| probably| first| likely)? (?:check (?:(\w+) )?out|start with|book|buy|order|take a closer look at|focus on|try out|look into|reach out to)\b|\bI(?:['’]m| am) leaning towards?\b/i;

/** What the user takes up names nothing when its object is a pointer or a word for any offer ("I'll
 * check them out!", "I'll check out those options.", "I'll definitely check out that performance!")
 * and no name is said with it: such a line is no outcome, and as a thread's latest it would hide one. */
const POINTS = /^(?:(?:some|all|one|any|each|a few) of )?(?:them|it|those|these|that|this|the ones?|your)\b/i;
const ANY_OFFER = /^(?:(?:some|all|a few|more) of )?(?:(?:some|all|the|more|a few|other)\s+)?(?:options?|suggestions?|recommendations?|resources?|ideas?|websites?|apps?|brands?|places?)\b/i;
/** A name after the sentence's first word (not "I"): "I like the sound of Depeche Mode, I'll …". */
const NAME = /[\s(](?!I\b)\p{Lu}|\d|["“]/u;
const named = (text: string): boolean => NAME.test(text.replace(/^\s*\S+/, ''));

/** Whether a text says in so many words that the user chose (CHOICE): the thread's outcome forced
 * into the facts' pool (thread-outcomes.ts). Forcing what the user takes up (TAKES_UP) as well cost
 * LongMemEval recall at 1,000, 0.596 → 0.544: "I think I'll start with a hybrid approach." took the
 * room of the user's own facts. */
export const saysChosen = (text: string): boolean => CHOICE.test(text) || GIVES_A_TRY.test(text);

/** The user choosing by trying what the answer offered, named ("I think I'll give Brooklyn
 * Nine-Nine a try."): not "I'll give it a try", which names nothing. (Case-sensitive: the name's
 * capital is what tells it.) */
const GIVES_A_TRY = /\bI(?:['’]ll| will| think I['’]ll| think I will)(?: definitely| probably)? give (?:[A-Z0-9"“][^\s]*\s+){1,6}a (?:try|shot|go)\b/;

/** Whether a text says what the user chose (CHOICE) or took up of the answer (TAKES_UP, naming it):
 * a thread's outcome, laid out under its head. */
export const isChoice = (text: string): boolean => {
  if (saysChosen(text)) return true;
  const m = TAKES_UP.exec(text);
  if (!m) return false;
  // (What it takes up: the words after the verb, and the one inside "check … out".)
  // (Up to the end of its sentence: a fact of two sentences names the next one's "It's …".)
  const object = `${m[1] ?? ''} ${text.slice(m.index + m[0].length).split(/[.!?](?:\s|$)/)[0]}`.trim();
  if (named(` ${object}`) || /^\p{Lu}/u.test(object)) return true;
  if (!/\w/.test(object) || ANY_OFFER.test(object)) return false;
  return !POINTS.test(object) || named(text.slice(0, m.index));
};

/** Boost of first-person sentences when both sides are people talking about their lives. */
const PERSONAL = 1.4;
/** A user message of this many sentences or more may hold pasted text (see priorOf), ranked at PASTED. */
export const PASTED_SENTENCES = 12;
const PASTED = 0.6;
/** Rank multiplier of a user's remark on an answer (salience.ts remarksOnAnswer): a third of the
 * first-person prior, so it ranks as any sentence of the user's. */
const REMARK_RANK = 1 / 3;
/** Rank multiplier of a sentence in which a speaker says who they are, between two people. */
export const IDENTITY_BOOST = 1.5;

/** What the prior reads of the whole compaction. */
export interface PriorContext {
  kind: ConversationKind;
  /** The last usable sentence's message index: later messages weigh slightly more. */
  lastMessage: number;
  /** Messages the user opened as pasted material (see pastedMessages), by index. */
  pasted?: ReadonlySet<number>;
}

/** A user message that opens by handing over text ("Here is the text: …", "Here are the candidate's
 * answers:", "Article: …"): what follows is someone else's words, whatever its pronouns — a job
 * candidate's "my favourite team" is no fact of the user's. */
const PASTE_MARKER =
  /^[^\p{L}]*(?:here(?:['’]s| is| are)\s+(?:(?:the|my|a|an|some|his|her|their|our)\s+)?(?:\w+['’]s\s+)?(?:\w+\s+)?(?:text|article|essay|e-?mail|letter|document|transcript|answers?|passage|story|paragraph|draft|abstracts?|script|review|post|content|copy|notes|resume|cv|description|lyrics|poem|chapter|excerpt|message|responses?)\b|(?:text|passage|article|transcript|abstract|essay|excerpt)s?\s*:)/iu;

/** The messages (by index) whose first sentence, the user's, hands over pasted text (PASTE_MARKER). */
export function pastedMessages(sentences: readonly Sentence[]): Set<number> {
  const out = new Set<number>();
  for (let i = 0; i < sentences.length; i++) {
    const s = sentences[i] as Sentence;
    if (s.index === 0 && s.role === 'user' && PASTE_MARKER.test(s.text)) out.add(s.message);
  }
  return out;
}

/** The prior of a speaker (`role`) saying a text of traits `t` (traits.ts); `talk`: two people. */
export function rolePrior(role: string | undefined, t: number, talk: boolean): number {
  let boost = role === 'user' ? (talk ? 1 : 1.15) : role === 'tool' ? 0.35 : 1;
  // What the user says about themselves is what no model can regenerate: with an assistant that
  // explains things, it ranks well above the explanations; between two people, both sides count.
  if (!(t & QUESTION) && t & FIRST_PERSON) {
    if (role === 'user') boost *= talk ? PERSONAL : 3;
    else if (talk && role === 'assistant') boost *= PERSONAL;
  } else if (t & SECOND_PERSON) {
    // Said to the other side about them ("you'll love it", "keep going, you're doing great"), not
    // about the speaker's own life or work: mostly reactions and advice.
    boost *= 0.7;
  }
  if (t & MARKUP) boost *= 0.3;
  if (t & ANNOUNCEMENT) boost *= 0.3;
  if (t & QUESTION) boost *= 0.55;
  else if (t & SHORT_EXCLAMATION) boost *= 0.6;
  return boost;
}

/** A reporter's sentence about the bug rather than their story: what is expected or happens
 * instead, or code it names (a code span, a dotted or snake_case name, a call). */
const REPORTS_BUG = /`|\w_\w|[a-z]\.[a-z]|\(\)|\b(?:expect(?:s|ed)?|should|instead|actual(?:ly)?|rather than|error|fails?|raises?|returns?)\b/i;
/** REPORTS_BUG of a user's sentence, asked once per sentence (sentence-memo.ts): the prior is
 * asked of every usable sentence by every compaction, and the pattern is tried at every position. */
const SAYS_BUG = question((s) => REPORTS_BUG.test(s.text), (s) => s.role === 'user' && !s.code);
/** Whether `text` (sentence `s` itself, a clause of it, or it with its referent) reports the bug. */
const reportsBug = (s: Sentence, text: string): boolean => (text === s.text ? memo(s, SAYS_BUG) : REPORTS_BUG.test(text));
/** The weight of an agent run's task sentence telling the reporter's story (see priorOf). */
const STORY_RANK = 0.4;

/** A sentence of an agent run's task telling the reporter's story ("I also reinstalled the package
 * from scratch.", "Hope these notes help with the fix."): first person, no question,
 * nothing of the bug (see REPORTS_BUG). In work through a shell no key fact: readers took these
 * for the task said again, beside the Goal and what the agent found. */
export function tellsStory(s: Sentence): boolean {
  return s.role === 'user' && !s.code && (s.traits & FIRST_PERSON) !== 0 && !(s.traits & QUESTION) && !REPORTS_BUG.test(s.text) && !ASKS_FOR_CHANGE.test(s.text);
}
/** A reporter's sentence asking for a change or saying why the bug happens ("I'd suggest to add
 * this CSS class", "it would be nice to be able to pass a custom parser", "… because they
 * compare as equal"): the task, not their story. */
const ASKS_FOR_CHANGE = /\b(?:suggest|propose|would (?:be|make) (?:it )?(?:nice|better|good|great|easier)|wish|want|need|because|add|pass|use|allow)\b/i;

/** The prior of sentence `s` shown as `text` (itself, a clause of it, or it with its referent). */
export function priorOf(s: Sentence, text: string, ctx: PriorContext): number {
  const { kind, lastMessage } = ctx;
  const talk = kind === 'talk';
  const t = text === s.text ? s.traits : traitsOf(text, wordCount(text));
  // In talk, a long user message's sentences that say nothing of the user are most likely text
  // they pasted (a document, an article): material to talk about, ranked like an explanation. (An
  // agent run's long first message is the task itself.)
  const handedOver = ctx.pasted?.has(s.message) === true;
  const pasted = kind !== 'work' && s.role === 'user' && ((s.of >= PASTED_SENTENCES && !(t & (FIRST_PERSON | QUESTION))) || handedOver) ? PASTED : 1;
  // Between two people, what happened (an event) outranks how someone felt about it (a
  // reaction). (With an assistant it moved nothing but recall: LongMemEval at 500, 0.43 → 0.38.)
  // With an assistant, "I had no idea that …" remarks on the answer: first person, no fact of the
  // user's own (ranked as a plain sentence of theirs, not as what they told of themselves).
  const salience = talk ? salienceOf(text) : s.role === 'user' && kind === 'assist' ? (remarksOnAnswer(text) ? REMARK_RANK : saysChosen(text) ? CHOICE_RANK : 1) : 1;
  // (Handed-over text's "I" and "my" are its author's: no first-person weight for the user. Nor is
  // an agent run's task the user telling about themselves: its "I tried to update from 2.0.13 …"
  // is the reporter's story, and readers found it crowding out what the agent found.)
  // (A reporter's sentence about the bug — "I expect the order to be DESC" — keeps it: what they
  // expected is theirs to say.)
  const ownFirst = handedOver || (kind === 'work' && s.role === 'user' && !reportsBug(s, text));
  // (Its sentences of what the reporter did — "I also reinstalled the package from scratch" — rank
  // below those of the bug: what is expected and what happens, and the code they name.)
  const story = kind === 'work' && s.role === 'user' && (t & FIRST_PERSON) !== 0 && !(t & QUESTION) && !reportsBug(s, text) ? STORY_RANK : 1;
  return story * rolePrior(s.role, ownFirst ? t & ~FIRST_PERSON : t, talk) * pasted * salience * (1 + 0.1 * (lastMessage ? s.message / lastMessage : 0));
}

/** The user telling about themselves (SourcedLine.about) — not in a long message they pasted (a
 * candidate's answers, a prompt template), nor a request: what they asked is not what they are. */
export function tellsAboutUser(s: Sentence, text: string, pasted?: ReadonlySet<number>): boolean {
  return s.role === 'user' && !pasted?.has(s.message) && (s.traits & FIRST_PERSON) !== 0 && (s.traits & QUESTION) === 0 && s.of < PASTED_SENTENCES && !isRequestText(text) && !remarksOnAnswer(text) && !instructsAssistant(text) && readsAsUsersOwn(text);
}

/** Curiosity, thanks for the answer, advice to the reader and remarks on what the answer offered
 * are about the answer or the reader, not the user (nor is telling the assistant to let them know): "I'm curious to know how he plans …", "Thanks
 * for the contact details of the tourism board", "For your coin, I recommend reaching out to PCGS", "it
 * might be one of the first two options you mentioned". */
const NOT_OWN = /^(?:\w+[,!]?\s+)?(?:I['’]m (?:really |so |just )?(?:curious|wondering)\b|I wonder\b)|^(?:\w+[,!]?\s+)?(?:thanks|thank you)\b|\blet me know\b|^(?=[^.!?]*\byour?\b)(?:[^.!?]*,\s*)?I(?: would|['’]d)? (?:recommend|suggest|advise)\b|\b(?:options|tips|ideas|ones|suggestions)? ?you (?:mentioned|suggested|provided|listed|recommended|gave|shared)\b/i;

/** A person pointed at ("he", "them") before anyone is named ("Last time I checked up on him …"). */
const PERSON_POINTER = /\b(?:he|him|she|her|they|them)\b/i;
const NAMED_BEFORE = /\b(?:my|the|a|an|our|his|her|their|this|that)\s+\w|\s\p{Lu}[\p{Ll}]/u;

/** Whether a first-person sentence (with its referent, when joined to one) reads as the user's own
 * fact under "About the user": its "I" outside what it quotes ("The phrase 'I think therefore I
 * exist'"), not curiosity, thanks nor advice (NOT_OWN), and no person pointed at before anyone is
 * named ("Last time I checked up on him …") — those stand under their thread's head instead.
 * (Leaving out of it the sentences that point early at a thing, "I've already got it hung up",
 * cost LongMemEval recall at 1,000, 0.598 → 0.583: most of them say the user's own facts.) */
export function readsAsUsersOwn(text: string): boolean {
  if (NOT_OWN.test(text)) return false;
  if (/["“”«»]/.test(text) && !/\b(?:I|I['’](?:m|ve|d|ll)|my|me|mine)\b/.test(text.replace(/"[^"]*"|“[^”]*”|«[^»]*»/g, ' '))) return false;
  // (A short sentence leaning on a thing it does not name, and naming nothing else — "I'm hoping
  // with more practice, it'll become second nature." — says nothing of the user on its own.)
  if (wordCount(text) <= SHORT_VAGUE && THING_POINTER.test(text) && !/\d|\s\p{Lu}/u.test(text)) return false;
  const pointer = PERSON_POINTER.exec(text);
  return !pointer || NAMED_BEFORE.test(text.slice(0, pointer.index));
}

/** A thing pointed at ("it'll", "them", "that one"), and the words under which a sentence leaning
 * on one says too little to stand for the user. */
const THING_POINTER = /\b(?:it|it['’]s|it['’]ll|them|those|these|that one|this one)\b/i;
const SHORT_VAGUE = 12;

/** Between two people (`talk`), a speaker saying who they are: what a reader needs first. */
export function tellsIdentity(s: Sentence, text: string, talk: boolean): boolean {
  return talk && (s.traits & FIRST_PERSON) !== 0 && saysWhoTheyAre(text);
}

/** Between two people (`talk`), a speaker saying what they own, run or work as (salience.ts
 * profileRank): laid out under "About <name>" without ranking higher (broadening the identity boost
 * cost LoCoMo recall). */
export function tellsProfile(text: string, talk: boolean): boolean {
  return talk && profileRank(text) > 0 && !opensOnPointer(text) && !isReaction(text);
}

/** Whether a sentence that tells who its speaker is (tellsIdentity) also reads as that under
 * "About <name>": "That's why I love my job …" after "Seeing them perform must've been awesome"
 * answers the other's news. (It still ranks as identity: grouping it elsewhere is what readers
 * asked for; ranking it down cost LoCoMo recall, 0.558 → 0.548 at budget 1,000.) */
export function readsAsIdentity(s: Sentence, text: string): boolean {
  return !opensOnPointer(s.text) && !isReaction(text);
}
