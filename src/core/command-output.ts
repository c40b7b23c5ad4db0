// What a command showed of the task, for the line under "Left off": up to three lines of the last
// tool call's output that name the goal's and request's words (outputLines), never a line of
// prose the output broke off (brokenOff), a heading, a framing tag or a traceback frame. Split
// from extract-goal.ts, which calls it for the left-off command. Pure.
import type { ChatMessage } from './messages';
import { standsAlone } from './text';
import { STOPWORDS } from './words';
import { PLUGIN_SEARCH, shellCommand, withoutCd } from './tool-output';
import { VIEWS_FILE } from './run-outcome';

/** A word a sentence does not end on. */
const OPEN_END = /\b(?:for|the|a|an|of|to|and|or|in|with|by|is|are|was|that|which|on|as|at|from|if|when|be|than|into|its|their)$/i;
/** Characters that make a line code rather than prose. */
const CODE_MARKS = /[=(){}[\]<>;#]/;

/**
 * Whether an output line is prose broken off mid-sentence (a wrapped docstring or message): it
 * ends on a word no sentence ends on, or the line after it carries the sentence on in lower case.
 * A line of code is never one.
 */
export function brokenOff(line: string, next: string): boolean {
  const words = line.split(/\s+/).filter(Boolean);
  if (words.length < 4 || CODE_MARKS.test(line) || /[.!?:;,"'`)\]]$/.test(line)) return false;
  const after = next.trim();
  return OPEN_END.test(line) || (/^[a-z]+\b/.test(after) && !CODE_MARKS.test(after));
}

/** A command naming a file of source code. */
const SOURCE_FILE = /\.(?:py|pyx|js|mjs|cjs|jsx|ts|tsx|rb|go|rs|java|kt|c|cc|cpp|h|hpp|cs|php|swift|scala)\b/;

/** Most output lines shown under the command that produced them, and their length bounds. */
const OUTPUT_LINES = 3;
const OUTPUT_MIN_CHARS = 12;
const OUTPUT_MAX_CHARS = 160;
const OUTPUT_SCAN_CHARS = 200_000;
/** A line that is only a tag (`<output>`, `</returncode>`): a harness's framing, not output. */
const TAG_LINE = /^<\/?[\w-]+>(?:[^<]*<\/[\w-]+>)?$/;
/** A Markdown heading line (`# Compost bins`, `## Log`). */
const HEADING_LINE = /^#{1,6}\s/;
/** More lines of an output than this naming a task word make it a common one there. */
const OUTPUT_COMMON_LINES = 2 * OUTPUT_LINES;
/** A word of four letters or more (identifiers whole: `ordering_parts`). */
const TASK_WORD = /[\p{L}_][\p{L}\p{N}_]{3,}/gu;

/**
 * What the last command showed of what the task is about: up to OUTPUT_LINES lines of its output
 * that name the most words of the goal and latest request (four letters or more, not stopwords),
 * in output order. An agent that stopped after `grep -n "ordering_parts" compiler.py` continues
 * from the line it found ("35: self.ordering_parts = re.compile(…)"), not from the command alone.
 * Lines stand alone (markup balanced) and are not framing tags; none when no line names a task word.
 * (Words by a plain pattern, not word-scan.ts's contentWords: that interns every word it reads into
 * the shared vocabulary, and a command's output can be thousands of lines no ranking will use.)
 */
export function outputLines(messages: readonly ChatMessage[], call: ChatMessage, task: string): string[] {
  const last = call.role === 'assistant' ? call.toolCalls?.[call.toolCalls.length - 1] : undefined;
  // (A search of the notes says what it found by the notes it named — the State's outcome —, not
  // by a line of its raw result: a snippet, or a JSON result whole.)
  if (last?.name === PLUGIN_SEARCH) return [];
  // (Nor a view of source code — `cat proxy.py`, `sed -n '1867,1900p' base.py` —: lines of code picked for naming the task read as arbitrary ("proxy = True"); the
  // outcome says what it showed, a function's docstring among it.)
  const command = last ? withoutCd(shellCommand(last) ?? '') : '';
  if (SOURCE_FILE.test(command) && VIEWS_FILE.test(command)) return [];
  const id = last?.id;
  const result = id ? messages.find((m) => m.role === 'tool' && m.toolCallId === id) : undefined;
  if (!result?.content) return [];
  const words = new Set((task.toLowerCase().match(TASK_WORD) ?? []).filter((w) => !STOPWORDS.has(w)));
  if (!words.size) return [];
  const found: { at: number; line: string; named: string[] }[] = [];
  // How many of the lines read name each task word: a word on every line of a note ("Compost
  // note 3: watered …") tells its lines apart less than one only a line names ("Turn the left bin
  // every three weeks").
  const lineCount = new Map<string, number>();
  // (The first OUTPUT_SCAN_CHARS only: a huge output is not split whole for three lines.)
  const lines = result.content.slice(0, OUTPUT_SCAN_CHARS).split('\n');
  // (A traceback's frames and the code lines under them are never what a run showed: its failure
  // line, the outcome, says it.)
  let traceback = false;
  for (let at = 0; at < lines.length; at++) {
    const raw = lines[at] as string;
    if (/^Traceback \(most recent call last\)/.test(raw)) traceback = true;
    else if (traceback && !/^\s/.test(raw)) traceback = false;
    if (traceback) continue;
    const line = raw.trim();
    // (A heading — "# Compost bins" — names what follows it, not what was found.)
    // (Nor a line of prose the output broke off mid-sentence — a docstring's "Return the field name
    // and direction for an order specification. For" —: readers took the cut line for what was found.)
    // (Nor a line of code left open — "'%s does not support …' % connection.display_name," —: a
    // fragment of a statement.)
    if (line.length < OUTPUT_MIN_CHARS || line.length > OUTPUT_MAX_CHARS || TAG_LINE.test(line) || HEADING_LINE.test(line) || !standsAlone(line) || /[,([{\\]$/.test(line) || brokenOff(line, lines[at + 1] ?? '')) continue;
    const named = [...new Set(line.toLowerCase().match(TASK_WORD) ?? [])].filter((w) => words.has(w));
    for (const w of named) lineCount.set(w, (lineCount.get(w) ?? 0) + 1);
    // (A line shown again — "proxy = True" of two classes — is said once.)
    if (named.length && !found.some((x) => x.line === line)) found.push({ at, line, named });
  }
  const scored = found.map((x) => ({ ...x, score: x.named.reduce((sum, w) => sum + 1 / Math.sqrt(lineCount.get(w) ?? 1), 0) }));
  // (A line naming only words most lines name — a note's log of "Compost note 3: …" — is the
  // output's run of the mill, not what it showed, while a line names a rarer one.)
  const common = (x: { named: string[] }): boolean => x.named.every((w) => (lineCount.get(w) ?? 0) > OUTPUT_COMMON_LINES);
  const rare = scored.some((x) => !common(x));
  return scored
    .filter((x) => !rare || !common(x))
    .sort((a, b) => b.score - a.score || a.at - b.at)
    .slice(0, OUTPUT_LINES)
    .sort((a, b) => a.at - b.at)
    .map((x) => x.line);
}
