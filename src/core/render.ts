// Rendering the record as one `<previous_context>` block, filled by priority until the token
// budget: the task lines first (goal, latest request, where things were left, next step — whole
// sentences, trailing ones dropped to fit), then the sections up to a share each (the cue-phrase
// ones only when the conversation did tool work), the structured ones (instructions, errors, files)
// past it up to a reserve, then key facts with everything left (a later round's newly removed
// messages first, for a share), then the rest, then (the block measured whole, which costs less
// than its lines one by one) the next-ranked whole facts into what is left. Key facts are one turn
// per line, labelled with the speaker and the day when it changes; file paths are written whole;
// how an error was resolved goes on its own line under it. No line is cut mid-sentence; the block
// is re-measured whole and trimmed until it fits, with a margin for the estimator's error (the
// plugin ships no tokenizer, so the estimate is all there is). How the block is written (tags,
// sections, fact lines) is block-format.ts's; the margin is block-margin.ts's; the lines added while
// room is left (error fixes, a command's output) and the final trim are render-extras.ts's. When
// the conversation ran in several threads (threads.ts), each thread's best fact is taken first and
// the facts are laid out under the threads' heads (thread-format.ts); between two people a
// "Speakers:" line names them and no Goal is written.
import type { CompactionRecord } from './record';
import { blockMargin, recordMargin, shareFor } from './block-margin';
import { CLOSE_TAG, OPEN_TAG, outputOf } from './block-format';
import { BlockDraft, editedTextsOf } from './block-draft';
import { addSections, doesWork, fillRest, rulesInTaskOrder } from './block-sections';
import { addTaskLine, addTaskLines, currentRequest } from './render-tasks';
import { FactMemo, KeyFacts, factPool, saidAboveTest } from './render-facts';
import { estimateTokens, tokenizerFamily } from './tokens';
import { squash } from './text';
import { FactLayout } from './thread-format';
import { addCommandOutput, addResolutions, addStateStatus, trimToFit } from './render-extras';
import { stateStatus } from './state-format';

export interface RenderOptions {
  budgetTokens: number;
  model?: string;
  /** Share of the budget held back for the estimator's under-count (default: block-margin.ts). */
  margin?: number;
}

/** Below this budget only the tags (or nothing) can be rendered. */
export const MIN_BUDGET_TOKENS = 16;

/** Least room (estimated tokens) in which key facts are laid out by thread: below it, each head
 * costs a fact (LongMemEval recall at budget 500: 0.34 with heads). */
export const THREADS_MIN_ROOM = 600;
/** The same between two people, whose sessions' heads name what each session was about in a few
 * tokens — words later questions ask for (LoCoMo at budget 500: recall 0.383 → 0.387, event
 * coverage 0.264 → 0.278). */
export const TALK_THREADS_MIN_ROOM = 300;

/**
 * Renders the record's content within `budgetTokens` (tags included, by the core's estimate
 * minus the margin). `roleOf` names who said a fact ('user' / 'assistant'), when known.
 * The pieces, in the order they take their room: the task lines (render-tasks.ts), the sections up
 * to their shares (block-sections.ts), the key facts (render-facts.ts), the sections with what is
 * left, the lines added while room is left (render-extras.ts), the slack the block measured whole
 * leaves, the final trim.
 */
export function renderBlock(record: CompactionRecord, options: RenderOptions, roleOf: (id: string) => string | undefined = () => undefined): string {
  const cost = (s: string): number => estimateTokens(s, options.model);
  // (The facts' texts, costs and keys once for both writes of the block.)
  const memo = new FactMemo(cost);
  if (options.margin !== undefined) return renderWith(record, options, roleOf, cost, memo, options.margin, false);
  const budget = options.budgetTokens;
  // The margins of the model's tokenizer family: the budget holds by its own count.
  const family = tokenizerFamily(options.model);
  const block = renderWith(record, options, roleOf, cost, memo, shareFor(recordMargin(record, cost, family), budget, family), false);
  const own = shareFor(blockMargin(block, cost, family), budget, family);
  if (!block || cost(block) <= Math.floor(budget * (1 - own))) return block;
  // Its own text needs more held back than the mix of the lines it drew from promised: written
  // again to its own margin, and held to the margin of what that writes.
  return renderWith(record, options, roleOf, cost, memo, own, true);
}

/** The block written to `margin`; `strict`, also held to its own text's margin (block-margin.ts). */
function renderWith(record: CompactionRecord, options: RenderOptions, roleOf: (id: string) => string | undefined, cost: (s: string) => number, memo: FactMemo, margin: number, strict: boolean): string {
  // Between two people the text may name them: facts are labelled with the names, and one line
  // says who is who.
  const speakers = record.kind === 'talk' ? record.speakers : undefined;
  const tags = cost(`${OPEN_TAG}\n\n${CLOSE_TAG}`);
  const target = Math.floor(options.budgetTokens * (1 - margin)) - tags;
  if (options.budgetTokens < MIN_BUDGET_TOKENS || target <= 4) return '';

  const draft = new BlockDraft(target, cost, editedTextsOf(record));
  const work = doesWork(record);
  // (A small block has no room for heads: its few facts go by rank, as one list.)
  const threads = target >= (record.kind === 'talk' ? TALK_THREADS_MIN_ROOM : THREADS_MIN_ROOM) ? (record.threads ?? []) : [];
  const manyThreads = threads.length >= 2;
  const layout = new FactLayout({ threads, kind: record.kind, roleOf, ...(speakers ? { speakers } : {}) });
  const tasks = addTaskLines(draft, record, { work, threads, manyThreads, roleOf, speakers });
  const sections = addSections(draft, record, { work, staleGoal: tasks.staleGoal, threads, manyThreads, leftOffText: tasks.leftOffText, goalText: tasks.goalText, requestText: tasks.requestText, target });

  // The State's heading says whether the fix was tested since, when the longer heading fits.
  draft.used = addStateStatus(draft.lines, stateStatus(record.state), draft.used, target, cost);
  // Key facts take everything left (render-facts.ts).
  const facts = new KeyFacts(draft, layout, manyThreads, saidAboveTest(record, tasks), memo);
  const pool = factPool(record, manyThreads);
  facts.takeRanked(pool, facts.firstPass(pool, record));
  if (!work) addTaskLine(draft, 'request', currentRequest(record), 'Latest request:', work);
  // Then the sections past their first share, in priority order, with what is left.
  fillRest(draft, sections, work);
  // Then how the errors shown were resolved, and what the left-off command's output showed of the
  // task, while room is left: facts come first.
  draft.used = addResolutions(draft.lines, record.errors, tasks.leftOffText, draft.used, target, cost);
  draft.used = addCommandOutput(draft.lines, outputOf(record.leftOff).filter((l) => l !== record.leftOff?.outcome && `\`${squash(l)}\`` !== record.leftOff?.outcome), draft.used, target, cost);
  if (facts.lines.length) draft.lines.set('facts', facts.lines);
  // Last, the room the per-line estimates left, measured in the whole block.
  facts.fillSlack(pool, Math.floor(options.budgetTokens * (1 - margin)));
  rulesInTaskOrder(draft.lines, record.constraints, work);
  return trimToFit(draft.lines, options.budgetTokens, margin, cost, strict ? tokenizerFamily(options.model) : undefined);
}
