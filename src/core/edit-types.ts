// The shapes of the user's line edits, on their own: the record (record.ts) stores them, the block
// format (block-format.ts) names sections by them, and edits.ts applies them by rendering again,
// so keeping them in edits.ts would put those modules in an import cycle.

/** The record's sections whose lines the user may remove or rewrite. */
export type EditableSection = 'goal' | 'request' | 'constraints' | 'decisions' | 'done' | 'openTasks' | 'errors' | 'facts' | 'leftOff' | 'nextStep' | 'topics';

/** One step of the user's edit history of a round; the last step naming a line is what holds. */
export interface LineEdit {
  section: EditableSection;
  /** The line's identity: {@link lineKey} of its text as extracted (edits.ts). */
  key: string;
  /** The message the line came from (first source), for people reading the saved record. */
  source?: string;
  /** The text sent instead; absent with `removed`, and absent in a step that restores the line. */
  text?: string;
  removed?: true;
}
