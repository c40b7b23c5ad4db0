// The user's say over what is carried: pinned messages (always sent word for word) with the
// warning when they alone outgrow the room a compaction leaves, and edits of the latest round's
// carried lines (remove, rewrite, restore, undo), each with the reason it is unavailable now.
//
// Ownership: this module is the only writer of a message entry's `pinned` flag after a load
// (session-persistence.ts sets it from the saved note) and the only caller of the compaction
// control's line edits (`editLine`, `undoEdit`). The session forwards the view's calls here and
// recounts what is sent when a pin changes it. Plain class, no DOM.
import type { EditableSection, LineEdit } from '../core/edits';
import { estimateMessageTokens } from '../core/message-tokens';
import { keptRoom } from '../core/policy';
import type { TokenTracker } from '../core/tracker';
import type { CompactionControl } from './compaction-control';
import type { ContextAssembly } from './context-assembly';
import { type MessageEntry, isSendable } from './entries';
import type { EntryLog } from './entry-log';
import { type CompactChatSettings, modelOf } from './settings';

/** What the user control needs from the session it serves. */
export interface UserControlHost {
  readonly control: CompactionControl;
  readonly context: ContextAssembly;
  settings(): CompactChatSettings;
  tracker(): TokenTracker;
  readonly entries: EntryLog;
  /** Why the conversation is read-only (a note not read in full), or null. */
  readOnly(): string | null;
  busy(): boolean;
  /** A pin changed what is sent: recount, and tell the view about the entry. */
  pinChanged(entry: MessageEntry): void;
  meterChanged(): void;
}

type Outcome = { ok: boolean; message: string };

const WAIT = 'Wait for the reply to finish.';

export class UserControl {
  constructor(private readonly host: UserControlHost) {}

  /** Whether the user pinned this message. */
  isPinned(id: string): boolean {
    const entry = this.host.entries.get(id);
    return entry?.kind === 'message' && entry.pinned === true;
  }

  /** Why the message cannot be pinned or unpinned now, or null when it can. */
  pinBlocker(id: string): string | null {
    const entry = this.host.entries.get(id);
    if (entry?.kind !== 'message' || !isSendable(entry)) return 'Only a message that is sent can be pinned.';
    const readOnly = this.host.readOnly();
    if (readOnly) return readOnly;
    if (this.host.busy()) return WAIT;
    return null;
  }

  /** Why the latest round's lines cannot be edited now, or null. */
  lineEditBlocker(): string | null {
    const readOnly = this.host.readOnly();
    if (readOnly) return readOnly;
    if (this.host.busy()) return WAIT;
    return this.host.control.editBlocker();
  }

  /** Why the last edit of the summary cannot be undone now, or null. */
  lineEditUndoBlocker(): string | null {
    const blocker = this.lineEditBlocker();
    if (blocker) return blocker;
    const rounds = this.host.control.rounds;
    const last = rounds[rounds.length - 1];
    return last?.record.edits?.length ? null : 'No edit of the summary to undo.';
  }

  /** Pins or unpins a message (see `ChatSession.setPinned`); a warning when the pins are too many. */
  setPinned(id: string, pinned: boolean): Outcome {
    const blocker = this.pinBlocker(id);
    if (blocker) return { ok: false, message: blocker };
    const entry = this.host.entries.get(id) as MessageEntry;
    if ((entry.pinned === true) === pinned) return { ok: true, message: '' };
    if (pinned) entry.pinned = true;
    else delete entry.pinned;
    // What is sent changed (a message before the boundary is sent again, or no longer).
    this.host.pinChanged(entry);
    return { ok: true, message: pinned ? this.pinnedWarning() : '' };
  }

  /** Removes (`text` null or blank) or rewrites a carried line of the latest round. */
  editCarriedLine(section: EditableSection, key: string, text: string | null): Outcome {
    return this.edit(section, key, { text });
  }

  /** Puts a removed or rewritten line of the latest round back as it was extracted. */
  restoreCarriedLine(section: EditableSection, key: string): Outcome {
    return this.edit(section, key, { restore: true });
  }

  /** Undoes the last edit of the latest round's lines; the step undone, or null. */
  undoLineEdit(): LineEdit | null {
    if (this.lineEditUndoBlocker() !== null) return null;
    const undone = this.host.control.undoEdit(this.host.settings());
    this.host.meterChanged();
    return undone;
  }

  private edit(section: EditableSection, key: string, change: { text: string | null } | { restore: true }): Outcome {
    const blocker = this.lineEditBlocker();
    if (blocker) return { ok: false, message: blocker };
    const outcome = this.host.control.editLine(this.host.settings(), section, key, change);
    this.host.meterChanged();
    return outcome;
  }

  /** A warning when the pinned messages alone take more than the room a compaction leaves the
   * messages it keeps in this window, else ''. */
  private pinnedWarning(): string {
    const settings = this.host.settings();
    const model = modelOf(settings);
    const tracker = this.host.tracker();
    const pins = this.host.control.keptVerbatim();
    let tokens = 0;
    for (const m of this.host.entries.sendable()) if (pins.has(m.id)) tokens += tracker.messageTokens(m.id) ?? estimateMessageTokens(m.message, model);
    const room = keptRoom(this.host.control.budgets(settings), this.host.context.fixedTokens(model, tracker.breakdown().tools));
    if (tokens <= room) return '';
    return `Pinned messages take about ${tokens.toLocaleString('en-US')} tokens, more than the ${Math.max(0, room).toLocaleString('en-US')} a compaction can leave for the messages it keeps in this window, so the prompt cannot get as small as compaction aims while they are pinned.`;
  }
}
