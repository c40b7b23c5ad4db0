// Where the work was left off, settled against what the tool calls show: the line announcing a step
// ends as a sentence with the command it ran under it, a next step announced before a later tool
// call is none, and the command's outcome in one line is the State's reading of the same action.
// compact.ts calls these after the task lines and the State are read. Pure (they set the lines given).
import { INTENTION, type extractTaskLines } from './extract-goal';
import type { ChatMessage } from './messages';
import type { LeftOffLine, TaskState } from './record';
import { runsEditScript, shellCommand } from './extract-state';
import { shownCommand } from './edit-how';
import { squash } from './text';
import { contentWords } from './word-scan';
import { splitSentences } from './sentence-split';

/**
 * Where the work was left off, as the latest action says: a line announcing what follows ("Let me
 * examine the method:") ends as a sentence — the command it ran is shown under it — and a next step
 * announced before a later tool call of this part is no longer the next step.
 */
export function settleLeftOff(task: ReturnType<typeof extractTaskLines>, removed: readonly ChatMessage[]): void {
  const left = task.leftOff;
  if (left && /:\s*$/.test(left.text)) left.text = left.text.replace(/:\s*$/, '.');
  if (left?.command) {
    // (The command is the last tool call's, which may be a later message than the prose.)
    const m = [...removed].reverse().find((x) => x.role === 'assistant' && (x.toolCalls?.length ?? 0) > 0);
    const call = m?.role === 'assistant' ? m.toolCalls?.[m.toolCalls.length - 1] : undefined;
    const full = call ? shellCommand(call) : null;
    const alone = left.text === left.command;
    left.command = shownCommand(full ?? left.command);
    // (What it found is kept. The step it announced stays when the last call is the one it
    // announced, in the same message: paired readers preferred "Let me look at the foreign key
    // implementation in related.py." over a bare command — unless the step says no more than the
    // command (restatesCommand). A step announced in an earlier message than the last call is
    // dropped: it named a step the agent no longer stood at.)
    const announcedLast = m !== undefined && left.sources[0] === m.id && !restatesCommand(left.text, left.command);
    const found = alone ? '' : announcedLast ? left.text : withoutSteps(left.text);
    left.text = found || left.command;
  }
  const next = task.nextStep;
  if (!next) return;
  const at = removed.findIndex((m) => m.id === next.sources[0]);
  const later = removed.slice(at + 1).some((m) => m.role === 'assistant' && (m.toolCalls?.length ?? 0) > 0);
  if (at >= 0 && later) task.nextStep = null;
}

/** Fewest content words of what is left once the steps are out for it to say anything ("Great!"
 * says nothing). */
const FOUND_MIN_WORDS = 3;

/** A left-off line without the steps it announces ("Let me look at …", "Now I'll run …"): what
 * the agent found before them, or '' when that is nothing. */
export function withoutSteps(text: string): string {
  const kept = splitSentences(text).filter((s) => !INTENTION.test(s));
  const found = kept.join(' ');
  return contentWords(found).length >= FOUND_MIN_WORDS ? found : '';
}

/** Whether the steps a left-off line announces say no more than the command under it ("Let me
 * install pytz." over `pip install pytz -q`): a reader met them as the command said twice. Each
 * content word of the steps must occur in the command's text (as a part of a name too: "fix" in
 * fix_email.py). */
export function restatesCommand(text: string, command: string): boolean {
  const steps = splitSentences(text).filter((s) => INTENTION.test(s));
  if (!steps.length) return false;
  const said = command.toLowerCase();
  return steps.every((s) => contentWords(s).every((w) => said.includes(w)));
}

/** "this function" and the like: a pointer at code the output showed. */
const POINTED_CODE = /\b(?:this|that) (?:function|method|class|definition)\b/i;

/**
 * The left-off line naming the code its command read where it pointed at it ("Let me look at this
 * function." over `sed -n '2256,2280p' query.py` → "Let me look at `get_order_dir`."): with the
 * output gone, "this function" names nothing. The place is the one the State saw read last, when
 * the command names its line or its name.
 */
export function nameLeftOffCode(left: LeftOffLine, state: TaskState | null): void {
  const place = Array.isArray(state?.looked) ? state.looked[state.looked.length - 1] : undefined;
  if (!place || !left.command || !POINTED_CODE.test(left.text) || left.text === left.command) return;
  if (!new RegExp(`(?:^|\\D)${place.line}(?:\\D|$)`).test(left.command) && !left.command.includes(place.name)) return;
  left.text = left.text.replace(POINTED_CODE, `\`${place.name}\``);
}

/** The left-off command's outcome in one line, as the State read the same action (`state`). */
export function leftOffOutcome(left: LeftOffLine, state: TaskState | null): void {
  // (Lines of its output that name the task say more than its first line, unless it failed.)
  const outcome = state?.lastAction?.command === left.command ? state?.lastAction?.outcome : undefined;
  // (Output is quoted as code — "def write(rows):" must not read as a line announcing more — and a
  // failure or "no output" is said in words.)
  // (The state's own words — failed, no output, how much a view showed — are not output.)
  // (A search of the notes says the notes it found: "found Garden/Soil.md, Garden/Log.md".)
  const said = outcome && (/^(?:failed\b|showed \d+ lines?(?:$| of `|, defining `)|read, \d+ lines?$|found |wrote )/.test(outcome) || outcome === 'no output' || outcome === 'no matches' || outcome === 'no notes found' || outcome.includes('`') ? outcome : `\`${outcome}\``);
  // A test or reproduction run is said as the State's check says it (passed, or its failure line).
  // (A script written and run in one call shows as "cat > t.py << 'EOF' … python t.py".)
  const ranCheck = (command: string, check: string): boolean => command === check || command.endsWith(` … ${check}`);
  const check = left.command && state?.checked && ranCheck(left.command, state.checked.command) && state.checked.sources.some((id) => state.lastAction?.sources.includes(id)) ? state.checked.outcome : '';
  if (left.command && check) left.outcome = check;
  // (When lines of its output name the task, the first of them is its outcome: what it found.)
  // (Not a line opening a block — "def make_bytes(self, value):" — read as announcing more.)
  // (A file shown says how much it showed: a line of it picked for naming the task read as arbitrary.)
  // (A run of a script named for changing code says what it printed last — "Fixed content setter
  // logic" —, not a line of its output that names the task.)
  else if (left.command && said) left.outcome = left.output?.length && !runsEditScript(left.command) && !said.startsWith('failed') && !/^(?:showed|read,) \d+ lines?\b/.test(said) && !left.output[0]?.includes('`') && !/:\s*$/.test(left.output[0] ?? '') ? `\`${squash(left.output[0] ?? '')}\`` : said;
}
