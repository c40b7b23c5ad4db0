// With an assistant, an answer the user sent back ("almost, try again", "the painter came earlier.
// can you try again?", "No, that's wrong"): its sentences are no facts. Readers met the
// wrong answer's detail ("The painting was finished in 1889 and now hangs in a city museum") kept as the thread's answer while the one confirmed after it was absent. Pure.
import type { Sentence } from './extract-sentences';
import type { ChatMessage } from './messages';

/** A user's short sentence sending the answer before it back: asking the assistant to try again
 * (not "I'll try again next spring"), or saying it is wrong. */
const RETRY = /(?:\b(?:can|could|would|will) you (?:please )?|^(?:\w+[,!.]?\s+){0,2}(?:please )?)(?:try|guess) (?:it )?again\b|\bhave another (?:try|go|guess)\b|\bthat(?:['’]s| is) (?:not it|not (?:quite )?right|wrong|incorrect)\b|\b(?:you(?:['’]re| are)|that(?:['’]s| is)) (?:wrong|mistaken)\b|^(?:\w+[,!.]?\s+)?not quite\b/i;
/** Words such a sentence may have: a longer one says more than "no". */
const RETRY_WORDS = 14;

/** Whether a user's sentence sends the answer before it back. */
export const retries = (s: Pick<Sentence, 'text' | 'wc'>): boolean => s.wc <= RETRY_WORDS && RETRY.test(s.text);

/** The sentences without those of assistant messages the user's next message sends back. */
export function withoutRetried(sentences: readonly Sentence[], removed: readonly ChatMessage[]): readonly Sentence[] {
  const sentBack = new Set<number>();
  for (const s of sentences) {
    if (s.role !== 'user' || removed[s.message - 1]?.role !== 'assistant' || !retries(s)) continue;
    sentBack.add(s.message - 1);
  }
  return sentBack.size ? sentences.filter((s) => !(s.role === 'assistant' && sentBack.has(s.message))) : sentences;
}
