// The candidates the fact ranking picks from: a usable sentence (with its referent when it leans on
// one, or without a bracketed aside after its end), an assistant answer's list as its items' heads,
// and a fact carried from the previous round with its seniority. Each holds its words' weights, its
// boost (prior, focus, seniority) and its cost; extract-facts ranks them (fact-pick.ts).
import type { Sentence } from './extract-sentences';
import type { SourcedLine } from './record';
import { MAX_WORDS } from './fact-sentences';
import { idsOf } from './fact-weights';
import { IDENTITY_BOOST, readsAsIdentity, tellsAboutUser, tellsIdentity, tellsProfile } from './fact-prior';
import { wordCount } from './text';
import { findingOf } from './agent-prose';
import { asideNamesSomething } from './salience';
import { traitsOf } from './traits';

/** An assistant message's list, as its items' heads (answer-shape.ts). */
export interface ListedAnswer {
  id: string;
  at: number;
  /** Its index among the removed messages (the order key of the sentences). */
  message: number;
  heads: readonly string[];
  /** The request it answers (see SourcedLine.asked). */
  asked?: string;
}

export interface Candidate {
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
  /** A shown carried fact's gain, fixed before any coverage (see fact-pick.ts). */
  fixedGain?: number;
  /** The user telling about themselves (see SourcedLine.about). */
  about?: boolean;
  /** A carried fact's thread. */
  thread?: number;
  /** Its speaker saying who they are (see SourcedLine.identity). */
  identity?: boolean;
  /** An answer's list heads (see FactOptions.answers), and the request it answers. */
  listed?: boolean;
  asked?: string;
  /** Said by the assistant (a sentence of its answer, or its list). */
  assistant?: boolean;
  /** The group of the sentence a pointer-led sentence was joined to (see referentOf): picking
   * the pair rules out picking that sentence again on its own. */
  alsoGroup?: number;
}

/** Fixed cost added to each sentence's tokens when ranking by value per token: a line has a
 * bullet and label, and a short exclamation with one rare name must not beat a sentence of facts. */
export const COST_OFFSET = 9;

/** A text's estimated tokens, cheaply (the ranking's cost; the block measures its lines). */
export const cheapCost = (text: string): number => cheapCostOf(text.length);
/** {@link cheapCost} of a text of `chars` code units. */
export const cheapCostOf = (chars: number): number => Math.ceil(chars / 3.6) + 3;

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

/** A sentence, then a bracketed aside after its end. */
const ASIDE = /^(.*[.!?…]["'”’)]*)\s+\[[^\]]*\][.!?]?$/u;

/** A sentence without the bracketed aside after its end when that names nothing (a photo's caption:
 * "We won! [shares a photo: a photo of a match]", asideNamesSomething); else the
 * sentence. */
export function withoutAside(text: string): string {
  const aside = text.length > 12 && text.endsWith(']') ? ASIDE.exec(text) : null;
  return aside?.[1] && !asideNamesSomething(text.slice(aside[1].length)) ? aside[1] : text;
}


/** What building a candidate reads of the compaction. */
export interface CandidateContext {
  round: number;
  /** Two people talking (conversationKind 'talk'). */
  talk: boolean;
  /** The prior of a sentence shown as a text (fact-prior.ts priorOf). */
  prior: (s: Sentence, text: string) => number;
  /** A speaker's prior for a text's traits (fact-prior.ts rolePrior). */
  rolePrior: (role: string | undefined, t: number) => number;
  /** (With the sentence `s` whose own text and ids they may be: its marks are kept on it.) */
  weigh: (text: string, ids: readonly number[], s?: Sentence) => number[];
  focusBoost: (ids: readonly number[]) => number;
  /** Messages of pasted text (fact-prior.ts pastedMessages): not the user telling of themselves. */
  pasted?: ReadonlySet<number>;
  /** Between two people, the sentence that stands for each speaker (speaker-themes.ts). */
  themes?: ReadonlySet<Sentence>;
  /** An agent at work with tools: its sentences are findings, said without their narration. */
  work?: boolean;
}

/** The candidate of sentence `s` (at `pos` among the usable ones) shown as `text` with its `ids`. */
export function sentenceCandidate(s: Sentence, pos: number, text: string, ids: readonly number[], ctx: CandidateContext): Candidate {
  const boost = ctx.prior(s, text) * ctx.focusBoost(ids);
  const seq = ctx.round * 1e9 + s.message * 1e4 + Math.min(s.index, 9999);
  // (Nor with its referent a question to the assistant: "Do you have any other strategies for
  // remembering theories? I've always struggled with those." asks before it tells.)
  const about = tellsAboutUser(s, text, ctx.pasted) && !(text !== s.text && /\?/.test(text.slice(0, text.length - s.text.length)));
  const theme = text === s.text && ctx.themes?.has(s) === true;
  const rankedAsIdentity = theme || tellsIdentity(s, text, ctx.talk);
  const identity = (rankedAsIdentity && readsAsIdentity(s, text)) || tellsProfile(text, ctx.talk);
  const c: Candidate = {
    text,
    sources: [s.id],
    at: s.at,
    pos,
    group: pos,
    round: ctx.round,
    seq,
    ids,
    weights: ctx.weigh(text, ids, s),
    boost: rankedAsIdentity ? boost * IDENTITY_BOOST : boost,
    cost: cheapCost(text),
  };
  // (Set when they hold, not spread from an object made for each: a compaction builds thousands.)
  if (about) c.about = about;
  if (identity) c.identity = identity;
  if (s.role === 'assistant') c.assistant = true;
  return c;
}

/** The candidates of the usable sentences the prefilter `chosen`: each alone (or with its referent,
 * as one line of its message), and without a bracketed aside after its end when it has one. */
export function sentenceCandidates(usable: readonly Sentence[], referents: ReadonlyMap<Sentence, Sentence>, chosen: Uint8Array, ctx: CandidateContext): Candidate[] {
  const candidates: Candidate[] = [];
  for (let pos = 0; pos < usable.length; pos++) {
    if (!chosen[pos]) continue;
    const s = usable[pos] as Sentence;
    const before = referents.get(s);
    if (before) {
      // The pointer-led sentence goes with its referent, as one line of that message. Between two
      // people, a referent that itself leans on the sentence before it brings that one too: "We won
      // it by a tight score." read as the trivia contest of the line above it, without "Last week I
      // had a crazy game" (LoCoMo recall 0.387/0.541/0.711 → 0.386/0.546/0.714 at 500/1,000/2,000;
      // with an assistant it cost LongMemEval at 500, 0.457 → 0.449).
      const chain = ctx.talk ? referents.get(before) : undefined;
      // (Between two people each part without a picture's caption that names nothing, as a sentence
      // alone below: readers met "… the crowd was so loud! [shares a photo: a photo of a
      // match in a large stadium]" as noise. LoCoMo events over 27 prefixes
      // 0.307/0.628/0.894 → 0.318/0.648/0.898 at 500/1,000/2,000; recall 0.423/0.600/0.769 →
      // 0.428/0.603/0.757: a picture's words answered a few questions at 2,000.)
      const own = (x: Sentence): string => (ctx.talk ? withoutAside(x.text) : x.text);
      const joined = chain ? `${own(chain)} ${own(before)} ${own(s)}` : `${own(before)} ${own(s)}`;
      const text = ctx.work && s.role === 'assistant' ? findingOf(joined) : joined;
      if (wordCount(text) > MAX_WORDS) continue;
      const c = sentenceCandidate(s, pos, text, idsOf(text), ctx);
      // (The referent, when usable, is the usable sentence just before: same message, index before.)
      if (pos > 0 && usable[pos - 1] === before) c.alsoGroup = pos - 1;
      candidates.push(c);
      continue;
    }
    // (At work, an agent's finding without its narration: "Looking at the code, I can see that
    // `x` only checks …" is "`x` only checks …".)
    const aside = s.chars > 12 && s.text.endsWith(']') ? ASIDE.exec(s.text) : null;
    // Between two people, a picture's description that names nothing ("[shares a photo: a
    // photography of a score board with a clock and a phone]") is left out: readers counted it as
    // filler on every block they read. (LoCoMo recall 0.379/0.554/0.733 → 0.383/0.554/0.731 at
    // 500/1,000/2,000, events 0.250/0.625/0.882 → 0.243/0.660/0.861.)
    if (aside?.[1] && ctx.talk && !asideNamesSomething(s.text.slice(aside[1].length))) {
      candidates.push(sentenceCandidate(s, pos, aside[1], idsOf(aside[1]), ctx));
      continue;
    }
    const finding = ctx.work && s.role === 'assistant' && !s.code ? findingOf(s.text) : s.text;
    candidates.push(finding === s.text ? sentenceCandidate(s, pos, s.text, s.ids, ctx) : sentenceCandidate(s, pos, finding, idsOf(finding), ctx));
    // A bracketed aside after the sentence's end ("We won! [shares a photo: …]") may be left
    // out: the sentence alone is the cheaper fact, and the ranking weighs what the aside adds
    // (one of the two at most: they share the group). A block with room for more whole sentences
    // keeps more of the conversation in later rounds too (LoCoMo chain decay at budget 1,000:
    // 0.88 → 0.95; single-shot recall unchanged within 0.01).
    if (aside?.[1]) candidates.push(sentenceCandidate(s, pos, aside[1], idsOf(aside[1]), ctx));
  }
  return candidates;
}

/** An answer's list as its items' heads: one candidate per listing message, ranked by its words
 * like any sentence of the assistant (names weigh most), in a group of its own (after the `n`
 * usable sentences' groups). */
export function answerCandidates(answers: readonly ListedAnswer[], n: number, ctx: CandidateContext): Candidate[] {
  return answers.map((a, k) => {
    const text = a.heads.join('; ');
    const ids = idsOf(text);
    return {
      text,
      sources: [a.id],
      at: a.at,
      pos: n + k,
      group: n + k,
      round: ctx.round,
      seq: ctx.round * 1e9 + a.message * 1e4,
      ids,
      weights: ctx.weigh(text, ids),
      boost: ctx.rolePrior('assistant', 0) * ctx.focusBoost(ids),
      cost: cheapCost(text),
      listed: true,
      assistant: true,
      ...(a.asked ? { asked: a.asked } : {}),
    };
  });
}

/** How carried facts keep their rank (FactOptions). */
export interface Seniority {
  seniority?: number;
  shownSeniority?: number;
  carriedRole?: (id: string) => string | undefined;
}

/** The facts carried from the previous round (their `ids` index for index), sorting before the new
 * ones (they are older) in the order of the pool, each with its seniority. */
export function carriedCandidates(carried: readonly SourcedLine[], carriedIds: readonly number[][], seniority: Seniority, ctx: CandidateContext): Candidate[] {
  return carried.map((f, i) => {
    const ids = carriedIds[i] as number[];
    return {
      text: f.text,
      sources: f.sources,
      at: f.at,
      pos: -carried.length + i,
      group: -1 - i,
      round: f.round,
      seq: f.seq ?? f.round * 1e9,
      ids,
      weights: ctx.weigh(f.text, ids),
      boost:
        (seniority.seniority ?? 1) *
        (f.shown ? (seniority.shownSeniority ?? 1) * AGE_GROWTH ** Math.min(MAX_AGE, Math.max(0, ctx.round - f.round)) : 1) *
        ctx.focusBoost(ids) *
        (seniority.carriedRole ? ctx.rolePrior(seniority.carriedRole(f.sources[0] ?? ''), traitsOf(f.text, wordCount(f.text))) : 1),
      ...lineMarks(f),
      cost: cheapCost(f.text),
    };
  });
}

/** What a fact line says of itself beyond its text (shown, about the user, identity, an answer
 * list and its request, its thread, a session's news), the ones it has only: a carried fact keeps them as a
 * candidate, a picked candidate gives them back to its line. */
type Marks = 'shown' | 'about' | 'identity' | 'listed' | 'asked' | 'thread' | 'opens';
export function lineMarks(x: Pick<SourcedLine, Marks>): Pick<SourcedLine, Marks> {
  return withMarks({}, x);
}

/** `into` with the marks of `x` set on it, in the order {@link lineMarks} gives them (a record's
 * fact keeps its key order), without an object per mark. */
export function withMarks<T extends Pick<SourcedLine, Marks>>(into: T, x: Pick<SourcedLine, Marks>): T {
  if (x.shown) into.shown = x.shown;
  if (x.about) into.about = true;
  if (x.identity) into.identity = true;
  if (x.listed) into.listed = true;
  if (x.asked) into.asked = x.asked;
  if (x.thread !== undefined) into.thread = x.thread;
  if (x.opens) into.opens = true;
  return into;
}
