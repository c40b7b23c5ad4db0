// Where the work stands, from the tool calls of the removed part: the source files changed and
// how (the edit command, or the first line an edit wrote), the scratch files the agent made for
// itself (reproduction and test scripts, backups, /tmp), the last test or reproduction run and its
// outcome, the agent's latest conclusion about the cause and its planned fix (read by
// agent-cause.ts), and for the plugin's own tools the notes read and written and what each search
// returned. Chains carry it forward, the newest round winning (mergeState). A model that continues
// from the block must not redo or undo this work.
import type { Sentence } from './extract-sentences';
import { fileOpsOfCall, lexShell, samePath } from './extract-files';
import type { ChatMessage } from './messages';
import type { ChangedFile, CheckLine, TaskState } from './record';
import { squash, truncateBalanced } from './text';
import { splitSentences } from './sentence-split';
import { latestCause, latestPlan, type TaskText } from './agent-cause';
import { requestSentence } from './request-sentence';
import { type CodePlace, codePlaces, isTestPath, lastReadPlace, placeNamed, placesNamed, placeText, readPlaces, searchFinds } from './code-places';
import { callArguments, noteToolCommand, PLUGIN_READ, PLUGIN_SEARCH, PLUGIN_WRITE, probesEnvironment, resultOf, shellCommand, withoutCd } from './tool-output';
import { TOOL_NOISE, VIEWS_FILE, actionOutcome, editOutcome, neverStarted, outcomeOf, readOutcome, viewOutcome } from './run-outcome';
import { LIMITS, MAX_EARLIER } from './state-merge';
import { withSaid } from './place-said';
import { MAX_HOW, MAX_PRINTED, escapeRe, heredocBody, noteWriteHow, shellHow, shownCommand, toolHow, withPrinted } from './edit-how';

// (Read by the other extractors from here, as before they had their own module.)
export { resultOf, shellCommand };


const BACKUP = /(?:\.(?:backup|bak|orig|old|save|tmp)|~)$/i;
const SCRIPT_EXT = /\.(?:py|sh|bash|js|mjs|cjs|ts|rb|pl|php|txt|patch|diff|log|out|json)$/i;
/** A command that runs a test or a reproduction (after `cd … &&` and env assignments). */
const RUNNER = /^(?:python[\d.]*|pytest|py\.test|node|deno|bun|ruby|php|go|cargo|make|tox|nox|bash|sh|\.\/\S+|npm|npx|pnpm|yarn|jest|vitest|mocha)$/;
/** A script named for changing code (`fix_autodetector.py`, `apply_patch.py`, `update_impl.py`). */
const EDIT_SCRIPT = /(?:^|\/)(?:fix|patch|apply|update|edit|modify|implement|rewrite|replace)(?:_[\w-]*)?\.(?:py|sh|js|mjs|rb|pl)$/i;
/** Whether a command runs a script named for changing code (see EDIT_SCRIPT): what it printed
 * last says what it did. */
export function runsEditScript(command: string): boolean {
  const words = withoutCd(command.split('\n')[0] ?? '').trim().split(/\s+/);
  return /^(?:python[\d.]*|node|ruby|perl|bash|sh)$/.test(words[0] ?? '') && EDIT_SCRIPT.test(words[1] ?? '');
}
/** Runs that install or inspect rather than test. */
const NOT_A_RUN = /^(?:-m\s+pip|-m\s+venv|--version|-V\b|install\b|i\b|add\b|ci\b|get\b|build\b|fmt\b|mod\b)/;
/** The plugin's own tools (src/chat/tools/vault-tools.ts). */

export function emptyState(): TaskState {
  return { changed: [], scratch: [], checked: null, cause: null, notesRead: [], searches: [], lastAction: null };
}

/** Whether a state says anything. */
export function stateIsEmpty(s: TaskState | null | undefined): boolean {
  return !s || (!s.changed.length && !s.scratch.length && !s.checked && !s.cause && !s.notesRead.length && !s.searches.length && !s.lastAction);
}


/** A copy of a source file under another extension (`models.py.new`, `query.py.modified`). */
const COPY_VARIANT = /\.(?:py|pyi|js|mjs|cjs|jsx|ts|tsx|rb|go|rs|java|kt|c|h|cc|cpp|hpp|cs|php|sh|md)\.[A-Za-z]\w*$/;

/** A file the agent made for itself: under /tmp, a backup or copy, or a script at the top of the
 * tree. */
function scratchLike(path: string): boolean {
  if (/^\/tmp\//.test(path) || BACKUP.test(path) || COPY_VARIANT.test(path)) return true;
  const parts = path.replace(/^\.\//, '').split('/').filter(Boolean);
  const topLevel = parts.length === 1 || (path.startsWith('/') && parts.length === 2);
  return topLevel && SCRIPT_EXT.test(path);
}

/** Whether the command restores `path` (from a backup copy, or from git). */
function restores(command: string, path: string): boolean {
  const base = path.slice(path.lastIndexOf('/') + 1);
  if (/\bgit\s+(?:checkout|restore|stash)\b/.test(command)) return true;
  const { segments } = lexShell(command);
  return segments.some((seg) => /^(?:cp|mv)$/.test(seg[0] ?? '') && seg.length >= 3 && BACKUP.test(seg[seg.length - 2] ?? '') && (seg[seg.length - 2] ?? '').includes(base) && samePath(seg[seg.length - 1] as string, path));
}

/** Whether the command writes `path` whole (a redirect, a heredoc, touch, a copy onto it). */
function creates(command: string, path: string): boolean {
  const base = escapeRe(path.slice(path.lastIndexOf('/') + 1));
  return new RegExp(`(?:>\\s*|\\btee\\s+(?:-a\\s+)?|\\btouch\\s+|\\bcp\\s+(?:-\\w+\\s+)*\\S+\\s+)['"]?[^\\s'"]*${base}(?![\\w.])`).test(command);
}

/** Whether a command that writes `script` by a heredoc runs it after (`cat > fix.py << EOF … EOF`
 * then `python fix.py`). */
function runsAfterHeredoc(command: string, script: string): boolean {
  const lines = command.split('\n');
  const at = lines.findIndex((l) => /<<-?\s*['"]?[\w.-]+['"]?/.test(l));
  const marker = at >= 0 ? /<<-?\s*['"]?([\w.-]+)['"]?/.exec(lines[at] as string)?.[1] : undefined;
  const end = marker ? lines.findIndex((l, i) => i > at && l.trim() === marker) : -1;
  if (end < 0) return false;
  const base = escapeRe(script.slice(script.lastIndexOf('/') + 1));
  return lines.slice(end + 1).some((l) => new RegExp(`(?:^|[\\s/])${base}(?:\\s|$)`).test(l));
}

/** The agent finding fault with what a run printed, in the first sentences of its next words
 * ("That's DESC, which is correct! But it's ordering by `parent_ptr_id` instead of `id`."): a
 * check that printed what was wanted is not the fix when the agent saw it was not. */
const OBJECTION = /^But (?!(?:wait|first|let me|let's|I|we need|we should|now)\b)(?=[^?]{12,200}$)/;

/** The sentence of `remark` that finds fault with the run before it, quoted, or ''. */
export function objectionIn(remark: string): string {
  const said = splitSentences(remark.replace(/```[\s\S]*?```/g, ' ')).slice(0, 4).map(squash);
  return said.find((s) => OBJECTION.test(s) && !s.endsWith(':')) ?? '';
}

/** What the agent said first after the message at `at` (its next message's prose), or ''. */
function remarkAfter(messages: readonly ChatMessage[], at: number): string {
  for (let i = at + 1; i < messages.length; i++) {
    const m = messages[i] as ChatMessage;
    if (m.role === 'assistant') return m.content;
    if (m.role !== 'tool') return '';
  }
  return '';
}

/** The line of a command that runs a test or reproduction, or '' (see RUNNER). */
function runLine(command: string): string {
  const lines = command.split('\n');
  const body = heredocBody(command);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (body && body.includes(line)) continue;
    for (const part of line.split(/&&|;|\|\|/)) {
      const words = part.trim().replace(/^(?:\w+=\S+\s+)+/, '').split(/\s+/);
      const cmd = (words[0] ?? '').replace(/^.*\//, (m) => (m.startsWith('./') ? m : ''));
      const rest = words.slice(1).join(' ');
      if (!RUNNER.test(cmd) || NOT_A_RUN.test(rest)) continue;
      if (/^(?:npm|pnpm|yarn|go|cargo|make)$/.test(cmd) && !/\btest\b/.test(rest)) continue;
      if (/^(?:bash|sh)$/.test(cmd) && !/\.sh\b/.test(rest)) continue;
      // (The -c code read from the whole line: a `;` inside its quotes split the part.)
      if (/^python[\d.]*$/.test(cmd) && (!rest || probesEnvironment(line.slice(line.indexOf(part.trim())).replace(/^(?:\w+=\S+\s+)*\S+\s+/, '')))) continue;
      // (A script named for changing code — fix_x.py, apply_patch.py — runs an edit, not a check.)
      if (EDIT_SCRIPT.test(rest.split(/\s+/)[0] ?? '')) continue;
      return shownCommand(lines.slice(i).join('\n'));
    }
  }
  return '';
}


/** The `path` (or `file`, `note`) strings of a JSON search result, in order, once each; null when
 * the text is not JSON. */
function jsonPaths(text: string): string[] | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const out: string[] = [];
  const visit = (v: unknown, depth: number): void => {
    if (depth > 4 || v === null || typeof v !== 'object') return;
    if (Array.isArray(v)) {
      for (const x of v) visit(x, depth + 1);
      return;
    }
    const o = v as Record<string, unknown>;
    const path = [o.path, o.file, o.note].find((x): x is string => typeof x === 'string' && x !== '');
    if (path && !out.includes(path)) out.push(path);
    for (const x of Object.values(o)) if (typeof x === 'object') visit(x, depth + 1);
  };
  visit(value, 0);
  return out;
}

/** The note paths a search_vault result names (its unindented lines, or a JSON result's paths),
 * best first. */
function searchedNotes(text: string): string[] {
  if (/^No notes match/.test(text)) return [];
  // Another client's search tool may answer in JSON ({"results": [{"path": …}]}): its paths.
  if (/^\s*[[{]/.test(text)) {
    const paths = jsonPaths(text);
    if (paths) return paths.slice(0, LIMITS.notes);
  }
  return text
    .split('\n')
    .filter((l) => l.trim() && !/^\s/.test(l) && !/^\(/.test(l))
    .map((l) => l.trim())
    .slice(0, LIMITS.notes);
}

/**
 * The state of the work in `messages` (one round's removed part). `earlier` is the state carried
 * so far (a file it lists as scratch stays scratch), `known` the paths the conversation had read or
 * changed before (a file written whole that existed is changed, not created), `task` what the
 * task reported (a cause that only says it again is the symptom, agent-cause.ts), `said` all the
 * sentences, with those the agent retracted or hedged (a plan it took back is no plan).
 */
export function extractState(messages: readonly ChatMessage[], sentences: readonly Sentence[], earlier: TaskState | null = null, known: readonly string[] = [], task: TaskText = '', said: readonly Sentence[] = sentences): TaskState {
  const state = emptyState();
  const reportedText = typeof task === 'function' ? task : (): string => task;
  const results = new Map<string, ChatMessage>();
  for (const m of messages) if (m.role === 'tool') results.set(m.toolCallId, m);
  const seen = new Set<string>(known);
  const scratch = new Set<string>(earlier?.scratch ?? []);
  const isScratch = (p: string): boolean => [...scratch].some((s) => samePath(s, p));
  const changed = new Map<string, ChangedFile>();
  // (`again`: the same edit said better — a script run after the call that wrote it — not another.)
  const change = (path: string, how: string, id: string, restored: boolean, again = false): void => {
    const key = [...changed.keys()].find((k) => samePath(k, path)) ?? path;
    const entry = changed.get(key);
    const text = truncateBalanced(squash(how), MAX_HOW);
    if (entry) {
      if (restored) entry.restored = true;
      else {
        if (text && text !== entry.how) {
          if (entry.how && !again) entry.earlier = [...(entry.earlier ?? []), entry.how].slice(-MAX_EARLIER);
          entry.how = text;
        }
        if (!again) entry.edits = (entry.edits ?? 1) + 1;
        delete entry.restored;
      }
      if (!entry.sources.includes(id)) entry.sources.push(id);
    } else changed.set(path, { path, how: restored ? '' : text, ...(restored ? { restored: true } : {}), sources: [id] });
  };
  // Scripts written to edit source files (`cat > fix.py << EOF … open('x.py', 'w')`), with the files
  // they edit: running one later is how those files were changed.
  // (Carried from earlier rounds: a script written in one round may be run in the next.)
  // (Read with care: a saved record may hold anything.)
  const carried = Array.isArray(earlier?.editScripts) ? earlier.editScripts.filter((e) => typeof e?.script === 'string' && Array.isArray(e.paths)) : [];
  const editScripts = new Map<string, string[]>(carried.map((e) => [e.script, e.paths.filter((p): p is string => typeof p === 'string')]));
  // Edit scripts whose edit is said already: written and run in one command, or run once.
  const done = new Set<string>(carried.map((e) => e.script));
  // The request that started the tool loop under way (a loop begun in an earlier round goes on
  // under its request).
  let loopRequest = earlier?.searches.at(-1)?.request;
  for (let at = 0; at < messages.length; at++) {
    const m = messages[at] as ChatMessage;
    if (m.role === 'user') loopRequest = requestSentence(said, at) ?? loopRequest;
    if (m.role !== 'assistant' || !m.toolCalls?.length) continue;
    for (const call of m.toolCalls) {
      const result = resultOf(results.get(call.id));
      const args = callArguments(call) ?? {};
      const name = call.name;
      if (name === PLUGIN_READ || name === PLUGIN_SEARCH || PLUGIN_WRITE.test(name)) {
        const path = typeof args.path === 'string' ? args.path.trim() : '';
        // (A write the vault refused — "Error: append_to_note is read-only …" — changed nothing.)
        const failed = result.error || /^(?:No note at|The user declined|Error\b)/.test(result.text.trim());
        if (name === PLUGIN_READ && path && !failed && !state.notesRead.includes(path)) state.notesRead.push(path);
        const found = name === PLUGIN_SEARCH && !result.error ? searchedNotes(result.text) : null;
        if (found && typeof args.query === 'string') state.searches.push({ query: squash(args.query), notes: found, sources: [m.id], ...(loopRequest ? { request: loopRequest } : {}) });
        if (PLUGIN_WRITE.test(name) && path && !failed) change(path, noteWriteHow(name, args), m.id, false);
        // (A search's outcome is the notes it named, not the first line of its raw result; a read
        // that went through, how much it read — the note's own first line, "# Garden redesign",
        // says nothing of the step.)
        const outcome = found ? (found.length ? `found ${found.join(', ')}` : 'no notes found') : name === PLUGIN_READ && !failed ? readOutcome(result.text) : actionOutcome(result);
        state.lastAction = { command: noteToolCommand(call) ?? name, outcome, sources: [m.id] };
        continue;
      }
      const command = shellCommand(call);
      // (A write tool that failed — "Error: write_note is read-only …" — changed nothing.)
      const refused = command === null && (result.error || /^\s*Error\b/.test(result.text));
      const ops = refused ? { read: [], modified: [] } : fileOpsOfCall(call);
      if (command !== null || ops.modified.length) state.editing = true;
      if (command !== null) state.shell = true;
      const scripts: string[] = [];
      const edited: string[] = [];
      const edits: { path: string; how: string }[] = [];
      for (const path of ops.modified) {
        if (command !== null && restores(command, path) && !BACKUP.test(path)) {
          if ([...changed.keys()].some((k) => samePath(k, path)) || !isScratch(path)) change(path, '', m.id, true);
          continue;
        }
        const existed = [...seen].some((p) => samePath(p, path)) || [...changed.keys()].some((p) => samePath(p, path));
        const made = command !== null ? creates(command, path) : /create|write/i.test(name);
        if (isScratch(path) || ((made || BACKUP.test(path) || COPY_VARIANT.test(path)) && !existed && scratchLike(path))) {
          if (!isScratch(path)) scratch.add(path);
          if (made && /\.(?:py|js|mjs|cjs|ts|rb|pl|php|sh)$/.test(path)) scripts.push(path);
          seen.add(path);
          continue;
        }
        edits.push({ path, how: command !== null ? withPrinted(shellHow(command, path), command, result) : toolHow(args) });
        edited.push(path);
        seen.add(path);
      }
      // A script written to edit source files changes them when it runs: written and not run by
      // this command, the files it would write are not changed yet.
      const pending = command !== null && scripts.length > 0 && heredocBody(command) !== null && !scripts.some((w) => runsAfterHeredoc(command, w));
      if (!pending) for (const e of edits) change(e.path, e.how, m.id, false);
      if (command !== null && heredocBody(command) && edited.length) {
        for (const script of scripts) {
          editScripts.set(script, edited);
          if (pending) done.delete(script);
          else done.add(script);
        }
      }
      // A run of such a script (that did not fail) is the edit: what it printed says what it did.
      if (command !== null && !ops.modified.length && editScripts.size && !(result.code !== null && result.code !== 0) && !result.error) {
        for (const [script, paths] of editScripts) {
          const base = escapeRe(script.slice(script.lastIndexOf('/') + 1));
          if (!new RegExp(`(?:^|[\\s/])${base}(?:\\s|$)`).test(command.split('\n')[0] ?? '')) continue;
          const lines = result.text.split('\n').map((l) => l.trim()).filter((l) => l && !TOOL_NOISE.test(l));
          const printed = lines[lines.length - 1];
          const how = shownCommand(command);
          // (Its first run after it was written is the edit, unless writing it was taken for it —
          // written and run in one command; another run says the same edit again.)
          for (const path of paths) change(path, printed && printed.length <= MAX_PRINTED ? `${how} — printed: ${printed}` : how, m.id, false, done.has(script));
          done.add(script);
        }
      }
      // (Read after the writes: `cat > repro.py << EOF … python repro.py` reads the file it has
      // just created, which did not exist before the call.)
      for (const path of ops.read) seen.add(path);
      const run = command !== null ? runLine(command) : '';
      // (A run of a script that edits source files is the edit, not a check of the work.)
      const runsEdit = [...editScripts.keys()].some((w) => new RegExp(`(?:^|[\\s/])${escapeRe(w.slice(w.lastIndexOf('/') + 1))}(?:\\s|$)`).test(run));
      // (Nor a run whose runner was missing: it checked nothing.)
      if (run && !runsEdit && !neverStarted(run, result)) {
        // (What the agent said of it next quotes the line that mattered.)
        const remark = remarkAfter(messages, at);
        const { passed, outcome } = outcomeOf(result, remark, reportedText);
        // (With the fault the agent found in it next: "But it's ordering by `parent_ptr_id` …".)
        const fault = outcome.startsWith('failed') ? '' : objectionIn(remark);
        state.checked = { command: run, passed, outcome, sources: [m.id], ...(fault ? { fault } : {}) } satisfies CheckLine;
      }
      const shown = command !== null ? shownCommand(command) : truncateBalanced(`${name} ${typeof args.path === 'string' ? args.path : ''}`.trim(), MAX_HOW);
      // (A file shown in part — `sed -n '1867,1900p' x.py`, `cat x.py` — says how much it showed:
      // its first line is wherever the range began, not what the step found.)
      // (A run of an edit script: what it printed last says what it did — "Fixed content setter logic".)
      const outcome = command !== null && VIEWS_FILE.test(withoutCd(command)) ? viewOutcome(result) : runsEdit || (command !== null && runsEditScript(command)) ? editOutcome(result) : actionOutcome(result, command ?? '');
      // (A script written and not run says so, not "no output": what the step did.)
      const written = scripts.length === 1 ? scripts[0] : ops.modified.length === 1 ? ops.modified[0] : undefined;
      const wrote = outcome === 'no output' && !run && command !== null && heredocBody(command) && written ? `wrote ${written}` : outcome;
      if (shown) state.lastAction = { command: shown, outcome: wrote, sources: [m.id] };
    }
  }
  state.changed = [...changed.values()];
  state.scratch = [...scratch];
  if (editScripts.size) state.editScripts = [...editScripts].slice(-LIMITS.editScripts).map(([script, paths]) => ({ script, paths }));
  state.cause = latestCause(sentences, task);
  // Where the code it names lies, as the tools showed it before the cause was said.
  const causeAt = state.cause ? placeNamed(state.cause.text, codePlaces(messages.slice(0, 1 + messages.findIndex((m) => m.id === state.cause?.sources[0])))) : null;
  if (causeAt) state.causeAt = placeText(causeAt);
  // The code it looked at and talked about: where to go back to without searching again.
  if (state.editing) {
    // (Named in any of its words, a guess too: "the `find_ordering_name` method, which seems to
    // be responsible" names where it looked even though it claims nothing yet.)
    const prose = said.filter((s) => s.role === 'assistant' && !s.code).map((s) => s.text);
    const places = codePlaces(messages);
    const named = prose.length ? placesNamed(places, prose, LIMITS.looked) : [];
    // (With every definition it searched for by name and read, named or not, and the one it read
    // last, last: where it stood in the code — the bug site is often the second function read in a
    // file, not the first. Of the tests, none but the last read: the source is what it goes back to.)
    const sought = readPlaces(messages, true).filter((p) => !isTestPath(p.path));
    const same = (p: CodePlace, q: CodePlace): boolean => p.name === q.name && p.path === q.path;
    const last = lastReadPlace(messages);
    const seen = places.filter((p) => named.some((q) => same(p, q)) || sought.some((q) => same(p, q)));
    const looked = (last ? [...seen.filter((p) => !same(p, last)), last] : seen).slice(-LIMITS.looked);
    // (With what it said of each: what the code does, why it mattered.)
    if (looked.length) state.looked = withSaid(looked, sentences, state.cause?.text);
    const found = searchFinds(messages).slice(-LIMITS.found);
    if (found.length) state.found = found;
  }
  // (The index by id only when a file was changed: most compactions change none.)
  const index = state.changed.length ? new Map(messages.map((m, i) => [m.id, i])) : null;
  const lastEdit = index ? Math.max(-1, ...state.changed.flatMap((c) => c.sources.map((id) => index.get(id) ?? -1))) : -1;
  // (Whether the last check came after the last edit: the block says if the fix was tested.)
  if (index && state.checked) state.checkedSinceEdit = (index.get(state.checked.sources[0] ?? '') ?? -1) > lastEdit;
  const plan = latestPlan(sentences, lastEdit, said);
  if (plan && !(state.cause?.text ?? '').includes(plan.text)) state.plan = plan;
  return state;
}
