// Replacing the conversation a session holds: a new chat (the entries, the rounds, the history
// tool's index and the count cleared) or a saved one loaded (mapped by session-persistence.ts: the
// boundary, the block and restored notes sent, the micro-compacted results; a note that could not
// be read in full loads read-only), the saved form of the one held now, and a loaded
// conversation's messages read for compaction ahead, a chunk per `later` task, until it is
// replaced in turn.
//
// Ownership: this module alone replaces the entries and the rounds as a whole and holds the
// read-only reason; the load counter that stops reading ahead is its own. The session forwards
// `clear`, `load` and `toSaved` here and reads `readOnly`. Plain class, no DOM.
import { prepareMessage } from '../core/compact';
import type { ChatMessage } from '../core/messages';
import type { CompactionControl } from './compaction-control';
import type { SavedItem } from './conversation-format';
import type { Emitter } from './emitter';
import type { EntryLog } from './entry-log';
import { fromSaved, toSaved } from './session-persistence';
import type { SessionEvents } from './session-types';
import type { CompactChatSettings } from './settings';
import type { ToolLoop } from './tool-loop';
import type { TrackerSync } from './tracker-sync';

/** What replacing the conversation needs from the session it serves. */
export interface ConversationSwitchHost {
  readonly events: Emitter<SessionEvents>;
  readonly entries: EntryLog;
  readonly control: CompactionControl;
  readonly tools: ToolLoop;
  readonly count: TrackerSync;
  settings(): CompactChatSettings;
  /** Runs a task soon without holding up the UI (`SessionDeps.later`); none: no reading ahead. */
  readonly later: ((task: () => void) => void) | undefined;
  /** Stops the send in progress. */
  stop(): void;
  meterChanged(): void;
}

/** Messages of a loaded conversation read for compaction per `later` task. */
const PREPARE_CHUNK = 100;

export class ConversationSwitch {
  /** Counts loads and clears, so reading a loaded conversation ahead stops when it is replaced. */
  private loads = 0;
  private readOnlyReason: string | null = null;

  constructor(private readonly host: ConversationSwitchHost) {}

  /** Why the conversation held now is read-only, or null. */
  get readOnly(): string | null {
    return this.readOnlyReason;
  }

  /** Starts over: the conversation, its compactions and the tracker are cleared. */
  clear(): void {
    const host = this.host;
    host.stop();
    this.loads++;
    host.entries.reset();
    host.control.reset();
    host.tools.reset();
    this.readOnlyReason = null;
    host.count.reset();
    host.count.sync(host.settings());
    this.announce();
  }

  /** Replaces the conversation with a saved one, compaction state included (see `ChatSession.load`). */
  load(items: readonly SavedItem[], readOnly: string | null): void {
    const host = this.host;
    this.clear();
    const saved = fromSaved(items);
    host.entries.reset(saved.entries);
    host.control.reset(saved.compactions, saved.cleared);
    this.readOnlyReason = readOnly;
    host.count.sync(host.settings());
    host.count.recount();
    this.announce();
    this.prepareLoaded();
  }

  /** The conversation as saved (see session-persistence.ts). */
  toSaved(): SavedItem[] {
    return toSaved(this.host.entries.all, this.host.control.rounds, this.host.control.cleared);
  }

  /** Tells the view and the panel the conversation was replaced. */
  private announce(): void {
    this.host.entries.announce();
    this.host.events.emit('compactions', this.host.control.rounds);
    this.host.meterChanged();
  }

  /** Reads the loaded messages for compaction a chunk at a time, as new messages are read when
   * they arrive; a later load or clear stops it. */
  private prepareLoaded(): void {
    const later = this.host.later;
    if (!later) return;
    const load = this.loads;
    const messages = this.host.entries.messages().map((e) => e.message);
    let next = 0;
    const step = (): void => {
      if (load !== this.loads) return;
      const end = Math.min(messages.length, next + PREPARE_CHUNK);
      for (; next < end; next++) prepareMessage(messages[next] as ChatMessage);
      if (next < messages.length) later(step);
    };
    if (messages.length) later(step);
  }
}
