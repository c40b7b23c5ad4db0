// The user's say over what a round carries: a line of the record removed, or its text replaced.
// Edits are an overlay kept with the record (`record.edits`), never written into its lines: the
// record keeps what was extracted, so an edit can be undone, a later round chaining from it finds
// the same lines (and keeps the edits on them), and the panel can show what the user changed.
//
// A line is named by its section and the normalised text it was extracted with (the key chaining
// merges lines by), not by where it was rendered: a block's lines move as rounds come and go.
import type { CompactionRecord, SourcedLine } from './record';
import { DEFAULT_MARGIN } from './block-margin';
import type { EditableSection, LineEdit } from './edit-types';
import { renderBlock } from './render';
import { dedupeKey, dropLoneSurrogates } from './text';
import { estimateTokens } from './tokens';

export type { EditableSection, LineEdit } from './edit-types';

export const EDITABLE_SECTIONS: readonly EditableSection[] = ['goal', 'request', 'constraints', 'decisions', 'done', 'openTasks', 'errors', 'facts', 'leftOff', 'nextStep', 'topics'];

/** What holds for one line: removed, rewritten, or (undefined) as extracted. */
export type LineState = { removed: true; /** A copy of a line rewritten in this section. */ editedIn?: EditableSection } | { text: string };

/** A line's identity within its section: its normalised words (what chaining merges lines by),
 * or the text itself when it has no words. */
export function lineKey(text: string): string {
  return dedupeKey(text) || text;
}

/** The lines of one section of a record, as extracted. */
export function sectionLines(record: CompactionRecord, section: EditableSection): readonly SourcedLine[] {
  switch (section) {
    case 'goal':
    case 'request':
    case 'leftOff':
    case 'nextStep': {
      const line = record[section];
      return line ? [line] : [];
    }
    default:
      return record[section];
  }
}

/** The edit holding for each line, by key: the last step naming it. The same sentence may be
 * extracted into two sections (a constraint is also a key fact), and to the user it is one line:
 * removed, it goes from every section; rewritten, it is sent once, in the section it was edited
 * in (its copies elsewhere go, or the render would fill the freed room with the very words the
 * user took out); put back, every copy is back. */
function effective(edits: readonly LineEdit[] | undefined): Map<string, LineEdit> {
  const out = new Map<string, LineEdit>();
  for (const e of edits ?? []) out.set(e.key, e);
  return out;
}

/** What one step makes of a line of `section`: left out, rewritten, or (undefined) as extracted. */
function stateOf(e: LineEdit | undefined, section: EditableSection): LineState | undefined {
  if (!e || (!e.removed && e.text === undefined)) return undefined;
  if (e.removed) return { removed: true };
  if (e.section !== section) return { removed: true, editedIn: e.section };
  return { text: e.text as string };
}

/** What the user's edits make of this line (undefined: as extracted). */
export function lineState(record: CompactionRecord, section: EditableSection, line: SourcedLine): LineState | undefined {
  if (!record.edits?.length) return undefined;
  return stateOf(effective(record.edits).get(lineKey(line.text)), section);
}

/** The text a user's edit may hold: one line (a block line is one bullet), no lone surrogates,
 * spaces squashed. '' when nothing is left. */
export function cleanEditText(text: string): string {
  return dropLoneSurrogates(text).replace(/\s+/g, ' ').trim();
}

/**
 * The record as the user's edits make it: removed lines left out, rewritten lines with their new
 * text. What is rendered into the block, and what a later round chains from for the facts it ranks.
 * The record itself is not changed; without edits it is returned as it is.
 */
export function applyEdits(record: CompactionRecord): CompactionRecord {
  const held = effective(record.edits);
  if (![...held.values()].some((e) => e.removed || e.text !== undefined)) return record;
  const apply = <T extends SourcedLine>(section: EditableSection, lines: readonly T[]): T[] => {
    const out: T[] = [];
    for (const line of lines) {
      const state = stateOf(held.get(lineKey(line.text)), section);
      if (!state) out.push(line);
      else if ('text' in state) out.push({ ...line, text: state.text, edited: true });
    }
    return out;
  };
  const one = <T extends SourcedLine>(section: EditableSection, line: T | null | undefined): T | null => (line ? (apply(section, [line])[0] ?? null) : null);
  return {
    ...record,
    goal: one('goal', record.goal),
    request: one('request', record.request),
    nextStep: one('nextStep', record.nextStep),
    leftOff: one('leftOff', record.leftOff),
    constraints: apply('constraints', record.constraints),
    decisions: apply('decisions', record.decisions),
    done: apply('done', record.done),
    openTasks: apply('openTasks', record.openTasks),
    errors: apply('errors', record.errors),
    facts: apply('facts', record.facts),
    topics: apply('topics', record.topics),
  };
}

/** Whether the user's edits leave this line out: removed, or a copy of a line they edited in
 * another section (a later round does not rank such a fact again). */
export function isRemoved(record: CompactionRecord, section: EditableSection, line: SourcedLine): boolean {
  const state = lineState(record, section, line);
  return state !== undefined && 'removed' in state;
}

/**
 * The edits a new round carries from the previous one: the last step of each line that the new
 * record still holds and that still changes it (a restore needs no step). A removed line stays
 * removed and a rewritten one rewritten, round after round, while it is carried.
 */
export function carryEdits(previous: readonly LineEdit[] | undefined, next: CompactionRecord): LineEdit[] {
  const out: LineEdit[] = [];
  for (const e of effective(previous).values()) {
    if (!e.removed && e.text === undefined) continue;
    // Kept while any section still holds the line: its copies elsewhere go with it.
    if (EDITABLE_SECTIONS.some((section) => sectionLines(next, section).some((l) => lineKey(l.text) === e.key))) out.push(e);
  }
  return out;
}

export interface ReviseOptions {
  model?: string;
  margin?: number;
}

/**
 * The record with `edits` as its edit history, its block rendered again from the edited lines
 * within the budget the round had, and its figures updated. The room a removed line frees goes to
 * what ranked next, as in any render.
 */
export function reviseRecord(record: CompactionRecord, edits: readonly LineEdit[], options: ReviseOptions = {}): CompactionRecord {
  // Records saved before the budget was kept: the budget the block's size implies.
  const budgetTokens = record.blockBudget ?? Math.ceil(record.blockTokens / (1 - (options.margin ?? DEFAULT_MARGIN)));
  const revised: CompactionRecord = { ...record, edits: [...edits] };
  const block = renderBlock(applyEdits(revised), { budgetTokens, model: options.model, margin: options.margin }, (id) => record.factRoles?.[id] || undefined);
  const blockTokens = block ? estimateTokens(block, options.model) : 0;
  return { ...revised, block, blockTokens, tokensAfter: Math.max(0, record.tokensAfter - record.blockTokens + blockTokens) };
}
