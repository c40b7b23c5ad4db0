// With an assistant, a thread's outcome: what the user chose of what the answer offered, in their
// words ("I think I'll go with the 2700K bulb."), or the assistant's "yes" to what the user asked it
// to confirm ("Yes, "Gary Niami" is indeed an anagram of the word "imaginary.""). Readers found the
// question and the options (or the wrong guesses) kept and the outcome lost, or a choice laid out
// under "About the user", far from the options it picks from. The latest outcome of each thread is
// in the facts' pool (selectFacts) and under its thread's head, right after the thread's best line
// (thread-format.ts). Pure.
import type { Sentence } from './extract-sentences';
import { saysChosen } from './fact-prior';
import { opensOnPointer } from './salience';
import { QUESTION } from './traits';

/** Each thread's latest outcome (`threadOf` by message id): a user sentence, not a question, that
 * says what they chose, or the assistant's answer opening on a yes to the user's question just
 * before it (confirmsAnswer). A later outcome in the thread takes back an earlier one ("I'll go
 * with a warm white bulb" … "I think I'll go with the 2700K bulb"). */
export function latestChoices(usable: readonly Sentence[], threadOf: ReadonlyMap<string, number>): Set<Sentence> {
  const latest = new Map<number, Sentence>();
  // (Whether the user's latest sentence before an answer asked something.)
  let asked = false;
  for (const s of usable) {
    if (s.role === 'user') asked = (s.traits & QUESTION) !== 0;
    const outcome = s.role === 'user' ? !(s.traits & QUESTION) && (saysChosen(s.text) || userConfirms(s.text)) : s.role === 'assistant' && asked && s.index === 0 && confirmsAnswer(s.text);
    if (!outcome) continue;
    const t = threadOf.get(s.id);
    if (t !== undefined) latest.set(t, s);
  }
  return new Set(latest.values());
}

/** An answer's opening yes, a sentence that names what it confirms after it ("Yes, "Gary Niami" is
 * indeed an anagram of …", "Correct, the Arnolfini Portrait …"): not "Yes, it is." */
const CONFIRMS = /^(?:yes|yep|correct|exactly|indeed|that['’]s (?:right|correct)|you['’]re (?:right|correct))\b[,!.]*\s+\S/i;

/** Whether an assistant's sentence confirms, by name, what the user asked about (see CONFIRMS),
 * and says it is right: "Yes, X is indeed …", "Correct, …". (Any "Yes, …" answer was no outcome —
 * "Yes, I'm familiar with …", "Yes, we can add that …" — and cost LongMemEval recall at 1,000,
 * 0.597 → 0.550.) */
export function confirmsAnswer(text: string): boolean {
  return CONFIRMS.test(text) && SAYS_RIGHT.test(text) && !opensOnPointer(text) && !opensOnPointer(text.replace(CONFIRMS_WORD, ''));
}
const SAYS_RIGHT = /\b(?:indeed|correct|right)\b/i;
const CONFIRMS_WORD = /^(?:yes|yep|correct|exactly|indeed|that['’]s (?:right|correct)|you['’]re (?:right|correct))\b[,!.]*\s+/i;

/** The user saying which of the answer's guesses was right, by its name ("Yes it is the Arnolfini
 * portrait.", "Yes, it's Velázquez."): the outcome of a question they knew the answer to. Kept
 * though it opens on "it" — under its thread's head, after the guesses, it reads whole. */
const USER_CONFIRMS = /^(?:(?:ok(?:ay)?|great|right|perfect|thanks)[,!.]*\s+){0,2}(?:yes|yeah|yep|correct|right)[,!.]*\s+(?:it|that)(?:['’]s| is| was) (?:the |a |an )?["“]?/i;

/** Whether a user's sentence names which guess was right (see USER_CONFIRMS). */
export function userConfirms(text: string): boolean {
  const m = USER_CONFIRMS.exec(text);
  // (The name's capital tells it: "Yes it is the one you said" names nothing.)
  return m !== null && /^\p{Lu}/u.test(text.slice(m[0].length));
}

