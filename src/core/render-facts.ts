// The block's key facts: chosen in ranking order, shown in conversation order (thread-format.ts
// lays them out, under their threads' heads when there are several). Consecutive facts said by the
// same side on the same day share one line and one label, so a fact costs little more than its own
// words; the section is measured once chosen and the lowest-ranked facts give way if the labels cost
// more than estimated. In a later round this round's facts get a share first (fresh), and with
// several threads each thread's best fact comes before the rest (spread). Last, the room the
// per-line estimates left in the block measured whole takes the next-ranked facts (`fillSlack`).
import type { CompactionRecord, SourcedLine } from './record';
import type { BlockDraft } from './block-draft';
import { HEADINGS, assemble, factText } from './block-format';
import type { TaskTexts } from './render-tasks';
import type { FactLayout } from './thread-format';
import { listsEach } from './thread-keeps';
import { dedupeKey } from './text';
import { type KeepSearch, keepFromGuess } from './keep-search';

/** Share of the key facts' room that a later round's newly removed messages get first. Counted
 * in whole facts (see the fresh pass): a round of long answers gets its share even when each of
 * its facts is a paragraph. 0.15 left chains of long answers stale (LongMemEval freshness 0.15);
 * at 0.2 they sat on the edge (0.20 at budget 2,000); 0.22 leaves a margin there (0.209) while
 * the first round still keeps its place (LoCoMo chain decay at 1,000: 0.94; 0.95 at 0.21). */
const FRESH_SHARE = 0.22;
/** Share of the key facts' room that goes to each thread's best fact before the rest go by rank.
 * With an assistant a thread's best is its answer's list when it has one (thread-format.ts):
 * 0.4 showed five threads of fifteen, the rest of the room going to what the user said of
 * themselves (LongMemEval at 1,000, recall on what the assistant said 0.38 → 0.46 at 0.6, overall
 * 0.555 → 0.554; at 0.75 overall 0.49). */
const SPREAD_SHARE = 0.6;
/** The same in a chat with an assistant, where every thread now has a line in the pool (its list,
 * else the assistant's best sentence, fact-pick.ts coverThreads) and no "Asked:" line beside it:
 * 0.75 showed 77 % of the threads instead of 63 % (LongMemEval at 1,000, recall 0.585 → 0.602,
 * what the assistant said 0.50 → 0.63, what the user said 0.69 → 0.66); 0.85 showed 82 % but
 * squeezed what the user said of themselves (recall 0.541). */
const ASSIST_SPREAD_SHARE = 0.75;
/** The same between two people, whose sessions' news is what a reader needs most. (Each session
 * is a thread there: 0.6 left less room for the ranking's second facts, which carry the news'
 * details — LoCoMo event coverage at 1,000 0.59 → 0.60 at 0.45, recall 0.530 → 0.543.) */
const TALK_SPREAD_SHARE = 0.45;
/** Least room (estimated tokens) worth trying a clause of a fact in. */
const FILL_MIN_ROOM = 6;
/** Most facts measured in the block by the final fill (each costs one estimate of the block). */
const FILL_TRIES = 12;

/** The facts the block may show, in rank order. An answer's list heads read only under the request
 * they answer: without threads' heads they are names out of context, and a small block has better
 * use for its room. (At most two lists under one thread: thread-format.ts listsEach.) */
export function factPool(record: CompactionRecord, manyThreads: boolean): SourcedLine[] {
  if (!manyThreads) return record.facts.filter((f) => !f.listed);
  const pool = listsEach(record.facts);
  // Between two people each session is a thread: its best fact comes a little earlier.
  return record.kind === 'talk' ? spreadRanks(pool) : pool;
}

/** Between two people, rank multiplier of a session's best fact in the rank passes (after the
 * spread's share is spent). 1.3 let a session's one line — the wedding told as last week's news —
 * come before another session's second (LoCoMo at 1,000: recall 0.553 → 0.556, event coverage
 * unchanged, sessions without a line 8 → 7 of 19 in the longest block; 1.2: 0.546, 1.6: 0.545; a
 * decay of a session's third and later facts cost recall, 0.719 → 0.701 at 2,000). */
const SESSION_FIRST_BOOST = 1.3;

/** The facts in rank order with each thread's best worth SESSION_FIRST_BOOST more (talk). */
export function spreadRanks(pool: readonly SourcedLine[]): SourcedLine[] {
  const seen = new Set<number>();
  const keyed = pool.map((f, i) => {
    const first = f.thread !== undefined && !seen.has(f.thread);
    if (f.thread !== undefined) seen.add(f.thread);
    return { f, i, k: first ? f.score * SESSION_FIRST_BOOST : f.score };
  });
  return keyed.sort((a, b) => b.k - a.k || a.i - b.i).map((x) => x.f);
}

/** Whether the task lines, the cause State shows or an error's resolution already say a fact
 * (`lower`: its text, lower case). A fact holding the whole "Left off" line is that sentence again,
 * unless the line is a mere "Yes.". */
export function saidAboveTest(record: CompactionRecord, tasks: Pick<TaskTexts, 'goalLower' | 'nextStepText' | 'leftOffText'>): (lower: string) => boolean {
  const { goalLower, nextStepText, leftOffText } = tasks;
  // The errors' resolutions (added after the facts, on lines of their own) are said above too.
  const resolutions = record.errors.map((e) => e.resolution?.toLowerCase() ?? '').filter(Boolean);
  // The cause the State section shows (without the connective a fact may open with).
  const causeLower = record.state?.cause?.text.toLowerCase() ?? '';
  return (lower) =>
    goalLower.includes(lower) ||
    (causeLower.length >= 20 && (causeLower.includes(lower.replace(/^(?:so|now|ok(?:ay)?|i see|i found it|perfect|great|good|ah|aha)[,!:]?\s+/, '')) || lower.includes(causeLower))) ||
    resolutions.includes(lower) ||
    (nextStepText !== '' && nextStepText.includes(lower)) || (leftOffText !== '' && (leftOffText.includes(lower) || (leftOffText.length >= 20 && lower.includes(leftOffText))));
}

/** The first pass's order: this round's facts (`fresh`, up to `freshRoom` tokens in whole facts),
 * then each thread's best (`spread`, up to `spreadShare` of the facts' room), then the pool. */
export interface FirstPass {
  fresh: readonly SourcedLine[];
  freshRoom: number;
  spread: readonly SourcedLine[];
  spreadShare: number;
  round: number;
}

/**
 * A fact's shown text, cost and key, worked out once per render: the passes revisit facts, the
 * fact lines are regrouped on every try, and a block written again to its own margin (render.ts)
 * weighs the same facts. Each is a function of the fact and the cost function alone.
 */
export class FactMemo {
  private readonly texts = new Map<SourcedLine, string>();
  private readonly costs = new Map<SourcedLine, number>();
  private readonly keys = new Map<SourcedLine, string>();
  private readonly lines = new Map<string, number>();

  constructor(private readonly cost: (s: string) => number) {}

  readonly textOf = (f: SourcedLine): string => {
    let t = this.texts.get(f);
    if (t === undefined) this.texts.set(f, (t = factText(f)));
    return t;
  };

  costOf(f: SourcedLine): number {
    let c = this.costs.get(f);
    if (c === undefined) this.costs.set(f, (c = this.cost(this.textOf(f)) + 2));
    return c;
  }

  /** A laid-out line's cost: the layouts tried while dropping share most of their lines. */
  lineCost(line: string): number {
    let c = this.lines.get(line);
    if (c === undefined) this.lines.set(line, (c = this.cost(line)));
    return c;
  }

  keyOf(f: SourcedLine): string {
    let k = this.keys.get(f);
    if (k === undefined) this.keys.set(f, (k = dedupeKey(f.text)));
    return k;
  }
}

export class KeyFacts {
  /** The facts shown, in the order taken. */
  readonly facts: SourcedLine[] = [];
  private readonly picked = new Set<SourcedLine>();
  /** The section's lines as laid out, and what they cost measured. */
  lines: string[] = [];
  private linesCost = 0;
  /** Tokens the block used before the facts. */
  private readonly start: number;
  private readonly heading: number;
  // Whether a line above says a fact, worked out once: the passes revisit facts. (Its text, cost
  // and key are the render's, shared by both writes of the block: `memo`.)
  private readonly saidAboveMemo = new Map<SourcedLine, boolean>();
  private readonly headsShown = new Set<string>();
  /** The texts of the facts taken, by their first source id, in the order taken. */
  private readonly textsBySource = new Map<string, string[]>();
  private readonly leastMemo = new WeakMap<readonly SourcedLine[], Float64Array>();
  /** How many answer lists of each message (by source id) are among the facts taken. */
  private readonly listedTaken = new Map<string, number>();

  constructor(
    private readonly draft: BlockDraft,
    private readonly layout: FactLayout,
    private readonly manyThreads: boolean,
    private readonly saidAbove: (lower: string) => boolean,
    private readonly memo: FactMemo = new FactMemo(draft.cost),
  ) {
    this.start = draft.used;
    this.heading = draft.cost(HEADINGS.facts) + 1;
  }

  readonly textOf = (f: SourcedLine): string => this.memo.textOf(f);

  costOf(f: SourcedLine): number {
    return this.memo.costOf(f);
  }

  keyOf(f: SourcedLine): string {
    return this.memo.keyOf(f);
  }

  saidAboveFact(f: SourcedLine): boolean {
    let g = this.saidAboveMemo.get(f);
    if (g === undefined) this.saidAboveMemo.set(f, (g = this.saidAbove(f.text.toLowerCase())));
    return g;
  }

  /** Whether a sentence of an answer says again items of that answer's list, already taken as its
   * heads: it opens on one of them ("**2700K** - the warmest …" under "listed: 2700K; 3000K; …").
   * Readers counted those as the same thing said twice. */
  private repeatsList(f: SourcedLine): boolean {
    if (f.listed) return false;
    const source = f.sources[0];
    // (Most facts have no list of their message taken: ruled out by one lookup, not by a walk over
    // every fact taken — the passes ask it of every fact in the pool.)
    if (source === undefined || !this.listedTaken.get(source)) return false;
    const opening = f.text.replace(/^[\s*_#>"“]+|^\d{1,2}[.)]\s+/g, '').toLowerCase();
    for (const g of this.facts) {
      if (!g.listed || g.sources[0] !== source) continue;
      for (const head of g.text.split('; ')) if (head && opening.startsWith(head.toLowerCase())) return true;
    }
    return false;
  }

  /** The first pass's plan for `pool` in a record of this round. */
  firstPass(pool: readonly SourcedLine[], record: CompactionRecord): FirstPass {
    const room = this.draft.target - this.start;
    // In a later round, what this round removed gets its share of the facts first (in rank order),
    // so the block stays fresh while what earlier blocks showed keeps the rest: without it, carried
    // facts with their seniority would fill a block round after round.
    const freshRoom = record.round > 1 ? Math.floor(room * FRESH_SHARE) : 0;
    const fresh = freshRoom > 0 ? pool.filter((f) => f.round === record.round) : [];
    // A conversation of several threads: each thread's best fact first, so the budget is spread over
    // the threads before any one of them is filled (thread-format.ts); a thread's head costs its line.
    const spread = this.manyThreads ? this.layout.spread(pool) : [];
    return { fresh, freshRoom, spread, spreadShare: record.kind === 'talk' ? TALK_SPREAD_SHARE : record.kind === 'assist' ? ASSIST_SPREAD_SHARE : SPREAD_SHARE, round: record.round };
  }

  /** Takes the facts in a few passes: shared labels make the measured section cheaper than the
   * per-fact estimates, and the room that frees goes to the next facts in rank order. */
  takeRanked(pool: readonly SourcedLine[], first: FirstPass, keep: KeepSearch = keepFromGuess): void {
    for (let pass = 0; pass < 3; pass++) {
      const added = pass === 0 ? this.pass([...first.fresh, ...first.spread, ...pool], first) : this.pass(pool, null);
      if (!added) break;
      this.relayout();
      if (this.facts.length && this.start + this.linesCost > this.draft.target) this.dropToFit(keep);
    }
    this.draft.used = this.start + this.linesCost;
  }

  /** Whether a fact taken from the same message holds this one's text, or this one holds its: the
   * pool has a sentence alone and joined with the one it leans on, and both were written on one
   * line ("Last weekend I went to a jazz night in Lyon - it was great! Last weekend I went to a
   * jazz night in Lyon - it was great! Such good players …"). */
  private overlapsTaken(f: SourcedLine): boolean {
    const source = f.sources[0];
    // (Between two people: with an assistant it moved LongMemEval's blocks, left to be weighed.)
    if (source === undefined || !this.layout.talk) return false;
    for (const text of this.textsBySource.get(source) ?? []) if (text.includes(f.text) || f.text.includes(text)) return true;
    return false;
  }

  /** Drops the last-taken facts until the section, laid out and measured, fits: as many as
   * `keep` finds (keep-search.ts), from a guess that the section sheds each fact's own cost. */
  private dropToFit(keep: KeepSearch): void {
    const n = this.facts.length;
    const over = this.start + this.linesCost - this.draft.target;
    let guess = n;
    for (let shed = 0; guess > 0 && shed < over; ) shed += this.costOf(this.facts[--guess] as SourcedLine);
    const tried = new Map<number, { lines: string[]; cost: number }>();
    const kept = keep(n, guess, (m) => {
      const lines = this.layout.lines(this.facts.slice(0, m), this.textOf);
      const cost = this.measure(lines);
      tried.set(m, { lines, cost });
      return this.start + cost <= this.draft.target;
    });
    while (this.facts.length > kept) this.draft.shown.delete(this.keyOf(this.dropLast()));
    const hit = tried.get(kept);
    if (hit) {
      this.lines = hit.lines;
      this.linesCost = hit.cost;
    } else this.relayout();
  }

  private take(f: SourcedLine): void {
    this.facts.push(f);
    const texts = this.textsBySource.get(f.sources[0] ?? '');
    if (texts) texts.push(f.text);
    else if (f.sources[0] !== undefined) this.textsBySource.set(f.sources[0], [f.text]);
    const source = f.sources[0];
    if (f.listed && source !== undefined) this.listedTaken.set(source, (this.listedTaken.get(source) ?? 0) + 1);
  }

  private dropLast(): SourcedLine {
    const f = this.facts.pop() as SourcedLine;
    this.textsBySource.get(f.sources[0] ?? '')?.pop();
    const source = f.sources[0];
    if (f.listed && source !== undefined) this.listedTaken.set(source, (this.listedTaken.get(source) ?? 1) - 1);
    return f;
  }

  private relayout(): void {
    this.lines = this.layout.lines(this.facts, this.textOf);
    this.linesCost = this.measure(this.lines);
  }

  private measure(ls: readonly string[]): number {
    return ls.length ? this.heading + ls.reduce((n, l) => n + this.memo.lineCost(l) + 1, 0) : 0;
  }

  /** A thread's head costs its line with the first fact of the thread. */
  private headCost(f: SourcedLine): number {
    if (!this.manyThreads) return 0;
    const g = this.layout.group(f);
    const head = g && !this.headsShown.has(g) ? this.layout.head(g) : '';
    // (A list answering a follow-up question of its thread costs that question's line too, once:
    // unestimated, the lines it added were paid for by the best facts taken last.)
    const ask = this.layout.askOf(f);
    const asked = ask && !this.headsShown.has(`ask:${ask}`) ? this.draft.cost(ask) + 4 : 0;
    return (head ? this.draft.cost(head) + 1 : 0) + asked;
  }

  /** The least cost of a fact at or after each place of `order` (a fact costs at least its own
   * line's estimate), kept per order: the later passes walk the same pool. */
  private leastFrom(order: readonly SourcedLine[]): Float64Array {
    let least = this.leastMemo.get(order);
    if (least) return least;
    least = new Float64Array(order.length);
    let min = Infinity;
    for (let i = order.length - 1; i >= 0; i--) least[i] = min = Math.min(min, this.costOf(order[i] as SourcedLine));
    this.leastMemo.set(order, least);
    return least;
  }

  /** One pass over `order`, taking each fact that fits by the per-fact estimates; the first pass
   * (`first`) holds the fresh and spread facts to their shares. True when it took one. */
  private pass(order: readonly SourcedLine[], first: FirstPass | null): boolean {
    const { draft, start } = this;
    let used = start + this.linesCost;
    let added = false;
    // (Past the point where not even the cheapest fact left fits, none does: a long chat's pool
    // runs to thousands of facts, and the room is full long before its end.)
    const least = this.leastFrom(order);
    for (let i = 0; i < order.length; i++) {
      if (used + (least[i] as number) > draft.target) break;
      const f = order[i] as SourcedLine;
      if (this.picked.has(f)) continue;
      const key = this.keyOf(f);
      if (draft.shown.has(key) || this.saidAboveFact(f) || this.repeatsList(f) || this.overlapsTaken(f)) continue;
      const c = this.costOf(f) + (this.facts.length ? 0 : this.heading) + this.headCost(f);
      if (first && pastFresh(first, i, f, used - start, c)) continue;
      if (used + c > draft.target) continue;
      // The spread (each thread's best fact, ahead of rank order) takes a share of the room: the
      // rest goes by rank, so a thread with much worth keeping is not held to one fact.
      if (first && i >= first.fresh.length && i < first.fresh.length + first.spread.length && used + c - start > first.spreadShare * (draft.target - start)) continue;
      used += c;
      this.picked.add(f);
      draft.shown.add(key);
      this.take(f);
      if (this.manyThreads) {
        this.headsShown.add(this.layout.group(f));
        const ask = this.layout.askOf(f);
        if (ask) this.headsShown.add(`ask:${ask}`);
      }
      added = true;
    }
    return added;
  }

  /**
   * The room the per-line estimates left: lines measured one by one cost more than the block
   * measured whole. The next-ranked facts that did not fit take it while the whole block, measured,
   * stays within `limit` (the budget less the margin); the draft's lines get the facts' lines.
   */
  fillSlack(pool: readonly SourcedLine[], limit: number): void {
    const { draft } = this;
    const built = draft.lines;
    let slack = limit - draft.cost(assemble(built));
    let tries = 0;
    for (const f of pool) {
      if (slack < FILL_MIN_ROOM || tries >= FILL_TRIES) break;
      if (this.picked.has(f) || draft.shown.has(this.keyOf(f)) || this.saidAboveFact(f) || this.repeatsList(f) || this.overlapsTaken(f)) continue;
      const parts = [f.text];
      for (const text of parts) {
        const part: SourcedLine = text === f.text ? f : { ...f, text };
        const key = text === f.text ? this.keyOf(f) : dedupeKey(text);
        if (draft.shown.has(key) || (part !== f && this.saidAbove(text.toLowerCase()))) continue;
        // A fact costs at least its own text: most are ruled out without measuring the block.
        if (this.costOf(part) - 2 + (this.facts.length ? 0 : this.heading) > slack) continue;
        tries++;
        this.take(part);
        const lines = this.layout.lines(this.facts, this.textOf);
        built.set('facts', lines);
        const c = draft.cost(assemble(built));
        if (c > limit) {
          this.dropLast();
          if (this.lines.length) built.set('facts', this.lines);
          else built.delete('facts');
          continue;
        }
        this.lines = lines;
        slack = limit - c;
        draft.shown.add(key);
        this.picked.add(f);
        break;
      }
    }
  }
}

/**
 * Whether a fresh fact (this round's) is past its share in the first pass (`usedFacts`: tokens the
 * facts took so far; `c`: this one's). The fresh share is room in whole facts: a fact starting
 * inside it is taken whole, even if it runs past it (a token cap would skip a round's long answers
 * for its short remarks, and its share would go unused) — by no more than the share again, so in a
 * small block one new fact does not push out everything carried. In rank order after that, past
 * the share, the new facts wait for the later passes like any other.
 */
export function pastFresh(first: FirstPass, i: number, f: SourcedLine, usedFacts: number, c: number): boolean {
  if (!first.fresh.length || f.round !== first.round) return false;
  return i < first.fresh.length ? usedFacts >= first.freshRoom || usedFacts + c > 2 * first.freshRoom : usedFacts + c > first.freshRoom;
}
