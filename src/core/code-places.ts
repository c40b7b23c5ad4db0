// Where in the code the agent looked: the definitions (functions, methods, classes) its tool calls
// showed with their line numbers — `grep -n "def x" file`, `cat -n`, an editor's view, `sed -n
// 'a,bp' file` (numbered from a) — in the file the call read. The State section says where the
// cause lies with them ("Cause: … (at django/http/response.py, line 223, make_bytes)"): a model
// continuing from the block goes to the place instead of searching for it again. Pure.
import { fileOpsOfCall, lexShell } from './extract-files';
import type { ChatMessage, ToolCall } from './messages';
import { callArguments, resultOf, shellCommand } from './tool-output';

export interface CodePlace {
  path: string;
  line: number;
  name: string;
  /** What the agent said of it, its own finding (place-said.ts). */
  said?: string;
}

/** A definition line, after its line number: `def name(`, `class Name`, `function name`. */
const DEFINITION = /^\s*(?:async\s+)?(?:def|class|function|func|fn)\s+([A-Za-z_$][\w$]*)/;
/** A numbered output line: `223:`, `223-` (grep -n, -A/-B context), `   223\t` (cat -n, views). */
const NUMBERED = /^\s*(\d{1,6})(?:[:-]|\t| {2,})(.*)$/;
/** grep -rn's `path:223:` prefix. */
const PATH_NUMBERED = /^([\w./-]+\.[A-Za-z]\w*):(\d{1,6})[:-](.*)$/;
/** `sed -n '220,240p' file`: its output starts at line 220. */
const SED_RANGE = /\bsed\s+-n\s+['"]?(\d+),\d+p['"]?\s/;
/** Most places kept. */
const MAX_PLACES = 40;

/** The definitions the tool results of `messages` showed, in order (the latest sighting of a name
 * in a file wins its line). */
export function codePlaces(messages: readonly ChatMessage[]): CodePlace[] {
  const results = new Map<string, ChatMessage>();
  for (const m of messages) if (m.role === 'tool') results.set(m.toolCallId, m);
  const out: CodePlace[] = [];
  const add = (path: string, line: number, name: string): void => {
    const at = out.findIndex((p) => p.name === name && p.path === path);
    if (at >= 0) out.splice(at, 1);
    out.push({ path, line, name });
  };
  for (const m of messages) {
    if (m.role !== 'assistant') continue;
    for (const call of m.toolCalls ?? []) {
      const result = results.get(call.id);
      if (!result) continue;
      const { text, error } = resultOf(result);
      if (error) continue;
      const read = fileOpsOfCall(call).read;
      // (One file read: numbered lines are its lines. Several: only grep's `path:N:` lines say whose.)
      const file = read.length === 1 ? (read[0] as string) : '';
      const command = shellCommand(call) ?? '';
      const sedFrom = SED_RANGE.exec(command);
      // (A harness's tags leave blank lines before the output: sed's first line is the first after them.)
      const lines = text.replace(/^(?:[ \t]*\n)+/, '').split('\n');
      lines.forEach((raw, i) => {
        const withPath = PATH_NUMBERED.exec(raw);
        if (withPath) {
          const def = DEFINITION.exec(withPath[3] as string);
          if (def) add(withPath[1] as string, Number(withPath[2]), def[1] as string);
          return;
        }
        if (!file) return;
        const numbered = NUMBERED.exec(raw);
        if (numbered) {
          const def = DEFINITION.exec(numbered[2] as string);
          if (def) add(file, Number(numbered[1]), def[1] as string);
          return;
        }
        if (sedFrom) {
          const def = DEFINITION.exec(raw);
          if (def) add(file, Number(sedFrom[1]) + i, def[1] as string);
        }
      });
    }
  }
  return out.slice(-MAX_PLACES);
}

/** The place of the definition a text names as code, the one it names first (the subject of
 * "`distinct()` doesn't call `_not_support_combined_queries`"), the latest seen of that name; null
 * when it names none the tools showed. As code: in backticks, called (`name(`), or a name no
 * English word spells (with an underscore or an inner capital). */
export function placeNamed(text: string, places: readonly CodePlace[]): CodePlace | null {
  const spans = [...text.matchAll(/`([^`\n]+)`/g)].map((m) => ({ at: m.index ?? 0, code: m[1] as string }));
  let best: CodePlace | null = null;
  let bestAt = Infinity;
  for (let i = places.length - 1; i >= 0; i--) {
    const p = places[i] as CodePlace;
    if (p.name.length < 3) continue;
    const word = new RegExp(`(?:^|[^\\w$])${p.name.replace(/\$/g, '\\$')}(?![\\w$])`);
    const inSpan = spans.find((s) => word.test(s.code));
    let at = inSpan ? inSpan.at : -1;
    if (at < 0) {
      const m = (/_|[a-z][A-Z]/.test(p.name) ? word : new RegExp(`(?:^|[^\\w$.])${p.name.replace(/\$/g, '\\$')}\\(`)).exec(text);
      at = m ? m.index : -1;
    }
    if (at >= 0 && (at < bestAt || (at === bestAt && best !== null && p.name.length > best.name.length))) {
      best = p;
      bestAt = at;
    }
  }
  // A name qualified by its class (`BoundWidget.id_for_label`) is the one in that class's file: not
  // another class's method of the same name seen later; the class itself when its method was not.
  const owner = best ? new RegExp(`([A-Za-z_$][\\w$]*)\\.${best.name.replace(/\$/g, '\\$')}(?![\\w$])`).exec(text)?.[1] : undefined;
  const ownerPlace = owner ? [...places].reverse().find((p) => p.name === owner) : undefined;
  if (best && ownerPlace && ownerPlace.path !== best.path) {
    const name = best.name;
    best = [...places].reverse().find((p) => p.name === name && p.path === ownerPlace.path) ?? ownerPlace;
  }
  return best;
}

/** The places the agent's own words name as code (`sentences`: its prose), the latest `limit`,
 * in the order seen: where the code it talks about lies. */
export function placesNamed(places: readonly CodePlace[], texts: readonly string[], limit: number): CodePlace[] {
  const out = places.filter((p) => texts.some((t) => placeNamed(t, [p]) !== null));
  return out.slice(Math.max(0, out.length - limit));
}

/** Most definitions one call may show and still be a read of one of them; more is a whole file
 * looked through. */
const ONE_READ = 3;
/** A range of lines shown (`sed -n '220,260p'`, `head -n`/`tail` aside): its start and end. */
const SHOWN_RANGE = /\bsed\s+-n\s+['"]?(\d+),(\d+)p/;
/** A search for a definition (`grep -n "def make_bytes"`), not for a word its line happens to hold. */
const DEF_SEARCH = /\bgrep\b[^|\n]*\b(?:def|class|function|func|fn)\b/;

/** The definitions a call read: in a range shown, those in its first half (one at its end is the
 * next function, not what was read); in a search for a definition, the ones found; else none. */
function readBy(call: ToolCall, places: readonly CodePlace[]): CodePlace[] {
  const command = shellCommand(call) ?? '';
  const args = callArguments(call) ?? {};
  const range = SHOWN_RANGE.exec(command);
  const view = Array.isArray(args.view_range) ? (args.view_range as unknown[]).map(Number) : null;
  const [from, to] = range ? [Number(range[1]), Number(range[2])] : view && view.length === 2 && view.every((n) => Number.isFinite(n) && n > 0) ? (view as [number, number]) : [NaN, NaN];
  if (Number.isFinite(from)) return places.filter((p) => p.line >= from && p.line <= from + (to - from) / 2);
  return DEF_SEARCH.test(command) ? [...places] : [];
}

/**
 * The definitions the agent read, one per call, in the order read (a name read again moves to its
 * latest reading): from each tool call that read one (a range of lines around it, a search for its
 * name) and showed no more than a few, the one its words around the call name, else the first.
 * Readers found "Looked at" naming only the first function read in a file while the bug sat in the
 * one read after it. `soughtOnly`: those it searched for by name (`grep -n "def x"`), a definition
 * it went looking for rather than one a range happened to show.
 */
export function readPlaces(messages: readonly ChatMessage[], soughtOnly = false): CodePlace[] {
  const results = new Map<string, ChatMessage[]>();
  for (const m of messages) if (m.role === 'tool') results.set(m.toolCallId, [...(results.get(m.toolCallId) ?? []), m]);
  const out: CodePlace[] = [];
  messages.forEach((m, i) => {
    if (m.role !== 'assistant' || !m.toolCalls?.length) return;
    for (const call of m.toolCalls) {
      if (soughtOnly && !DEF_SEARCH.test(shellCommand(call) ?? '')) continue;
      const places = codePlaces([{ ...m, toolCalls: [call] }, ...(results.get(call.id) ?? [])]);
      if (!places.length || places.length > ONE_READ) continue;
      const read = readBy(call, places);
      if (!read.length) continue;
      const next = messages.slice(i + 1).find((x) => x.role === 'assistant');
      const place = placeNamed(`${m.content} ${next?.content ?? ''}`, read) ?? (read[0] as CodePlace);
      const at = out.findIndex((p) => p.name === place.name && p.path === place.path);
      if (at >= 0) out.splice(at, 1);
      out.push(place);
    }
  });
  return out;
}

/** The definition the agent read last (`readPlaces`): where the work stood in the code, named or
 * not in the agent's prose; null when it read none. */
export function lastReadPlace(messages: readonly ChatMessage[]): CodePlace | null {
  return readPlaces(messages).at(-1) ?? null;
}

/** A place as the block writes it. */
export const placeText = (p: CodePlace): string => `${p.path}, line ${p.line}, ${p.name}`;

/** What a search found: the word searched for and the definition its match lies in. */
export interface SearchFind {
  pattern: string;
  path: string;
  name: string;
  /** The definition's parameters as its line shows them (`(cls, fields, option)`). */
  params?: string;
  /** A call of it the same output showed elsewhere (`errors.extend(cls._check_local_fields(fields, 'indexes'))`):
   * what it is already used for, the lead a reader missed when only its place was said. */
  calledAs?: string;
  /** The definition that call sits in, when the output shows it (`_check_indexes`). */
  calledIn?: string;
}

/** Longest parameter list or call line carried with a find. */
const MAX_FIND_CODE = 90;

/** Options of grep that take a value. */
const GREP_VALUED = new Set(['-A', '-B', '-C', '-m', '-e', '-f', '--include', '--exclude', '--exclude-dir']);
/** A file of the tests, not of the code under them. */
const TEST_PATH = /(?:^|\/)tests?\/|(?:^|\/)test_[^/]*$/;
/** Whether a path is one of the tests, not the code under them. */
export const isTestPath = (path: string): boolean => TEST_PATH.test(path);
/** A pattern that is a word or a dotted name, not a regular expression nor a definition searched for. */
const PLAIN_PATTERN = /^[\w.'":-]{3,60}$/;

/**
 * Where the words the agent searched for lie (`grep -B30 -A30 "models.E012" base.py` → the
 * `_check_local_fields` its match sits in), from searches of one file whose lines of context show
 * the definition above the match: the lead a search gave, gone with its output. In order; a
 * definition searched for by name is none (the Looked at line says it).
 */
export function searchFinds(messages: readonly ChatMessage[]): SearchFind[] {
  const results = new Map<string, ChatMessage>();
  for (const m of messages) if (m.role === 'tool') results.set(m.toolCallId, m);
  const out: SearchFind[] = [];
  for (const m of messages) {
    if (m.role !== 'assistant') continue;
    for (const call of m.toolCalls ?? []) {
      const result = results.get(call.id);
      const command = shellCommand(call);
      if (!result || command === null || DEF_SEARCH.test(command)) continue;
      const seg = lexShell(command).segments.find((w) => /^(?:grep|egrep|rg)$/.test((w[0] ?? '').replace(/^.*\//, '')));
      const read = fileOpsOfCall(call).read;
      if (!seg || read.length !== 1) continue;
      const args = seg.slice(1);
      let pattern = '';
      for (let i = 0; i < args.length && !pattern; i++) {
        const a = args[i] as string;
        if (a === '-e') pattern = args[i + 1] ?? '';
        else if (GREP_VALUED.has(a)) i++;
        else if (!a.startsWith('-')) pattern = a;
      }
      pattern = pattern.replace(/\\\./g, '.');
      if (!PLAIN_PATTERN.test(pattern) || /^(?:def|class|function)\b/.test(pattern)) continue;
      const { text, error } = resultOf(result);
      if (error) continue;
      const lines = text.split('\n').map((l) => l.replace(/^\s*\d{1,6}[:-]/, ''));
      const at = lines.findIndex((l) => l.includes(pattern));
      if (at < 0) continue;
      const indent = (l: string): number => /^\s*/.exec(l)?.[0].length ?? 0;
      for (let i = at - 1; i >= 0 && (lines[i] as string).trim() !== '--'; i--) {
        const def = DEFINITION.exec(lines[i] as string);
        if (!def || indent(lines[i] as string) >= indent(lines[at] as string)) continue;
        const name = def[1] as string;
        // (A function or method, not a class — the method between was out of view — nor a dunder
        // such as `__init__`, which names no place; and in the project's code, not its tests.)
        if (/^\s*(?:async\s+)?class\b/.test(lines[i] as string) || /^__\w+__$/.test(name) || TEST_PATH.test(read[0] as string)) break;
        if (name !== pattern && !out.some((f) => f.pattern === pattern && f.name === name)) {
          const params = /\(([^()]*)\)/.exec((lines[i] as string).slice((lines[i] as string).indexOf(name)))?.[0];
          // (A call in code, not the name inside a string: "Cannot call delete() after …".)
          const calls = new RegExp(`(?:^|[^\\w$])${name.replace(/\$/g, '\\$')}\\(`);
          const callAt = lines.findIndex((l, j) => j !== i && !DEFINITION.test(l) && calls.test(l.replace(/(["'])(?:\\.|(?!\1).)*\1/g, '""')));
          const call = callAt >= 0 ? (lines[callAt] as string).trim() : '';
          // (And the definition that call sits in, when the output shows it: "`_check_indexes` calls it".)
          let caller = '';
          for (let k = callAt - 1; k >= 0 && !caller && (lines[k] as string).trim() !== '--'; k--) if (indent(lines[k] as string) < indent(lines[callAt] as string)) caller = DEFINITION.exec(lines[k] as string)?.[1] ?? '';
          out.push({ pattern, path: read[0] as string, name, ...(params && params.length <= MAX_FIND_CODE ? { params } : {}), ...(call && call.length <= MAX_FIND_CODE ? { calledAs: call } : {}), ...(call && caller && caller !== name ? { calledIn: caller } : {}) });
        }
        break;
      }
    }
  }
  return out;
}
