// Answers about one sentence alone, worked out once per sentence object. A sentence is the same
// object in every compaction of its message (extract-sentences caches them per message), and what
// its own text and fields say does not change: whether it stands alone, opens on a pointer, asks
// for something, hedges … So each extractor asks through `memo` and the pattern runs once per
// sentence, not once per compaction (a repeated compaction, or one of messages read as they
// arrived, then costs what the conversation-wide ranking costs). Output never depends on it.
import type { Sentence } from './extract-sentences';

/** The questions (each two bits of `Sentence.memo`: asked, answer). At most 15. */
export const STANDS_ALONE = 0;
export const OPENS_ON_POINTER = 1;
export const POINTS_EARLY = 2;
export const FACT_SENTENCE = 3;
export const AGENT_STEP = 4;
export const REQUEST = 5;
export const RETRACTS = 6;
export const HEDGES_OR_POINTS = 7;
export const STATES_CAUSE = 8;
export const REACTION = 9;
export const TELLS_EVENT = 10;

/** `test(s)` for question `q`, asked once per sentence: `test` must read only the sentence itself. */
export function memo(s: Sentence, q: number, test: (s: Sentence) => boolean): boolean {
  const asked = 1 << (2 * q);
  const yes = asked << 1;
  const m = s.memo;
  if (m & asked) return (m & yes) !== 0;
  const answer = test(s);
  s.memo = m | asked | (answer ? yes : 0);
  return answer;
}
