// The block's list sections (rules, State, errors, open tasks, decisions, done, topics) and inline
// ones (files modified and read, references: one line each), and how they take their room: first up
// to a share each (the cue-phrase ones only when the conversation did tool work), the structured
// ones past it up to a reserve left for the key facts, then — after the facts — all with what is
// left. The lines the user rewrote go first. render.ts calls the fills in that order.
import type { CompactionRecord, FileEntry, SourcedLine, ThreadLine } from './record';
import type { BlockDraft } from './block-draft';
import { HEADINGS, type SectionId, bareOf, fileLine, shownText } from './block-format';
import { topicStatus } from './extract-summary';
import { errorLines } from './error-fate';
import { orderFiles, orderRefs } from './render-extras';
import { inScratch, inState, stateLines } from './state-format';
import { currentRules } from './thread-keeps';
import { dropLoneSurrogates } from './text';

/** Largest share of the budget each section takes before key facts have had theirs. */
export const FIRST_SHARE: Partial<Record<SectionId, number>> = {
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
/** Sections that may grow past their first share before the facts have had theirs: the structured
 * ones (instructions, errors, files), denser than any sentence. Prose sections picked by cue
 * phrases (decisions, done, open tasks) compete with the ranked facts only after them. */
const PROSE: ReadonlySet<SectionId> = new Set<SectionId>(['decisions', 'done', 'open']);
const STRUCTURED: ReadonlySet<SectionId> = new Set<SectionId>(['constraints', 'state', 'errors', 'modified', 'read', 'searched']);
/** Share of the budget the sections leave to key facts when they grow past their first share. */
const FACTS_RESERVE = 0.25;
/** Least room (estimated tokens) in which an error line says where in the project it was raised:
 * below it the errors themselves come first (swe-traj exact at budget 500: 0.908 with frames). */
const FRAME_MIN_ROOM = 600;
/** Most of the budget the task's rules take in a conversation doing work: where the work stands
 * must have room beside them (a template's eleven rules took 40 % of the block). */
const RULES_SHARE = 0.22;

/** The constraints, the most binding first (their score: the rule's strength, extract-rules.ts). */
export const bindingFirst = (lines: readonly SourcedLine[]): SourcedLine[] => lines.map((l, i) => ({ l, i })).sort((a, b) => b.l.score - a.l.score || a.i - b.i).map((x) => x.l);

/** A file name without a folder (`setup.py`; not a module's dotted name, `django.utils.html`). */
const BARE_FILE = /^[^\s/\\:.[\]]+\.[A-Za-z]\w*$/;

/** A conversation with tool work (files, errors); without, it is talk: its cue-phrase sections
 * (done, decisions, open tasks) are mostly misfires there, and the ranked facts get their room first. */
export const doesWork = (record: CompactionRecord): boolean => record.filesRead.length + record.filesModified.length + record.errors.length > 0;

/** What the sections' lines depend on beyond the record. */
export interface SectionsInput {
  work: boolean;
  /** The goal is the current thread's (render-tasks.ts): the rules shown are the current thread's. */
  staleGoal: boolean;
  threads: readonly ThreadLine[];
  manyThreads: boolean;
  /** The "Left off" line as shown, lower case. */
  leftOffText: string;
  /** The goal as shown. */
  goalText: string;
  /** The latest request as shown ('' when none). */
  requestText?: string;
  target: number;
}

type ListSection = [SectionId, string[]];
type InlineSection = [SectionId, string[], (items: string[]) => string];

export interface Sections {
  list: ListSection[];
  inline: InlineSection[];
  /** Each list section's cap in the first fill. */
  caps: Map<SectionId, number>;
}

/** The list sections' lines, in priority order. */
export function listSectionsOf(record: CompactionRecord, input: SectionsInput): ListSection[] {
  const { work, staleGoal, threads, manyThreads, leftOffText, goalText, requestText, target } = input;
  return [
    // (In work, the most binding first: the budget may hold fewer; they are shown in their order.
    // With an assistant over many threads, the current thread's rules: LongMemEval recall at
    // 1,000 / 2,000 0.548 / 0.749 → 0.552 / 0.757.)
    ['constraints', (work ? bindingFirst(record.constraints) : staleGoal ? currentRules(record.constraints, threads) : record.constraints).map((l) => ruleLine(l.text))],
    // Where the work stands (state-format.ts), after the rules it must keep to.
    // (What "Left off" shows, not all its record holds: a cause it could not show goes in State.)
    ['state', stateLines(record.state, record.leftOff?.command, leftOffText, record.leftOff?.outcome, { goal: goalText, latest: requestText ?? '' })],
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
}

/** The inline sections: files and references, one line each, grown item by item while it fits. */
export function inlineSectionsOf(record: CompactionRecord, goalText: string): InlineSection[] {
  return [
    // (What the State section lists as changed or scratch is not listed again.)
    ['modified', orderFiles(record.filesModified.filter((f) => !inState(record.state, f.path))), (xs) => fileLine(HEADINGS.modified, xs)],
    // (Nor the notes State lists as read.)
    // (Nor the scripts the agent wrote for itself: the Scratch line names them. Nor a folder listed,
    // "django/": readers took it for a path cut short.)
    // (A file only searched — grep without context — is said apart: it was not read.)
    ['read', orderFiles(listedRead(record).filter((f) => !f.searched)), (xs) => fileLine(HEADINGS.read, xs)],
    ['searched', orderFiles(listedRead(record).filter((f) => f.searched)), (xs) => fileLine(HEADINGS.searched, xs)],
    // A link or URL the goal shows is not listed again (paths are: "README.md" may be part of one).
    // (Nor, in an agent's work on files, a bare file name — "setup.py", "settings.py", "models.py":
    // a name the agent or the task said in passing, no path it can open; the files it read and
    // changed are listed with their paths.)
    ['references', orderRefs(record.references).filter((r) => !(/^(?:!?\[|https?:)/.test(r) && goalText.includes(r)) && !(record.state?.editing === true && BARE_FILE.test(r))), (xs) => `References: ${xs.join(', ')}`],
  ];
}

/** The files read that are listed: not those changed, nor the notes State lists, the scratch
 * scripts, a folder. */
function listedRead(record: CompactionRecord): FileEntry[] {
  return record.filesRead.filter((f) => !f.path.endsWith('/') && !record.filesModified.some((m) => m.path === f.path) && !record.state?.notesRead.includes(f.path) && !inScratch(record.state, f.path));
}

/** The sections of the record, and the lines the user rewrote added first, each section's ahead of
 * its other lines: what they asked to send is sent while the whole block has room for it. */
export function addSections(draft: BlockDraft, record: CompactionRecord, input: SectionsInput): Sections {
  const list = listSectionsOf(record, input);
  if (draft.edited.size) for (const [id, items] of list) for (const item of items) if (draft.edited.has(bareOf(item))) draft.add(id, item, draft.target);
  const sections: Sections = { list, inline: inlineSectionsOf(record, input.goalText), caps: new Map() };
  fillFirstShares(draft, sections, input.work);
  fillStructured(draft, sections, input.work);
  return sections;
}

/** Each section up to its first share of the budget (in work the rules take RULES_SHARE at once,
 * and no more until the facts have had theirs; in talk the prose sections wait for the facts). */
export function fillFirstShares(draft: BlockDraft, sections: Sections, work: boolean): void {
  const { target } = draft;
  const firstShare = (id: SectionId): number => (!work && PROSE.has(id) ? 0 : work && id === 'constraints' ? RULES_SHARE : (FIRST_SHARE[id] ?? 1));
  const share = (id: SectionId): number => draft.used + Math.floor(target * firstShare(id));
  const { list, inline, caps } = sections;
  for (const [id, items] of list.slice(0, 3)) {
    caps.set(id, share(id));
    draft.fillList(id, items, () => caps.get(id) ?? target);
  }
  for (const [id, items, format] of inline) draft.fillInline(id, items, format, share(id));
  for (const [id, items] of list.slice(3)) {
    caps.set(id, share(id));
    draft.fillList(id, items, () => caps.get(id) ?? target);
  }
}

/** The structured sections past their first share, leaving key facts their reserve: structured
 * facts (errors, files, tasks) are denser than any sentence, but a block of lists alone loses the
 * conversation. */
export function fillStructured(draft: BlockDraft, sections: Sections, work: boolean): void {
  const sectionsLimit = Math.floor(draft.target * (1 - FACTS_RESERVE));
  for (const [id, items] of sections.list) if (STRUCTURED.has(id) && !(work && id === 'constraints')) draft.fillList(id, items, () => Math.max(sections.caps.get(id) ?? 0, sectionsLimit));
  for (const [id, items, format] of sections.inline) if (STRUCTURED.has(id)) draft.fillInline(id, items, format, sectionsLimit);
}

/** The sections past their first share, in priority order, with what is left (after the facts).
 * (Not the task's rules in work: they keep to their share, so a block with little else to carry
 * is not mostly rules.) */
export function fillRest(draft: BlockDraft, sections: Sections, work = false): void {
  for (const [id, items] of sections.list) draft.fillList(id, items, () => (work && id === 'constraints' ? (sections.caps.get(id) ?? draft.target) : draft.target));
  for (const [id, items, format] of sections.inline) draft.fillInline(id, items, format, draft.target);
}

/** A rule that announces a command ("You MUST use this EXACT command to submit: `echo … && cat
 * patch.txt`", extract-rules.ts) with the command under it in a code block, as the task wrote it:
 * one line of inline code reads as part of the sentence, and a model copies a fenced command
 * exactly. Any other rule as one list line. */
export function ruleLine(text: string): string {
  const m = /^(.*:)\s`([^`\n]+)`$/u.exec(text);
  return m ? `- ${m[1]}\n  \`\`\`\n  ${m[2]}\n  \`\`\`` : `- ${text}`;
}

/** The rules taken most binding first, shown in the task's order. */
export function rulesInTaskOrder(lines: Map<SectionId, string[]>, constraints: readonly SourcedLine[], work: boolean): void {
  const rulesShown = lines.get('constraints');
  if (work && rulesShown) {
    const order = new Map(constraints.map((l, i) => [dropLoneSurrogates(ruleLine(l.text)), i]));
    rulesShown.sort((a, b) => (order.get(a) ?? -1) - (order.get(b) ?? -1));
  }
}
