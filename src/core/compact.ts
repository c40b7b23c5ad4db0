// The compactor: removes the messages before the cut from what is sent, extracts what they
// carried (heuristically, deterministically, without an LLM), merges it with the previous round's
// record, and renders one budgeted `<previous_context>` block. Only what is sent changes: the
// caller keeps the full transcript, and the record names every message it removed.
import { mergeContent, type ExtractedContent } from './chain';
import { selectCut } from './cut';
import { applyEdits, carryEdits, isRemoved, lineState } from './edits';
import { selectFacts } from './extract-facts';
import { headByAsked, listedAnswers } from './listed-answers';
import { withoutRetried } from './retried-answers';
import { fileOpsOfCall, mergeSamePaths, referencesNotListed, samePath } from './extract-files';
import { addReferences, findReferences, type FoundReference } from './extract-references';
import { prepareSentences, sentencesOf, templateSection } from './extract-sentences';
import { openingMessages } from './session-openers';
import { extractTaskLines } from './extract-goal';
import { leftOffOutcome, nameLeftOffCode, settleLeftOff } from './left-off';
import { errorKey, extractErrors, extractSections, prepareErrorLines } from './extract-summary';
import { isAgentRun, withoutRefuted, withoutSymptoms } from './agent-prose';
import { withoutPendingPlans } from './agent-cause';
import { withoutListFragments } from './agent-lists';
import { LIBRARY, laterFates, withFates, withoutSettledFailures } from './error-fate';
import { rulesOf, taskRules } from './extract-rules';
import { extractState, shellCommand, stateIsEmpty } from './extract-state';
import { mergeLines } from './chain';
import { estimateMessageTokens } from './message-tokens';
import type { ChatMessage } from './messages';
import { type CompactionRecord, type CompactionTrigger, type FileEntry, type Reference, type SourcedLine, RECORD_VERSION, isCompactionRecord } from './record';
import { THREADS_MIN_ROOM, renderBlock } from './render';
import { contentWords } from './word-scan';
import { estimateTokens } from './tokens';
import { wholeUnits } from './units';
import { conversationKind, extractThreads } from './threads';
import { messageWords, stampedMessage } from './message-words';
import { findSpeakers } from './speakers';
import { answerAhead } from './sentence-memo';
import { containedIn } from './substring-probe';

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
/** A user message longer than this (characters) in a chat with an assistant is taken for pasted
 * text when it comes to rules (see extract). */
const PASTED_CHARS = 1500;
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

/** What a message yields that does not depend on the conversation around it: its references and
 * file operations. Cached per message object (messages are immutable), so compacting or
 * previewing the same messages again does not re-read them. */
interface MessageRefs {
  content: string;
  refs: FoundReference[];
  calls: { refs: FoundReference[]; ops: ReturnType<typeof fileOpsOfCall> }[];
}
const refCache = new WeakMap<ChatMessage, MessageRefs>();

/** A message's text without its instruction-template sections (see `templateSection`): what a
 * harness's template names (README.md, patch.txt) is the same in every run, not this one's work. */
function withoutTemplate(m: ChatMessage): string {
  if ((m.role !== 'user' && m.role !== 'system') || !m.content.includes('<')) return m.content;
  const section = templateSection();
  return m.content
    .split('\n')
    .filter((line) => section(line) === false)
    .join('\n');
}

/**
 * An assistant's "I need to install dependencies." said in a message that runs a tool, with more
 * work after it: the step it was taking then, not a task still open (the block would list every
 * step of an agent run as pending). What it says in its last message is where the work stands.
 */
function stepTaken(removed: readonly ChatMessage[], task: SourcedLine): boolean {
  const at = removed.findIndex((m) => m.id === task.sources[0]);
  const m = removed[at];
  if (!m || m.role !== 'assistant' || !m.toolCalls?.length) return false;
  for (let i = at + 1; i < removed.length; i++) if (removed[i]?.role === 'assistant') return true;
  return false;
}

/** Placeholders (`path/to/file`, `/path/to/x`, `foo/bar.py`) and command lines are no references. */
const PLACEHOLDER = /(?:^|\/)(?:path\/to|your[-_]?\w*|foo\/bar|some\/path)(?:\/|$)/i;
// (Nor a path into installed packages — a traceback's `…/site-packages/django/core/base.py`: the
// project's own files are what the work refers to.)
const isRealReference = (r: FoundReference): boolean => !PLACEHOLDER.test(r.text) && (r.kind === 'wikilink' || r.kind === 'embed' || r.kind === 'markdown-link' || (!/\s/.test(r.text) && !(r.kind === 'path' && LIBRARY.test(r.text))));

function refsOf(m: ChatMessage): MessageRefs {
  const hit = refCache.get(m);
  if (hit && hit.content === m.content) return hit;
  const calls = m.role === 'assistant' ? (m.toolCalls ?? []).map((call) => ({ refs: findReferences(call.arguments.length < 2000 ? call.arguments : ''), ops: fileOpsOfCall(call) })) : [];
  const out = { content: m.content, refs: m.role === 'tool' || m.role === 'system' ? [] : findReferences(withoutTemplate(m)).filter(isRealReference), calls };
  refCache.set(m, out);
  return out;
}

function extract(removed: readonly ChatMessage[], previous: CompactionRecord | null, options: CompactOptions, round: number): ExtractedContent {
  const all = sentencesOf(removed);
  // In an agent run the assistant thinks aloud: what it retracted, guessed or asked, and what
  // points at output no longer shown, is no fact, decision or cause (agent-prose.ts).
  const agent = isAgentRun(removed);
  // (What the task reported — its own words, not a template's — for the agent's lines that only
  // say it again: the symptom is no finding, nor a cause.)
  // (Joined only when read: a cause that may restate the symptom is rare outside shell work.)
  let joined: string | undefined;
  const reported = (): string => (joined ??= [previous?.goal?.text, previous?.request?.text, ...all.filter((s) => s.role === 'user' && !s.template && !s.code).map((s) => s.text)].filter(Boolean).join(' '));
  // (Only in work through a shell — a bug to find: the plugin's note tools answer questions, where
  // "X while Y" said after the user is an answer.)
  const shell = agent && removed.some((m) => m.role === 'assistant' && m.toolCalls?.some((c) => shellCommand(c) !== null));
  const sentences = agent ? (shell ? withoutSymptoms(withoutRefuted(all), reported()) : withoutRefuted(all)) : all;
  // (What the task is about, for the output lines under the left-off command: an earlier round's
  // goal and request too, when this part of the conversation has none.)
  const task = extractTaskLines(removed, sentences, [previous?.goal?.text, previous?.request?.text].filter(Boolean).join(' '));
  settleLeftOff(task, removed);
  // The goal is the first request of the conversation: once a round has one, later rounds keep it
  // and what they find is the latest request instead.
  const goal = previous?.goal ? null : task.goal;
  const request = previous?.goal ? (task.request ?? task.goal) : task.request;
  const extracted = extractSections(sentences);
  // The task's standing rules (what may be changed, how to hand in) come first among constraints.
  // Two people chatting set a model no rules: "Don't give up on your dreams!" is encouragement.
  // (One reading for the whole conversation: a later round's slice of talk can look like an
  // assistant chat, and its sessions then joined into threads of months. Tools make it work.)
  const fresh = conversationKind(removed, sentences);
  const kind = fresh === 'work' || !previous?.kind ? fresh : previous.kind;
  // With an assistant, a latest request the assistant answered after it is no task at hand.
  const answered = kind === 'assist' && request ? answeredAfter(removed, request) : false;
  // With an assistant, a rule inside a long pasted text (a prompt template, a document) is the
  // text's, not the user's standing instruction to this chat.
  const pasted = kind === 'assist' ? new Set(removed.filter((m) => m.role === 'user' && m.content.length > PASTED_CHARS).map((m) => m.id)) : new Set<string>();
  const ownRules = extracted.constraints.filter((c) => !pasted.has(c.sources[0] ?? ''));
  const sections = { ...extracted, constraints: kind === 'talk' ? [] : onceEach(mergeLines(taskRules(removed), ownRules, Number.MAX_SAFE_INTEGER, 'first')) };
  // (With what this round did about the earlier rounds' open errors: chain.ts merges them by key.)
  const met = withFates(removed, extractErrors(removed, all));
  const errors = [...met, ...laterFates(previous?.errors ?? [], removed).filter((e) => !met.some((f) => errorKey(f.text) === errorKey(e.text)))];
  const known = previous ? [...previous.filesRead, ...previous.filesModified].map((f) => f.path) : [];
  const state = agent || previous?.state ? extractState(removed, sentences, previous?.state ?? null, known, reported, all) : null;
  // The left-off command's outcome in one line, as the state read it (left-off.ts).
  if (task.leftOff) leftOffOutcome(task.leftOff, state);
  // (And names the code it read where it said "this function".)
  if (task.leftOff) nameLeftOffCode(task.leftOff, state);

  const references = new Map<string, Reference>();
  const read = new Map<string, FileEntry>();
  const modified = new Map<string, FileEntry>();
  const note = (into: Map<string, FileEntry>, path: string, id: string, pos: number): void => {
    const e = into.get(path);
    if (e) {
      e.last = pos;
      if (!e.sources.includes(id)) e.sources.push(id);
    } else into.set(path, { path, sources: [id], last: pos });
  };
  removed.forEach((m, i) => {
    const found = refsOf(m);
    // Tool output is evidence of files and errors, not of what the conversation referred to (a
    // listing names every file in a folder): its paths are not references. Nor are a system
    // prompt's: it says how to work ("cite notes as [[wikilinks]]"), not what was talked about.
    addReferences(references, found.refs, m.id, i, m.role === 'user' ? 2 : 1);
    for (const { refs, ops } of found.calls) {
      for (const p of ops.read) note(read, p, m.id, i);
      for (const p of ops.modified) note(modified, p, m.id, i);
      addReferences(references, refs.filter(isRealReference), m.id, i, 0.5);
    }
  });
  // One canonical path per file; a file modified is not listed again as read, nor as a reference.
  const filesModified = mergeSamePaths([...modified.values()]);
  const filesRead = mergeSamePaths([...read.values()]).filter((f) => !filesModified.some((x) => samePath(x.path, f.path)));
  const files = [...filesModified, ...filesRead];

  // What the task lines and constraints say need not be said again by a key fact.
  // (A focus asks for its words: what the task lines say of them does not count as said.)
  const focusWords = new Set(options.focus ? contentWords(options.focus) : []);
  const covered = [goal, request, task.leftOff]
    .flatMap((l) => (l ? contentWords(l.text) : []))
    .concat(sections.constraints.flatMap((c) => contentWords(c.text)))
    .filter((w) => !focusWords.has(w));
  const speakers = kind === 'talk' ? findSpeakers(removed) : undefined;
  // The threads: this round's segments, joined to earlier threads they come back to. With an
  // assistant the pool holds a line of every thread (selectFacts), so no session goes missing from
  // the block for want of one; between two people the sessions say who each speaker is.
  const { threads, threadOf } = extractThreads(removed, sentences, kind, previous?.threads ?? [], round);
  // (Answers' lists only where the block lays facts out under their threads' heads.)
  const answers = kind === 'assist' && options.budgetTokens >= THREADS_MIN_ROOM ? listedAnswers(removed, sentences) : [];
  headByAsked(threads, answers, removed, threadOf, round);
  // (In a tool loop, not the agent's report of a failure resolved since — Errors met says its fate —
  // nor its statements of a fix not made yet: Planned fix says the one that stands.)
  const lastEdit = Math.max(-1, ...(state?.changed ?? []).flatMap((c) => c.sources.map((id) => removed.findIndex((m) => m.id === id))));
  // (Nor its list items and short sentences that are no clause, read alone: agent-lists.ts.)
  // (With an assistant, nor an answer the user sent back: retried-answers.ts.)
  const facts = selectFacts(agent ? withoutListFragments(withoutSettledFailures(withoutPendingPlans(sentences, lastEdit), errors, removed)) : kind === 'assist' ? withoutRetried(sentences, removed) : sentences, {
    ...(kind === 'assist' ? { threadOf } : {}),
    kind,
    sessionOf: (s) => threadOf.get(s.id),
    ...(speakers ? { speakerNames: [speakers.user, speakers.assistant].filter((n): n is string => !!n) } : {}),
    answers,
    focus: options.focus,
    covered,
    // A fact the user removed is not ranked again; one they rewrote keeps its place.
    carried: previous ? previous.facts.filter((f) => !isRemoved(previous, 'facts', f)) : [],
    carriedRole: (id) => previous?.factRoles?.[id],
    seniority: SENIORITY,
    shownSeniority: SHOWN_SENIORITY,
    poolTokens: Math.max(600, Math.floor(options.budgetTokens * POOL_FACTOR)),
    round,
    freshReserve: FRESH_POOL_SHARE,
  });
  // Each new fact names its thread (carried ones keep theirs), and between two people whether its
  // speaker said it as they came back (their first message of the session).
  const openers = kind === 'talk' ? openingMessages(sentences, (s) => threadOf.get(s.id)) : undefined;
  for (const f of facts) {
    if (f.thread !== undefined) continue;
    const t = threadOf.get(f.sources[0] ?? '');
    if (t !== undefined) f.thread = t;
    if (openers?.has(f.sources[0] ?? '')) f.opens = true;
  }
  const stamp = <T extends { round: number }>(xs: T[]): T[] => xs.map((x) => ({ ...x, round }));
  const sectionsStamped = {
    constraints: stamp(sections.constraints),
    decisions: stamp(sections.decisions),
    done: stamp(sections.done),
    openTasks: stamp(sections.openTasks.filter((t) => !stepTaken(removed, t))),
    topics: stamp(sections.topics),
  };
  const stampOne = <T extends { round: number }>(x: T | null): T | null => (x ? { ...x, round } : null);
  return {
    goal: stampOne(goal),
    request: request ? { ...request, round, ...(answered ? { answered } : {}) } : null,
    nextStep: stampOne(task.nextStep),
    leftOff: stampOne(task.leftOff),
    ...sectionsStamped,
    errors: stamp(errors),
    facts,
    references: referencesNotListed([...references.values()], files),
    filesRead,
    filesModified,
    kind,
    threads,
    ...(speakers ? { speakers } : {}),
    ...(state && !stateIsEmpty(state) ? { state } : {}),
  };
}

/** Whether an assistant message with words follows the request's message among the removed. */
function answeredAfter(removed: readonly ChatMessage[], request: SourcedLine): boolean {
  const at = removed.findIndex((m) => m.id === request.sources[0]);
  if (at < 0) return false;
  for (let i = at + 1; i < removed.length; i++) {
    const m = removed[i] as ChatMessage;
    if (m.role === 'assistant' && m.content.trim()) return true;
  }
  return false;
}

/** Rules that open with the same eight words are one rule said again (a template pasted into
 * several messages, each copy with another tail): the first is kept. */
function onceEach(rules: SourcedLine[]): SourcedLine[] {
  const seen = new Set<string>();
  return rules.filter((r) => {
    const key = contentWords(r.text).slice(0, 8).join(' ');
    if (key.split(' ').length >= 8 && seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
