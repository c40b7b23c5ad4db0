// Which sentence of a user's message a tool loop it starts is for (extract-state.ts reads it for
// the loop's searches and notes). Pure.
import type { Sentence } from './extract-sentences';
import { isRequest } from './extract-goal';

/** A sentence ending on a question mark (closing quotes and brackets after it). */
const ASKS = /\?["'”’)\]]*$/u;

/** The sentence of the user's message at `at` that asks (a question, else a request, else its
 * first sentence of four words or more): what a tool loop it starts is for. */
export function requestSentence(sentences: readonly Sentence[], at: number): string | undefined {
  // (The message's sentences found by halving: `sentences` are in message order, and a filter over
  // all of them for each user message made a long run's State quadratic — the plugin's path
  // compacted 1,000 messages in 60 ms rather than 33.)
  let lo = 0;
  let hi = sentences.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sentences[mid] as Sentence).message < at) lo = mid + 1;
    else hi = mid;
  }
  // (The question first: "Which seeds do I still need? Check my notes, then add them." asks the
  // first and says how in the second. Read over the range, no array of the message's own.)
  let end = lo;
  while (end < sentences.length && (sentences[end] as Sentence).message === at) end++;
  const own = (s: Sentence): boolean => s.role === 'user' && !s.code && !s.template && s.wc >= 4;
  let first: Sentence | undefined;
  for (let i = lo; i < end; i++) {
    const s = sentences[i] as Sentence;
    if (!own(s)) continue;
    if (ASKS.test(s.text)) return s.text;
    first ??= s;
  }
  for (let i = lo; i < end; i++) {
    const s = sentences[i] as Sentence;
    if (own(s) && isRequest(s)) return s.text;
  }
  return first?.text;
}
