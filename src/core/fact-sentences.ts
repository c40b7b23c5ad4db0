// Which sentences may become key facts: whole sentences of prose said by the user or the assistant,
// that read on their own line. A sentence opening on a pointer ("It's a book by …") goes with the
// sentence before it in its message, which says what it points at, or is no fact; an assistant
// narrating its next step is no fact either. The ranking (extract-facts) reads only what is left.
import { thinksAloud } from './agent-prose';
import type { Sentence } from './extract-sentences';
import { buildsOn, goesOn, onlyShows, opensOnPointer, pointsEarly } from './salience';
import { userConfirms } from './thread-outcomes';
import { STANDS_ALONE, assistantProse, cued, mayHold, memo, prose, question } from './sentence-memo';
import { ANNOUNCEMENT, NARRATION, SHORT_EXCLAMATION } from './traits';

/** Longest fact in words. A fact is a whole sentence, never a cut one: a longer sentence is left
 * out (its value per token is low, and a cut sentence reads as a fragment). */
export const MAX_WORDS = 80;
/** Words a list item may have and still be only a name (see factSentence). */
const ITEM_WORDS = 7;
/** Whether most of a text's words open on a capital or a digit, as a name or title does. */
function nameLike(text: string): boolean {
  const words = text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w));
  return words.filter((w) => /^[^\p{L}\p{N}]*[\p{Lu}\p{N}]/u.test(w)).length * 2 > words.length;
}

/** An agent announcing or taking a step, wherever the sentence goes on after it. */
const AGENT_STEP = /\blet(?: me|['’]s)\b|^(?:(?:now|first|next|then|ok(?:ay)?|great|good|perfect),?\s+)?(?:I need to|I['’]ll|I will|I should|I am going to|I['’]m going to|we need to)\b/i;

/**
 * Whether a sentence may be a key fact: a whole sentence of prose said by the user or the
 * assistant (tool output is evidence for files and errors, not a source of facts; system text is
 * standing instructions, not conversation), five words or more, that reads on its own line — not
 * a lead-in whose announced content is elsewhere, not a table row, markup balanced, not the
 * assistant announcing its next step.
 */
export function isFactSentence(s: Sentence): boolean {
  return memo(s, FACT_SENTENCE);
}
function factSentence(s: Sentence): boolean {
  if (s.code || s.template || (s.role !== 'user' && s.role !== 'assistant') || s.wc < 5 || s.wc > MAX_WORDS) return false;
  // (Three words of content at least; the user naming which guess was right — "Yes it is the
  // Arnolfini portrait." — says its two.)
  if (s.keyCount < 3 && !(s.role === 'user' && s.keyCount >= 2 && userConfirms(s.text))) return false;
  // A list item that is a short name ("- Converse Chuck Taylor All Star"): most of its words
  // capitalised, no stop of its own. ("- The user changes their email address" is a step.)
  if (s.item && s.wc <= ITEM_WORDS && !/[.!?]["'”’)\]]*$/u.test(s.text) && nameLike(s.text)) return false;
  // The assistant narrating its next step ("Let me read your note first."): the step's outcome is
  // the fact. Longer "let me" sentences may still tell something and are only ranked down.
  if (s.role === 'assistant' && s.traits & ANNOUNCEMENT && s.wc < 10) return false;
  // A sentence that opens on a method (".annotate() on two querysets.") reads, after the speaker's
  // label, as a colon followed by a stop: the line of code it went with is gone.
  // Nor a sentence that only shows a picture ("Here's my latest one! [shares a photo: …]").
  return !s.text.startsWith('.') && memo(s, STANDS_ALONE) && !onlyShows(s.text);
}
// (Answers about a sentence alone, asked once per sentence: sentence-memo.ts.)
const FACT_SENTENCE = question(factSentence);
const OPENS_ON_POINTER = question((s) => opensOnPointer(s.text), prose);
/** (pointsEarly needs one of its pointers as a word.) */
const mayPointEarly = mayHold(['it', 'this', 'that', 'them', 'these', 'those', 'him', 'her']);
const LEANS_BACK = question((s) => (mayPointEarly(s) && pointsEarly(s.text)) || goesOn(s.text), prose);
const GOES_ON_TEXT = question((s) => goesOn(s.text), prose);
const BUILDS_ON_TEXT = question((s) => buildsOn(s.text), prose);
const AGENT_STEP_TEXT = question(cued(AGENT_STEP, ['let', 'lets']), assistantProse);

/** The sentence a pointer-led sentence (sentences[i]) leans on: the one before it in the same
 * message, when that is prose that does not itself open on a pointer and is more than a short
 * exclamation ("Wow! It's …" says no more than "It's …"); `talk`: between two people. */
export function referentOf(sentences: readonly Sentence[], i: number, talk = false, work = false): Sentence | null {
  const s = sentences[i] as Sentence;
  const before = sentences[i - 1];
  if (!before || before.id !== s.id || before.index !== s.index - 1) return null;
  if (before.code || before.template || before.keyCount < 2 || before.traits & SHORT_EXCLAMATION) return null;
  // (Nor an agent thinking aloud or announcing a step: "Now I need to understand the issue better."
  // or "Let me look at the output again." says nothing "The problem is that …" leans on.)
  // (Between two people, nor one that itself goes on from the sentence before it: "But it's all
  // sorted now." would open the line, its first half gone. LoCoMo recall at 1,000 0.538 → 0.545;
  // with an assistant it cost LongMemEval at 500, 0.447 → 0.431.)
  // (Nor, with an assistant, its pleasantry: "Thank you for sharing the findings. It's interesting
  // to see …" is no fact with it or without.)
  if (!talk && before.role === 'assistant' && PLEASANTRY.test(before.text)) return null;
  // (At work, nor a "But …": a candidate carries one sentence before it, and "But we're getting
  // ASC. The difference is …" opened on a contrast whose first half was gone; "… was added to fix
  // X. However, if Y, … Then …" reads on.)
  if (work && !talk && BUT.test(before.text)) return null;
  // (Nor, with an assistant, one that builds on the sentence before it: "Others focus on … There
  // are also disagreements …" opened on the half of a contrast whose first half was gone.)
  // (Nor, with an assistant, one that itself leans early on what it does not name: "I've already
  // got it hung up …" took a "Plus, it's …" after it, both about a thing named nowhere.)
  if (memo(before, OPENS_ON_POINTER) || (talk && memo(before, GOES_ON_TEXT)) || (!talk && !work && (memo(before, BUILDS_ON_TEXT) || leansEarly(before.text))) || !memo(before, STANDS_ALONE) || thinksAloud(before) || (before.role === 'assistant' && memo(before, AGENT_STEP_TEXT))) return null;
  return before;
}

/** The sentences that may be facts, in order, and for those that lean on the sentence before them,
 * that sentence. */
export interface UsableSentences {
  usable: Sentence[];
  referents: Map<Sentence, Sentence>;
}

/** The fact sentences of a conversation, each pointer-led one with its referent (or left out). */
export function usableSentences(sentences: readonly Sentence[], talk = false, work = false): UsableSentences {
  // (Indexed loops over the sentences: a for-of here was seen to allocate an iterator result per
  // sentence.)
  const usable: Sentence[] = [];
  // A sentence that opens on a pointer ("It's a book by …", "He is one of …") is a fact only with
  // the sentence before it in the same message, which says what it points at; without one, it is
  // no fact (a reader cannot tell what it is about).
  const referents = new Map<Sentence, Sentence>();
  for (let i = 0; i < sentences.length; i++) {
    const s = sentences[i] as Sentence;
    if (!isFactSentence(s)) continue;
    // (With an assistant, the user naming which guess was right — "Yes it is the Arnolfini
    // portrait." — stands under its thread's head, after the guesses: thread-outcomes.ts.)
    if (!talk && !work && s.role === 'user' && userConfirms(s.text)) {
      usable.push(s);
      continue;
    }
    if (memo(s, OPENS_ON_POINTER)) {
      const before = referentOf(sentences, i, talk, work);
      if (!before) continue;
      referents.set(s, before);
    } else if (!talk && !work && memo(s, BUILDS_ON_TEXT)) {
      // "Similarly, …", "Others focus on …": with the sentence it builds on, or no fact (away
      // from it, the line compares with nothing).
      const before = referentOf(sentences, i, talk, work);
      if (!before) continue;
      referents.set(s, before);
    } else if (memo(s, LEANS_BACK)) {
      // "I got it from another artist as a gift": what "it" is, the sentence before says; "And
      // there's a chance I'll visit more" goes on from it. With it when there is one; alone a
      // pointer stays a candidate (ranking both down cost LoCoMo recall at budget 2,000: 0.709 →
      // 0.692), a "But …" whose first half cannot be carried ("Not yet, been busy. But …") is none.
      // With an assistant, a pointer said early without its referent is none either: "I've
      // already got it hung up in my living room" under "About the user" named nothing.
      const before = referentOf(sentences, i, talk, work);
      if (before) referents.set(s, before);
      else if (memo(s, GOES_ON_TEXT) || (!talk && !work && leansEarly(s.text))) continue;
    }
    usable.push(s);
  }
  return { usable, referents };
}

/** "it", "them" or "him" in a sentence's first six words, as an object ("I've already got it hung up"):
 * a thing named before. ("her", "this", "that" there are as often a determiner: "relied on her
 * husband".) */
const EARLY_IT = /^(?:\S+\s+){1,5}(?:it|them|him)\b(?!\s+(?:is|was|'s|’s)\b)/i;

/** "their", "his" or "her" in a sentence's first five words with no name before it ("I've been
 * listening to their songs a lot"): whose, the sentence before said. ("Queen Juliana relied on her
 * husband" names her.) */
const EARLY_WHOSE = /^((?:\S+\s+){1,4})(?:their|his|her)\b/i;

/** Whether a sentence leans, in its first words, on a thing or person it does not name. */
function leansEarly(text: string): boolean {
  if (EARLY_IT.test(text)) return true;
  const m = EARLY_WHOSE.exec(text);
  // (A capital after the first word, other than "I", is a name.)
  return m !== null && !/\s(?!I\b|I['’])\p{Lu}/u.test(` ${(m[1] as string).replace(/^\s*\S+/, '')}`);
}

/** A contrast opening a sentence: its first half is the sentence before it. */
const BUT = /^but\b/i;

/** An assistant's pleasantry opening a sentence: thanks, praise of the user's plan, gladness. */
const PLEASANTRY = /^(?:thank you|thanks|you['’]re welcome|(?:it['’]s|it is|that['’]s|that is) (?:great|wonderful|fantastic|awesome|amazing|so great|really great) (?:to hear|that you|you['’]re|you are)|i['’]m (?:so |really )?(?:glad|happy|thrilled) (?:to hear|you|that you)|what a (?:great|wonderful|fantastic|lovely) (?:idea|question|plan))\b/i;

/** A sentence wholly in square brackets. */
const STAGE_DIRECTION = /^\[[^\]]*\][.!?]?$/u;

/** Leaves out, in place, the assistant's sentences that narrate its next step ("Now let me look at
 * …", "I'll start by exploring the codebase …"): they tell nothing the step's outcome does not. At
 * work (`atWork`) a longer "Let me explore the models directory since …" is the step too. */
export function dropNarration(usable: Sentence[], atWork: boolean): void {
  let kept = 0;
  for (let i = 0; i < usable.length; i++) {
    const s = usable[i] as Sentence;
    // (At work, a longer "Let me explore the models directory since …" or "I need to call
    // django.setup()." is the step, not what it found.)
    // (With an assistant, a sentence wholly in brackets — "[Fade to black, and the title appears.]"
    // — is a stage direction of a script it wrote, no fact.)
    // (With an assistant, nor its pleasantries: "Thank you for sharing the detailed findings …",
    // "It's great to hear that …" say nothing the user will come back for.)
    const narrates = s.role === 'assistant' && (s.traits & (NARRATION | ANNOUNCEMENT) || (atWork && (memo(s, AGENT_STEP_TEXT) || thinksAloud(s))) || (!atWork && (STAGE_DIRECTION.test(s.text) || PLEASANTRY.test(s.text))));
    if (!narrates) usable[kept++] = s;
  }
  usable.length = kept;
}
