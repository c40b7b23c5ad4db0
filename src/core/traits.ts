// What a sentence's form says about it, as bits: a question, a short exclamation, the speaker
// talking about themselves or to the other side, markup. Ranking (extract-facts) and the summary
// rules (extract-summary) read them; the sentence pass computes them once per sentence.
import { isSpaceCode } from './text';
import { markupCount } from './word-scan';
import { FIRST, POSSESSIVE, SECOND } from './vocab';

export const QUESTION = 1;
/** Ends with "!" and has fewer than eight words ("Agreed, Dave!"). */
export const SHORT_EXCLAMATION = 2;
/** "I …", "… my …", "… me": the speaker about themselves. */
export const FIRST_PERSON = 4;
/** "you", "your", "you're" …: said to or about the other side. */
export const SECOND_PERSON = 8;
/** "my …" / "our …". */
export const MY = 16;
/** Dense in markup or code punctuation: a listing or a template, not a fact. */
export const MARKUP = 32;
/** "Let me read the note first.", "Let me know …": the speaker narrating the next step or asking
 * to hear back; what the step found is the fact, not the announcement. */
export const ANNOUNCEMENT = 64;
/** "I'll start by exploring the codebase …", "Now I need to find …": an assistant narrating its
 * process. Told apart from a person's plans by who says it (see extract-facts). */
export const NARRATION = 128;
/** Markup that keeps it off a line of its own: unbalanced (`balancedMarkup`) or a table row's
 * " | ". Set by the sentence pass from its word scan (extract-sentences), never by `traitsOf`. */
export const LOOSE_MARKUP = 256;

const FIRST_PERSON_TEXT = /^(?:I|I['’](?:m|ve|d|ll)|my|My)\b|\s(?:I|I['’](?:m|ve|d|ll)|my|me|mine)\b/;
const MY_TEXT = /\b(?:my|My|our|Our)\s/;
const ANNOUNCEMENT_TEXT = /^(?:(?:first|now|ok|okay|great|sure|alright|right),?\s+)?let\s+me\b/i;
const NARRATION_TEXT =
  /^(?:(?:first|now|next|then|ok|okay|great|sure|alright|perfect|good),?\s+)?(?:I['’]ll|I will|I need to|I should|let['’]s|we need to)\s+(?:(?:first|now|next|also)\s+)?(?:start|begin|check|look|read|examine|explore|search|find|run|create|try|test|verify|see|open|view|locate|understand|investigate|implement|fix|modify|update|make|write|add)\b/i;
const SECOND_PERSON_TEXT = /\b(?:you|your|you['’](?:re|ve|ll|d))\b/i;

/** Every word flag: the pronoun patterns are tried whatever words the text holds. */
const ANY_WORDS = FIRST | SECOND | POSSESSIVE;

/**
 * The traits of a sentence of `wc` words. The sentence pass hands in what its word scan read:
 * `wordFlags` (the vocab flags of the text's words) skips the pronoun patterns for text holding no
 * pronoun at all, which is most text, and `punct` is its count of markup characters. Without them
 * every pattern is tried and the characters are counted here.
 */
export function traitsOf(text: string, wc: number, wordFlags = ANY_WORDS, punct = markupCount(text)): number {
  let end = -1;
  for (let i = text.length - 1; i >= 0; i--) {
    const c = text.charCodeAt(i);
    if (!isSpaceCode(c)) {
      end = c;
      break;
    }
  }
  let t = 0;
  if (end === 63) t |= QUESTION; // ?
  else if (end === 33 && wc < 8) t |= SHORT_EXCLAMATION; // !
  if (wordFlags & FIRST && FIRST_PERSON_TEXT.test(text)) t |= FIRST_PERSON;
  if (wordFlags & SECOND && SECOND_PERSON_TEXT.test(text)) t |= SECOND_PERSON;
  if (wordFlags & POSSESSIVE && MY_TEXT.test(text)) t |= MY;
  if (wc < 15 && ANNOUNCEMENT_TEXT.test(text)) t |= ANNOUNCEMENT;
  if (NARRATION_TEXT.test(text)) t |= NARRATION;
  if (punct > 2 && punct / text.length > 0.03) t |= MARKUP;
  return t;
}
