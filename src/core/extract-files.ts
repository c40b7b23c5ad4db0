// Files read and modified, from tool calls: the path arguments of note/file tools (the plugin's
// own read_note, search_vault, list_folder and any write/edit tool), and the paths inside shell
// commands of exported agent sessions (cat, sed -i, grep, redirections, heredocs …).
import { parseToolArguments, type ToolCall } from './messages';

export interface FileOps {
  read: string[];
  modified: string[];
  /** Of `read`, the files this call only searched (a grep with no lines of context shows matches,
   * not the code around them): listed apart, "searched", so the block does not claim they were read. */
  searched?: string[];
}

const PATH_KEYS = ['path', 'file', 'file_path', 'filepath', 'filename', 'note', 'note_path', 'notePath', 'target', 'target_file', 'source', 'destination', 'folder', 'dir', 'directory'];
const MULTI_KEYS = ['paths', 'files', 'notes'];
const WRITE_TOOL = /(?:write|edit|create|update|append|prepend|replace|insert|delete|remove|move|rename|patch|save|modify|apply)/i;
const SHELL_TOOL = /^(?:bash|shell|sh|zsh|terminal|exec|execute|run|run_command|run_shell|command|cmd|shell_command|execute_command)$/i;
const COMMAND_KEYS = ['command', 'cmd', 'script', 'commands'];

/** File operations of one tool call; unknown tools with no path-like argument give nothing. */
export function fileOpsOfCall(call: ToolCall): FileOps {
  const ops: FileOps = { read: [], modified: [] };
  const args = parseToolArguments(call);
  if (!args) return ops;
  const command = COMMAND_KEYS.map((k) => args[k]).find((v): v is string => typeof v === 'string');
  if (command !== undefined && (SHELL_TOOL.test(call.name) || !PATH_KEYS.some((k) => typeof args[k] === 'string'))) {
    return fileOpsOfShell(command);
  }
  const paths: string[] = [];
  for (const k of PATH_KEYS) {
    const v = args[k];
    if (typeof v === 'string' && v.trim()) paths.push(v.trim());
  }
  for (const k of MULTI_KEYS) {
    const v = args[k];
    if (Array.isArray(v)) for (const p of v) if (typeof p === 'string' && p.trim()) paths.push(p.trim());
  }
  (WRITE_TOOL.test(call.name) ? ops.modified : ops.read).push(...paths);
  return ops;
}

// Commands whose file arguments are read, and those that write their last/all file arguments.
const READERS = new Set(['cat', 'nl', 'head', 'tail', 'less', 'more', 'bat', 'view', 'wc', 'grep', 'egrep', 'fgrep', 'rg', 'ag', 'ack', 'awk', 'diff', 'cmp', 'sort', 'uniq', 'cut', 'file', 'stat', 'open', 'source', 'jq', 'xxd', 'od', 'strings', 'md5sum', 'sha256sum']);
const WRITERS = new Set(['touch', 'rm', 'mkdir', 'truncate', 'chmod', 'chown', 'unlink', 'rmdir']);
const COPIERS = new Set(['cp', 'mv', 'install', 'ln']);
// Options of grep-like commands that take a value (the value is not the pattern nor a file).
const GREP_VALUE_OPTS = new Set(['-e', '-f', '-m', '-A', '-B', '-C', '--include', '--exclude', '--exclude-dir', '-g', '--glob', '-t', '--type']);

/** Splits a shell command into segments (by ; && || | and newlines) of words, honouring quotes,
 * and reports redirection targets separately. A pragmatic lexer, not a shell: enough to find paths. */
export function lexShell(command: string): { segments: string[][]; redirects: { path: string; append: boolean; input: boolean }[] } {
  const segments: string[][] = [];
  const redirects: { path: string; append: boolean; input: boolean }[] = [];
  let words: string[] = [];
  let word = '';
  let inWord = false;
  let pendingRedirect: { append: boolean; input: boolean } | null = null;
  let heredoc: string | null = null;
  const endWord = (): void => {
    if (!inWord) return;
    if (pendingRedirect) {
      if (!/^&\d$/.test(word)) redirects.push({ path: word, ...pendingRedirect });
      pendingRedirect = null;
    } else words.push(word);
    word = '';
    inWord = false;
  };
  const endSegment = (): void => {
    endWord();
    if (words.length) segments.push(words);
    words = [];
  };
  const lines = command.split('\n');
  for (let li = 0; li < lines.length; li++) {
    const line = lines[li] ?? '';
    if (heredoc !== null) {
      if (line.trim() === heredoc) heredoc = null;
      continue; // heredoc bodies are data, not commands
    }
    for (let i = 0; i < line.length; i++) {
      const ch = line[i] as string;
      if (ch === "'" || ch === '"') {
        const close = line.indexOf(ch, i + 1);
        const end = close < 0 ? line.length : close;
        word += line.slice(i + 1, end);
        inWord = true;
        i = end;
      } else if (ch === '\\' && i + 1 < line.length) {
        word += line[i + 1];
        inWord = true;
        i++;
      } else if (ch === ' ' || ch === '\t') {
        endWord();
      } else if (ch === ';' || ch === '|' || ch === '&' || ch === '(' || ch === ')') {
        if (ch === '&' && line[i + 1] === '>') {
          endWord();
          pendingRedirect = { append: false, input: false };
          i++;
          continue;
        }
        if (ch === '&' && /\d/.test(word) && inWord && line[i - 1] === '>') {
          word += ch;
          continue;
        }
        endSegment();
        if (line[i + 1] === ch) i++;
      } else if (ch === '>' || ch === '<') {
        if (/^\d$/.test(word)) {
          word = '';
          inWord = false;
        }
        endWord();
        if (ch === '<' && line[i + 1] === '<') {
          // Heredoc: <<EOF, <<'EOF', <<-EOF; the marker ends the body on its own line.
          const m = /^<<-?\s*['"]?([\w.-]+)['"]?/.exec(line.slice(i));
          if (m) {
            heredoc = m[1] ?? null;
            i += m[0].length - 1;
            continue;
          }
        }
        const append = ch === '>' && line[i + 1] === '>';
        if (append) i++;
        if (line[i + 1] === '&') {
          // 2>&1 and the like: no file.
          i++;
          while (i + 1 < line.length && /\d/.test(line[i + 1] as string)) i++;
          continue;
        }
        pendingRedirect = { append, input: ch === '<' };
      } else {
        word += ch;
        inWord = true;
      }
    }
    endSegment();
  }
  endSegment();
  return { segments, redirects };
}

const looksLikePath = (w: string): boolean =>
  !w.startsWith('-') &&
  !/^[<>|&;]/.test(w) &&
  !/[*?{}$`\s]/.test(w) &&
  w !== '/dev/null' &&
  !w.startsWith('/dev/') &&
  (/\//.test(w) || /^[\w@.-]+\.[A-Za-z][A-Za-z0-9]{0,7}$/.test(w)) &&
  !/^\.+\/?$/.test(w) &&
  !/^https?:/.test(w);

// Writes made by a script the command runs inline (`python -c`, a heredoc fed to python):
// `open('x', 'w')`, `Path('x').write_text(…)`, `fs.writeFileSync('x', …)`.
const SCRIPT_WRITE = /\bopen\(\s*r?['"]([^'"\n]+)['"]\s*,\s*['"][^'"]*[wax+][^'"]*['"]|\bPath\(\s*r?['"]([^'"\n]+)['"]\s*\)\.write_(?:text|bytes)\(|\bwrite(?:File)?(?:Sync)?\(\s*['"]([^'"\n]+)['"]\s*,/g;

/** Paths read and modified by a shell command. */
export function fileOpsOfShell(command: string): FileOps {
  const ops: FileOps = { read: [], modified: [] };
  const { segments, redirects } = lexShell(command);
  if (command.includes('(')) {
    for (const m of command.matchAll(SCRIPT_WRITE)) {
      const path = m[1] ?? m[2] ?? m[3] ?? '';
      if (looksLikePath(path)) ops.modified.push(path);
    }
  }
  for (const r of redirects) if (looksLikePath(r.path)) (r.input ? ops.read : ops.modified).push(r.path);
  for (const seg of segments) {
    let i = 0;
    // Skip env assignments and wrappers (sudo, env, time, xargs) to reach the command.
    while (i < seg.length && (/^\w+=/.test(seg[i] as string) || /^(?:sudo|env|time|nohup|xargs|command)$/.test(seg[i] as string))) i++;
    const cmd = (seg[i] ?? '').replace(/^.*\//, '');
    const args = seg.slice(i + 1);
    if (cmd === 'sed' || cmd === 'perl') {
      const inPlace = args.some((a) => /^-[a-zA-Z]*i/.test(a) || a === '--in-place' || a.startsWith('--in-place='));
      const scriptOpt = args.includes('-e') || args.includes('-f') || args.includes('-E');
      const files = positional(args, new Set(['-e', '-f', '-E']), !scriptOpt);
      (inPlace ? ops.modified : ops.read).push(...files.filter(looksLikePath));
    } else if (READERS.has(cmd)) {
      const isGrep = /^(?:grep|egrep|fgrep|rg|ag|ack|awk)$/.test(cmd);
      const hasPatternOpt = args.some((a) => a === '-e' || a === '-f');
      // (`head -n 20 f` gives -n a value; `cat -n f` numbers lines and takes none.)
      const files = positional(args, isGrep ? GREP_VALUE_OPTS : /^(?:head|tail)$/.test(cmd) ? new Set(['-n', '-c']) : new Set<string>(), isGrep && !hasPatternOpt);
      ops.read.push(...files.filter(looksLikePath));
      // (A search shows matching lines; with lines of context around them — -A/-B/-C — it shows code.)
      if (cmd !== 'awk' && isGrep && !args.some((a) => SEARCH_CONTEXT.test(a))) (ops.searched ??= []).push(...files.filter(looksLikePath));
    } else if (cmd === 'tee') {
      ops.modified.push(...positional(args, new Set(), false).filter(looksLikePath));
    } else if (WRITERS.has(cmd)) {
      ops.modified.push(...positional(args, new Set(), false).filter(looksLikePath));
    } else if (COPIERS.has(cmd)) {
      const files = positional(args, new Set(['-t', '-S']), false).filter(looksLikePath);
      if (files.length >= 2) {
        if (cmd === 'mv') ops.modified.push(...files);
        else {
          ops.read.push(...files.slice(0, -1));
          ops.modified.push(files[files.length - 1] as string);
        }
      }
    } else if (cmd === 'patch' || cmd === 'git') {
      // `git apply x.patch`, `git checkout -- f`, `patch f < p`: the named files are modified.
      const sub = cmd === 'git' ? args[0] : '';
      if (cmd === 'patch' || sub === 'checkout' || sub === 'restore' || sub === 'rm' || sub === 'mv') {
        ops.modified.push(...positional(cmd === 'git' ? args.slice(1) : args, new Set(['-p', '-i']), false).filter(looksLikePath));
      }
    } else if (/^python[\d.]*$/.test(cmd) || cmd === 'node' || cmd === 'pytest') {
      // Running a script reads it (it is part of the work); `python -c` and `-m` have no file.
      const first = args.find((a) => !a.startsWith('-'));
      if (first && !args.includes('-c') && !args.includes('-m') && looksLikePath(first)) ops.read.push(first);
    }
  }
  // (A file also read some other way in the same command was read.)
  const searched = unique(ops.searched ?? []).filter((p) => !segmentsRead(segments, p));
  return { read: unique(ops.read), modified: unique(ops.modified), ...(searched.length ? { searched } : {}) };
}

/** Options of grep-like commands that show lines of context around each match. */
const SEARCH_CONTEXT = /^(?:-[a-zA-Z]*[ABC]\d*|--(?:after|before)?-?context(?:=.*)?)$/;

/** True when a segment other than a search names the path (`cat f; grep x f`). */
function segmentsRead(segments: readonly string[][], path: string): boolean {
  return segments.some((seg) => !/^(?:grep|egrep|fgrep|rg|ag|ack)$/.test((seg[0] ?? '').replace(/^.*\//, '')) && seg.slice(1).some((w) => w.replace(/^(?:\.\/)+(?=.)/, '') === path));
}

/** Positional arguments, skipping options (and the values of `valueOpts`); drops the first one when
 * it is a pattern or script (grep's pattern, sed's script). */
function positional(args: readonly string[], valueOpts: ReadonlySet<string>, firstIsPattern: boolean): string[] {
  const out: string[] = [];
  let endOfOpts = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (!endOfOpts && a === '--') {
      endOfOpts = true;
      continue;
    }
    if (!endOfOpts && a.startsWith('-') && a.length > 1) {
      if (valueOpts.has(a)) i++;
      continue;
    }
    out.push(a);
  }
  return firstIsPattern ? out.slice(1) : out;
}

function unique(xs: string[]): string[] {
  // `./a.py` and `a.py` are the same file.
  return [...new Set(xs.map((x) => x.replace(/^(?:\.\/)+(?=.)/, '')))];
}

/** True when two paths name the same file as far as a conversation can tell: equal, or one is the
 * other with a leading directory (`/testbed/django/db/models.py` and `django/db/models.py`). A
 * bare file name is not matched this way: `__init__.py` names many files. */
export function samePath(a: string, b: string): boolean {
  if (a === b) return true;
  // (`long.endsWith('/' + short)` without building the string: this runs for pairs of files.)
  const long = a.length > b.length ? a : b;
  const short = a.length > b.length ? b : a;
  return short.charCodeAt(0) !== 47 && short.includes('/') && long.length > short.length && long.charCodeAt(long.length - short.length - 1) === 47 && long.endsWith(short);
}

/** The part of a path after its last slash, as written: two paths {@link samePath} calls the same
 * have the same one, so candidates are looked up by it instead of compared with every path. */
const lastPart = (path: string): string => path.slice(path.lastIndexOf('/') + 1);

/** Paths (or entries) filed by their last part, in the order they were added. */
class ByLastPart<T> {
  private readonly map = new Map<string, T[]>();
  constructor(private readonly pathOf: (x: T) => string) {}
  add(x: T): void {
    const k = lastPart(this.pathOf(x));
    const list = this.map.get(k);
    if (list) list.push(x);
    else this.map.set(k, [x]);
  }
  /** The first added whose path is {@link samePath} as `path` and passes `also`. */
  find(path: string, also: (x: T) => boolean = () => true): T | undefined {
    return this.map.get(lastPart(path))?.find((x) => also(x) && samePath(this.pathOf(x), path));
  }
}

/** The last part of a path, lower case ("Forms.py" in a heading names django/forms/forms.py). */
const baseName = (path: string): string => path.slice(path.lastIndexOf('/') + 1).toLowerCase();

/**
 * The path references that no listed file and no longer path reference already names, so the block
 * gives each file one canonical path: not the same path again with or without a leading directory
 * ({@link samePath}), nor its bare file name ("formsets.py" beside django/forms/formsets.py). A bare
 * name is dropped this way only for references: it is the same word, and the full path is listed;
 * two files read are kept apart (`__init__.py` names many files).
 */
export function referencesNotListed<R extends { kind: string; text: string }>(refs: readonly R[], files: readonly { path: string }[]): R[] {
  const paths = refs.filter((r) => r.kind === 'path').map((r) => r.text.replace(/^(?:\.\/)+(?=.)/, ''));
  const full = [...files.map((f) => f.path), ...paths.filter((p) => p.includes('/'))];
  const names = new Set(full.map(baseName));
  const listed = new ByLastPart<string>((p) => p);
  for (const f of files) listed.add(f.path);
  const longer = new ByLastPart<string>((p) => p);
  for (const p of paths) longer.add(p);
  return refs.filter((r) => {
    if (r.kind !== 'path') return true;
    const text = r.text.replace(/^(?:\.\/)+(?=.)/, '');
    if (listed.find(text) !== undefined) return false;
    if (!text.includes('/')) return !names.has(text.toLowerCase());
    // A shorter form of a longer path reference.
    return longer.find(text, (p) => p !== text && p.length > text.length) === undefined;
  });
}

/** The entries with one canonical path each: entries naming the same file (see {@link samePath})
 * merge into the one with the longest path, which says most about where the file is. */
export function mergeSamePaths<T extends { path: string; sources: string[]; last: number }>(entries: readonly T[]): T[] {
  const out: T[] = [];
  const filed = new ByLastPart<T>((o) => o.path);
  for (const e of [...entries].sort((x, y) => y.path.length - x.path.length)) {
    const into = filed.find(e.path);
    if (!into) {
      const copy = { ...e, sources: [...e.sources] };
      out.push(copy);
      filed.add(copy);
      continue;
    }
    into.last = Math.max(into.last, e.last);
    for (const id of e.sources) if (!into.sources.includes(id)) into.sources.push(id);
    // (A file read one way and searched another was read.)
    const searchedOnly = (x: T): boolean => (x as { searched?: boolean }).searched === true;
    if (searchedOnly(into) && !searchedOnly(e)) delete (into as { searched?: boolean }).searched;
  }
  return out;
}
