// What one compaction reads of the removed messages as a whole, apart from its options (budget,
// focus): the sentence pool and what it filters out, the task lines, sections, errors, state,
// references and files, the threads, the conversation's kind. Kept with the messages themselves
// (a WeakMap on the first removed message, checked against the whole sequence, the previous record
// and the word table's generation), so compacting the same messages again — a preview, "Compact
// now" with a focus, a retry, another budget — redoes only what depends on the options: the fact
// ranking and the render. Records are values (an edit makes a new one), so the previous record is
// compared by identity. What is handed out is a copy: the record built from it is the caller's.
import { tellsStory } from './fact-prior';
import { memoOf } from './message-memo';
import { selectFactsPool, type FactPool } from './extract-facts';
import { fileOpsOfCall, mergeSamePaths, referencesNotListed, samePath } from './extract-files';
import { addReferences, findReferences, type FoundReference } from './extract-references';
import { sentencesOf, templateSection, type Sentence } from './extract-sentences';
import { openingMessages } from './session-openers';
import { extractTaskLines } from './extract-goal';
import { leftOffOutcome, nameLeftOffCode, settleLeftOff } from './left-off';
import { errorKey, extractErrors, extractSections } from './extract-summary';
import { isAgentRun, withoutRefuted, withoutSymptoms } from './agent-prose';
import { isVerdict, overturnedBefore, withoutStaleVerdicts } from './stale-verdicts';
import { statesPlan } from './agent-cause';
import { isCaseItem, isListFragment } from './agent-lists';
import { withoutRetried } from './retried-answers';
import { LIBRARY, laterFates, settledFailureFilter, withFates } from './error-fate';
import { taskRules } from './extract-rules';
import { extractState, shellCommand, stateIsEmpty } from './extract-state';
import { mergeLines, type ExtractedContent } from './chain';
import { isRemoved } from './edits';
import { listedAnswers } from './listed-answers';
import type { ChatMessage } from './messages';
import type { CompactionRecord, ConversationKind, FileEntry, Reference, SourcedLine } from './record';
import { contentWords } from './word-scan';
import { conversationKind, extractThreads } from './threads';
import { findSpeakers } from './speakers';
import type { ListedAnswer } from './fact-candidates';
import { vocabGeneration } from './vocab';

/** A user message longer than this (characters) in a chat with an assistant is taken for pasted
 * text when it comes to rules (see analyse). */
const PASTED_CHARS = 1500;

/** What the removed messages say whatever the options. */
export interface Analysis {
  kind: ConversationKind;
  /** Whether the removed messages are an agent's run (agent-prose.ts isAgentRun). */
  agent: boolean;
  /** Whether that run works through a shell (code work), not only the plugin's note tools. */
  shell: boolean;
  /** The content this round extracted but its facts (key order as the record has it). */
  content: Omit<ExtractedContent, 'facts'>;
  /** Words the task lines and constraints say, before the focus takes its own back. */
  coveredWords: string[];
  /** Each removed message's thread (by id). */
  threadOf: ReadonlyMap<string, number>;
  /** Messages a speaker opens a session with (between two people). */
  openers: ReadonlySet<string> | undefined;
  /** The speakers' names, between two people. */
  speakerNames: string[] | undefined;
  /** The fact ranking's pool and what it learned of it, options apart (extract-facts). */
  pool: FactPool;
  /** The assistant's listed answers (read when a budget lays facts out under threads). */
  answers: () => ListedAnswer[];
}

interface Entry {
  messages: readonly ChatMessage[];
  previous: CompactionRecord | null;
  generation: number;
  sentences: readonly Sentence[];
  analysis: Analysis;
}

/** The latest analysis of a sequence, by its first message. */
const analyses = new WeakMap<ChatMessage, Entry>();

/** What `removed` say apart from the options: computed once per sequence of message objects,
 * previous record and word table; the content handed out is a fresh copy every time. */
export function analyse(removed: readonly ChatMessage[], previous: CompactionRecord | null, round: number): Analysis {
  // (Each call places the sentences in this sequence again: another compaction in between may
  // have placed the same sentence objects elsewhere.)
  const all = sentencesOf(removed);
  const first = removed[0] as ChatMessage;
  const hit = analyses.get(first);
  let analysis: Analysis;
  if (hit && hit.previous === previous && hit.generation === vocabGeneration() && same(hit.messages, removed) && same(hit.sentences, all)) analysis = hit.analysis;
  else {
    analysis = fresh(removed, all, previous, round);
    analyses.set(first, { messages: [...removed], previous, generation: vocabGeneration(), sentences: all, analysis });
  }
  return { ...analysis, content: plainCopy(analysis.content) };
}

/** A deep copy of plain data (arrays, objects, primitives): what the record is made of. A walk,
 * not structuredClone, which serialises and cost twenty times as much here. */
function plainCopy<T>(v: T): T {
  if (typeof v !== 'object' || v === null) return v;
  if (Array.isArray(v)) {
    const out = new Array<unknown>(v.length);
    for (let i = 0; i < v.length; i++) out[i] = plainCopy(v[i] as unknown);
    return out as T;
  }
  const out: Record<string, unknown> = {};
  for (const k in v) out[k] = plainCopy((v as Record<string, unknown>)[k]);
  return out as T;
}

function same<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function fresh(removed: readonly ChatMessage[], all: Sentence[], previous: CompactionRecord | null, round: number): Analysis {
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
  const kindNow = conversationKind(removed, sentences);
  const kind = kindNow === 'work' || !previous?.kind ? kindNow : previous.kind;
  // With an assistant, a latest request the assistant answered after it is no task at hand.
  const answered = kind === 'assist' && request ? answeredAfter(removed, request) : false;
  // With an assistant, a rule inside a long pasted text (a prompt template, a document) is the
  // text's, not the user's standing instruction to this chat.
  const pasted = kind === 'assist' ? new Set(removed.filter((m) => m.role === 'user' && m.content.length > PASTED_CHARS).map((m) => m.id)) : new Set<string>();
  // (The task rules too: a book excerpt pasted for a rewrite gave its advice to the book's readers
  // as the chat's constraints.)
  const notPasted = (c: SourcedLine): boolean => !pasted.has(c.sources[0] ?? '');
  const ownRules = extracted.constraints.filter(notPasted);
  const sections = { ...extracted, constraints: kind === 'talk' ? [] : onceEach(mergeLines(taskRules(removed).filter(notPasted), ownRules, Number.MAX_SAFE_INTEGER, 'first')) };
  // (With what this round did about the earlier rounds' open errors: chain.ts merges them by key.)
  const met = withFates(removed, extractErrors(removed, all));
  const errors = [...met, ...laterFates(previous?.errors ?? [], removed).filter((e) => !met.some((f) => errorKey(f.text) === errorKey(e.text)))];
  const known = previous ? [...previous.filesRead, ...previous.filesModified].map((f) => f.path) : [];
  const state = agent || previous?.state ? extractState(removed, sentences, previous?.state ?? null, known, reported, all) : null;
  const lastEdit = Math.max(-1, ...(state?.changed ?? []).flatMap((c) => c.sources.map((id) => removed.findIndex((m) => m.id === id))));
  // (Its verdict on a fix it changed since, or found wanting, is no fact, done line or where it
  // left off: stale-verdicts.ts. Left off is then the command alone, with its outcome.)
  const overturned = agent ? overturnedBefore(removed, all, lastEdit, state) : -1;
  if (task.leftOff && overturned >= 0 && isVerdict(task.leftOff.text) && removed.findIndex((m) => m.id === task.leftOff?.sources[0]) < overturned) task.leftOff = task.leftOff.command ? { ...task.leftOff, text: task.leftOff.command } : null;
  // The left-off command's outcome in one line, as the state read it (left-off.ts).
  if (task.leftOff) leftOffOutcome(task.leftOff, state);
  // (And names the code it read where it said "this function".)
  if (task.leftOff) nameLeftOffCode(task.leftOff, state);
  const { references, filesRead, filesModified } = referencesAndFiles(removed);
  // What the task lines and constraints say need not be said again by a key fact (compact.ts
  // leaves out the focus's words).
  const coveredWords = [goal, request, task.leftOff].flatMap((l) => (l ? contentWords(l.text) : [])).concat(sections.constraints.flatMap((c) => contentWords(c.text)));
  const speakers = kind === 'talk' ? findSpeakers(removed) : undefined;
  // The threads: this round's segments, joined to earlier threads they come back to. With an
  // assistant the pool holds a line of every thread (selectFacts), so no session goes missing from
  // the block for want of one; between two people the sessions say who each speaker is.
  const { threads, threadOf } = extractThreads(removed, sentences, kind, previous?.threads ?? [], round);
  // (In a tool loop, not the agent's report of a failure resolved since — Errors met says its fate —
  // nor its statements of a fix not made yet: Planned fix says the one that stands.)
  // (Nor its list items and short sentences that are no clause, read alone: agent-lists.ts.)
  // (With an assistant, nor an answer the user sent back: retried-answers.ts.)
  // (One pass for the three, in the order they were applied one after the other: the settled
  // failures' test keeps state, and sees only what the pending plans' test kept.)
  const settledKeeps = agent ? settledFailureFilter(errors, removed) : null;
  // (Nor, in work through a shell, the reporter's story in the task: fact-prior.ts `tellsStory`.)
  const ranked = agent ? sentences.filter((s, i) => (s.message <= lastEdit || !statesPlan(s)) && (s.message >= overturned || s.role !== 'assistant' || !isVerdict(s.text)) && (settledKeeps === null || settledKeeps(s)) && !isListFragment(s) && !isCaseItem(sentences, i) && !(shell && tellsStory(s))) : kind === 'assist' ? withoutRetried(sentences, removed) : sentences;
  const speakerNames = speakers ? [speakers.user, speakers.assistant].filter((n): n is string => !!n) : undefined;
  const pool = selectFactsPool(ranked, {
    ...(kind === 'assist' ? { threadOf } : {}),
    kind,
    sessionOf: (s) => threadOf.get(s.id),
    ...(speakerNames ? { speakerNames } : {}),
    // A fact the user removed is not ranked again; one they rewrote keeps its place.
    carried: previous ? previous.facts.filter((f) => !isRemoved(previous, 'facts', f)) : [],
  });
  // Each new fact names its thread (carried ones keep theirs), and between two people whether its
  // speaker said it as they came back (their first message of the session).
  const openers = kind === 'talk' ? openingMessages(sentences, (s) => threadOf.get(s.id)) : undefined;
  let answers: ListedAnswer[] | undefined;
  const stamp = <T extends { round: number }>(xs: T[]): T[] => xs.map((x) => ({ ...x, round }));
  const stampOne = <T extends { round: number }>(x: T | null): T | null => (x ? { ...x, round } : null);
  return {
    kind,
    agent,
    shell,
    content: {
      goal: stampOne(goal),
      request: request ? { ...request, round, ...(answered ? { answered } : {}) } : null,
      nextStep: stampOne(task.nextStep),
      leftOff: stampOne(task.leftOff),
      constraints: stamp(sections.constraints),
      decisions: stamp(sections.decisions),
      done: stamp(withoutStaleVerdicts(sections.done, removed, overturned)),
      openTasks: stamp(sections.openTasks.filter((t) => !stepTaken(removed, t))),
      topics: stamp(sections.topics),
      errors: stamp(errors),
      references: referencesNotListed(references, [...filesModified, ...filesRead]),
      filesRead,
      filesModified,
      kind,
      threads,
      ...(speakers ? { speakers } : {}),
      ...(state && !stateIsEmpty(state) ? { state } : {}),
    },
    coveredWords,
    threadOf,
    openers,
    speakerNames,
    pool,
    answers: () => (answers ??= listedAnswers(removed, sentences)),
  };
}

/** The references and files the removed messages name, in the order the record keeps them: one
 * canonical path per file; a file modified is not listed again as read (nor as a reference, which
 * the caller leaves out with `referencesNotListed`). */
function referencesAndFiles(removed: readonly ChatMessage[]): { references: Reference[]; filesRead: FileEntry[]; filesModified: FileEntry[] } {
  const references = new Map<string, Reference>();
  const read = new Map<string, FileEntry>();
  const modified = new Map<string, FileEntry>();
  const note = (into: Map<string, FileEntry>, path: string, id: string, pos: number, searched = false): void => {
    const e = into.get(path);
    if (e) {
      e.last = pos;
      if (!e.sources.includes(id)) e.sources.push(id);
      if (!searched) delete e.searched;
    } else into.set(path, { path, sources: [id], last: pos, ...(searched ? { searched } : {}) });
  };
  removed.forEach((m, i) => {
    const found = refsOf(m);
    // Tool output is evidence of files and errors, not of what the conversation referred to (a
    // listing names every file in a folder): its paths are not references. Nor are a system
    // prompt's: it says how to work ("cite notes as [[wikilinks]]"), not what was talked about.
    addReferences(references, found.refs, m.id, i, m.role === 'user' ? 2 : 1);
    for (const { refs, ops } of found.calls) {
      for (const p of ops.read) note(read, p, m.id, i, ops.searched?.includes(p) === true);
      for (const p of ops.modified) note(modified, p, m.id, i);
      addReferences(references, refs, m.id, i, 0.5);
    }
  });
  const filesModified = mergeSamePaths([...modified.values()]);
  const filesRead = mergeSamePaths([...read.values()]).filter((f) => !filesModified.some((x) => samePath(x.path, f.path)));
  return { references: [...references.values()], filesRead, filesModified };
}

/** What a message yields that does not depend on the conversation around it: its references and
 * file operations. Cached per message object (messages are immutable), so compacting or
 * previewing the same messages again does not re-read them. */
interface MessageRefs {
  refs: FoundReference[];
  calls: { refs: FoundReference[]; ops: ReturnType<typeof fileOpsOfCall> }[];
}

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

/** A message's references and file operations, read once per message object (prepareMessage reads
 * them ahead). */
export function refsOf(m: ChatMessage): MessageRefs {
  const memo = memoOf(m);
  const hit = memo.refs as MessageRefs | undefined;
  if (hit) return hit;
  // (A call's references as real ones only: filtered once here, not by every compaction.)
  const calls = m.role === 'assistant' ? (m.toolCalls ?? []).map((call) => ({ refs: findReferences(call.arguments.length < 2000 ? call.arguments : '').filter(isRealReference), ops: fileOpsOfCall(call) })) : [];
  const out = { refs: m.role === 'tool' || m.role === 'system' ? [] : findReferences(withoutTemplate(m)).filter(isRealReference), calls };
  memo.refs = out;
  return out;
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
