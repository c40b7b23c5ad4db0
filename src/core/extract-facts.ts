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
// The pieces: which sentences may be facts (fact-sentences.ts), what their words weigh
// (fact-weights.ts), who said them and how (fact-prior.ts), the candidates (fact-candidates.ts),
// the prefilter of a long conversation (fact-prefilter.ts) and the greedy pick (fact-pick.ts).
import type { Sentence } from './extract-sentences';
import type { ConversationKind, SourcedLine } from './record';
import { conversationKind } from './threads';
import { dropNarration, isFactSentence, usableSentences } from './fact-sentences';
import { focusBooster, idsOf, weigher, wordMarks, wordRarity } from './fact-weights';
import { aheadAlso } from './sentence-memo';
import { pastedMessages, priorOf, rolePrior } from './fact-prior';
import { type Candidate, type CandidateContext, type ListedAnswer, answerCandidates, carriedCandidates, sentenceCandidates } from './fact-candidates';
import { prefilter, roughValues } from './fact-prefilter';
import { coverThreads, coveredWeightFor, coveredWords, gainOf, keepThreadsBest, pickFacts, pickedLine } from './fact-pick';
import { vocabSize } from './vocab';
import { speakerThemes } from './speaker-themes';
import { openingNews } from './session-openers';
import { latestChoices } from './thread-outcomes';

export type { ListedAnswer } from './fact-candidates';

/** What the pool is read with: the conversation's, whatever the budget and focus. */
export interface PoolOptions {
  /** Facts carried from the previous round; they compete with the new sentences. */
  carried?: readonly SourcedLine[];
  /** What kind of conversation it is (threads.ts); read from the sentences when not given. */
  kind?: ConversationKind;
  /** The thread (between two people: the session) a sentence belongs to, when known: what a
   * speaker comes back to session after session says who they are (speaker-themes.ts). */
  sessionOf?: (s: Sentence) => number | undefined;
  /** The speakers' names (speakers.ts), between two people. */
  speakerNames?: readonly string[];
  /** With an assistant, the thread of each removed message (by id): the pool then holds a line of
   * every thread — its answer's list, else its best sentence of the assistant — even past its
   * tokens (fact-pick.ts coverThreads). */
  threadOf?: ReadonlyMap<string, number>;
}

/** What a pick from the pool is asked: this compaction's budget and focus. */
export interface PickOptions {
  /** Focus text ("Compact now" with a focus): sentences sharing its words are boosted. */
  focus?: string;
  /** Words already carried by other sections (goal, constraints): covered from the start. */
  covered?: Iterable<string>;
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
  /** Assistant answers carried as their list items' heads (answer-shape.ts), by message: they
   * compete with the sentences as one fact each. */
  answers?: readonly ListedAnswer[];
  /** Share of the pool that carried facts may not take while new sentences are left to fill it:
   * a later round's block can only show this round's facts if the pool kept them. */
  freshReserve?: number;
}

export type FactOptions = PoolOptions & PickOptions;

/** What the ranking reads of the sentences and carried facts before any budget or focus: the
 * usable sentences, their words' rarity, priors and rough values, the sentences forced in.
 * Built once per conversation analysis (conversation-analysis.ts) and picked from per compaction. */
export interface FactPool {
  kind: ConversationKind;
  talk: boolean;
  usable: readonly Sentence[];
  referents: ReadonlyMap<Sentence, Sentence>;
  carried: readonly SourcedLine[];
  carriedIds: readonly number[][];
  idf: (id: number) => number;
  pasted: ReadonlySet<number> | undefined;
  prior: (s: Sentence, text: string) => number;
  themes: ReadonlySet<Sentence> | undefined;
  news: ReadonlySet<Sentence> | undefined;
  choices: ReadonlySet<Sentence> | undefined;
  threadOf: ReadonlyMap<string, number> | undefined;
  rough: ReturnType<typeof roughValues>;
}

// (A fact sentence's name and code marks are read ahead too, as its message arrives: see
// prepareMessage.)
aheadAlso((s) => {
  if (isFactSentence(s)) wordMarks(s.text, s.ids, s);
});

/** Ranks sentences (and carried facts) and returns the selected facts, best first. */
export function selectFacts(sentences: readonly Sentence[], options: FactOptions): SourcedLine[] {
  return pickFromPool(selectFactsPool(sentences, options), options);
}

/** The pool the ranking picks from, read once whatever the budget and focus. */
export function selectFactsPool(sentences: readonly Sentence[], options: PoolOptions): FactPool {
  // Two people chatting (both sides tell about their lives: both count), an assistant explaining
  // things, or one at work with tools (whatever its pronouns: an agent run's user text is an issue
  // report, often with no "my" at all). One reading for the whole compaction (threads.ts).
  const kind = options.kind ?? conversationKind([], sentences);
  const talk = kind === 'talk';
  const { usable, referents } = usableSentences(sentences, talk, kind === 'work');
  const carried = options.carried ?? [];
  const carriedIds = carried.map((f) => idsOf(f.text));
  const { weights, idf } = wordRarity(usable, carriedIds, vocabSize());
  // An assistant at work narrating its next step tells nothing the step's outcome does not: no
  // fact, however much room is left.
  if (!talk) dropNarration(usable, kind === 'work');
  const lastMessage = usable.length ? (usable[usable.length - 1] as Sentence).message : 0;
  // (Between two people nobody hands over a document to read; an agent's task is its own.)
  const pasted = kind === 'assist' ? pastedMessages(sentences) : undefined;
  // (One context for every sentence: the prior is asked of each usable sentence.)
  const priorContext = { kind, lastMessage, ...(pasted ? { pasted } : {}) };
  const prior = (s: Sentence, text: string): number => priorOf(s, text, priorContext);
  // Between two people, the sentence that stands for each speaker (speaker-themes.ts) is a
  // candidate whatever its rough value, laid out under "About <name>".
  const themes = talk && options.sessionOf ? speakerThemes(usable, options.sessionOf, options.speakerNames) : undefined;
  const rough = roughValues(usable, weights, prior);
  // So is each speaker's news as they came back to a session (openingNews), which the spread
  // takes first for the session: readers found a session's main event only in its head ("Minnesota
  // Wolves") over a side remark, "I just signed with a new team" left out of the pool. (LoCoMo
  // recall 0.545/0.722 → 0.540/0.714 at 1,000/2,000, events 0.590 → 0.583 at 1,000.)
  const news = talk && options.sessionOf ? openingNews(usable, options.sessionOf) : undefined;
  // (Each thread's best sentences are ranked, whatever the prefilter kept of a long conversation;
  // so is each thread's latest choice of the user, its outcome: thread-outcomes.ts.)
  const choices = options.threadOf && kind === 'assist' ? latestChoices(usable, options.threadOf) : undefined;
  return { kind, talk, usable, referents, carried, carriedIds, idf, pasted, prior, themes, news, choices, threadOf: options.threadOf, rough };
}

/** The facts picked from `pool` for this budget and focus, best first. */
export function pickFromPool(pool: FactPool, options: PickOptions): SourcedLine[] {
  const { kind, talk, usable, referents, carried, carriedIds, idf, pasted, prior, themes, news, choices, threadOf, rough } = pool;
  const focusIds = new Set(options.focus ? idsOf(options.focus) : []);
  const ctx: CandidateContext = {
    round: options.round,
    talk,
    prior,
    rolePrior: (role, t) => rolePrior(role, t, talk),
    weigh: weigher(idf),
    focusBoost: focusBooster(focusIds),
    ...(pasted ? { pasted } : {}),
    ...(themes?.size ? { themes } : {}),
    ...(kind === 'work' ? { work: true } : {}),
  };
  const chosen = prefilter(rough, options.poolTokens);
  if (themes || news) for (let pos = 0; pos < usable.length; pos++) if (themes?.has(usable[pos] as Sentence) || news?.has(usable[pos] as Sentence)) chosen[pos] = 1;
  if (threadOf) keepThreadsBest(usable, rough.value, chosen, threadOf);
  if (choices?.size) for (let pos = 0; pos < usable.length; pos++) if (choices.has(usable[pos] as Sentence)) chosen[pos] = 1;
  const candidates = [
    ...sentenceCandidates(usable, referents, chosen, ctx),
    ...answerCandidates(options.answers ?? [], usable.length, ctx),
    ...carriedCandidates(carried, carriedIds, options, ctx),
  ];
  // Every candidate's words have ids by now: a covered word the table lacks is in no candidate.
  const covered = coveredWords(options.covered ?? []);
  let picked = pickFacts(candidates, covered, options.poolTokens, options.freshReserve ?? 0);
  // (At work, a finding said again in fewer words — "`x` only checks compatibility." beside "`x`
  // only checks compatibility, not existence." — is the longer one's repeat.)
  if (kind === 'work') picked = withoutRepeats(picked);
  if (news?.size) picked = withForced(candidates, picked, news, covered, coveredWeightFor(options.poolTokens), false);
  if (themes?.size) return withForced(candidates, picked, themes, covered, coveredWeightFor(options.poolTokens), true);
  if (choices?.size) picked = withForced(candidates, picked, choices, covered, coveredWeightFor(options.poolTokens), false);
  return threadOf ? coverThreads(candidates, picked, threadOf, covered, coveredWeightFor(options.poolTokens)) : picked;
}


/** The pool with the `forced` sentences in it, after the picked facts when the pick left them out
 * (as identity facts only, when `identity`): the sentence standing for each speaker
 * (speaker-themes.ts; "About <name>" is what a reader meets first) and each session's opening
 * news (openingNews). */
function withForced(candidates: readonly Candidate[], picked: readonly SourcedLine[], forced: ReadonlySet<Sentence>, covered: Uint8Array, coveredWeight: number, identity: boolean): SourcedLine[] {
  const texts = new Set([...forced].map((s) => s.text));
  const shown = new Set(picked.map((f) => f.text));
  const added = candidates.filter((c) => (!identity || c.identity) && texts.has(c.text) && !shown.has(c.text)).map((c) => pickedLine(c, gainOf(c, covered, coveredWeight)));
  return added.length ? [...picked, ...added] : [...picked];
}

/** The words of a line, lower case (a one-letter code name too: `x` is not `y`). */
const wordsOf = (text: string): Set<string> => new Set(text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []);

/** The lines without one whose every word a longer picked line holds. */
export function withoutRepeats(lines: readonly SourcedLine[]): SourcedLine[] {
  const sets = lines.map((l) => wordsOf(l.text));
  const words = sets.map((set) => [...set]);
  // (Only the lines holding a line's least shared word can hold all of its words: each line is
  // compared with those, not with every other line — the pool of a long run holds hundreds.)
  const holders = new Map<string, number[]>();
  words.forEach((ws, j) => {
    for (const w of ws) {
      const list = holders.get(w);
      if (list) list.push(j);
      else holders.set(w, [j]);
    }
  });
  return lines.filter((l, i) => {
    const mine = words[i] as string[];
    if (!mine.length) return true;
    let fewest: number[] = holders.get(mine[0] as string) ?? [];
    for (const w of mine) {
      const list = holders.get(w) ?? [];
      if (list.length < fewest.length) fewest = list;
    }
    return !fewest.some((j) => j !== i && (lines[j] as SourcedLine).text.length > l.text.length && mine.every((w) => (sets[j] as Set<string>).has(w)));
  });
}
