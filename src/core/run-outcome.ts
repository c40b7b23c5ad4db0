// A run's outcome in one line, read from its tool result: passed or failed with the line that
// says so (a verdict a script printed, an assertion, not a runner's tally), how much a view
// showed or a note had, what an edit script printed last. extract-state writes them into the
// State's Checked and Last action lines. Pure.
import { squash, truncateBalanced } from './text';
import { type resultOf, withoutCd } from './tool-output';

type RunResult = ReturnType<typeof resultOf>;

/** Longest outcome line kept as it is; a longer one is cut at its first sentence's end when that
 * comes early enough, else kept whole up to MAX_WHOLE (see wholeLine). */
const MAX_OUTCOME = 160;
/** Longest line kept whole: a query's SQL, a long verdict. Readers took a line cut at "… ON…" or
 * "… For" for the run's outcome and could not tell what it showed. */
const MAX_WHOLE = 320;

/**
 * A line as an outcome says it: whole. A long one ends at its first sentence when that sentence
 * says enough on its own ("Error: Requested setting X, but settings are not configured." of an
 * error that goes on to advise), else stays whole up to MAX_WHOLE; only a longer one is cut.
 */
export function wholeLine(line: string): string {
  if (line.length <= MAX_OUTCOME) return line;
  const end = /^.{40,}?[.!?](?=\s+[A-Z])/.exec(line.slice(0, MAX_WHOLE));
  if (end && end[0].length <= MAX_OUTCOME * 1.5) return end[0];
  return line.length <= MAX_WHOLE ? line : truncateBalanced(line, MAX_WHOLE);
}
/** Lines of output that fail a run. */
export const FAILURE_LINE = /^(?:(?:[A-Za-z_][\w]*\.)*[A-Z]\w*(?:Error|Exception|Failure)\b.*|Error: .*|(?:[a-z_]\w*\.)+[A-Z]\w*: .*|.*\bNo module named\b.*|FAILED\b.*|FAIL:.*|ERROR:.*|.*\bfailures?=\d+.*|.*\b\d+ failed\b.*|.*: command not found|.*No such file or directory.*)$/;
/** Lines a tool prints about itself, not about the work: pip's and npm's warnings and notices. */
export const TOOL_NOISE = /^(?:WARNING:|DEPRECATION:|\[notice\]|npm (?:WARN|notice)\b)/;
/** The line of a passing run that says so. */
const PASS_LINE = /^(?:OK\b.*|Ran \d+ tests? in .*|.*\b\d+ passed\b.*|.*\ball (?:the )?(?:tests?|checks?) (?:passed|pass|work).*|.*\b(?:tests? passed|success(?:fully)?|works correctly|fixed)\b.*|.*:\s*PASS(?:ED)?[.!]?)$/i;

/** A line a script prints to say a check failed or showed the bug (marks and capitals it chose to
 * stand out: "❌ ISSUE: …", "BUG: …", "PROBLEM: …", "… (should be False but is True)"). */
export const BAD_VERDICT = /[❌✗✘]|\b(?:FAIL(?:ED|URE)?|BUG|ISSUE|PROBLEM|WRONG|MISMATCH)\b|\bshould (?:be|have|not|return|raise)\b.*\bbut\b|\b(?:incorrect(?:ly)?|wrong)\b/;
/** A line a script prints to say a check passed ("✓ Uses name-based access", "PASS: …",
 * "Got exception (good!)", "This works correctly!"). */
const GOOD_VERDICT = /[✓✔✅]|\b(?:PASS(?:ED)?|SUCCESS|OK)\b|\((?:good|expected|correct)\b|\b(?:works? (?:correctly|as expected)|as expected|is correct|correctly (?:handled|raised|returned))\b/i;
/** Output that says nothing on its own: a heading ending in a colon, a rule, a harness's tag, a
 * printed value's first line left open ("migrations.AlterOrderWithRespectTo(", "order_with_respect_to='look',"). */
const NOT_A_FINDING = /:\s*$|[([{,]\s*$|^[-=*#_~. ]+$|^<\/?[\w-]+>$/;

/**
 * The line of a run's output that mattered, when the run neither failed nor said it passed: the
 * last line that gives a verdict (one of failure first: a reproduction that prints "❌ ISSUE: …"
 * among its other lines showed the bug), else its last line that says something on its own (not
 * a heading ending in a colon). A reader of "last output: Email value with default:" learns
 * nothing of what the run showed.
 */
function telling(lines: readonly string[], remark = '', task: () => string = () => ''): string {
  // (Nor a line of brackets alone — the "]" closing a printed list —: it says nothing.)
  const fit = lines.filter((l) => l.length <= 400 && !TOOL_NOISE.test(l) && !NOT_A_FINDING.test(l) && /[\p{L}\p{N}]/u.test(l));
  const last = (re: RegExp): string | undefined => [...fit].reverse().find((l) => re.test(l));
  return last(BAD_VERDICT) ?? last(GOOD_VERDICT) ?? remarkedLine(fit, remark) ?? echoLine(fit, task) ?? fit[fit.length - 1] ?? lines[lines.length - 1] ?? '';
}

/** Fewest words a printed line must share with the task's report to echo it. */
const MIN_ECHO = 5;

/**
 * The printed line that echoes what the task reported (a reproduction printing the query the issue
 * quotes, `SELECT … ORDER BY "parent"."id" ASC`, among lines of its own debugging): the one sharing
 * the most distinct words of three letters or more with the report, when it shares at least
 * MIN_ECHO and more than any other line; else none.
 */
function echoLine(lines: readonly string[], task: () => string): string | undefined {
  if (lines.length < 2) return undefined;
  const reported = new Set(task().toLowerCase().match(/[a-z_][a-z0-9_]{2,}/g) ?? []);
  if (!reported.size) return undefined;
  const scored = lines.map((line) => new Set(line.toLowerCase().match(/[a-z_][a-z0-9_]{2,}/g) ?? []).size && [...new Set(line.toLowerCase().match(/[a-z_][a-z0-9_]{2,}/g) ?? [])].filter((w) => reported.has(w)).length);
  const best = Math.max(...scored);
  if (best < MIN_ECHO || scored.filter((n) => n === best).length > 1) return undefined;
  return lines[scored.indexOf(best)];
}

/** Shortest quote of the output in the agent's remark that ties the remark to a line. */
const MIN_QUOTE = 6;

/**
 * The line of the output the agent's next words quote (a code span or a quoted string of it:
 * "The query shows `ORDER BY "app_parent"."id" ASC` but it should be DESC"): the line it read as
 * the answer, whatever the script printed after it (a verdict it printed — ❌, PASS — says more).
 * The one with the most of its quotes (of those, the one the remark quotes first); none when the
 * remark quotes no line. A quote of a bare name
 * (`_check_constraints`) ties the remark to no line: a listing names it on many.
 */
function remarkedLine(lines: readonly string[], remark: string): string | undefined {
  if (!remark) return undefined;
  // (Once each; a single quote only as one, not the apostrophes of "That's … it's".)
  // (The character before a single quote is matched, not looked behind: iOS before 16.4.)
  const quotes = [...new Set([...remark.matchAll(/`([^`\n]+)`|"([^"\n]+)"|(?:^|[^\w'])'([^'\n]+)'(?!\w)/g)].map((m) => squash(m[1] ?? m[2] ?? m[3] ?? '')))].filter((q) => q.length >= MIN_QUOTE && !/^[\w.]+(?:\(\))?$/.test(q));
  if (!quotes.length) return undefined;
  let best: string | undefined;
  let most = 0;
  let first = Infinity;
  for (const line of lines) {
    const flat = squash(line);
    const hits = quotes.map((q, i) => (flat.includes(q) ? i : -1)).filter((i) => i >= 0);
    // (Ties go to the line of the quote the remark makes first: what it says first it read first.)
    if (hits.length > most || (hits.length === most && hits.length > 0 && (hits[0] as number) < first)) {
      best = line;
      most = hits.length;
      first = hits[0] as number;
    }
  }
  return best;
}

/** The specific line of a failure (an exception, an assertion, a failed test's own line) rather
 * than a runner's tally ("FAILED (failures=1)", "1 failed, 2 passed in 0.3s"), which says only
 * that something failed. */
const TALLY = /^(?:=+\s*)?(?:FAILED \((?:failures|errors)=|.*\b\d+ (?:failed|passed|errors?)\b.*\bin [\d.]+s\b|.*\bfailures?=\d+)/;

/** A run's outcome: passed (with the line that says so), or failed with its failure line; `remark`:
 * what the agent said next, whose quote of the output names the line that mattered; `task`: what
 * the task reported, which a reproduction's telling line echoes. */
export function outcomeOf(result: RunResult, remark = '', task: () => string = () => ''): { passed: boolean; outcome: string } {
  const lines = result.text.split('\n').map((l) => l.trim()).filter(Boolean);
  const failures = lines.filter((l) => FAILURE_LINE.test(l) && l.length <= 400);
  const failure = [...failures].reverse().find((l) => !TALLY.test(l)) ?? failures[failures.length - 1];
  const failed = (result.code !== null && result.code !== 0) || result.error || failure !== undefined;
  if (failed) {
    const line = failure ?? telling(lines, remark, task);
    // ("failed with return code 1", not "(return code 1)": see state-format.ts's Looked at.)
    const code = result.code !== null && result.code !== 0 ? ` with return code ${result.code}` : '';
    return { passed: false, outcome: line ? `failed${code}: ${wholeLine(line)}` : `failed${code}` };
  }
  // (A reproduction that prints "❌ ISSUE: …" and then "Done successfully" showed the bug.)
  const pass = lines.some((l) => BAD_VERDICT.test(l)) ? undefined : [...lines].reverse().find((l) => PASS_LINE.test(l) && l.length <= MAX_OUTCOME);
  if (pass) return { passed: true, outcome: `passed: ${pass}` };
  // A script that ran without error has not "passed" anything unless it says so: a reproduction
  // that prints the bug exits 0 too. The line that mattered says what it showed.
  const shown = telling(lines, remark, task);
  return { passed: false, outcome: shown ? `ran without error, printed: ${wholeLine(shown)}` : 'ran without error, no output' };
}

/** A run that never started: its runner missing ("No module named pytest" for `python -m pytest`,
 * "pytest: command not found"). It checked nothing: the check before it still says where the
 * work stands. */
export function neverStarted(command: string, result: RunResult): boolean {
  const text = result.text.trim();
  if (text.split('\n').length > 3) return false;
  const escape = (x: string): string => x.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const module = /\bpython[\d.]*\s+-m\s+([\w.]+)/.exec(command)?.[1];
  if (module && new RegExp(`No module named '?${escape(module)}'?\\s*$`, 'm').test(text)) return true;
  const first = (withoutCd(command).trim().split(/\s+/)[0] ?? '').replace(/^.*\//, '');
  return first !== '' && new RegExp(`(?:^|\\s)${escape(first)}: (?:command )?not found`, 'm').test(text);
}

/** A search command (grep, ripgrep, git grep): its return code 1 says it found nothing. */
const SEARCHES = /^(?:e?grep|rg|ag|git\s+grep)\b/;

/** A command that only shows a file, or part of it (not a search: grep's first hit is a finding),
 * also through a pipeline of viewers (`cat -n x.py | sed -n '223,237p'`). */
export const VIEWS_FILE = /^\s*(?:cat|head|tail|nl|sed\s+-n)\s+[^|;&>]*(?:\|\s*(?:head|tail|nl|sed\s+-n)\b[^|;&>]*)*$/;

/** A file shown: how many lines, or its failure. */
export function viewOutcome(result: RunResult): string {
  const plain = actionOutcome(result);
  if (plain.startsWith('failed') || plain === 'no output') return plain;
  const lines = result.text.split('\n').filter((l) => l.trim());
  const n = lines.length;
  // (One line shown is itself the outcome.)
  if (n <= 1) return plain;
  // (A function shown from its start says what it does by its docstring's first sentence: "showed
  // 20 lines of `get_order_dir`: \"Return the field name and direction for an order
  // specification.\"" — how many lines alone says nothing once the output is gone.)
  const doc = docOfShown(lines);
  if (doc) return `showed ${n} lines of \`${doc.name}\`: "${doc.text}"`;
  // (Else the definitions it showed: "showed 16 lines" alone told readers nothing of what was read.)
  const names = definedIn(lines);
  const more = names.length > MAX_NAMED ? ` and ${names.length - MAX_NAMED} more` : '';
  return names.length ? `showed ${n} lines, defining ${names.slice(0, MAX_NAMED).map((x) => `\`${x}\``).join(', ')}${more}` : `showed ${n} lines`;
}

/** Most definitions a view's outcome names. */
const MAX_NAMED = 4;
/** A definition line (after its number): `def name(`, `class Name`, `function name`. */
const DEFINES = /^\s*(?:export\s+)?(?:async\s+)?(?:def|class|function|func|fn)\s+([A-Za-z_$][\w$]*)/;

/** Last lines of a view in which a definition only peeks in: the next function after the one read
 * (code-places.ts reads a range's first half the same way). */
const PEEKING = 3;

/** The names the lines shown define, in order, once each (not one opening in the last lines). */
function definedIn(lines: readonly string[]): string[] {
  const out: string[] = [];
  const end = lines.length > 2 * PEEKING ? lines.length - PEEKING : lines.length;
  for (const l of lines.slice(0, end)) {
    const name = DEFINES.exec(unnumbered(l))?.[1];
    if (name && !out.includes(name)) out.push(name);
  }
  return out;
}

/** A line shown without its number (grep -n, cat -n). */
const unnumbered = (l: string): string => l.replace(/^\s*\d{1,6}(?:[:-]|\t| {2,})/, '');
/** A docstring's opening quotes and what follows them on its line. */
const DOC_OPEN = /^\s*[rub]?("""|''')(.*)$/;

/** A definition opening the lines shown (among the first three) and its docstring's first
 * sentence, or null. */
function docOfShown(lines: readonly string[]): { name: string; text: string } | null {
  for (let i = 0; i < Math.min(3, lines.length); i++) {
    const def = /^\s*(?:async\s+)?(?:def|function)\s+([A-Za-z_$][\w$]*)/.exec(unnumbered(lines[i] as string));
    if (!def) continue;
    // (The docstring opens on a line after the signature, which may run over a few lines.)
    for (let j = i + 1; j < Math.min(i + 5, lines.length); j++) {
      const open = DOC_OPEN.exec(unnumbered(lines[j] as string));
      if (!open) continue;
      const quote = open[1] as string;
      const body: string[] = [];
      const first = (open[2] ?? '').split(quote)[0]?.trim() ?? '';
      if (first) body.push(first);
      for (let k = j + 1; k < Math.min(j + 6, lines.length) && !(open[2] ?? '').includes(quote); k++) {
        const l = unnumbered(lines[k] as string).trim();
        if (!l || l.startsWith(quote)) break;
        body.push(l.split(quote)[0]?.trim() ?? '');
        if (l.includes(quote) || /[.!?]$/.test(l)) break;
      }
      const sentence = /^(.{12,200}?[.!?])(?:\s|$)/.exec(squash(body.join(' ')))?.[1];
      return sentence ? { name: def[1] as string, text: sentence } : null;
    }
    return null;
  }
  return null;
}

/** A note read in full: how many lines it had. */
export function readOutcome(text: string): string {
  const n = text.split('\n').filter((l) => l.trim()).length;
  return `read, ${n} line${n === 1 ? '' : 's'}`;
}

/** The last action's outcome in one line: its failure line, or the first line of its output. */
export function actionOutcome(result: RunResult, command = ''): string {
  const lines = result.text.split('\n').map((l) => l.trim()).filter(Boolean);
  const failure = [...lines].reverse().find((l) => FAILURE_LINE.test(l) && l.length <= 400);
  if (failure) return `failed: ${wholeLine(failure)}`;
  // (A search that found nothing exits 1: no failure, an answer.)
  if (result.code === 1 && !lines.length && SEARCHES.test(withoutCd(command))) return 'no matches';
  if (result.code !== null && result.code !== 0) return `failed with return code ${result.code}`;
  // (A package manager's warning — "WARNING: Running pip as the 'root' user …" — says nothing of
  // what the step did.)
  const said = lines.filter((l) => !TOOL_NOISE.test(l));
  const first = said[0];
  // (A first line that only heads what follows — a table's column, "category", "Results" — says
  // nothing of what the step found: the line it ended on, a total or a verdict, does.)
  const last = said.length >= 3 && first !== undefined && HEADER_LINE.test(first) ? said[said.length - 1] : undefined;
  const pick = last ?? first;
  return pick ? wholeLine(squash(pick)) : 'no output';
}

/** An output line that only heads the lines after it: one or two words, no digit, no stop. */
const HEADER_LINE = /^[A-Za-z_][A-Za-z_-]*(?:[ \t]+[A-Za-z_][A-Za-z_-]*)?:?$/;

/** What a run of an edit script did: its failure, else the last line it printed. */
export function editOutcome(result: RunResult): string {
  const plain = actionOutcome(result);
  if (plain.startsWith('failed') || plain === 'no output') return plain;
  const lines = result.text.split('\n').map((l) => l.trim()).filter((l) => l && !TOOL_NOISE.test(l) && /[\p{L}\p{N}]/u.test(l));
  return truncateBalanced(squash(lines[lines.length - 1] ?? plain), MAX_OUTCOME);
}
