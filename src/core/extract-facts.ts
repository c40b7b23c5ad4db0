// Key facts: an extractive ranking of whole sentences (or one contiguous clause of one) by the
// information a model would need later. A sentence is worth its rare words (IDF over the
// conversation; common English words count little), weighted up for names, numbers, dates and code
// symbols, per token it costs, times a prior: what the user says about themselves ranks far above
// an assistant's explanations (both sides count when two people are chatting), questions, short
// exclamations, remarks about the other side and markup rank lower. Selection is greedy with
// novelty, so a second sentence about the same thing counts only for what it adds; facts carried
// from the previous round (above all those its block showed) keep a seniority. Deterministic: ties
// break on position. Words arrive as vocabulary ids and each sentence's traits are read once by
// the sentence pass, so ranking a long conversation stays a few typed-array passes.
import { isCapitalised, markCapitalised } from './capitalised';
import type { Sentence } from './extract-sentences';
import { MaxHeap } from './max-heap';
import type { SourcedLine } from './record';
import { wordCount } from './text';
import { wordIds } from './word-scan';
import { isRequestText } from './extract-goal';
import type { ConversationKind } from './record';
import { conversationKind } from './threads';
import { goesOn, instructsAssistant, onlyShows, opensOnPointer, pointsEarly, remarksOnAnswer, salienceOf, saysWhoTheyAre } from './salience';
import { STANDS_ALONE, assistantProse, memo, prose, question } from './sentence-memo';
import { thinksAloud } from './agent-prose';
import { ANNOUNCEMENT, FIRST_PERSON, MARKUP, NARRATION, QUESTION, SECOND_PERSON, SHORT_EXCLAMATION, traitsOf } from './traits';
import { GENERIC, NUMERIC, flagsOf, lookupWord, vocabSize, wordOf } from './vocab';

export interface FactOptions {
  /** Focus text ("Compact now" with a focus): sentences sharing its words are boosted. */
  focus?: string;
  /** Words already carried by other sections (goal, constraints): covered from the start. */
  covered?: Iterable<string>;
  /** Facts carried from the previous round; they compete with the new sentences. */
  carried?: readonly SourcedLine[];
  /** Multiplier on carried facts: what an earlier round judged worth keeping stays unless the
   * new part has clearly better. */
  seniority?: number;
  /** Further multiplier on carried facts that the previous block showed. */
  shownSeniority?: number;
  /** Who said a carried fact (by its first source id): carried facts keep the prior of who said
   * them and how, so what the user said about themselves still outranks explanations later on. */
  carriedRole?: (id: string) => string | undefined;
  /** Stop after this many estimated tokens of facts (the pool kept for later rounds). */
  poolTokens: number;
  /** Round number given to new facts. */
  round: number;
  /** What kind of conversation it is (threads.ts); read from the sentences when not given. */
  kind?: ConversationKind;
  /** Assistant answers carried as their list items' heads (answer-shape.ts), by message: they
   * compete with the sentences as one fact each. */
  answers?: readonly ListedAnswer[];
  /** Share of the pool that carried facts may not take while new sentences are left to fill it:
   * a later round's block can only show this round's facts if the pool kept them. */
  freshReserve?: number;
}

/** An assistant message's list, as its items' heads (answer-shape.ts). */
export interface ListedAnswer {
  id: string;
  at: number;
  /** Its index among the removed messages (the order key of the sentences). */
  message: number;
  heads: readonly string[];
}

/** Longest fact in words. A fact is a whole sentence, never a cut one: a longer sentence is left
 * out (its value per token is low, and a cut sentence reads as a fragment). */
const MAX_WORDS = 80;
/** Covered words still count for this share: a repeat with a new detail beside it is not worthless.
 * A small block needs breadth (one fact per thing said); a larger one has room for the second
 * fact about the same thing, and the share grows with the pool, from MIN at SMALL_POOL tokens to
 * MAX at four times that. */
const COVERED_WEIGHT_MIN = 0.2;
const COVERED_WEIGHT_MAX = 0.35;
const SMALL_POOL = 1250;
const coveredWeightFor = (poolTokens: number): number =>
  COVERED_WEIGHT_MIN + ((COVERED_WEIGHT_MAX - COVERED_WEIGHT_MIN) * Math.min(2, Math.max(0, Math.log2(poolTokens / SMALL_POOL)))) / 2;
/** Fixed cost added to each sentence's tokens when ranking by value per token: a line has a
 * bullet and label, and a short exclamation with one rare name must not beat a sentence of facts. */
const COST_OFFSET = 9;
/** Weight of numbers and capitalised names (not at a sentence start): dates, places, people. */
const NAME_WEIGHT = 2.5;
/** Boost of first-person sentences when both sides are people talking about their lives. */
const PERSONAL = 1.4;
/** A user message of this many sentences or more may hold pasted text (see prior), ranked at PASTED. */
const PASTED_SENTENCES = 12;
const PASTED = 0.6;
/** Weight of common words (see GENERIC_WORDS) against their rarity in the conversation. */
const GENERIC_WEIGHT = 0.3;

/** An agent announcing or taking a step, wherever the sentence goes on after it. */
const AGENT_STEP = /\blet(?: me|['’]s)\b|^(?:(?:now|first|next|then|ok(?:ay)?|great|good|perfect),?\s+)?(?:I need to|I['’]ll|I will|I should|I am going to|I['’]m going to|we need to)\b/i;

/** A sentence, then a bracketed aside after its end. */
const ASIDE = /^(.*[.!?…]["'”’)]*)\s+\[[^\]]*\][.!?]?$/u;

/** camelCase, snake_case, calls and members: the text names code symbols. */
const CODE_SYMBOL = /[a-z][A-Z]|_|\(\)|\.[a-z]/;

interface Candidate {
  text: string;
  sources: string[];
  at: number;
  pos: number;
  round: number;
  seq: number;
  /** Candidates of one sentence share a group; at most one of them is picked. */
  group: number;
  /** Distinct ranking keys (vocabulary ids) and their weights, index for index. */
  ids: readonly number[];
  weights: number[];
  /** Round whose block last showed it (carried facts). */
  shown?: number;
  /** Base multiplier (role, question, focus, seniority). */
  boost: number;
  cost: number;
  /** A shown carried fact's gain, fixed before any coverage (see gainOf). */
  fixedGain?: number;
  /** The user telling about themselves (see SourcedLine.about). */
  about?: boolean;
  /** A carried fact's thread. */
  thread?: number;
  /** Its speaker saying who they are (see SourcedLine.identity). */
  identity?: boolean;
  /** An answer's list heads (see FactOptions.answers). */
  listed?: boolean;
  /** The group of the sentence a pointer-led sentence was joined to (see referentOf): picking
   * the pair rules out picking that sentence again on its own. */
  alsoGroup?: number;
}

/** Rank multiplier of a user's remark on an answer (salience.ts remarksOnAnswer): a third of the
 * first-person prior, so it ranks as any sentence of the user's. */
const REMARK_RANK = 1 / 3;
/** Rank multiplier of a sentence in which a speaker says who they are, between two people. */
const IDENTITY_BOOST = 1.5;

/** A shown carried fact's seniority is multiplied by this for each round since the round that
 * found it: a fact that survived several rounds was judged worth keeping each time. Without it,
 * facts carried from the middle rounds displace the first round's as readily as the newest do.
 * Linear growth (1 + 2 × rounds) put a round-1 fact only 9 / 7 above a round-2 one by round 5,
 * and the middle rounds' facts pushed out the first round's (LoCoMo chain decay at budget 1,000:
 * 0.84 linear, 0.88 doubling). Doubling still let a round-2 fact of the user about themselves
 * (prior 3.45) push out a round-1 explanation the block had shown for two rounds (LongMemEval:
 * the website a user later asked back for); tripling keeps them level (LongMemEval chain decay at
 * 1,000: 0.83 → 1.0, LoCoMo at 2,000 0.96 → 1.0, freshness unchanged within 0.001). The block then
 * keeps the oldest aim and the newest share (FRESH_SHARE), and lets the middle go first. */
const AGE_GROWTH = 3;
/** Rounds of age counted at most: the multiplier stays finite in a conversation of any length. */
const MAX_AGE = 24;

/** Conversations with fewer usable sentences than this are ranked in full. */
const PREFILTER_MIN = 600;
/** The prefilter keeps sentences worth this many times the pool's tokens. */
const PREFILTER_FACTOR = 4;

const cheapCost = (text: string): number => Math.ceil(text.length / 3.6) + 3;

/** Distinct ranking keys of a text as vocabulary ids, first-seen order. */
function idsOf(text: string): number[] {
  return wordIds(text).ids;
}

/**
 * Whether a sentence may be a key fact: a whole sentence of prose said by the user or the
 * assistant (tool output is evidence for files and errors, not a source of facts; system text is
 * standing instructions, not conversation), five words or more, that reads on its own line — not
 * a lead-in whose announced content is elsewhere, not a table row, markup balanced, not the
 * assistant announcing its next step.
 */
function isFactSentence(s: Sentence): boolean {
  return memo(s, FACT_SENTENCE);
}
function factSentence(s: Sentence): boolean {
  if (s.code || s.template || (s.role !== 'user' && s.role !== 'assistant') || s.keyCount < 3 || s.wc < 5 || s.wc > MAX_WORDS) return false;
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
const LEANS_BACK = question((s) => pointsEarly(s.text) || goesOn(s.text), prose);
const AGENT_STEP_TEXT = question((s) => AGENT_STEP.test(s.text), assistantProse);

/** The sentence a pointer-led sentence (sentences[i]) leans on: the one before it in the same
 * message, when that is prose that does not itself open on a pointer and is more than a short
 * exclamation ("Wow! It's …" says no more than "It's …"). */
function referentOf(sentences: readonly Sentence[], i: number): Sentence | null {
  const s = sentences[i] as Sentence;
  const before = sentences[i - 1];
  if (!before || before.id !== s.id || before.index !== s.index - 1) return null;
  if (before.code || before.template || before.keyCount < 2 || before.traits & SHORT_EXCLAMATION) return null;
  // (Nor an agent thinking aloud or announcing a step: "Now I need to understand the issue better."
  // or "Let me look at the output again." says nothing "The problem is that …" leans on.)
  if (memo(before, OPENS_ON_POINTER) || !memo(before, STANDS_ALONE) || thinksAloud(before) || (before.role === 'assistant' && memo(before, AGENT_STEP_TEXT))) return null;
  return before;
}

/** Which of a text's words weigh as names or numbers (NAME_MARK) and as code symbols (CODE_MARK):
 * the text's own, so worked out once per word list (a sentence's is the same array in every
 * compaction of its message; see sentence-memo.ts for the other answers kept with a sentence). */
const NAME_MARK = 1;
const CODE_MARK = 2;
const markCache = new WeakMap<readonly number[], { text: string; marks: Uint8Array }>();
function wordMarks(text: string, ids: readonly number[]): Uint8Array {
  const hit = markCache.get(ids);
  if (hit && hit.text === text) return hit.marks;
  markCapitalised(text);
  const codeSymbols = CODE_SYMBOL.test(text);
  const marks = new Uint8Array(ids.length);
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i] as number;
    if (flagsOf(id) & NUMERIC || isCapitalised(id)) marks[i] = NAME_MARK;
    if (codeSymbols && wordOf(id).includes('_')) marks[i] = (marks[i] as number) | CODE_MARK;
  }
  markCache.set(ids, { text, marks });
  return marks;
}

/** Ranks sentences (and carried facts) and returns the selected facts, best first. */
export function selectFacts(sentences: readonly Sentence[], options: FactOptions): SourcedLine[] {
  const focusIds = new Set(options.focus ? idsOf(options.focus) : []);
  // (Indexed loops over the sentences: this function is big, and a for-of here was seen to
  // allocate an iterator result per sentence.)
  const usable: Sentence[] = [];
  // A sentence that opens on a pointer ("It's a book by …", "He is one of …") is a fact only with
  // the sentence before it in the same message, which says what it points at; without one, it is
  // no fact (a reader cannot tell what it is about).
  const referents = new Map<Sentence, Sentence>();
  for (let i = 0; i < sentences.length; i++) {
    const s = sentences[i] as Sentence;
    if (!isFactSentence(s)) continue;
    if (memo(s, OPENS_ON_POINTER)) {
      const before = referentOf(sentences, i);
      if (!before) continue;
      referents.set(s, before);
    } else if (memo(s, LEANS_BACK)) {
      // "I got it from another artist as a gift": what "it" is, the sentence before says; "And
      // there's a chance I'll visit more" goes on from it. With it when there is one; alone it
      // stays a candidate (ranking either down cost LoCoMo recall at budget 2,000: 0.709 → 0.692).
      const before = referentOf(sentences, i);
      if (before) referents.set(s, before);
    }
    usable.push(s);
  }
  const carried = options.carried ?? [];
  const carriedIds = carried.map((f) => idsOf(f.text));
  // Document frequency over the candidate sentences and carried facts, by vocabulary id.
  const df = new Int32Array(vocabSize());
  const touched: number[] = [];
  let docs = 0;
  const count = (ids: readonly number[]): void => {
    docs++;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i] as number;
      const n = df[id] as number;
      if (n === 0) touched.push(id);
      df[id] = n + 1;
    }
  };
  for (let i = 0; i < usable.length; i++) count((usable[i] as Sentence).ids);
  for (const ids of carriedIds) count(ids);
  // Weights computed once per distinct word: the ranking below looks words up many times.
  const weights = new Float64Array(df.length);
  for (const id of touched) weights[id] = Math.log(1 + docs / (df[id] as number)) * (flagsOf(id) & GENERIC ? GENERIC_WEIGHT : 1);
  const unseen = Math.log(1 + docs);
  // Words first met after the counting (in a clause's or a carried fact's text) were in no sentence.
  const idf = (id: number): number => (id < weights.length && (df[id] as number) > 0 ? (weights[id] as number) : unseen * (flagsOf(id) & GENERIC ? GENERIC_WEIGHT : 1));
  // Two people chatting (both sides tell about their lives: both count), an assistant explaining
  // things, or one at work with tools (whatever its pronouns: an agent run's user text is an issue
  // report, often with no "my" at all). One reading for the whole compaction (threads.ts).
  const kind = options.kind ?? conversationKind([], sentences);
  const atWork = kind === 'work';
  const personalAssistant = kind === 'talk';
  // An assistant at work narrating its next step ("Now let me look at …", "I'll start by exploring
  // the codebase …") tells nothing the step's outcome does not: no fact, however much room is left.
  if (!personalAssistant) {
    let kept = 0;
    for (let i = 0; i < usable.length; i++) {
      const s = usable[i] as Sentence;
      // (At work, a longer "Let me explore the models directory since …" or "I need to call
      // django.setup()." is the step, not what it found.)
      const narrates = s.role === 'assistant' && (s.traits & (NARRATION | ANNOUNCEMENT) || (atWork && (memo(s, AGENT_STEP_TEXT) || thinksAloud(s))));
      if (!narrates) usable[kept++] = s;
    }
    usable.length = kept;
  }
  const lastMessage = usable.length ? (usable[usable.length - 1] as Sentence).message : 0;

  const weigh = (text: string, ids: readonly number[]): number[] => {
    const marks = wordMarks(text, ids);
    const out = new Array<number>(ids.length);
    for (let i = 0; i < ids.length; i++) {
      let weight = idf(ids[i] as number);
      const mark = marks[i] as number;
      if (mark & NAME_MARK) weight *= NAME_WEIGHT;
      // Code symbols (camelCase, snake_case, calls) are named in the original case.
      if (mark & CODE_MARK) weight *= 1.3;
      out[i] = weight;
    }
    return out;
  };
  const focusBoost = (ids: readonly number[]): number => {
    if (!focusIds.size) return 1;
    let hit = 0;
    for (const id of ids) if (focusIds.has(id)) hit++;
    return 1 + (2 * hit) / focusIds.size;
  };

  const candidates: Candidate[] = [];
  /** What a sentence is worth beyond its words: who said it, about whom, and how. */
  const prior = (s: Sentence, text: string): number => {
    const t = text === s.text ? s.traits : traitsOf(text, wordCount(text));
    // In talk, a long user message's sentences that say nothing of the user are most likely text
    // they pasted (a document, an article): material to talk about, ranked like an explanation. (An
    // agent run's long first message is the task itself.)
    const pasted = !atWork && s.role === 'user' && s.of >= PASTED_SENTENCES && !(t & (FIRST_PERSON | QUESTION)) ? PASTED : 1;
    // Between two people, what happened (an event) outranks how someone felt about it (a
    // reaction). (With an assistant it moved nothing but recall: LongMemEval at 500, 0.43 → 0.38.)
    // With an assistant, "I had no idea that …" remarks on the answer: first person, no fact of the
    // user's own (ranked as a plain sentence of theirs, not as what they told of themselves).
    const salience = personalAssistant ? salienceOf(text) : s.role === 'user' && kind === 'assist' && remarksOnAnswer(text) ? REMARK_RANK : 1;
    return priorOf(s.role, t) * pasted * salience * (1 + 0.1 * (lastMessage ? s.message / lastMessage : 0));
  };
  const priorOf = (role: string | undefined, t: number): number => {
    let boost = role === 'user' ? (personalAssistant ? 1 : 1.15) : role === 'tool' ? 0.35 : 1;
    // What the user says about themselves is what no model can regenerate: with an assistant that
    // explains things, it ranks well above the explanations; between two people, both sides count.
    if (!(t & QUESTION) && t & FIRST_PERSON) {
      if (role === 'user') boost *= personalAssistant ? PERSONAL : 3;
      else if (personalAssistant && role === 'assistant') boost *= PERSONAL;
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
  };
  const makeCandidate = (s: Sentence, pos: number, text: string, ids: readonly number[]): Candidate => {
    const boost = prior(s, text) * focusBoost(ids);
    const seq = options.round * 1e9 + s.message * 1e4 + Math.min(s.index, 9999);
    // (Not in a long message the user pasted — a candidate's answers, a prompt template — nor a
    // request: what they asked is not what they are.)
    const about = s.role === 'user' && (s.traits & FIRST_PERSON) !== 0 && (s.traits & QUESTION) === 0 && s.of < PASTED_SENTENCES && !isRequestText(text) && !remarksOnAnswer(text) && !instructsAssistant(text);
    // Between two people, what each says of who they are is what a reader needs first.
    const identity = personalAssistant && (s.traits & FIRST_PERSON) !== 0 && saysWhoTheyAre(text);
    return {
      text,
      sources: [s.id],
      at: s.at,
      pos,
      group: pos,
      round: options.round,
      seq,
      ids,
      weights: weigh(text, ids),
      boost: identity ? boost * IDENTITY_BOOST : boost,
      cost: cheapCost(text),
      ...(about ? { about } : {}),
      ...(identity ? { identity } : {}),
    };
  };
  // Prefilter: a cheap value-per-token bound for every sentence (no allocation), and full
  // candidates only for the best of them — a long conversation has far more sentences than any
  // block can hold, and building ranked candidates for all of them is what would cost.
  const n = usable.length;
  const roughG = new Float64Array(n);
  const roughCost = new Float64Array(n);
  let maxG = 0;
  for (let pos = 0; pos < n; pos++) {
    const s = usable[pos] as Sentence;
    let g = 0;
    const ids = s.ids;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i] as number;
      g += flagsOf(id) & NUMERIC ? NAME_WEIGHT * (weights[id] as number) : (weights[id] as number);
    }
    roughCost[pos] = cheapCost(s.text);
    const value = (g * prior(s, s.text)) / ((roughCost[pos] as number) + COST_OFFSET);
    roughG[pos] = value;
    if (value > maxG) maxG = value;
  }
  // The sentences worth ranking: all of a short conversation; of a long one, the best by the rough
  // value until PREFILTER_FACTOR × the pool's tokens. A histogram of the values finds the bucket
  // where that room runs out: every sentence above it is in, and only that bucket is sorted (by
  // value, then position) to spend what is left. No sort of every sentence.
  const chosen = new Uint8Array(n);
  let roughRoom = options.poolTokens * PREFILTER_FACTOR;
  if (n > PREFILTER_MIN && maxG > 0) {
    const BUCKETS = 512;
    const bucketCost = new Float64Array(BUCKETS);
    const bucketOf = (g: number): number => Math.min(BUCKETS - 1, Math.floor((g / maxG) * BUCKETS));
    for (let pos = 0; pos < n; pos++) {
      const b = bucketOf(roughG[pos] as number);
      bucketCost[b] = (bucketCost[b] as number) + (roughCost[pos] as number);
    }
    let room = roughRoom;
    let floor = 0;
    for (let b = BUCKETS - 1; b >= 0; b--) {
      room -= bucketCost[b] as number;
      if (room <= 0) {
        floor = b;
        break;
      }
    }
    const atFloor: number[] = [];
    for (let pos = 0; pos < n; pos++) {
      const b = bucketOf(roughG[pos] as number);
      if (b > floor) {
        chosen[pos] = 1;
        roughRoom -= roughCost[pos] as number;
      } else if (b === floor) atFloor.push(pos);
    }
    atFloor.sort((x, y) => (roughG[y] as number) - (roughG[x] as number) || x - y);
    for (const pos of atFloor) {
      if (roughRoom <= 0) break;
      roughRoom -= roughCost[pos] as number;
      chosen[pos] = 1;
    }
  } else {
    for (let pos = 0; pos < n; pos++) {
      if (n > PREFILTER_MIN && roughRoom <= 0) break;
      roughRoom -= roughCost[pos] as number;
      chosen[pos] = 1;
    }
  }
  for (let pos = 0; pos < n; pos++) {
    if (!chosen[pos]) continue;
    const s = usable[pos] as Sentence;
    const before = referents.get(s);
    if (before) {
      // The pointer-led sentence goes with its referent, as one line of that message.
      const text = `${before.text} ${s.text}`;
      if (wordCount(text) > MAX_WORDS) continue;
      const c = makeCandidate(s, pos, text, idsOf(text));
      // (The referent, when usable, is the usable sentence just before: same message, index before.)
      if (pos > 0 && usable[pos - 1] === before) c.alsoGroup = pos - 1;
      candidates.push(c);
      continue;
    }
    candidates.push(makeCandidate(s, pos, s.text, s.ids));
    // A bracketed aside after the sentence's end ("We won! [shares a photo: …]") may be left
    // out: the sentence alone is the cheaper fact, and the ranking weighs what the aside adds
    // (one of the two at most: they share the group). A block with room for more whole sentences
    // keeps more of the conversation in later rounds too (LoCoMo chain decay at budget 1,000:
    // 0.88 → 0.95; single-shot recall unchanged within 0.01).
    const aside = s.text.length > 12 && s.text.endsWith(']') ? ASIDE.exec(s.text) : null;
    if (aside?.[1]) candidates.push(makeCandidate(s, pos, aside[1], idsOf(aside[1])));
  }
  // An answer's list as its items' heads: one candidate per listing message, ranked by its words
  // like any sentence of the assistant (names weigh most), in a group of its own.
  (options.answers ?? []).forEach((a, k) => {
    const text = a.heads.join('; ');
    const ids = idsOf(text);
    candidates.push({
      text,
      sources: [a.id],
      at: a.at,
      pos: n + k,
      group: n + k,
      round: options.round,
      seq: options.round * 1e9 + a.message * 1e4,
      ids,
      weights: weigh(text, ids),
      boost: priorOf('assistant', 0) * focusBoost(ids),
      cost: cheapCost(text),
      listed: true,
    });
  });
  carried.forEach((f, i) => {
    const ids = carriedIds[i] as number[];
    // Carried facts sort before the new ones (they are older), keeping the order of the pool.
    candidates.push({
      text: f.text,
      sources: f.sources,
      at: f.at,
      pos: -carried.length + i,
      group: -1 - i,
      round: f.round,
      seq: f.seq ?? f.round * 1e9,
      ids,
      weights: weigh(f.text, ids),
      boost:
        (options.seniority ?? 1) *
        (f.shown ? (options.shownSeniority ?? 1) * AGE_GROWTH ** Math.min(MAX_AGE, Math.max(0, options.round - f.round)) : 1) *
        focusBoost(ids) *
        (options.carriedRole ? priorOf(options.carriedRole(f.sources[0] ?? ''), traitsOf(f.text, wordCount(f.text))) : 1),
      ...(f.shown ? { shown: f.shown } : {}),
      ...(f.about ? { about: true } : {}),
      ...(f.identity ? { identity: true } : {}),
      ...(f.listed ? { listed: true } : {}),
      ...(f.thread !== undefined ? { thread: f.thread } : {}),
      cost: cheapCost(f.text),
    });
  });

  // Every candidate's words have ids by now: a covered word the table lacks is in no candidate.
  const covered = new Uint8Array(vocabSize());
  for (const w of options.covered ?? []) {
    const id = lookupWord(w);
    if (id >= 0) covered[id] = 1;
  }
  const coveredWeight = coveredWeightFor(options.poolTokens);
  const gainOf = (c: Candidate): number => {
    // A fact an earlier block showed was picked for what it added then: what the new part covers
    // since does not make it worth less, or the chain drops a different slice of it every round.
    if (c.shown !== undefined && c.fixedGain !== undefined) return c.fixedGain;
    let g = 0;
    for (let i = 0; i < c.ids.length; i++) {
      const v = c.weights[i] as number;
      g += covered[c.ids[i] as number] ? v * coveredWeight : v;
    }
    return (g * c.boost) / (c.cost + COST_OFFSET);
  };

  // Lazy greedy: gains only shrink as coverage grows, so a stale gain is an upper bound.
  const heap = new MaxHeap<{ c: Candidate; gain: number }>((a, b) => a.gain - b.gain || b.c.pos - a.c.pos);
  for (const c of candidates) {
    const gain = gainOf(c);
    if (c.shown !== undefined) c.fixedGain = gain;
    heap.push({ c, gain });
  }
  const picked: SourcedLine[] = [];
  const seenText = new Set<string>();
  const usedGroups = new Set<number>();
  let spent = 0;
  // Carried facts stop at the pool less the reserve (no more than the new sentences could fill),
  // so this round's best sentences stay in the pool; the rank order is otherwise unchanged.
  let newCost = 0;
  for (const c of candidates) if (c.group >= 0) newCost += c.cost;
  const carriedCap = options.poolTokens - Math.min(newCost, Math.floor(options.poolTokens * (options.freshReserve ?? 0)));
  let carriedSpent = 0;
  while (heap.size && spent < options.poolTokens) {
    const top = heap.pop() as { c: Candidate; gain: number };
    const fresh = gainOf(top.c);
    const next = heap.peek();
    if (next && fresh < next.gain - 1e-12) {
      heap.push({ c: top.c, gain: fresh });
      continue;
    }
    if (fresh <= 0) break;
    const key = top.c.text.toLowerCase();
    if (seenText.has(key) || usedGroups.has(top.c.group) || (top.c.alsoGroup !== undefined && usedGroups.has(top.c.alsoGroup))) continue;
    if (top.c.group < 0) {
      // (Whole facts, as the pool itself: one that starts inside the cap may end past it.)
      if (carriedSpent >= carriedCap) continue;
      carriedSpent += top.c.cost;
    }
    seenText.add(key);
    usedGroups.add(top.c.group);
    if (top.c.alsoGroup !== undefined) usedGroups.add(top.c.alsoGroup);
    for (const id of top.c.ids) covered[id] = 1;
    spent += top.c.cost;
    picked.push({
      text: top.c.text,
      sources: top.c.sources,
      at: top.c.at,
      score: Math.round(fresh * 1000) / 1000,
      round: top.c.round,
      seq: top.c.seq,
      ...(top.c.shown ? { shown: top.c.shown } : {}),
      ...(top.c.about ? { about: true } : {}),
      ...(top.c.identity ? { identity: true } : {}),
      ...(top.c.listed ? { listed: true } : {}),
      ...(top.c.thread !== undefined ? { thread: top.c.thread } : {}),
    });
  }
  return picked;
}
