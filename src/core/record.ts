// The compaction record: what one round removed and what it carried forward, as plain,
// versioned data. It is saved with the conversation, shown in the summary panel, and handed back
// to the next round for chaining, so it holds no functions, Maps or class instances.
import type { LineEdit } from './edit-types';
import { shownList } from './list-shown';

export const RECORD_VERSION = 1;

/** Why compaction ran (the triggers' reasons, or 'manual' for "Compact now"). */
export type CompactionTrigger = 'tokens' | 'messages' | 'manual' | 'unknown';

/** One extracted line and the messages it came from (the panel links them). */
export interface SourcedLine {
  text: string;
  /** Ids of the messages the line was taken from, oldest first. */
  sources: string[];
  /** Message time in ms since the epoch; 0 when unknown. */
  at: number;
  /** Ranking score; higher is more worth keeping. Comparable within one section. */
  score: number;
  /** Round in which the line was first extracted. */
  round: number;
  /** Chronological order key (round, message, sentence), so facts render in conversation order. */
  seq?: number;
  /** Last round whose block showed the line (key facts). A later round keeps what the model has
   * been shown unless something clearly better comes, so the carried context stays stable. */
  shown?: number;
  /** Rewritten by the user: set only on the edited view a block is rendered from (edits.ts). */
  edited?: boolean;
  /** The thread it belongs to (a key fact: its {@link ThreadLine} id). */
  thread?: number;
  /** A key fact in which the user tells about themselves (not a question): in a chat with an
   * assistant the block collects these under "About the user". */
  about?: boolean;
  /** Between two people: a key fact in which its speaker says who they are (work, role, home);
   * the block collects these under "About <name>". */
  identity?: boolean;
  /** An assistant answer's list carried as its items' heads (answer-shape.ts): the text is the
   * heads joined by "; ", laid out as "<Assistant> listed: …". */
  listed?: boolean;
  /** Between two people: said in its speaker's first message of its session, where a person tells
   * what happened since they last talked (the session's news). */
  opens?: boolean;
  /** The latest request (with an assistant): the assistant answered it in the removed part, so it
   * is no task at hand — the block shows it as a thread's head, not as "Latest request:". */
  answered?: boolean;
  /** A listed answer's request, in the user's words, when the user asked for the list in the
   * message before it (the head of its thread when keyword phrases headed it: listed-answers.ts). */
  asked?: string;
}

/** Two people talking, an assistant answering requests, or an agent at work with tools. */
export type ConversationKind = 'work' | 'talk' | 'assist';

/** One thread of the conversation (threads.ts): its head in its own words, when it ran, and for a
 * request whether it was answered. `text` is the head; `sources` the messages that opened it. */
export interface ThreadLine extends SourcedLine {
  id: number;
  /** The head is the request that opened the thread, or its most distinctive phrases. */
  head: 'request' | 'phrases';
  /** First and last message time (ms; 0 when unknown). */
  from: number;
  to: number;
  state?: 'open' | 'answered';
  /** Its most distinctive words with their weights, so a later round can join a segment to it. */
  profile?: Record<string, number>;
  /** Between two people, its distinctive phrases best first (more than the head names): the head
   * shown names those the lines under it carry (session-heads.ts). */
  topics?: string[];
}

/** Where the work was left off, with the first line of the command the assistant ran then (agent
 * runs), when it ran one. */
export interface LeftOffLine extends SourcedLine {
  /** What the other side asked in the message just before, when the left-off line answers it
   * ("Haven't been there yet …" answers "Have you been to Universal Studios? Planning a trip
   * there next month."): without it the line reads as being about nothing. Not at work. */
  answering?: SourcedLine;
  command?: string;
  /** Lines of that command's output that bear on the task (see extractTaskLines), output order. */
  output?: string[];
  /** That command's outcome in one line (its failure line, or its output's first line). */
  outcome?: string;
}

/** An error met in the removed part, with how it was resolved when that could be seen. */
export interface ErrorLine extends SourcedLine {
  resolution?: string;
  /** The innermost frame of the traceback in the project's own files ("app/models.py, line 12, in
   * save"), when the error came with one (error-fate.ts). */
  frame?: string;
  /** Nothing after it was seen to resolve it: it still stood when this part ended. */
  unresolved?: boolean;
  /** In an agent run, seen only in the user's messages: the error the task reports (the bug to
   * fix), not one the work met. */
  reported?: boolean;
  /** The command whose output showed it, as it identifies a run (error-fate.ts): a later round
   * that runs it again without the error resolves it. */
  run?: string;
}

/** A file the work changed (a source file, or a note the plugin's tools wrote), and how. */
export interface ChangedFile {
  path: string;
  /** The latest edit: the edit command, or the first changed line it wrote. */
  how: string;
  /** The edits before it (at most two, oldest first), when they differ. */
  earlier?: string[];
  /** Put back as it was (from a backup, `git checkout`) after the edit. */
  restored?: boolean;
  /** How many edits were made to it, when more than one. */
  edits?: number;
  sources: string[];
}

/** A run of a test or reproduction, with its outcome. */
export interface CheckLine {
  command: string;
  passed: boolean;
  /** "passed", or its failure line ("AssertionError: …"), one line. */
  outcome: string;
  sources: string[];
  /** The fault the agent found in a run that went through, in its next words ("But it's ordering
   * by `parent_ptr_id` instead of `id`."): shown under the check, so an experiment's output does
   * not read as the fix. */
  fault?: string;
}

/** What one search of the plugin's search_vault returned. */
export interface SearchLine {
  query: string;
  /** The notes it named, best first. */
  notes: string[];
  sources: string[];
  /** The user's request that started the tool loop it belongs to (its sentence that asks), when
   * known: the State lists the searches of each loop under it. */
  request?: string;
}

/** Where the work stands (extract-state.ts): updated every round, the newest round wins. */
export interface TaskState {
  /** Source files edited (or notes written), in the order first made. */
  changed: ChangedFile[];
  /** Files the agent made for itself: reproduction and test scripts, backups, files under /tmp. */
  scratch: string[];
  checked: CheckLine | null;
  /** The check ran after the last source edit (absent: no edit, or none known). */
  checkedSinceEdit?: boolean;
  /** The agent's latest conclusion about the cause. */
  cause: SourcedLine | null;
  /** Where the code the cause names is defined, as the tools showed it ("django/http/response.py,
   * line 223, make_bytes"; code-places.ts). */
  causeAt?: string;
  /** The definitions the agent looked at and talked about, where the tools showed them (the latest
   * few, in the order seen; code-places.ts). */
  looked?: { path: string; line: number; name: string; said?: string }[];
  /** The definitions the agent's searches found the words it searched for in (code-places.ts
   * `searchFinds`): the lead a search gave, the latest few. */
  found?: { pattern: string; path: string; name: string; params?: string; calledAs?: string; calledIn?: string }[];
  /** The fix it said it would make, while no source file was edited after it saying so. */
  plan?: SourcedLine;
  /** Notes read through the plugin's read_note. */
  notesRead: string[];
  searches: SearchLine[];
  /** The last tool call and its outcome in one line. */
  lastAction: { command: string; outcome: string; sources: string[] } | null;
  /** The work ran shell commands or edited files (a coding agent, not only the plugin's note tools
   * or other lookups): "Changed" then says so when nothing was edited yet. */
  editing?: boolean;
  /** The work ran shell commands (a coding agent), so a test run can check its edits: the State's
   * heading says whether one did (state-format.ts stateStatus). Not for the plugin's note tools. */
  shell?: boolean;
  /** Scripts the agent wrote to edit source files, with the files they write: running one is how
   * those files change (a script written and not run yet changed nothing). */
  editScripts?: { script: string; paths: string[] }[];
}

export type ReferenceKind = 'wikilink' | 'embed' | 'markdown-link' | 'url' | 'path';

/** A note link, URL or file path mentioned in the conversation. */
export interface Reference {
  kind: ReferenceKind;
  /** Canonical form as it is rendered: `[[Note#Heading|alias]]`, a URL, a path. */
  text: string;
  /** De-duplication key: the link target without alias (lowercased for notes). */
  key: string;
  sources: string[];
  /** Mentions counted so far, across rounds. */
  count: number;
  /** Index of the last mention (higher is more recent), for "most relevant first". */
  last: number;
}

/** A file read or modified through a tool call. */
export interface FileEntry {
  path: string;
  sources: string[];
  /** Index of the last operation (higher is more recent). */
  last: number;
  /** A file read only by searches (grep without context): the block lists it as searched. */
  searched?: boolean;
}

export interface CompactionRecord {
  version: typeof RECORD_VERSION;
  /** 1 for the first compaction of a conversation, then 2, 3 … */
  round: number;
  /** When the compaction ran (ms since the epoch, from the caller; 0 when not given). */
  timestamp: number;
  trigger: CompactionTrigger;
  focus?: string;
  /** Ids of the messages removed in this round (not earlier rounds). */
  removedIds: string[];
  /** Ids of the messages kept verbatim after this round. */
  keptIds: string[];
  /** Id of the last message removed by this or any earlier round: the next round extracts only
   * from messages after it, so chaining never reads a message twice. */
  removedThrough: string | null;
  /** Estimated tokens of the messages before compaction (removed + kept). */
  tokensBefore: number;
  /** Estimated tokens sent after: the block plus the kept messages. */
  tokensAfter: number;

  /** The user's first substantive request (kept from the first round that had one). */
  goal: SourcedLine | null;
  /** The latest substantive request, when it is another message than the goal's. */
  request?: SourcedLine | null;
  /** The next step the assistant announced last. */
  nextStep?: SourcedLine | null;
  constraints: SourcedLine[];
  decisions: SourcedLine[];
  done: SourcedLine[];
  openTasks: SourcedLine[];
  errors: ErrorLine[];
  leftOff: LeftOffLine | null;
  /** Key facts: the pool the block draws from (a bounded superset of what was rendered). */
  facts: SourcedLine[];
  topics: SourcedLine[];
  references: Reference[];
  filesRead: FileEntry[];
  filesModified: FileEntry[];
  /** Where the work stands (tool work only; absent in records of older versions). */
  state?: TaskState;
  /** Id of the latest user message this round carried in compacted form (too big to stay sent
   * beside a useful block once tool rounds answered it): no longer sent verbatim. */
  requestCarried?: string;

  /** What kind of conversation it is (the latest round's reading; absent in older records). */
  kind?: ConversationKind;
  /** The names the text gives the two sides (speakers.ts; read between two people only). */
  speakers?: { user?: string; assistant?: string };
  /** The threads of the conversation, oldest first (threads.ts); key facts name theirs. */
  threads?: ThreadLine[];

  /** Who said each fact ('user' / 'assistant'), by source id, so later rounds can still label it. */
  factRoles?: Record<string, string>;

  /** The rendered `<previous_context>` block and its estimated tokens. */
  block: string;
  blockTokens: number;
  /** The budget the block was rendered in (an edit renders it again in the same). */
  blockBudget?: number;
  /** The user's edits of the lines (src/core/edits.ts), oldest first; the block renders them. */
  edits?: LineEdit[];
  /** Messages before `removedThrough` that no round has summarised because the user had pinned
   * them when it ran: still sent verbatim, and summarised by the next round once unpinned. */
  keptPinned?: string[];
}

/** Every message id a record's extracted content points at. */
export function recordSourceIds(record: CompactionRecord): Set<string> {
  const ids = new Set<string>();
  const add = (xs: { sources: string[] }[]): void => {
    for (const x of xs) for (const id of x.sources) ids.add(id);
  };
  if (record.goal) add([record.goal]);
  if (record.leftOff) add([record.leftOff]);
  if (record.request) add([record.request]);
  if (record.nextStep) add([record.nextStep]);
  add(record.constraints);
  add(record.decisions);
  add(record.done);
  add(record.openTasks);
  add(record.errors);
  add(record.facts);
  add(record.topics);
  add(record.threads ?? []);
  add(record.references);
  add(record.filesRead);
  add(record.filesModified);
  const state = record.state;
  if (state) {
    add(state.changed);
    if (state.checked) add([state.checked]);
    if (state.cause) add([state.cause]);
    if (state.plan) add([state.plan]);
    add(state.searches);
    if (state.lastAction) add([state.lastAction]);
  }
  return ids;
}

/** Checks that an unknown value (e.g. a saved record) looks like a record this version can chain
 * from; anything else is treated as "no previous record" rather than crashing a compaction. */
export function isCompactionRecord(value: unknown): value is CompactionRecord {
  if (value === null || typeof value !== 'object') return false;
  const r = value as Partial<CompactionRecord>;
  return (
    r.version === RECORD_VERSION &&
    typeof r.round === 'number' &&
    Array.isArray(r.facts) &&
    Array.isArray(r.constraints) &&
    Array.isArray(r.removedIds) &&
    Array.isArray(r.filesRead) &&
    Array.isArray(r.filesModified) &&
    Array.isArray(r.references)
  );
}

/** The part of a record's line that its block sent: the whole text, or (a goal or request
 * shortened to its first sentences to fit) the longest run of its first sentences the block holds;
 * '' when none. The panel shows, section by section, exactly what the model was sent, and labels
 * the rest as not sent. */
export function sentPart(block: string, text: string): string {
  if (!block || !text) return '';
  if (block.includes(text)) return text;
  // (An answer's long list is sent as its first items: block-format.ts shownList.)
  const list = shownList(text);
  if (list !== text && block.includes(list)) return list;
  let best = '';
  const end = /[.!?。！？](?=\s)/gu;
  let m: RegExpExecArray | null;
  while ((m = end.exec(text))) {
    const head = text.slice(0, m.index + 1);
    if (!block.includes(head)) break;
    best = head;
  }
  return best.length >= 12 ? best : '';
}

/** Whether any of a record's line was sent in its block (see {@link sentPart}). */
export function sentInBlock(block: string, text: string): boolean {
  return sentPart(block, text) !== '';
}
