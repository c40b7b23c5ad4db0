// How the State section of the block is written (extract-state.ts finds what goes in it): one
// line per changed file with how it was changed, the last check and its outcome, the latest
// cause, the notes read and what each search returned, the last action, the scratch files. The
// lines are the source's own words where they can be (an edit command, an output line), under
// short labels. Pure.
import { samePath } from './extract-files';
import type { TaskState } from './record';
import { STATE_STATUS, UNCHANGED_LINE } from './block-format';
import { BAD_VERDICT } from './run-outcome';

/** How extract-state says a write of the plugin's note tools (`appended "…"`, `created with "…"`). */
const NOTE_WRITE = /^(?:appended|created)\b/;

/** Longest list of scratch files or notes written on one line. */
const MAX_LISTED = 10;
/** Most scratch files named: the latest, those a continuation may run again (a long list did not
 * fit the State's share of a full block, and went missing whole). */
const MAX_SCRATCH = 6;
/** Most files the "Looked at" lines name, and names on one (the latest). */
const MAX_LOOKED_FILES = 2;
const MAX_LOOKED_NAMES = 4;
/** Most places of one file said with what the agent found of them. */
const MAX_SAID = 2;

/** The State section's lines, most needed first (the renderer fills them in order while its share
 * of the budget lasts). `leftOffCommand` / `leftOffText` / `leftOffOutcome`: what "Left off" already
 * shows, not repeated as the last action, the check or the cause; `asked`: the Goal and Latest
 * request the block shows, which name the loops searched for. */
export function stateLines(state: TaskState | null | undefined, leftOffCommand = '', leftOffText = '', leftOffOutcome = '', asked: AskedLines = {}): string[] {
  if (!state) return [];
  const out: string[] = [];
  // An agent at work on files (shell commands, edits; not the plugin's note tools or lookups) that
  // has edited no source file yet says so: a model continuing from the block must not assume a
  // fix is in place.
  // (block-format.ts writes it as the State's heading when more lines follow.)
  if (state.editing === true && !state.changed.length) out.push(UNCHANGED_LINE);
  for (const c of state.changed) {
    // (Its earlier edits too, oldest first: a file edited at two places was changed at both.)
    // (Edits alike — the same substitution at two lines, one script run twice — are one line, the
    // latest: the count says there were more.)
    const hows = distinctHows([...(Array.isArray(c.earlier) ? c.earlier : []), c.how].filter((h) => typeof h === 'string' && h !== ''));
    const edits = typeof c.edits === 'number' && c.edits > hows.length ? ` (edited ${c.edits} times)` : '';
    if (c.restored) out.push(`- Changed, then restored: ${c.path}`);
    else if (hows.length === 1 && namesFile(c.how, c.path) && !edits) out.push(`- Changed: ${c.how}`);
    // (A note the plugin's tools wrote once: its path, then what was written, on one line.)
    else if (hows.length === 1 && NOTE_WRITE.test(c.how) && !edits) out.push(`- Changed: ${c.path} — ${c.how}`);
    else {
      out.push(`- Changed: ${c.path}${edits}`);
      // (A changed line that is itself a list item is shown without its own marker: "  - - x"
      // reads as a typo.)
      for (const how of hows) out.push(`  - ${how.replace(/^\s*(?:[-*+•]|\d{1,3}[.)])\s+/, '')}`);
    }
  }
  // (A cause "Left off" already says is not said twice.)
  // (With where the code it names lies, when the cause does not say so itself.)
  if (state.cause && !leftOffText.toLowerCase().includes(state.cause.text.toLowerCase())) out.push(`- Cause: ${state.cause.text}${typeof state.causeAt === 'string' && !state.cause.text.includes(state.causeAt.split(',')[0] as string) ? ` (at ${state.causeAt})` : ''}`);
  // The fix it means to make, not made yet: where the work goes next.
  if (state.plan && !leftOffText.toLowerCase().includes(state.plan.text.toLowerCase())) out.push(`- Planned fix: ${state.plan.text}`);
  // (Nor the check "Left off" shows run with its outcome.)
  if (state.checked && !(leftOffOutcome && (state.checked.command === leftOffCommand || leftOffCommand.endsWith(` … ${state.checked.command}`)))) {
    out.push(`- Checked: ${state.checked.command} — ${state.checked.outcome}`);
    // (The agent's own words, whole: "  - Agent: But it's ordering by … instead of `id`.")
    if (typeof state.checked.fault === 'string' && state.checked.fault) out.push(`  - Agent: ${state.checked.fault}`);
  }
  // The scripts it wrote for itself, before where it looked: one short line a model continuing
  // needs not to write them again (readers missed it where the State's share ran out).
  if (state.scratch.length) out.push(`- Scratch: ${state.scratch.slice(-MAX_SCRATCH).join(', ')}`);
  // The code it looked at and talked about, per file (the cause's own place is said with it).
  const looked = (Array.isArray(state.looked) ? state.looked : []).filter((p) => !(typeof state.causeAt === 'string' && state.causeAt.endsWith(`, line ${p.line}, ${p.name}`)));
  // (One file under two spellings — `/testbed/x.py` and `x.py` — is one; its names once each.)
  const files: string[] = [];
  for (const p of looked) if (!files.some((f) => samePath(f, p.path))) files.push(p.path);
  for (const path of files.slice(-MAX_LOOKED_FILES)) {
    const names = looked.filter((p, i) => samePath(p.path, path) && !looked.slice(i + 1).some((q) => q.name === p.name && samePath(q.path, path)));
    // ("name at line 28", not "name (line 28)": a digit before a closing bracket reads as an
    // emoticon to a scorer — "8)" — and the line as unbalanced markup.)
    const shown = names.slice(-MAX_LOOKED_NAMES);
    out.push(`- Looked at: ${path} — ${shown.map((p) => `${p.name} at line ${p.line}`).join(', ')}`);
    // (With what the agent said of the latest few: "get_order_by at line 252" alone said nothing
    // of what the code does or why it mattered.)
    // (The finding names it among its first words, place-said.ts; not one "Left off" says.)
    const said = shown.map((p) => p.said).filter((t): t is string => typeof t === 'string' && t !== '' && !leftOffText.toLowerCase().includes(t.toLowerCase()));
    for (const t of said.slice(-MAX_SAID)) out.push(`  - ${t}`);
  }
  // (What a search found: the definition the searched word lies in, "Found: `models.E012` in
  // `_check_local_fields`, django/db/models/base.py".)
  // (With its parameters and a call of it the output showed: what the definition is for — "the
  // helper `_check_indexes` already calls" —, not only where the word lies.)
  for (const f of Array.isArray(state.found) ? state.found : []) {
    const params = typeof f.params === 'string' ? f.params : '';
    const called = typeof f.calledAs === 'string' && f.calledAs ? `; called${typeof f.calledIn === 'string' && f.calledIn ? ` in \`${f.calledIn}\`` : ''} as \`${f.calledAs}\`` : '';
    out.push(`- Found: \`${f.pattern}\` in \`${f.name}${params}\`, ${f.path}${called}`);
  }
  if (state.notesRead.length) out.push(`- Notes read: ${state.notesRead.slice(-MAX_LISTED).join(', ')}`);
  out.push(...searchLines(state.searches, asked));
  const last = state.lastAction;
  if (last && last.command !== leftOffCommand && last.command !== state.checked?.command) out.push(`- Last action: ${last.command} — ${last.outcome}`);
  return out;
}

/** Least share of the longer of two edits that their common start and end must cover for them
 * to be one edit said twice (numbers aside: the same substitution at another line). */
const ALIKE = 0.9;

/** Whether two edits are one said twice: the same but for numbers and a few characters. */
function alike(a: string, b: string): boolean {
  const x = a.replace(/\d+/g, '0');
  const y = b.replace(/\d+/g, '0');
  const n = Math.min(x.length, y.length);
  let start = 0;
  while (start < n && x[start] === y[start]) start++;
  let end = 0;
  while (end < n - start && x[x.length - 1 - end] === y[y.length - 1 - end]) end++;
  return start + end >= ALIKE * Math.max(x.length, y.length);
}

/** The edits, oldest first, without those a later one repeats nearly character for character. */
function distinctHows(hows: readonly string[]): string[] {
  return hows.filter((h, i) => !hows.slice(i + 1).some((later) => alike(h, later)));
}

/** Whether an edit command names the file itself (`sed -i … total.py`), not another that ends
 * like it (`python fix_total.py`). */
function namesFile(how: string, path: string): boolean {
  const base = path.slice(path.lastIndexOf('/') + 1);
  for (let at = how.indexOf(base); at >= 0; at = how.indexOf(base, at + 1)) {
    if (!/[\w.-]/.test(how.charAt(at - 1)) && !/[\w]/.test(how.charAt(at + base.length))) return true;
  }
  return false;
}

/** Whether the state already names a file (changed or scratch), or knows it only as what a script
 * written and not yet run would write: "Files modified" need not list it (it is not modified). */
export function inState(state: TaskState | null | undefined, path: string): boolean {
  if (!state) return false;
  const pending = Array.isArray(state.editScripts) && state.editScripts.some((e) => Array.isArray(e?.paths) && e.paths.some((p) => typeof p === 'string' && samePath(p, path)));
  return pending || state.changed.some((c) => samePath(c.path, path)) || state.scratch.some((p) => samePath(p, path));
}

/** Whether the state lists a path as scratch: the same path, or a bare name (`repro.py`, as a run
 * reads it) of a script the agent wrote at the top of its tree (`/testbed/repro.py`). */
export function inScratch(state: TaskState | null | undefined, path: string): boolean {
  if (!state) return false;
  const bare = !path.replace(/^\.\//, '').includes('/');
  const name = path.replace(/^\.\//, '');
  return state.scratch.some((p) => samePath(p, path) || (bare && /^\/[^/]+\/[^/]+$/.test(p) && p.endsWith(`/${name}`)));
}

/** The block's task lines (its Goal and Latest request), as the State may name them. */
export interface AskedLines {
  goal?: string;
  latest?: string;
}

/** What a search returned: the notes it named, or that none matched. */
const foundText = (s: TaskState['searches'][number]): string => (s.notes.length ? s.notes.join(', ') : 'nothing matched in the vault');

/**
 * The searches, each with the notes it found. The searches of two or more tool loops sit under
 * the request that started each loop ("- Searches for \"<request>\":" then one item per search),
 * the latest loop first: a reader of one flat list could not tell which question each search
 * served. One loop's searches (or searches no request is known for) are a flat list, as before.
 */
export function searchLines(searches: TaskState['searches'], asked: AskedLines = {}): string[] {
  const requests: string[] = [];
  for (const s of searches) if (typeof s.request === 'string' && s.request && !requests.includes(s.request)) requests.push(s.request);
  if (requests.length < 2) return searches.map((s) => `- Searched "${s.query}": ${foundText(s)}`);
  const out = searches.filter((s) => !s.request).map((s) => `- Searched "${s.query}": ${foundText(s)}`);
  // (A loop's heading and its first search are one item, its other searches one each: the renderer
  // never shows a heading without a search under it, and shows what of a loop fits.)
  // (A loop's request the block's Goal or Latest request already says is named by that line, not
  // quoted again.)
  const low = (x: string | undefined): string => (x ?? '').toLowerCase();
  const label = (request: string): string => (low(asked.latest).includes(low(request)) ? 'the latest request' : low(asked.goal).includes(low(request)) ? 'the goal' : `"${request}"`);
  // (The latest loop first: where the work is now, kept when the block has room for one loop only.)
  for (const request of [...requests].reverse()) {
    const items = searches.filter((s) => s.request === request).map((s) => `  - "${s.query}": ${foundText(s)}`);
    out.push(`- Searches for ${label(request)}:\n${items[0] ?? ''}`, ...items.slice(1));
  }
  return out;
}

/** Where a run that edited source files stands since its last edit, as the State's heading says
 * it: the test run since passed or failed, a check ran without a verdict, or none ran; null when
 * it edited none (or only restored them). */
export function stateStatus(state: TaskState | null | undefined): string | null {
  // (Notes the plugin's tools wrote are not "untested": no test checks a note.)
  if (!state || state.editing !== true || state.shell !== true || !state.changed.some((c) => !c.restored)) return null;
  const check = state.checkedSinceEdit === true ? state.checked : null;
  if (!check) return STATE_STATUS.untested;
  if (check.passed) return STATE_STATUS.passed;
  // (A run that printed the bug — "✗ app.models import is MISSING!" — failed as a check.)
  const printed = /^ran without error, printed: (.*)$/.exec(check.outcome)?.[1];
  return check.outcome.startsWith('failed') || (printed !== undefined && BAD_VERDICT.test(printed)) ? STATE_STATUS.failed : STATE_STATUS.ran;
}

