// Answers about one sentence alone, worked out once per sentence object. A sentence is the same
// object in every compaction of its message (extract-sentences caches them per message), and what
// its own text and fields say does not change: whether it stands alone, opens on a pointer, asks
// for something, hedges … Each extractor registers its question here (`question`) and asks through
// `memo`, so the pattern runs once per sentence, not once per compaction; `answerAhead` asks them
// all as a message arrives (`prepareMessage`), so the compaction that later removes it finds them
// answered. Output never depends on it, only speed does.
import type { Sentence } from './extract-sentences';
import { isLeadIn, standsAlone } from './text';
import { LOOSE_MARKUP } from './traits';
import { defineCue } from './vocab';

type Test = (s: Sentence) => boolean;

const tests: Test[] = [];
const askedOf: Test[] = [];
const alsoAhead: ((s: Sentence) => void)[] = [];

/** Registers a question about a sentence alone (`test` must read only the sentence's own fields),
 * answered ahead for the sentences `worthAsking` picks. Its id is for `memo`. At most 30 (two bits
 * each in two 32-bit fields). */
export function question(test: Test, worthAsking: Test = () => true): number {
  if (tests.length >= 30) throw new Error('too many sentence questions');
  tests.push(test);
  askedOf.push(worthAsking);
  return tests.length - 1;
}

/** Other per-sentence work that keeps its result on the sentence (a classifier), done ahead too. */
export function aheadAlso(work: (s: Sentence) => void): void {
  alsoAhead.push(work);
}

/** The answer to question `q` about `s`, from its two bits in `s.memo` (asked, answer). */
export function memo(s: Sentence, q: number): boolean {
  if (q >= 15) return memoHigh(s, q);
  const asked = 1 << (2 * q);
  const yes = asked << 1;
  const m = s.memo;
  if (m & asked) return (m & yes) !== 0;
  const answer = (tests[q] as Test)(s);
  s.memo = m | asked | (answer ? yes : 0);
  return answer;
}

/** The same for the questions past the fifteenth, in `s.memo2`. */
function memoHigh(s: Sentence, q: number): boolean {
  const asked = 1 << (2 * (q - 15));
  const yes = asked << 1;
  const m = s.memo2;
  if (m & asked) return (m & yes) !== 0;
  const answer = (tests[q] as Test)(s);
  s.memo2 = m | asked | (answer ? yes : 0);
  return answer;
}

/** Asks every registered question of a message's sentences (each worth asking), ahead of the
 * compaction that will remove it. */
export function answerAhead(sentences: readonly Sentence[]): void {
  for (const s of sentences) {
    for (let q = 0; q < tests.length; q++) if ((askedOf[q] as Test)(s)) memo(s, q);
    for (const work of alsoAhead) work(s);
  }
}

/**
 * `pattern.test(s.text)`, tried over the whole text only when the sentence's word scan met one of
 * `words` (or one of the characters `marks`): every match of the pattern away from the text's
 * start needs one of them, as a whole word (apostrophes dropped: "let's" is "lets"), so without
 * them only a match at the start is possible, and only that is tried (the pattern made sticky).
 * Words glued to an apostrophe or a letter past ASCII mark every cue (word-scan.ts), and code is
 * read whole: the answer is always the pattern's. Defines a cue (vocab.ts): at module load only.
 */
export function cued(pattern: RegExp, words: readonly string[], marks = ''): Test {
  if (pattern.global || pattern.sticky || pattern.multiline) throw new Error('cued: a plain pattern');
  const cue = defineCue(words);
  const atStart = new RegExp(pattern.source, `${pattern.flags}y`);
  return (s) => {
    if (s.code || (s.wordFlags & cue) !== 0 || (marks !== '' && holdsAny(s.text, marks))) return pattern.test(s.text);
    atStart.lastIndex = 0;
    return atStart.test(s.text);
  };
}

/**
 * Whether a sentence may hold one of `words`: false only when its word scan met none of them (nor
 * a word glued to an apostrophe or a letter past ASCII, which marks every cue), so a pattern every
 * match of which holds one as a whole word is not tried on it. Code is always tried.
 */
export function mayHold(words: readonly string[]): Test {
  const cue = defineCue(words);
  return (s) => s.code || (s.wordFlags & cue) !== 0;
}

function holdsAny(text: string, marks: string): boolean {
  for (let i = 0; i < marks.length; i++) if (text.includes(marks[i] as string)) return true;
  return false;
}

/** Who says what: the filters most questions are asked under. */
export const prose: Test = (s) => !s.code && !s.template;
export const assistantProse: Test = (s) => !s.code && s.role === 'assistant';

/** `standsAlone(s.text)`: asked by the facts and the task lines alike. (A prose sentence's markup
 * was read by the sentence pass's word scan: only its end is read here.) */
export const STANDS_ALONE = question((s) => (s.code ? standsAlone(s.text) : !(s.traits & LOOSE_MARKUP) && !isLeadIn(s.text)), prose);
