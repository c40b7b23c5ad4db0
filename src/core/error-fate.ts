// What became of each error met (beside extract-summary.ts, which finds them): the innermost frame
// of its traceback in the project's own files, and whether anything after it resolved it — a
// later run of the same command without it (the change or install made in between is what
// resolved it), an install said to fix it — or it still stood when this part ended. A traceback is
// reduced to its exception line and that one frame: its frames are never facts of their own.
import { errorKey } from './extract-summary';
import { resultOf, shellCommand, shownCommand } from './extract-state';
import { fileOpsOfCall } from './extract-files';
import type { ChatMessage, ToolCall } from './messages';
import type { ErrorLine } from './record';
import { squash } from './text';

/** A traceback frame: `File "path", line N, in name`. */
export const FRAME = /^\s*File "([^"]+)", line (\d+), in (\S+)/;
/** Frames in the interpreter's or installed packages' files, not the project's. */
const LIBRARY = /site-packages|dist-packages|\/usr\/(?:local\/)?lib\/|\/lib\/python\d|<frozen|<string>|<stdin>|node_modules|\/\.pyenv\/|\/conda\//;
/** A sentence about the cause, or a plan, taken for how an error was resolved. */
const NOT_A_FIX = /^(?:(?:so|now)[,]?\s+)?(?:the (?:root cause|issue|problem|bug|cause|reason) (?:is|was|seems|lies)\b|(?:let me|let['’]s|I['’]ll|I will|I need to|we need to)\b)/i;
/** Commands that change the environment or the files: what may have resolved an error. */
const FIXING = /^(?:sudo\s+)?(?:pip3?|python[\d.]*\s+-m\s+pip|npm|pnpm|yarn|apt(?:-get)?|brew|conda|cargo|go)\s+(?:install|add|get|upgrade)\b/;

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
  return squash(command.split('\n')[0] ?? '').replace(/^\s*(?:cd\s+\S+\s*(?:&&|;)\s*)+/, '');
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
  return errors.map((e) => {
    const out: ErrorLine = { ...e, sources: [...e.sources] };
    const first = messages[index.get(e.sources[0] ?? '') ?? -1];
    if (first) {
      const lines = first.content.split('\n');
      const at = lines.findIndex((l) => l.includes(e.text) || errorKey(l) === errorKey(e.text));
      const frame = at > 0 ? innermostProjectFrame(lines, at) : '';
      if (frame) out.frame = frame;
    }
    // (A conclusion about the cause said after the error is no fix of it.)
    if (out.resolution && NOT_A_FIX.test(out.resolution)) delete out.resolution;
    if (out.resolution) return out;
    const lastAt = Math.max(...e.sources.map((id) => index.get(id) ?? -1));
    const last = messages[lastAt];
    const key = errorKey(e.text);
    const failing = last?.role === 'tool' ? runKey(callOf.get(last.toolCallId)) : '';
    let fix = '';
    for (let i = lastAt + 1; i < messages.length; i++) {
      const m = messages[i] as ChatMessage;
      if (m.role === 'assistant') {
        for (const c of m.toolCalls ?? []) {
          const command = shellCommand(c);
          const line = command === null ? '' : runKey(c);
          // (Shown as the block shows a command: a script written and run says both.)
          if ((command !== null && FIXING.test(line)) || fileOpsOfCall(c).modified.length) fix = (command !== null ? shownCommand(command) : '') || line || c.name;
        }
        continue;
      }
      if (m.role !== 'tool' || !failing) continue;
      if (runKey(callOf.get(m.toolCallId)) !== failing) continue;
      const again = resultOf(m).text.split('\n').some((l) => l.trim() && errorKey(l.trim()) === key);
      if (again) return { ...out, unresolved: true };
      if (fix) out.resolution = fix;
      return out;
    }
    // Not run again: an install right after it is what it asked for; else it still stands.
    if (fix && FIXING.test(fix)) {
      out.resolution = fix;
      return out;
    }
    return { ...out, unresolved: true };
  });
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
  if (e.resolution) return withFrame ? `Resolved: ${e.text}` : e.text;
  if (e.unresolved !== true) return `${e.text}${frame}`;
  return `Unresolved: ${e.text}${frame}`;
}
