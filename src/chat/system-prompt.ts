// What the system prompt of a request is made of, and how the parts that come from notes are
// built. The session owns the current parts (`SystemParts`); these helpers only build them.
import { type NotesBlockKind, fitText } from './restore';
import type { NoteSource } from './vault-access';

export interface SystemParts {
  /** The system prompt from the settings. */
  base: string;
  /** The `<previous_context>` block of the latest compaction ('' before any). */
  previousContext: string;
  /** Notes re-read after the latest compaction. */
  restored: string;
  /** The active note when the user includes it, within its budget. */
  activeNote: string;
  activeNotePath: string | null;
  /** The notes mentioned by the user messages still sent, re-read on every send. */
  mentioned: string;
}

export const EMPTY_PARTS: SystemParts = { base: '', previousContext: '', restored: '', activeNote: '', activeNotePath: null, mentioned: '' };

export const MENTIONED_NOTES: NotesBlockKind = { tag: 'mentioned_notes', intro: 'Notes the user mentioned with [[links]], as they are now:' };

/** The system prompt sent: the parts that are not empty, in a fixed order. */
export function composeSystemPrompt(parts: SystemParts): string {
  return [parts.base, parts.previousContext, parts.restored, parts.activeNote, parts.mentioned].filter((p) => p !== '').join('\n\n');
}

/** The active note as attached, re-read now and cut to `budgetTokens` (a huge note must not
 * overflow the window by itself); '' when it cannot be read. */
export async function activeNoteBlock(notes: NoteSource, path: string, budgetTokens: number, model?: string): Promise<string> {
  const text = await notes.readNote(path);
  if (text === null) return '';
  const body = fitText(text, budgetTokens, model);
  const cut = body.length < text.length ? '\n[… truncated]' : '';
  return `<active_note path="${path.replace(/"/g, '&quot;')}">\n${body}${cut}\n</active_note>`;
}

/** Paths mentioned by the entries whose ids are in `sent`, newest mention first, without the
 * active note (attached on its own) and without repeats. */
export function mentionedPaths(entries: readonly { id: string; mentions?: string[] }[], sent: ReadonlySet<string>, attachedActive: string | null): string[] {
  const paths: string[] = [];
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i];
    if (!entry || !sent.has(entry.id)) continue;
    for (const path of entry.mentions ?? []) if (path !== attachedActive && !paths.includes(path)) paths.push(path);
  }
  return paths;
}
