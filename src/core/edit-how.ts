// How a command and an edit read in the State: a command as the block shows it on one line
// (`shownCommand`), how a shell command or a write tool changed a file (`shellHow`, `toolHow`, what
// a heredoc's script printed, `withPrinted`), and how one of the plugin's writes changed a note
// (`noteWriteHow`). extract-state writes them into Changed, Checked and Last action; left-off and
// error-fate show commands the same way. Pure.
import { FAILURE_LINE, TOOL_NOISE } from './run-outcome';
import { squash, truncateBalanced } from './text';
import { type resultOf, withoutCd } from './tool-output';

/** Longest "how" of a change and command of a check kept. */
export const MAX_HOW = 200;
/** Arguments of a write tool that hold the text written. */
const NEW_TEXT_KEYS = ['new_str', 'new_string', 'new_text', 'replacement', 'content', 'text', 'code', 'patch', 'diff', 'file_text'];
const OLD_TEXT_KEYS = ['old_str', 'old_string', 'old_text'];

/** A pager at the end of a pipeline (`| head -20`): how much of the output was looked at, not
 * what was run (a `| wc -l` or `| grep x` is part of what was asked, and stays). */
const PAGER = /\s+\|\s*(?:head|tail|less|more|cat)\b[^|]*$/;

/**
 * A command as the block shows it, on one line: its first line without `cd … &&` and without
 * trailing pager filters; a first line that only opens a script (`python -c "`) with the script's
 * first line after it. '' when nothing is left.
 */
export function shownCommand(command: string): string {
  const lines = command.split('\n');
  let line = withoutCd(lines[0] ?? '');
  // An inline script (`python -c "` then its lines) is shown as one, with what its first comment
  // says it does ("# Test different buffer-like objects"), else its first line that does something.
  const script = /^(\S*(?:python[\d.]*|node|ruby|perl|php|bash|sh)\s+-c|\S*(?:python[\d.]*|node|ruby|perl|php|bash|sh))\s+(["'])\s*$/.exec(line);
  if (script && lines.length > 1) {
    const body = lines.slice(1);
    const comment = describingComment(body);
    const what = comment ? squash(comment) : firstSaying(body);
    return truncateBalanced(squash(`${script[1]} ${script[2]}…${script[2]}${what ? `  # ${what}` : ''}`), MAX_HOW);
  }
  // A file written by a heredoc and then run or used: both, the body left out ("cat > t.py << 'EOF'
  // … python t.py"), or the outcome shown after it reads as the write's.
  const marker = /<<-?\s*['"]?([\w.-]+)['"]?/.exec(line);
  if (marker) {
    const end = lines.findIndex((l, i) => i > 0 && l.trim() === marker[1]);
    const after = end > 0 ? lines.slice(end + 1).map((l) => withoutCd(l.replace(/^\s*(?:&&|;)\s*/, ''))).find((l) => l) : undefined;
    // (Without the heredoc's marker: `<< 'EOF'` says only that a body followed.)
    if (after) line = `${line.slice(0, marker.index).trim()} … ${after}`;
    else if (end > 0) {
      // (A file written and nothing run: its opening line and a marker say nothing of what went in.
      // What its first comment says it is, else its first line that does something.)
      const body = lines.slice(1, end);
      const comment = describingComment(body);
      const what = comment ? squash(comment) : firstSaying(body);
      line = `${line.slice(0, marker.index).trim()}${what ? `  # ${what}` : ''}`;
    }
  } else if (line.length < 24 && lines.length > 1) line = `${line} ${(lines[1] ?? '').trim()}`;
  while (PAGER.test(line)) line = line.replace(PAGER, '');
  // (Where its error output went says nothing of what ran.)
  line = line.replace(/\s+2>&1(?=\s*$|\s*\|)/g, '');
  return truncateBalanced(squash(line), MAX_HOW);
}

/** Code commented out (`# sys.path.insert(0, '.')`, `# x = 1`, `# import os`): says nothing of what
 * a script does. */
const COMMENTED_CODE = /^(?:[\w.]+\(.*\)\s*;?|[\w.[\]'"]+\s*[+\-*/]?=\s*.+|(?:import|from|def|class|return|print)\b.*)$/;

/** A comment on a script's plumbing, not on what it does ("Read the file", "Write back", "Let me
 * manually edit the file"). */
const PLUMBING = /^(?:(?:let me|now|then|first|finally)\s+)?(?:(?:manually\s+)?(?:read|open|load|write|save|edit)(?:\s+(?:it\s+)?back)?(?:\s+(?:(?:the|this|a|its)\s+)?(?:(?:file|source)\s+)?(?:file|content|contents|lines?|source|result|changes?))?(?:\s+(?:back|again))?|(?:manually\s+)?edit\s+the\s+file|write\s+(?:it\s+)?back)\.?$/i;

/** The first comment of a script that says what it does (not a shebang, nor code commented out,
 * nor its plumbing). */
function describingComment(body: readonly string[]): string | undefined {
  return body.map((l) => /^\s*(?:#|\/\/)\s*(.{8,})$/.exec(l)?.[1]).find((c): c is string => c !== undefined && !/^!/.test(c) && !COMMENTED_CODE.test(c.trim()) && !PLUMBING.test(c.trim()));
}

/** The body of the heredoc a command feeds (lines after `<<EOF` up to the marker), or null. */
export function heredocBody(command: string): string[] | null {
  const lines = command.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = /<<-?\s*['"]?([\w.-]+)['"]?/.exec(lines[i] as string);
    if (!m) continue;
    const body: string[] = [];
    for (let j = i + 1; j < lines.length && (lines[j] as string).trim() !== m[1]; j++) body.push(lines[j] as string);
    return body;
  }
  return null;
}

/** The first line of a text that says something: not blank, a shebang, an import or a comment. */
function firstSaying(lines: readonly string[]): string {
  const pick = lines.find((l) => l.trim() && !/^\s*(?:#!|#|\/\/|import\s|from\s+\S+\s+import\s|"""|'''|$)/.test(l));
  return squash(pick ?? lines.find((l) => l.trim()) ?? '');
}

/** How a shell command changed `path`: the sed/perl line, the first added line of a patch, the
 * first line a heredoc wrote, the replace call of a script, else the command's first line. */
export function shellHow(command: string, path: string): string {
  const lines = command.split('\n');
  const base = path.slice(path.lastIndexOf('/') + 1);
  const inPlace = lines.find((l) => /\b(?:sed|perl)\b[^\n]*\s-[a-zA-Z]*i/.test(l) && l.includes(base));
  if (inPlace) return withoutCd(inPlace.slice(Math.max(0, inPlace.search(/\b(?:sed|perl)\b/))));
  const body = heredocBody(command);
  if (body) {
    if (/\b(?:patch|git\s+apply)\b/.test(lines[0] ?? '')) {
      const added = body.find((l) => /^\+(?!\+\+)/.test(l) && l.slice(1).trim());
      if (added) return squash(added);
    }
    const at = body.findIndex((l) => /\.replace\(|re\.sub\(|\.insert\(/.test(l) && !/^\s*#/.test(l));
    // A call written over several lines is read on to where its brackets close (three lines at most).
    let replace = at >= 0 ? (body[at] as string) : '';
    for (let j = at + 1; replace && j < Math.min(body.length, at + 3) && count(replace, '(') > count(replace, ')'); j++) replace += ` ${(body[j] as string).trim()}`;
    const writesDirectly = new RegExp(`>\\s*['"]?[^\\s'"]*${escapeRe(base)}['"]?\\s*<<`).test(command);
    if (writesDirectly) return firstSaying(body);
    // (A call with no text of its own — `lines.insert(insert_point, new_method)`, `re.sub(pattern,
    // replacement, content)` — says nothing of what went in, and read as an arbitrary line of the
    // script: the script's run says it, with what it printed, withPrinted.)
    if (replace && /['"]/.test(replace)) return squash(replace);
    if (replace) {
      const shown = shownCommand(command);
      return shown.includes(' … ') ? shown.slice(shown.indexOf(' … ') + 3) : shown;
    }
  }
  // (As the block shows a command: `python -c "` alone says nothing of what the script did.)
  return shownCommand(command);
}

/** Longest line a script printed that is added to how it changed a file. */
export const MAX_PRINTED = 120;

/**
 * How a script fed by a heredoc changed a file, with what it printed when it says so in a short
 * line ("Added _check_max_length_vs_choices method"): its replace call alone (`lines.insert(at,
 * new_method)`) does not say what went in. An edit command (sed, a patch) says it already.
 */
export function withPrinted(how: string, command: string, result: ReturnType<typeof resultOf>): string {
  if (!heredocBody(command) || /^(?:sed|perl)\b/.test(how) || /\b(?:patch|git\s+apply)\b/.test(command.split('\n')[0] ?? '')) return how;
  if ((result.code !== null && result.code !== 0) || result.error) return how;
  const printed = result.text.split('\n').map((l) => l.trim()).find((l) => l && !TOOL_NOISE.test(l));
  if (!printed || printed.length > MAX_PRINTED || FAILURE_LINE.test(printed)) return how;
  return `${how} — printed: ${printed}`;
}

const count = (s: string, ch: string): number => s.split(ch).length - 1;
export const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** How a write tool call changed its file: the first line of the new text not in the old. */
export function toolHow(args: Record<string, unknown>): string {
  const text = NEW_TEXT_KEYS.map((k) => args[k]).find((v): v is string => typeof v === 'string' && v.trim() !== '');
  if (!text) return '';
  const old = OLD_TEXT_KEYS.map((k) => args[k]).find((v): v is string => typeof v === 'string');
  const oldLines = new Set((old ?? '').split('\n').map((l) => l.trim()));
  const lines = text.split('\n');
  const changed = old !== undefined ? lines.filter((l) => !oldLines.has(l.trim())) : lines;
  return firstSaying(changed.length ? changed : lines);
}

/** How one of the plugin's writes changed a note, in words: `appended "- Basil seeds"`, `created
 * with "…"` (its first line that says something). A bare line under the note's path read as the
 * note's whole new text. */
export function noteWriteHow(name: string, args: Record<string, unknown>): string {
  const how = toolHow(args);
  const verb = name === 'create_note' ? 'created with' : 'appended';
  return how ? `${verb} "${how}"` : verb.replace(/ with$/, '');
}
