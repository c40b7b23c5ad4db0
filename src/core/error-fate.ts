// What became of each error met (beside extract-summary.ts, which finds them): the innermost frame
// of its traceback in the project's own files, and whether anything after it resolved it — a
// later run of the same command without it (the change or install made in between is what
// resolved it), an install said to fix it — or it still stood when this part ended. A traceback is
// reduced to its exception line and that one frame: its frames are never facts of their own.
import { errorKey } from './extract-summary';
import { resultOf, shellCommand } from './extract-state';
import { probeCommand, withoutCd } from './tool-output';
import { shownCommand } from './edit-how';
import { fileOpsOfCall } from './extract-files';
import { callArguments } from './tool-output';
import type { ChatMessage, ToolCall } from './messages';
import type { ErrorLine } from './record';
import { squash, truncateAtWord } from './text';
import { splitSentences } from './sentence-split';
import type { Sentence } from './extract-sentences';
import { contentWords } from './word-scan';

/** A traceback frame: `File "path", line N, in name`. */
export const FRAME = /^\s*File "([^"]+)", line (\d+), in (\S+)/;
/** Frames in the interpreter's or installed packages' files, not the project's. */
export const LIBRARY = /site-packages|dist-packages|\/usr\/(?:local\/)?lib\/|\/lib\/python\d|<frozen|<string>|<stdin>|node_modules|\/\.pyenv\/|\/conda\//;
/** A sentence about the cause, or a plan, taken for how an error was resolved. */
const NOT_A_FIX = /^(?:(?:so|now)[,]?\s+)?(?:the (?:root cause|issue|problem|bug|cause|reason) (?:is|was|seems|lies)\b|(?:let me|let['’]s|I['’]ll|I will|I need to|we need to)\b)/i;
/** Commands that change the environment or the files: what may have resolved an error. */
const FIXING = /^(?:sudo\s+)?(?:pip3?|python[\d.]*\s+-m\s+pip|npm|pnpm|yarn|apt(?:-get)?|brew|conda|cargo|go)\s+(?:install|add|get|upgrade)\b/;

/** In an agent run, what a sentence must say to be how an error was resolved: that something
 * fixed it, done — not a cause ("The delete is failing because …"), a plan ("Instead of …, let me
 * …") nor a remark ("That's actually correct because …"). */
const DONE_FIX = /\b(?:fixed|resolved|solved|works now|now works|now passes|passes now|installed|that did it|did the trick)\b/i;
/** The label of an error an install resolved. */
export const RESOLVED_BY_INSTALL = 'Resolved by install:';
/** Noise of an install command that says nothing of what was installed. */
const INSTALL_NOISE = /\s+(?:-q|--quiet|-y|--yes|--no-input|--progress-bar\s+\S+|\d?>\s*\S+|2>&1|>\s*\/dev\/null)(?=\s|$)/g;

/** The install an error's resolution ran, alone and without its noise ("pip install pytz -q &&
 * python t.py" → "pip install pytz"); null when it ran none. */
export function installOf(resolution: string | undefined): string | null {
  if (!resolution) return null;
  for (const part of resolution.split(/&&|;|\|\|/)) {
    const line = part.trim();
    if (FIXING.test(line)) return squash(line.replace(INSTALL_NOISE, ''));
  }
  return null;
}

/** A run of an inline script (`python -c "…"`), with its interpreter and flag. */
const INLINE = /^(\S*(?:python[\d.]*|node|ruby|perl|php|bash|sh)\s+-c)\s/;

/** An error an install can resolve: something missing from the environment. */
const SETUP_ERROR = /No module named|ModuleNotFoundError|ImportError|command not found|not installed|Cannot find module|DistributionNotFound|No matching distribution|requires? \S+ to be installed/i;

/** Whether an install can have resolved an error: a missing module only by an install naming it
 * (`pip install pytz` for 'pytz', not `pip install pytest` for 'forms_tests') or installing the
 * project itself (`-e .`, `-r requirements.txt`). */
function installFits(error: string, install: string): boolean {
  if (!SETUP_ERROR.test(error)) return false;
  if (/\s(?:-e|--editable|-r|--requirement)\b|\s\.(?:\s|$)|setup\.py/.test(install)) return true;
  // (What it installs must be what the error names: the missing module, the command not found.)
  const norm = (x: string): string => x.toLowerCase().replace(/[-_.]/g, '');
  const missing = /No module named '?([\w]+)/.exec(error)?.[1];
  const named = missing ? [norm(missing)] : (error.match(/[A-Za-z][\w.-]{2,}/g) ?? []).map(norm);
  return install.split(/\s+/).slice(2).some((w) => {
    const pkg = norm(w.replace(/[<>=~![].*$/, ''));
    return pkg.length > 1 && !pkg.startsWith('-') && named.some((n) => n === pkg || (missing !== undefined && pkg.startsWith(n)));
  });
}

/** How a tool call that changed files reads as a fix: the install, the files a script wrote (not
 * the opening line of its heredoc), else the command as the block shows it, or the write tool
 * with its path. */
function fixOf(call: ToolCall): string {
  const command = shellCommand(call);
  if (command === null) {
    const args = callArguments(call) ?? {};
    return `${call.name}${typeof args.path === 'string' ? ` ${args.path}` : ''}`;
  }
  const install = installOf(runKey(call));
  if (install) return install;
  const modified = fileOpsOfCall(call).modified;
  if (/<<-?\s*['"]?[\w.-]+/.test(command.split('\n')[0] ?? '') && modified.length) {
    const shown = shownCommand(command);
    const after = shown.includes(' … ') ? shown.slice(shown.indexOf(' … ') + 3) : '';
    return `wrote ${modified.join(', ')}${after ? `, then ran ${after}` : ''}`;
  }
  return shownCommand(command) || runKey(call);
}

/** The first sentence of the user's messages between two positions (a reply such as "I enabled
 * it. Try again."), or ''. */
function userBetween(messages: readonly ChatMessage[], from: number, to: number): string {
  for (let i = from + 1; i < to; i++) {
    const m = messages[i] as ChatMessage;
    if (m.role !== 'user' || !m.content.trim()) continue;
    return truncateAtWord(squash(splitSentences(m.content)[0] ?? m.content), 100);
  }
  return '';
}

/** The innermost project frame before the line at `errorAt` in a traceback's text, as
 * "path, line N, in name"; '' when its frames are all library ones (or there are none). */
export function innermostProjectFrame(lines: readonly string[], errorAt: number): string {
  for (let i = errorAt - 1; i >= 0 && errorAt - i <= 400; i--) {
    const m = FRAME.exec(lines[i] as string);
    if (m && !LIBRARY.test(m[1] ?? '')) return `${m[1]}, line ${m[2]}, in ${m[3]}`;
  }
  return '';
}

/** A call's command line as it identifies a run ("python reproduce.py"), or ''. */
function runKey(call: ToolCall | undefined): string {
  if (!call) return '';
  const command = shellCommand(call);
  if (command === null) return call.name;
  const first = squash(command.split('\n')[0] ?? '').replace(/^\s*(?:cd\s+\S+\s*(?:&&|;)\s*)+/, '');
  // (An inline script or a heredoc is the run it is only with its body: two `python -c "` runs of
  // different scripts are not one command run again.)
  // (A script written by a heredoc and run after it is that run: `python t.py` later runs it again.)
  const marker = /<<-?\s*['"]?([\w.-]+)['"]?\s*$/.exec(first);
  if (marker) {
    const lines = command.split('\n');
    const end = lines.findIndex((l, i) => i > 0 && l.trim() === marker[1]);
    const after = end > 0 ? lines.slice(end + 1).map((l) => squash(l.replace(/^\s*(?:&&|;)\s*/, ''))).find(Boolean) : undefined;
    return after ?? squash(command);
  }
  return /\s-c\s+["']\s*$/.test(first) ? squash(command).replace(/^\s*(?:cd\s+\S+\s*(?:&&|;)\s*)+/, '') : first;
}

/**
 * The errors with their fate: `frame` (the innermost project frame of the traceback it ended),
 * and either a `resolution` (kept when extract-summary found one; else the change or install made
 * before a later run of the same command that no longer showed it) or `unresolved`. Returns copies.
 */
export function withFates(messages: readonly ChatMessage[], errors: readonly ErrorLine[]): ErrorLine[] {
  const index = new Map<string, number>();
  messages.forEach((m, i) => index.set(m.id, i));
  const callOf = new Map<string, ToolCall>();
  for (const m of messages) for (const c of m.role === 'assistant' ? (m.toolCalls ?? []) : []) callOf.set(c.id, c);
  const agent = messages.some((m) => m.role === 'assistant' && (m.toolCalls?.length ?? 0) > 0);
  return errors.map((e) => {
    const out: ErrorLine = { ...e, sources: [...e.sources] };
    // (An error only the task's report shows is the bug to fix: no fate of the work's. Readers took
    // "Unresolved: IntegrityError …" for an error the agent had met and left.)
    if (agent && e.sources.every((id) => messages[index.get(id) ?? -1]?.role === 'user')) {
      delete out.resolution;
      return { ...out, reported: true };
    }
    const first = messages[index.get(e.sources[0] ?? '') ?? -1];
    if (first) {
      const lines = first.content.split('\n');
      const at = lines.findIndex((l) => l.includes(e.text) || errorKey(l) === errorKey(e.text));
      const frame = at > 0 ? innermostProjectFrame(lines, at) : '';
      if (frame) out.frame = frame;
    }
    // (A conclusion about the cause said after the error is no fix of it; in an agent run, only a
    // sentence saying it was fixed is, else what its tool calls did says how.)
    if (out.resolution && (NOT_A_FIX.test(out.resolution) || (agent && !FIXING.test(out.resolution) && !DONE_FIX.test(out.resolution)))) delete out.resolution;
    // (Nor an install of something else.)
    const given = installOf(out.resolution);
    if (given && (!installFits(e.text, given) || !installWentThrough(messages, given))) delete out.resolution;
    if (out.resolution) return out;
    const lastAt = Math.max(...e.sources.map((id) => index.get(id) ?? -1));
    const last = messages[lastAt];
    const failing = last?.role === 'tool' ? runKey(callOf.get(last.toolCallId)) : '';
    if (failing) out.run = failing;
    return fateAfter(out, messages, lastAt, failing, callOf);
  });
}

/** Whether the install `given` (as installOf reads it) went through where it was run: a failed
 * one resolved nothing. */
function installWentThrough(messages: readonly ChatMessage[], given: string): boolean {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i] as ChatMessage;
    for (const c of m.role === 'assistant' ? (m.toolCalls ?? []) : []) if (installOf(runKey(c)) === given) return installed(messages, i, c);
  }
  return true;
}

/** Whether the install `call` of the message at `at` went through: its result printed no error of
 * the installer's own, nor failed when the install was all the command ran (`pip install x &&
 * python t.py` fails for the script's sake). */
function installed(messages: readonly ChatMessage[], at: number, call: ToolCall): boolean {
  const m = messages.slice(at + 1).find((x) => x.role === 'tool' && x.toolCallId === call.id);
  if (!m) return true;
  const result = resultOf(m);
  const alone = !/&&|;|\|\|/.test(withoutCd(shellCommand(call) ?? ''));
  return !/^(?:ERROR: |error: )/m.test(result.text) && !(alone && (result.error || (result.code !== null && result.code !== 0)));
}

/**
 * What became of an error after the message at `lastAt` (-1: before them all): resolved by the
 * change or install made before a later run of the same command (`failing`) that no longer
 * showed it, met again there (unresolved), or — not run again — resolved by an install of what it
 * missed, else unresolved. `out` is the error's copy, completed and returned.
 */
function fateAfter(out: ErrorLine, messages: readonly ChatMessage[], lastAt: number, failing: string, callOf: ReadonlyMap<string, ToolCall>): ErrorLine {
  const key = errorKey(out.text);
  let fix = '';
  // (The first install after it of what it missed: later edits do not undo it.)
  let install = '';
  for (let i = lastAt + 1; i < messages.length; i++) {
    const m = messages[i] as ChatMessage;
    if (m.role === 'assistant') {
      for (const c of m.toolCalls ?? []) {
        const command = shellCommand(c);
        const line = command === null ? '' : runKey(c);
        // (Shown as the block shows a command: a script written and run says both.)
        const own = (command !== null && FIXING.test(line)) || fileOpsOfCall(c).modified.length ? fixOf(c) : '';
        if (own) fix = own;
        // (An install that failed — pip's "ERROR: …", a non-zero return — installed nothing.)
        if (!install && installOf(own) && installFits(out.text, own) && installed(messages, i, c)) install = own;
      }
      continue;
    }
    // (Nor did one after which the error shows again, whatever command showed it.)
    if (m.role === 'tool' && install && resultOf(m).text.split('\n').some((l) => l.trim() && errorKey(l.trim()) === key)) install = '';
    if (m.role !== 'tool' || !failing) continue;
    const ran = runKey(callOf.get(m.toolCallId));
    // (An inline script is a new one each time: a later one of the same interpreter that runs
    // through without the error says it is gone; one that fails otherwise says nothing of it.)
    // (Not a probe of the environment — `python -c "import x; print('ok')" || echo "missing"`: it
    // runs through whether x is there or not.)
    const inline = ran !== failing && INLINE.exec(failing)?.[1] === INLINE.exec(ran)?.[1] && INLINE.test(failing) && !probeCommand(shellCommand(callOf.get(m.toolCallId) as ToolCall) ?? '');
    if (ran !== failing && !inline) continue;
    const result = resultOf(m);
    const again = result.text.split('\n').some((l) => l.trim() && errorKey(l.trim()) === key);
    if (again) return { ...out, unresolved: true };
    if (inline && ((result.code !== null && result.code !== 0) || result.error || /Traceback|Error:/.test(result.text))) continue;
    // (The same tool call again, now through, with nothing changed in between: a retry, after
    // whatever the user said — "I enabled it. Try again." — or it resolved on its own.)
    const retried = callOf.get(m.toolCallId);
    const said = userBetween(messages, lastAt, i);
    // (An install of something else is not what resolved it: the run says only that it stopped.)
    if (installOf(fix) && !installFits(out.text, fix)) fix = '';
    if (fix && retried && fix === fixOf(retried) && shellCommand(retried) === null) {
      const outcome = squash(resultOf(m).text.split('\n').find((l) => l.trim()) ?? '');
      out.resolution = `${said ? `the user said "${said}"; ` : ''}${fix} succeeded on retry${outcome && outcome.length <= 80 ? ` (${outcome})` : ''}`;
    } else if (fix) {
      // (A script written and not run in the same call resolved it by the run after it: "wrote
      // t.py" alone does not say the error stopped.)
      out.resolution = /^wrote /.test(fix) && !fix.includes(', then ran ') ? `${fix}, then ${shownCommand(failing)} ran without this error` : fix;
    } else if (said) out.resolution = `the user said "${said}"`;
    else out.resolution = inline ? `a later ${INLINE.exec(failing)?.[1] ?? ''} script ran without this error` : `${shownCommand(failing)} ran again without this error`;
    return out;
  }
  // Not run again: an install right after it is what it asked for; else it still stands.
  if (install) {
    out.resolution = install;
    return out;
  }
  return { ...out, unresolved: true };
}

/**
 * The earlier rounds' unresolved errors that this round's messages resolve (their command run
 * again without them after a change, or the install of what they missed), as resolved copies: an
 * error met in one round and fixed in the next reads resolved (chain.ts merges them by key).
 */
export function laterFates(earlier: readonly ErrorLine[], messages: readonly ChatMessage[]): ErrorLine[] {
  if (!earlier.some((e) => e.unresolved === true)) return [];
  const callOf = new Map<string, ToolCall>();
  for (const m of messages) for (const c of m.role === 'assistant' ? (m.toolCalls ?? []) : []) callOf.set(c.id, c);
  const out: ErrorLine[] = [];
  for (const e of earlier) {
    if (e.unresolved !== true) continue;
    const copy: ErrorLine = { ...e, sources: [...e.sources] };
    delete copy.unresolved;
    const fate = fateAfter(copy, messages, -1, typeof e.run === 'string' ? e.run : '', callOf);
    if (fate.resolution) out.push(fate);
  }
  return out;
}

/** An error as the block writes it: its exception line, where it was raised in the project's own
 * files, and "unresolved" when nothing after it resolved it. */
export function errorText(e: ErrorLine, withFrame = true): string {
  // (Where a resolved error was raised no longer matters: its fix goes under it. A small block
  // leaves every frame out: the errors themselves come first.)
  const frame = withFrame && typeof e.frame === 'string' && e.frame && !e.resolution ? ` (at ${e.frame})` : '';
  // (With room, a resolved error says so on its line: how is added under it only while room is
  // left, and without either a reader cannot tell it from one still open. The fate leads the line
  // as its label, so the error itself stays in the tool's own words.)
  // (A setup error an install resolved — a missing module — is one short line saying so, the error
  // after the label in its own words: which install, the module it names says.)
  // (Always so labelled, also in a small block: unlabelled it reads as an error the work met.)
  if (e.reported === true) return `Reported in the task: ${e.text}`;
  if (withFrame && installOf(e.resolution)) return `${RESOLVED_BY_INSTALL} ${e.text}`;
  if (e.resolution) return withFrame ? `Resolved: ${e.text}` : e.text;
  if (e.unresolved !== true) return `${e.text}${frame}`;
  return `Unresolved: ${e.text}${frame}`;
}


/**
 * The Errors section's lines: each error as `errorText` writes it, except the setup errors an
 * install resolved, which share one line where the first of them stood ("Resolved by install: A;
 * B"): they only say the environment lacked something that is there now.
 */
export function errorLines(errors: readonly ErrorLine[], withFrame = true): string[] {
  const setup = errors.filter((e) => installOf(e.resolution));
  const out: string[] = [];
  let grouped = false;
  for (const e of errors) {
    if (setup.length < 2 || !installOf(e.resolution)) out.push(`- ${errorText(e, withFrame)}`);
    else if (!grouped) {
      grouped = true;
      out.push(`- ${RESOLVED_BY_INSTALL} ${setup.map((x) => x.text.replace(/[.;]\s*$/, '')).join('; ')}`);
    }
  }
  return out;
}

/** A sentence that reports a failure ("The edit failed: …", "I couldn't write the note"). */
const REPORTS_FAILURE = /\b(?:fail(?:ed|s|ure)?|errors?|couldn['’]t|could not|can['’]t|cannot|unable|refused|denied|declined|not allowed|switched off|disabled|read-only|blocked)\b/i;
/** Words of the error a report must share to be about it. */
const SHARED_WITH_ERROR = 2;

/**
 * The agent's reports of a failure that was resolved afterwards ("The edit
 * failed: note editing is switched off …" once the write succeeded on retry): once it no longer
 * holds it is no fact, and "Errors met" says what happened to it. A report is an assistant
 * sentence after the error, saying something failed, that shares words with the error; what its
 * message offers as a way round (to retry, to enable something, to do it by hand) goes with it.
 *
 * The test such sentences fail (null when no error is settled): it keeps state, so it must be
 * asked of the sentences in order, each once. (Asked inside one filter with
 * the other tests of an agent's sentences: conversation-analysis.ts.) */
export function settledFailureFilter(errors: readonly ErrorLine[], messages: readonly ChatMessage[]): ((s: Sentence) => boolean) | null {
  const settled = errors.filter((e) => e.resolution && !e.unresolved);
  if (!settled.length) return null;
  const at = new Map(messages.map((m, i) => [m.id, i]));
  const reports = settled.map((e) => ({ from: Math.min(...e.sources.map((id) => at.get(id) ?? Infinity)), words: new Set(contentWords(e.text)) })).filter((r) => Number.isFinite(r.from));
  const reported = new Set<number>();
  return (s) => {
    if (s.role !== 'assistant' || s.code) return true;
    // (What the report offered in its message — "You can enable it and I will retry" — went with it.)
    if (reported.has(s.message)) return !WORKAROUND.test(s.text);
    if (!REPORTS_FAILURE.test(s.text)) return true;
    const words = contentWords(s.text);
    const settledReport = reports.some((r) => s.message > r.from && words.filter((w) => r.words.has(w)).length >= SHARED_WITH_ERROR);
    if (settledReport) reported.add(s.message);
    return !settledReport;
  };
}

/** An offer of a way round a failure: to retry, to switch something on, to do it by hand. */
const WORKAROUND = /\b(?:retry|try (?:it )?again|enable|turn (?:it )?on|switch (?:it )?on|allow|by hand|yourself|manually)\b/i;
