// The conversation's entries in order (every message, notice and failed turn; compaction deletes
// none of them) and the `entries` event the views re-render on, with the lookups every part of
// the session needs: the messages, those that are sent when not compacted, an entry by id.
//
// Ownership: the session creates the log; only conversation-switch.ts replaces it (a new chat, a
// load) and only user-turns.ts truncates it (a rewrite); the request loop, the tool loop and the
// user control add to it or change entries through the session's hosts. A change that adds or
// removes entries tells the view (`entries` event) itself, except where the caller has more to do
// first (`reset`, `truncate`: it calls `announce`).
// Plain class, no DOM.
import { newMessageId } from '../core/messages';
import { type ChatEntry, type CompactionState, type MessageEntry, type NoticeEntry, isSendable } from './entries';

export class EntryLog {
  private list: ChatEntry[] = [];

  /** `announced` is called with the list whenever entries were added, removed or replaced. */
  constructor(private readonly announced: (entries: readonly ChatEntry[]) => void) {}

  get all(): readonly ChatEntry[] {
    return this.list;
  }

  /** Tells the view the list changed. */
  announce(): void {
    this.announced(this.list);
  }

  /** Replaces the list (a new chat, a loaded conversation); the caller announces it. */
  reset(entries: ChatEntry[] = []): void {
    this.list = entries;
  }

  /** Every message entry (notices aside). */
  messages(): MessageEntry[] {
    return this.list.filter((e): e is MessageEntry => e.kind === 'message');
  }

  /** Every message entry that is sent when not compacted (failed turns and empty replies aside). */
  sendable(): MessageEntry[] {
    return this.messages().filter(isSendable);
  }

  indexOf(id: string): number {
    return this.list.findIndex((e) => e.id === id);
  }

  get(id: string): ChatEntry | undefined {
    return this.list[this.indexOf(id)];
  }

  at(index: number): ChatEntry | undefined {
    return this.list[index];
  }

  /** Whether the entry is still in the conversation (a "New chat" replaces the list). */
  holds(entry: ChatEntry): boolean {
    return this.list.includes(entry);
  }

  push(entry: ChatEntry): void {
    this.list.push(entry);
    this.announce();
  }

  notice(level: NoticeEntry['level'], text: string, compaction?: CompactionState): void {
    this.push({ kind: 'notice', id: newMessageId(), level, text, ...(compaction ? { compaction } : {}) });
  }

  /** Removes the entry (nothing when it is not in the list). */
  remove(entry: ChatEntry): void {
    const index = this.list.indexOf(entry);
    if (index < 0) return;
    this.list.splice(index, 1);
    this.announce();
  }

  /** Drops entry `index` and everything after it (a rewrite); the caller announces it. */
  truncate(index: number): ChatEntry[] {
    const dropped = this.list.splice(index);
    // The user's own lines from the note are theirs, not the conversation's: they stay (where the
    // rewrite starts), so the next save writes them back.
    const hand = dropped.filter((e) => e.kind === 'notice' && e.hand === true);
    this.list.push(...hand);
    return hand.length ? dropped.filter((e) => !hand.includes(e)) : dropped;
  }

  /** Marks the notice of an undone round as undone (the view strikes it out). */
  markUndone(round: CompactionState): void {
    const index = this.list.findIndex((e) => e.kind === 'notice' && e.compaction === round);
    const notice = this.list[index];
    if (notice?.kind === 'notice') this.list[index] = { ...notice, undone: true };
    this.announce();
  }
}
