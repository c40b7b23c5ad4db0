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
import type { CompactionRecord, SourcedLine } from './record';
import { recordMargin } from './block-margin';
import { CLOSE_TAG, HEADINGS, OPEN_TAG, type SectionId, assemble, bareOf, factText, fileLine, leftOffLabel, needsHeading, outputOf, ranLine, shownText } from './block-format';
import { topicStatus } from './extract-summary';
import { isRequestText } from './extract-goal';
import { estimateTokens } from './tokens';
import { balancedMarkup, dedupeKey, dropLoneSurrogates, isLeadIn, splitSentences, squash } from './text';
import { contentWords } from './word-scan';
import { speakersLine } from './speakers';
import { FactLayout, currentRules, listsEach } from './thread-format';
import { addCommandOutput, addResolutions, largestFitting, orderFiles, orderRefs, trimToFit } from './render-extras';
import { errorLines } from './error-fate';
import { inScratch, inState, stateLines } from './state-format';

export interface RenderOptions {
  budgetTokens: number;
  model?: string;
  /** Share of the budget held back for the estimator's under-count (default: block-margin.ts). */
  margin?: number;
}

/** Below this budget only the tags (or nothing) can be rendered. */
export const MIN_BUDGET_TOKENS = 16;

/** Largest share of the budget each section takes before key facts have had theirs. */
const FIRST_SHARE: Partial<Record<SectionId, number>> = {
  goal: 0.2,
  leftOff: 0.1,
  request: 0.1,
  nextStep: 0.05,
  constraints: 0.12,
  state: 0.2,
  errors: 0.2,
  modified: 0.1,
  read: 0.15,
  open: 0.05,
  decisions: 0.05,
  done: 0.05,
  references: 0.04,
  // Requests repeat what the goal and the facts carry; they get room only after the facts.
  topics: 0,
};
/** Share of the key facts' room that a later round's newly removed messages get first. Counted
 * in whole facts (see the fresh pass): a round of long answers gets its share even when each of
 * its facts is a paragraph. 0.15 left chains of long answers stale (LongMemEval freshness 0.15);
 * at 0.2 they sat on the edge (0.20 at budget 2,000); 0.22 leaves a margin there (0.209) while
 * the first round still keeps its place (LoCoMo chain decay at 1,000: 0.94; 0.95 at 0.21). */
const FRESH_SHARE = 0.22;
/** Least room (estimated tokens) in which key facts are laid out by thread: below it, each head
 * costs a fact (LongMemEval recall at budget 500: 0.34 with heads). */
export const THREADS_MIN_ROOM = 600;
/** Threads from which, in a chat with an assistant, the first request is no longer the goal (the
 * latest is): a conversation of many unrelated threads has no one aim. */
const STALE_GOAL_THREADS = 4;
/** Share of the key facts' room that goes to each thread's best fact before the rest go by rank.
 * With an assistant a thread's best is its answer's list when it has one (thread-format.ts):
 * 0.4 showed five threads of fifteen, the rest of the room going to what the user said of
 * themselves (LongMemEval at 1,000, recall on what the assistant said 0.38 → 0.46 at 0.6, overall
 * 0.555 → 0.554; at 0.75 overall 0.49). */
const SPREAD_SHARE = 0.6;
/** The same between two people, whose sessions' news is what a reader needs most. (Each session
 * is a thread there: 0.6 left less room for the ranking's second facts, which carry the news'
 * details — LoCoMo event coverage at 1,000 0.59 → 0.60 at 0.45, recall 0.530 → 0.543.) */
const TALK_SPREAD_SHARE = 0.45;
/** Share of a task line's room it gets in a conversation without tool work: a line's first
 * sentence may take twice TALK_FIRST_SHARE of it (so a small block still has its goal), the
 * sentences after it go up to TALK_TASK_SHARE. In talk the facts carry the conversation. */
const TALK_TASK_SHARE = 0.4;
const TALK_FIRST_SHARE = 0.6;
/** Room (estimated tokens) a goal's first sentence may take whatever the shares say. */
const GOAL_FLOOR = 40;
/** Sections that may grow past their first share before the facts have had theirs: the structured
 * ones (instructions, errors, files), denser than any sentence. Prose sections picked by cue
 * phrases (decisions, done, open tasks) compete with the ranked facts only after them. */
const PROSE: ReadonlySet<SectionId> = new Set<SectionId>(['decisions', 'done', 'open']);
const STRUCTURED: ReadonlySet<SectionId> = new Set<SectionId>(['constraints', 'state', 'errors', 'modified', 'read']);
/** Least room (estimated tokens) worth trying a clause of a fact in. */
const FILL_MIN_ROOM = 6;
/** Most facts measured in the block by the final fill (each costs one estimate of the block). */
const FILL_TRIES = 12;
/** Share of the budget the sections leave to key facts when they grow past their first share. */
const FACTS_RESERVE = 0.25;
/** Least room (estimated tokens) in which an error line says where in the project it was raised:
 * below it the errors themselves come first (swe-traj exact at budget 500: 0.908 with frames). */
const FRAME_MIN_ROOM = 600;
/** Most of the budget the task's rules take in a conversation doing work: where the work stands
 * must have room beside them (a template's eleven rules took 40 % of the block). */
const RULES_SHARE = 0.22;

/** The constraints, the most binding first (their score: the rule's strength, extract-rules.ts). */
const bindingFirst = (lines: readonly SourcedLine[]): SourcedLine[] => lines.map((l, i) => ({ l, i })).sort((a, b) => b.l.score - a.l.score || a.i - b.i).map((x) => x.l);

interface Built {
  lines: Map<SectionId, string[]>;
  used: number;
}

/**
 * Renders the record's content within `budgetTokens` (tags included, by the core's estimate
 * minus the margin). `roleOf` names who said a fact ('user' / 'assistant'), when known.
 */
export function renderBlock(record: CompactionRecord, options: RenderOptions, roleOf: (id: string) => string | undefined = () => undefined): string {
  // Between two people the text may name them: facts are labelled with the names, and one line
  // says who is who.
  const speakers = record.kind === 'talk' ? record.speakers : undefined;
  const model = options.model;
  const cost = (s: string): number => estimateTokens(s, model);
  const margin = options.margin ?? recordMargin(record);
  const tags = cost(`${OPEN_TAG}\n\n${CLOSE_TAG}`);
  const target = Math.floor(options.budgetTokens * (1 - margin)) - tags;
  if (options.budgetTokens < MIN_BUDGET_TOKENS || target <= 4) return '';

  const built: Built = { lines: new Map(), used: 0 };
  // Lines the user rewrote (src/core/edits.ts marks them): past the section shares, like the
  // task lines' sentence limit, as long as the whole block fits.
  const editedTexts = new Set<string>();
  for (const l of [record.goal, record.request, record.leftOff, record.nextStep, ...record.constraints, ...record.decisions, ...record.done, ...record.openTasks, ...record.errors, ...record.topics]) {
    if (l?.edited) editedTexts.add(l.text);
  }
  // The goal as shown: a line it holds is not repeated by another section.
  let goalText = '';
  // The other task lines as shown (latest request, left off), lower case: a section line they hold
  // is not repeated either.
  let tasksLower = '';
  // What a section already shows is not repeated as a key fact, nor the other way round.
  const shown = new Set<string>();
  // The goal as shown: a line the goal holds is not repeated — but only what the block shows of
  // the goal counts, or a constraint stated after the cut would vanish with the cut.
  const add = (id: SectionId, line: string, cap: number): boolean => {
    const clean = dropLoneSurrogates(line);
    // The line's own words: without its bullet and a short label ("Latest request:", "Open:"), so
    // one request is not repeated as the latest request, an open task and a request.
    // Both with and without it: the "label" may be the speaker's own words ("Keep in mind: …"),
    // which a key fact then repeats whole.
    const whole = line.replace(/^- /, '');
    const bare = bareOf(line);
    const key = dedupeKey(bare);
    // (The State section says what each line says about the work even when "Left off" shows the
    // same command: it is the list of what was changed.)
    if (id !== 'goal' && id !== 'leftOff' && id !== 'state' && (shown.has(key) || (goalText !== '' && goalText.includes(bare)))) return true;
    // Nor what the latest request or "Left off" already says ("Done: the fence line is in [[…]]. Do
    // you want …?").
    if (id !== 'request' && id !== 'leftOff' && id !== 'nextStep' && id !== 'state' && tasksLower !== '' && bare.length >= 20 && tasksLower.includes(bare.toLowerCase())) return true;
    // A line the user rewrote is what they asked to send: only the whole budget bounds it.
    if (editedTexts.has(bare)) cap = Math.max(cap, target);
    const list = built.lines.get(id);
    const heading = !list && needsHeading(id) ? cost(HEADINGS[id]) + 1 : 0;
    const c = cost(clean) + 1 + heading;
    if (built.used + c > cap) return false;
    built.used += c;
    shown.add(key);
    if (bare !== whole) shown.add(dedupeKey(whole));
    if (list) list.push(clean);
    else built.lines.set(id, [clean]);
    return true;
  };
  // A conversation with no tool work (no files, no errors) is talk: its cue-phrase sections (done,
  // decisions, open tasks) are mostly misfires there, and the ranked facts get their room first.
  // (In work the rules take their share at once, and no more until the facts have had theirs.)
  const firstShare = (id: SectionId): number => (!work && PROSE.has(id) ? 0 : work && id === 'constraints' ? RULES_SHARE : (FIRST_SHARE[id] ?? 1));
  const share = (id: SectionId): number => built.used + Math.floor(target * firstShare(id));
  const sectionCaps = new Map<SectionId, number>();

  // The task lines: whole sentences only, the trailing ones dropped to fit the line's share (a
  // goal cut mid-sentence reads as a fragment); the first sentence may take up to twice the share.
  const work = record.filesRead.length + record.filesModified.length + record.errors.length > 0;
  const taskLine = (id: SectionId, line: SourcedLine | null | undefined, label: string): string => {
    if (!line) return '';
    // In talk the facts carry the conversation: the task lines get less room than in work. A line
    // the user rewrote gets the whole budget.
    const room = target * (FIRST_SHARE[id] ?? 0.1);
    const limit = line.edited ? target : Math.floor(room * (work ? 1 : TALK_TASK_SHARE));
    // A short goal shows even in a small block (one that replaced only a few messages): up to
    // GOAL_FLOOR tokens, or half the block.
    const floor = id === 'goal' ? Math.min(GOAL_FLOOR, Math.floor(target / 2)) : 0;
    const firstLimit = line.edited ? target : Math.max(floor, 2 * Math.floor(room * (work ? 1 : TALK_FIRST_SHARE)));
    const fitting = (sentences: readonly string[]): string => {
      let text = '';
      for (const sentence of sentences) {
        const next = text ? `${text} ${sentence}` : sentence;
        if (cost(`${label} ${next}`) + 1 > (text ? limit : firstLimit)) break;
        text = next;
      }
      return text;
    };
    const sentences = splitSentences(squash(line.text));
    let text = fitting(sentences);
    // A line that opens with context ("Keep in mind: … Can you summarise …?") and has room for
    // the context only starts at the request instead, when the request says what it is about on
    // its own ("What should I do first?" does not: the context before it is the goal then).
    // A line that already opens with a question or request keeps its opening.
    const first = sentences[0] ?? '';
    const ask = isRequestText(first) || /\?["'”’)\]*_`]*$/u.test(first) ? -1 : sentences.findIndex(isRequestText);
    if (ask > 0 && !text.includes(sentences[ask] as string) && contentWords(sentences[ask] as string).length >= 3) text = fitting(sentences.slice(ask)) || text;
    return text && add(id, `${label} ${text}`, target) ? text : '';
  };
  // A Goal only when there is one: two people catching up have none; in a chat with an assistant
  // that ran over several threads, the goal is the current one (the latest request), the others
  // are the threads the key facts are laid out by.
  // (A small block has no room for heads: its few facts go by rank, as one list.)
  const threads = target >= THREADS_MIN_ROOM ? (record.threads ?? []) : [];
  const manyThreads = threads.length >= 2;
  const layout = new FactLayout({ threads, kind: record.kind, roleOf, ...(speakers ? { speakers } : {}) });
  // (With a few threads the first request is still the aim, and the latest one is shown beside it.)
  const staleGoal = record.kind === 'assist' && threads.length >= STALE_GOAL_THREADS;
  const goalLine = record.kind === 'talk' ? null : staleGoal ? (record.request ?? record.goal) : record.goal;
  const people = speakersLine(speakers);
  if (people) add('people', people, target);
  goalText = taskLine('goal', goalLine, 'Goal:');
  // The latest request: first in a conversation doing work (it is the task at hand); in talk, where
  // the kept messages carry the current topic, only with the room the key facts leave.
  const requestText = work || (record.kind === 'assist' && manyThreads && !staleGoal) ? taskLine('request', record.request, 'Latest request:') : '';
  // A key fact the task lines hold is not repeated.
  const goalLower = `${goalText}\n${requestText}`.toLowerCase();
  // Nor one the "Left off" line holds, or that holds it.
  // (A step taken without words: "Left off:" stands over its command alone.)
  const commandOnly = record.leftOff?.command !== undefined && record.leftOff.text === record.leftOff.command;
  // (Between two people, who said it: "Left off, John: …"; either could have.)
  const leftOffRole = record.leftOff ? roleOf(record.leftOff.sources[0] ?? '') : undefined;
  const leftOffWho = speakers && (leftOffRole === 'user' || leftOffRole === 'assistant') ? speakers[leftOffRole] : undefined;
  const leftOffText = commandOnly ? (add('leftOff', leftOffLabel(), target) ? record.leftOff?.text.toLowerCase() ?? '' : '') : taskLine('leftOff', record.leftOff, leftOffLabel(leftOffWho)).toLowerCase();
  tasksLower = `${requestText}\n${leftOffText}`.toLowerCase();
  if (leftOffText) {
    shown.add(dedupeKey(leftOffText));
    // The command it ran then, verbatim, as a list item under the line (what "Let me run the
    // tests:" announced).
    const command = record.leftOff?.command;
    // (Not one ending in a colon or with unbalanced markup. A pipeline is shown: its " | " may read
    // as an item separator to a scorer, but a continuation needs the command the work stood at, and
    // without it a "Let me …:" line is not shown either, so "Left off" went missing.)
    // (With its outcome in one line, when the state read one: what the last step showed.)
    const ran = command !== undefined && command !== '' && !isLeadIn(command) && balancedMarkup(command) && (add('leftOff', ranLine(command, record.leftOff?.outcome), target) || add('leftOff', ranLine(command), target));
    // A line that announces the command ("Let me read the method:") is shown with it or not at all.
    if (!ran && (commandOnly || isLeadIn(leftOffText))) {
      // (What add() counted for each line: no heading here.)
      for (const l of built.lines.get('leftOff') ?? []) built.used -= cost(l) + 1;
      built.lines.delete('leftOff');
      shown.delete(dedupeKey(leftOffText));
      tasksLower = requestText.toLowerCase();
    }
  }
  const nextStepText = taskLine('nextStep', record.nextStep, 'Next step:').toLowerCase();

  const listSections: [SectionId, string[]][] = [
    // (In work, the most binding first: the budget may hold fewer; they are shown in their order.
    // With an assistant over many threads, the current thread's rules: LongMemEval recall at
    // 1,000 / 2,000 0.548 / 0.749 → 0.552 / 0.757.)
    ['constraints', (work ? bindingFirst(record.constraints) : staleGoal ? currentRules(record.constraints, threads) : record.constraints).map((l) => `- ${l.text}`)],
    // Where the work stands (state-format.ts), after the rules it must keep to.
    // (What "Left off" shows, not all its record holds: a cause it could not show goes in State.)
    ['state', stateLines(record.state, record.leftOff?.command, leftOffText, record.leftOff?.outcome)],
    // Errors first without how they were resolved: the resolutions are added last, if room is left.
    ['errors', errorLines(record.errors, target >= FRAME_MIN_ROOM)],
    ['open', record.openTasks.map((l) => `- ${l.text}`)],
    ['decisions', record.decisions.map((l) => `- ${l.text}`)],
    // Under the "Done:" heading an item does not say "Done:" again.
    ['done', record.done.map((l) => `- ${shownText('done', l.text)}`)],
    // Each request of the user, marked done when a later "done" line covers it, else open.
    // (When the conversation ran in threads, their heads say this, over the key facts.)
    ['topics', manyThreads ? [] : record.topics.map((l) => `- ${topicStatus(l, record.done)}: ${l.text}`)],
  ];
  // The lines the user rewrote go first, each section's ahead of its other lines: what they asked
  // to send is sent while the whole block has room for it.
  if (editedTexts.size) for (const [id, items] of listSections) for (const item of items) if (editedTexts.has(bareOf(item))) add(id, item, target);
  const taken = new Map<SectionId, number>();
  const fillList = (id: SectionId, items: readonly string[], capFor: () => number): void => {
    let i = taken.get(id) ?? 0;
    const cap = capFor();
    while (i < items.length && add(id, items[i] as string, cap)) i++;
    taken.set(id, i);
  };
  // Files and references are one line each: grow the item count while it fits.
  const inline: [SectionId, string[], (items: string[]) => string][] = [
    // (What the State section lists as changed or scratch is not listed again.)
    ['modified', orderFiles(record.filesModified.filter((f) => !inState(record.state, f.path))), (xs) => fileLine(HEADINGS.modified, xs)],
    // (Nor the notes State lists as read.)
    // (Nor the scripts the agent wrote for itself: the Scratch line names them.)
    ['read', orderFiles(record.filesRead.filter((f) => !record.filesModified.some((m) => m.path === f.path) && !record.state?.notesRead.includes(f.path) && !inScratch(record.state, f.path))), (xs) => fileLine(HEADINGS.read, xs)],
    // A link or URL the goal shows is not listed again (paths are: "README.md" may be part of one).
    ['references', orderRefs(record.references).filter((r) => !(/^(?:!?\[|https?:)/.test(r) && goalText.includes(r))), (xs) => `References: ${xs.join(', ')}`],
  ];
  const fillInline = (id: SectionId, items: string[], format: (xs: string[]) => string, cap: number): void => {
    const current = built.lines.get(id)?.[0];
    const before = current ? cost(current) + 1 : 0;
    let n = taken.get(id) ?? 0;
    let best = current ?? '';
    let bestCost = before;
    // The line with m items, measured, if it fits (else null).
    const tryItems = (m: number): { line: string; c: number } | null => {
      const line = dropLoneSurrogates(format(items.slice(0, m)));
      const c = cost(line) + 1;
      return built.used - before + c > cap ? null : { line, c };
    };
    // The most items that fit. A line with one more item is the same line with ", item" appended,
    // and appending never lowers the estimate (a property the token tests check), so the counts
    // that fit are a prefix.
    const most = largestFitting(n, items.length, tryItems);
    if (most.fit) {
      best = most.fit.line;
      bestCost = most.fit.c;
    }
    n = most.n;
    if (best && best !== current) {
      built.used += bestCost - before;
      built.lines.set(id, [best]);
    }
    taken.set(id, n);
  };

  for (const [id, items] of listSections.slice(0, 3)) {
    sectionCaps.set(id, share(id));
    fillList(id, items, () => sectionCaps.get(id) ?? target);
  }
  for (const [id, items, format] of inline) fillInline(id, items, format, share(id));
  for (const [id, items] of listSections.slice(3)) {
    sectionCaps.set(id, share(id));
    fillList(id, items, () => sectionCaps.get(id) ?? target);
  }

  // Sections past their first share, leaving key facts their reserve: structured facts (errors,
  // files, tasks) are denser than any sentence, but a block of lists alone loses the conversation.
  const sectionsLimit = Math.floor(target * (1 - FACTS_RESERVE));
  for (const [id, items] of listSections) if (STRUCTURED.has(id) && !(work && id === 'constraints')) fillList(id, items, () => Math.max(sectionCaps.get(id) ?? 0, sectionsLimit));
  for (const [id, items, format] of inline) if (STRUCTURED.has(id)) fillInline(id, items, format, sectionsLimit);

  // Key facts take everything left; chosen in ranking order, shown in conversation order.
  // Consecutive facts said by the same side on the same day share one line and one label, so a
  // fact costs little more than its own words; the whole section is measured once chosen and the
  // lowest-ranked facts give way if the labels cost more than estimated.
  const facts: SourcedLine[] = [];
  const pickedFacts = new Set<SourcedLine>();
  const factCost = new Map<SourcedLine, number>();
  // A fact's shown text, worked out once: the fact lines are regrouped on every try below.
  const factTexts = new Map<SourcedLine, string>();
  const textOfFact = (f: SourcedLine): string => {
    let t = factTexts.get(f);
    if (t === undefined) factTexts.set(f, (t = factText(f)));
    return t;
  };
  const costOf = (f: SourcedLine): number => {
    let c = factCost.get(f);
    if (c === undefined) factCost.set(f, (c = cost(textOfFact(f)) + 2));
    return c;
  };
  const factsHeading = cost(HEADINGS.facts) + 1;
  const factsStart = built.used;
  const measure = (ls: readonly string[]): number => (ls.length ? factsHeading + ls.reduce((n, l) => n + cost(l) + 1, 0) : 0);
  let factLines: string[] = [];
  let factsCost = 0;
  // A fact's key and whether the goal holds it, worked out once (the passes below revisit facts).
  const keys = new Map<SourcedLine, string>();
  const keyOf = (f: SourcedLine): string => {
    let k = keys.get(f);
    if (k === undefined) keys.set(f, (k = dedupeKey(f.text)));
    return k;
  };
  /** The goal or the "Left off" line already says it (`lower`: a fact's text, lowercased). */
  // (A fact holding the whole line is that sentence again, unless the line is a mere "Yes.")
  // The errors' resolutions (added after the facts, on lines of their own) are said above too.
  const resolutions = record.errors.map((e) => e.resolution?.toLowerCase() ?? '').filter(Boolean);
  // The cause the State section shows (without the connective a fact may open with).
  const causeLower = record.state?.cause?.text.toLowerCase() ?? '';
  const saidAbove = (lower: string): boolean =>
    goalLower.includes(lower) ||
    (causeLower.length >= 20 && (causeLower.includes(lower.replace(/^(?:so|now|ok(?:ay)?|i see|i found it|perfect|great|good|ah|aha)[,!:]?\s+/, '')) || lower.includes(causeLower))) ||
    resolutions.includes(lower) ||
    (nextStepText !== '' && nextStepText.includes(lower)) || (leftOffText !== '' && (leftOffText.includes(lower) || (leftOffText.length >= 20 && lower.includes(leftOffText))));
  const saidAboveMemo = new Map<SourcedLine, boolean>();
  const saidAboveFact = (f: SourcedLine): boolean => {
    let g = saidAboveMemo.get(f);
    if (g === undefined) saidAboveMemo.set(f, (g = saidAbove(f.text.toLowerCase())));
    return g;
  };
  // A few passes: shared labels make the measured section cheaper than the per-fact estimates, and
  // the room that frees goes to the next facts in rank order.
  // In a later round, what this round removed gets its share of the facts first (in rank order),
  // so the block stays fresh while what earlier blocks showed keeps the rest: without it, carried
  // facts with their seniority would fill a block round after round.
  // An answer's list heads read only under the request they answer: without threads' heads they
  // are names out of context, and a small block has better use for its room.
  // (At most two lists under one thread: thread-format.ts listsEach.)
  const pool = manyThreads ? listsEach(record.facts) : record.facts.filter((f) => !f.listed);
  const freshRoom = record.round > 1 ? Math.floor((target - factsStart) * FRESH_SHARE) : 0;
  const fresh = freshRoom > 0 ? pool.filter((f) => f.round === record.round) : [];
  // A conversation of several threads: each thread's best fact first, so the budget is spread over
  // the threads before any one of them is filled (thread-format.ts); a thread's head costs its line.
  const spread = manyThreads ? layout.spread(pool) : [];
  const headsShown = new Set<string>();
  const headCost = (f: SourcedLine): number => {
    if (!manyThreads) return 0;
    const g = layout.group(f);
    const head = g && !headsShown.has(g) ? layout.head(g) : '';
    return head ? cost(head) + 1 : 0;
  };
  const markHead = (f: SourcedLine): void => {
    if (manyThreads) headsShown.add(layout.group(f));
  };
  for (let pass = 0; pass < 3; pass++) {
    let used = factsStart + factsCost;
    let added = false;
    const order = pass === 0 ? [...fresh, ...spread, ...pool] : pool;
    for (let i = 0; i < order.length; i++) {
      const f = order[i] as SourcedLine;
      if (pickedFacts.has(f)) continue;
      const key = keyOf(f);
      if (shown.has(key) || saidAboveFact(f)) continue;
      const c = costOf(f) + (facts.length ? 0 : factsHeading) + headCost(f);
      if (pass === 0 && fresh.length && f.round === record.round) {
        // The fresh share is room in whole facts: a fact starting inside it is taken whole, even
        // if it runs past it (a token cap would skip a round's long answers for its short remarks,
        // and its share would go unused) — by no more than the share again, so in a small block
        // one new fact does not push out everything carried. In rank order after that, past the
        // share, the new facts wait for the later passes like any other.
        const past = i < fresh.length ? used - factsStart >= freshRoom || used + c - factsStart > 2 * freshRoom : used + c - factsStart > freshRoom;
        if (past) continue;
      }
      if (used + c > target) continue;
      // The spread (each thread's best fact, ahead of rank order) takes a share of the room: the
      // rest goes by rank, so a thread with much worth keeping is not held to one fact.
      if (pass === 0 && i >= fresh.length && i < fresh.length + spread.length && used + c - factsStart > (record.kind === 'talk' ? TALK_SPREAD_SHARE : SPREAD_SHARE) * (target - factsStart)) continue;
      used += c;
      pickedFacts.add(f);
      shown.add(key);
      facts.push(f);
      markHead(f);
      added = true;
    }
    if (!added) break;
    factLines = layout.lines(facts, textOfFact);
    factsCost = measure(factLines);
    while (facts.length && factsStart + factsCost > target) {
      const dropped = facts.pop() as SourcedLine;
      shown.delete(keyOf(dropped));
      factLines = layout.lines(facts, textOfFact);
      factsCost = measure(factLines);
    }
  }
  built.used = factsStart + factsCost;
  if (!work) taskLine('request', record.request, 'Latest request:');
  // Then the sections past their first share, in priority order, with what is left.
  // (Not the task's rules in work: they keep to their share, so a block with little else to carry
  // is not mostly rules.)
  for (const [id, items] of listSections) fillList(id, items, () => (work && id === 'constraints' ? (sectionCaps.get(id) ?? target) : target));
  for (const [id, items, format] of inline) fillInline(id, items, format, target);
  // Then how the errors shown were resolved, and what the left-off command's output showed of the
  // task, while room is left: facts come first.
  built.used = addResolutions(built.lines, record.errors, leftOffText, built.used, target, cost);
  built.used = addCommandOutput(built.lines, outputOf(record.leftOff).filter((l) => l !== record.leftOff?.outcome && `\`${squash(l)}\`` !== record.leftOff?.outcome), built.used, target, cost);

  if (factLines.length) built.lines.set('facts', factLines);

  // Last, the room the per-line estimates left: lines measured one by one cost more than the
  // block measured whole. The next-ranked facts that did not fit — whole, or one clause of five
  // words or more (brackets balanced), longest first — take it while the whole block, measured,
  // stays within the budget less the margin.
  const limit = Math.floor(options.budgetTokens * (1 - margin));
  let slack = limit - cost(assemble(built.lines));
  let tries = 0;
  for (const f of pool) {
    if (slack < FILL_MIN_ROOM || tries >= FILL_TRIES) break;
    if (pickedFacts.has(f) || shown.has(keyOf(f)) || saidAboveFact(f)) continue;
    const parts = [f.text];
    for (const text of parts) {
      const part: SourcedLine = text === f.text ? f : { ...f, text };
      const key = text === f.text ? keyOf(f) : dedupeKey(text);
      if (shown.has(key) || (part !== f && saidAbove(text.toLowerCase()))) continue;
      // A fact costs at least its own text: most are ruled out without measuring the block.
      if (costOf(part) - 2 + (facts.length ? 0 : factsHeading) > slack) continue;
      tries++;
      facts.push(part);
      const lines = layout.lines(facts, textOfFact);
      built.lines.set('facts', lines);
      const c = cost(assemble(built.lines));
      if (c > limit) {
        facts.pop();
        if (factLines.length) built.lines.set('facts', factLines);
        else built.lines.delete('facts');
        continue;
      }
      factLines = lines;
      slack = limit - c;
      shown.add(key);
      pickedFacts.add(f);
      break;
    }
  }

  // The rules taken most binding first are shown in the task's order.
  const rulesShown = built.lines.get('constraints');
  if (work && rulesShown) {
    const order = new Map(record.constraints.map((l, i) => [dropLoneSurrogates(`- ${l.text}`), i]));
    rulesShown.sort((a, b) => (order.get(a) ?? -1) - (order.get(b) ?? -1));
  }
  return trimToFit(built.lines, options.budgetTokens, margin, cost);
}
