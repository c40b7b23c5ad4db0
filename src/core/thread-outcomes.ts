// With an assistant, a thread's outcome in the user's words: what they chose of what the answer
// offered ("I think I'll go with the 2700K bulb."). Readers found the question and the options kept
// and the choice lost, or laid out under "About the user", far from the options it picks from. The
// latest choice of each thread is in the facts' pool (selectFacts) and under its thread's head,
// right after the thread's best line (thread-format.ts). Pure.
import type { Sentence } from './extract-sentences';
import { saysChosen } from './fact-prior';
import { QUESTION } from './traits';

/** Each thread's latest choice of the user (`threadOf` by message id): a user sentence, not a
 * question, that says what they chose. A later choice in the thread takes back an earlier one
 * ("I'll go with a warm white bulb" … "I think I'll go with the 2700K bulb"). */
export function latestChoices(usable: readonly Sentence[], threadOf: ReadonlyMap<string, number>): Set<Sentence> {
  const latest = new Map<number, Sentence>();
  for (const s of usable) {
    if (s.role !== 'user' || s.traits & QUESTION || !saysChosen(s.text)) continue;
    const t = threadOf.get(s.id);
    if (t !== undefined) latest.set(t, s);
  }
  return new Set(latest.values());
}
