// The compactor: removes the messages before the cut from what is sent, extracts what they
// carried (heuristically, deterministically, without an LLM), merges it with the previous round's
// record, and renders one budgeted `<previous_context>` block. Only what is sent changes: the
// caller keeps the full transcript, and the record names every message it removed.
import { mergeContent, type ExtractedContent } from './chain';
import { selectCut } from './cut';
import { applyEdits, carryEdits, lineState } from './edits';
import { pickFromPool } from './extract-facts';
import { headByAsked } from './listed-answers';
import { prepareSentences } from './extract-sentences';
import { prepareErrorLines } from './extract-summary';
import { rulesOf } from './extract-rules';
import { atMostPerMessage } from './agent-lists';
import { estimateMessageTokens } from './message-tokens';
import type { ChatMessage } from './messages';
import { type CompactionRecord, type CompactionTrigger, RECORD_VERSION, isCompactionRecord } from './record';
import { THREADS_MIN_ROOM, renderBlock } from './render';
import { contentWords } from './word-scan';
import { estimateTokens } from './tokens';
import { wholeUnits } from './units';
import { messageWords, stampedMessage } from './message-words';
import { answerAhead } from './sentence-memo';
import { containedIn } from './substring-probe';
import { analyse, refsOf } from './conversation-analysis';
import { resultOf, shellCommand } from './tool-output';
import { prepareRequest } from './threads';

export interface CompactOptions {
  /** Token budget of the whole `<previous_context>` block, tags included. */
  budgetTokens: number;
  /** Messages [0, cut) are compacted, [cut, n) kept. Without it, {@link selectCut} picks the cut
   * from `keepExchanges` / `keepTokens`. Must fall between units (the caller's cut does). */
  cut?: number;
  /** Used only when `cut` is absent (defaults: 2 exchanges, no token minimum). */
  keepExchanges?: number;
  keepTokens?: number;
  /** The previous round's record (plain data, e.g. loaded from the saved conversation). */
  previous?: CompactionRecord | null;
  /** Manual "Compact now" focus: what matches it is ranked up. */
  focus?: string;
  /** Model id, for the token estimates. */
  model?: string;
  /** When the compaction runs (ms); recorded only. Compaction never reads the clock. */
  now?: number;
  trigger?: CompactionTrigger;
  /** Tokens of each message if already known (the tracker's cached figures); estimated otherwise. */
  tokensOf?: (message: ChatMessage) => number;
  /** Share of the budget held back for estimation error (default DEFAULT_MARGIN in render.ts). */
  margin?: number;
  /** Ids of messages the user pinned: never removed, whatever the cut (with the rest of their
   * unit, so a pinned tool call keeps its results). A message pinned when an earlier round passed
   * it and unpinned since (the previous record's `keptPinned`) is summarised by this round. */
  pinned?: ReadonlySet<string>;
  /** Id of the latest user message the policy let this round carry in compacted form (see
   * `PolicyDecision.carried`): recorded, so what is sent after leaves it out. */
  requestCarried?: string;
}

export type CompactionResult =
  | {
      ok: true;
      record: CompactionRecord;
      /** The `<previous_context>` block ('' when the budget cannot hold one). */
      block: string;
      /** Messages still sent verbatim. */
      kept: ChatMessage[];
      /** Messages removed in this round. */
      removed: ChatMessage[];
      /** True when nothing new was removed and the previous record was returned unchanged. */
      unchanged: boolean;
    }
  | { ok: false; reason: 'nothing-to-compact'; message: string };

/** Facts pool kept in the record for later rounds, relative to the budget. */
const POOL_FACTOR = 2.5;
/** Share of the facts pool that carried facts leave to this round's sentences (see selectFacts):
 * about the block's fresh share (render.ts's FRESH_SHARE, a share of the budget, the pool being
 * POOL_FACTOR budgets). Without it carried facts, with their seniority, fill the pool round after
 * round and the block's fresh share finds no fresh facts left to show (LongMemEval: 16 of this
 * round's facts in the pool in round 2, under 5 in round 5). */
const FRESH_POOL_SHARE = 0.1;
/** Carried facts' rank multiplier in a later round (see selectFacts). */
const SENIORITY = 1.6;
/** Further multiplier for carried facts the previous block showed: summaries of summaries must not
 * decay, so what the model has been shown is displaced only by clearly better. */
const SHOWN_SENIORITY = 3;

export function compact(messages: readonly ChatMessage[], options: CompactOptions): CompactionResult {
  const model = options.model;
  // (Without the caller's figures each message is estimated once here: the cut, what the prompt
  // held and what the block replaces all count the removed messages.)
  const perMessage = options.tokensOf ?? estimatedOnce(model);
  let cut = options.cut;
  if (cut === undefined) {
    const sel = selectCut(messages, { keepExchanges: options.keepExchanges ?? 2, keepTokens: options.keepTokens ?? 0, model, tokensOf: perMessage });
    if (!sel.ok) return sel;
    cut = sel.index;
  }
  cut = Math.max(0, Math.min(messages.length, Math.floor(cut)));
  const previous = isCompactionRecord(options.previous) ? options.previous : null;

  // Only messages after what earlier rounds removed are new; the rest is in the previous record.
  let from = 0;
  if (previous?.removedThrough) {
    const at = messages.findIndex((m) => m.id === previous.removedThrough);
    if (at >= 0) from = at + 1;
  }
  const pinned = wholeUnits(messages, options.pinned ?? new Set());
  // Messages an earlier round left sent because they were pinned, unpinned since: summarised now.
  const held = new Set(previous?.keptPinned ?? []);
  const released = messages.slice(0, from).filter((m) => held.has(m.id) && !pinned.has(m.id));
  const passed = messages.slice(from, Math.max(from, cut));
  const removed = [...released, ...passed.filter((m) => !pinned.has(m.id))];
  const kept = messages.filter((m, i) => i >= cut || pinned.has(m.id));
  const keptPinned = [...messages.slice(0, from).filter((m) => held.has(m.id) && pinned.has(m.id)), ...passed.filter((m) => pinned.has(m.id))].map((m) => m.id);
  const tokensOf = (ms: readonly ChatMessage[]): number => ms.reduce((sum, m) => sum + perMessage(m), 0);

  if (!removed.length) {
    if (!previous) {
      const message = passed.length ? 'Nothing to compact: every message before the recent ones is pinned.' : 'Nothing to compact: no message lies before the cut.';
      return { ok: false, reason: 'nothing-to-compact', message };
    }
    // Idempotent: nothing new, the same record and block.
    return { ok: true, record: previous, block: previous.block, kept, removed: [], unchanged: true };
  }

  const round = (previous?.round ?? 0) + 1;
  const fresh = extract(removed, previous, options, round);
  const content = mergeContent(previous, fresh, round);
  const record: CompactionRecord = {
    version: RECORD_VERSION,
    round,
    timestamp: options.now ?? 0,
    trigger: options.trigger ?? 'unknown',
    ...(options.focus ? { focus: options.focus } : {}),
    removedIds: removed.map((m) => m.id),
    keptIds: kept.map((m) => m.id),
    removedThrough: passed.filter((m) => !pinned.has(m.id)).pop()?.id ?? previous?.removedThrough ?? null,
    tokensBefore: (previous ? estimateTokens(previous.block, model) : 0) + tokensOf([...released, ...messages.slice(from)]),
    tokensAfter: 0,
    ...content,
    block: '',
    blockTokens: 0,
  };
  if (keptPinned.length) record.keptPinned = keptPinned;
  // The carried request stays carried while it is the latest (later rounds of the same turn).
  const carried = options.requestCarried ?? previous?.requestCarried;
  if (carried) record.requestCarried = carried;
  // The user's edits of the previous round hold for the lines this one still carries.
  const edits = carryEdits(previous?.edits, record);
  if (edits.length) record.edits = edits;
  const roles = new Map<string, string>();
  for (const m of removed) roles.set(m.id, m.role);
  if (previous) for (const f of previous.facts) for (const id of f.sources) if (!roles.has(id)) roles.set(id, previous.factRoles?.[id] ?? '');
  record.factRoles = factRoles(record, roles);
  // The block always costs less than what it replaces: compaction must shrink the prompt.
  const replaced = tokensOf(removed) + (previous ? previous.blockTokens : 0) - 1;
  const budgetTokens = Math.min(options.budgetTokens, replaced);
  record.blockBudget = budgetTokens;
  const edited = applyEdits(record);
  record.block = renderBlock(edited, { budgetTokens, model, margin: options.margin }, (id) => record.factRoles?.[id] || undefined);
  record.blockTokens = record.block ? estimateTokens(record.block, model) : 0;
  const shown = containedIn(record.block);
  for (const f of record.facts) {
    const state = lineState(record, 'facts', f);
    const text = state ? ('text' in state ? state.text : '') : f.text;
    if (text && shown(text)) f.shown = round;
  }
  record.tokensAfter = record.blockTokens + tokensOf(kept);
  return { ok: true, record, block: record.block, kept, removed, unchanged: false };
}

/**
 * Reads a message ahead of compaction: its sentences, references, file operations and error lines
 * go into the per-message caches, so the compaction that later removes it reads it no more. O(that
 * message): the chat session calls it as each message is completed, as the token tracker counts
 * it then, so a compaction before a request costs what ranking and rendering cost. Output never
 * depends on it.
 */
export function prepareMessage(message: ChatMessage): void {
  const sentences = prepareSentences(message);
  answerAhead(sentences);
  prepareErrorLines(message);
  refsOf(message);
  if (message.role === 'user') rulesOf(message);
  if (message.role !== 'tool') stampedMessage(message);
  messageWords(message, sentences);
  prepareRequest(message, sentences);
  // (A tool result's output and a call's arguments and command, read once per object.)
  if (message.role === 'tool') resultOf(message);
  if (message.role === 'assistant') for (const call of message.toolCalls ?? []) shellCommand(call);
}

/** A message's estimate, worked out once per compaction. */
function estimatedOnce(model: string | undefined): (m: ChatMessage) => number {
  const known = new Map<ChatMessage, number>();
  return (m) => {
    let n = known.get(m);
    if (n === undefined) known.set(m, (n = estimateMessageTokens(m, model)));
    return n;
  };
}

/** Who said each fact and the line the block left off on (by source id), kept in the record so
 * later rounds can still label them ("Left off, John: …" between two people). */
function factRoles(record: CompactionRecord, roles: ReadonlyMap<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = record.leftOff ? [...record.facts, record.leftOff, ...(record.leftOff.answering ? [record.leftOff.answering] : [])] : record.facts;
  for (const f of lines) {
    const id = f.sources[0];
    if (id === undefined) continue;
    const role = roles.get(id);
    if (role === 'user' || role === 'assistant') out[id] = role;
  }
  return out;
}

function extract(removed: readonly ChatMessage[], previous: CompactionRecord | null, options: CompactOptions, round: number): ExtractedContent {
  // What the removed messages say whatever the options, read once per sequence of them
  // (conversation-analysis.ts); what follows depends on the budget and the focus.
  const a = analyse(removed, previous, round);
  const content = a.content;
  // What the task lines and constraints say need not be said again by a key fact.
  // (A focus asks for its words: what the task lines say of them does not count as said.)
  const focusWords = new Set(options.focus ? contentWords(options.focus) : []);
  const covered = a.coveredWords.filter((w) => !focusWords.has(w));
  // (Answers' lists only where the block lays facts out under their threads' heads.)
  const answers = a.kind === 'assist' && options.budgetTokens >= THREADS_MIN_ROOM ? a.answers() : [];
  const threads = content.threads ?? [];
  headByAsked(threads, answers, removed, a.threadOf, round);
  const selected = pickFromPool(a.pool, {
    answers,
    focus: options.focus,
    covered,
    carriedRole: (id) => previous?.factRoles?.[id],
    seniority: SENIORITY,
    shownSeniority: SHOWN_SENIORITY,
    poolTokens: Math.max(600, Math.floor(options.budgetTokens * POOL_FACTOR)),
    round,
    freshReserve: FRESH_POOL_SHARE,
  });
  // (An agent's message gives at most a few of them: its reasoning is no paragraph of facts.)
  const agentSaid = new Set(removed.filter((m) => m.role === 'assistant').map((m) => m.id));
  // (Only in code work through a shell: in the plugin's note-tool loops a message is an answer — a
  // drafted paragraph, a reference — whose sentences the block should keep, and the cap, applied
  // after the pick, left its room unused.)
  const facts = a.shell ? atMostPerMessage(selected, (id) => agentSaid.has(id)) : selected;
  // Each new fact names its thread (carried ones keep theirs), and between two people whether its
  // speaker said it as they came back (their first message of the session).
  for (const f of facts) {
    if (f.thread !== undefined) continue;
    const t = a.threadOf.get(f.sources[0] ?? '');
    if (t !== undefined) f.thread = t;
    if (a.openers?.has(f.sources[0] ?? '')) f.opens = true;
  }
  const { goal, request, nextStep, leftOff, constraints, decisions, done, openTasks, topics, errors, ...rest } = content;
  return { goal, request, nextStep, leftOff, constraints, decisions, done, openTasks, topics, errors, facts, ...rest };
}
