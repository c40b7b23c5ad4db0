// The open conversation and its note: saves the session (debounced, and at once when a reply
// ends), opens, renames and deletes saved conversations, and never writes over a note it could not
// read or that changed elsewhere (the conversation then continues in a new note). A hand edit of
// the open conversation's note is loaded into the chat when nothing local would be lost. A
// conversation is its note: everything here names notes by path (two notes may carry one id: a
// sync conflict copy); the note's renames and moves are followed, and a note deleted while open is
// never written again unless the user restores it. Plain class: main.ts gives it timers and a way
// to tell the user.
import type { SavedConversation, SavedItem, TornTail } from './conversation-format';
import type { ConversationStore, LoadResult } from './conversation-store';
import type { HistoryItem } from './history-items';
import { Emitter } from './emitter';
import { ItemSnapshots } from './item-snapshots';
import type { ChatSession } from './session';
import type { CompactChatSettings } from './settings';

export interface ConversationsDeps {
  session: ChatSession;
  store: ConversationStore;
  settings(): CompactChatSettings;
  setTimer(fn: () => void, ms: number): () => void;
  notify(message: string): void;
  now(): number;
  newId(): string;
  /** The open conversation or its note changed (main.ts keeps both in plugin data to reopen it on
   * startup). */
  openChanged(id: string, path: string | null): void;
}

export interface CurrentConversation {
  id: string;
  title: string;
  created: number;
  /** Its note, once saved or when opened from one. */
  path: string | null;
  /** Why it is read-only (its note could not be read in full), or null. */
  problem: string | null;
  /** Its note was deleted while it was open: nothing is saved until the user restores the note
   * (`restoreNote`) or closes the conversation. */
  missing: boolean;
}

export interface ConversationEvents extends Record<string, unknown> {
  current: CurrentConversation;
  /** Saved conversations were added, renamed or deleted. */
  history: undefined;
  /** A conversation was written to its note (the conversation index applies it: conversation-index.ts). */
  saved: { path: string; conversation: SavedConversation };
}

/** Save delay after a change; while a reply streams, saves come at most this often. */
export const SAVE_DELAY_MS = 800;
export const STREAM_SAVE_DELAY_MS = 2000;

export class Conversations {
  readonly events = new Emitter<ConversationEvents>();
  private currentConversation: CurrentConversation;
  private cancelTimer: (() => void) | null = null;
  private saving: Promise<void> = Promise.resolve();
  /** What was last saved or loaded (title, model, the session's items as it gives them), so an
   * unchanged conversation is not saved again, and anything else is local work a reload would
   * lose. Compared item by item (ItemSnapshots): no pass over the whole text on every save. */
  private saved: { title: string; model: string; items: ItemSnapshots } | null = null;
  private disposed = false;
  /** Bumped whenever another conversation is opened (not when the open one's note moves): a save
   * or a read that started before is then out of date. */
  private epoch = 0;
  private readonly unsubscribe: (() => void)[] = [];

  constructor(private readonly deps: ConversationsDeps) {
    this.currentConversation = this.fresh();
    const events = deps.session.events;
    const changed = (): void => this.scheduleSave();
    this.unsubscribe.push(
      events.on('entries', changed),
      events.on('entry', changed),
      events.on('delta', changed),
      events.on('compactions', changed),
      events.on('busy', (busy) => {
        if (!busy) void this.flush();
      }),
    );
    // The vault subscriptions last until the plugin unloads (the vault's owner unregisters them).
    deps.store.onNoteModified((path) => this.noteModified(path));
    deps.store.onNoteRenamed((path, oldPath) => this.noteRenamed(path, oldPath));
    deps.store.onNoteDeleted((path) => this.noteDeleted(path));
  }

  get current(): CurrentConversation {
    return this.currentConversation;
  }

  /** Saved conversations, newest first, optionally those whose title or text has every word of `query`. */
  list(query = ''): Promise<HistoryItem[]> {
    return query.trim() ? this.deps.store.search(query) : this.deps.store.list();
  }

  /** Saves the open conversation soon (debounced; less often while a reply streams). */
  scheduleSave(): void {
    if (this.cancelTimer) return;
    this.cancelTimer = this.deps.setTimer(
      () => {
        this.cancelTimer = null;
        void this.flush();
      },
      this.deps.session.busy ? STREAM_SAVE_DELAY_MS : SAVE_DELAY_MS,
    );
  }

  /** Saves now (after any save in progress). Resolves when written. */
  flush(): Promise<void> {
    this.cancelTimer?.();
    this.cancelTimer = null;
    this.saving = this.saving.then(() => this.saveNow()).catch(() => undefined);
    return this.saving;
  }

  async newChat(): Promise<void> {
    await this.flush();
    this.deps.session.clear();
    this.switchTo(this.fresh());
  }

  /** Starts a new conversation holding `items` (what "Continue in a new chat" carries:
   * continue-chat.ts), titled `title`; saved like any new chat. */
  async startWith(items: SavedItem[], title: string): Promise<void> {
    await this.flush();
    this.deps.session.load(items);
    this.switchTo({ ...this.fresh(), title });
    this.scheduleSave();
  }

  /** Opens the conversation saved in the note at `path` (false when there is no such note). */
  async open(path: string): Promise<boolean> {
    await this.flush();
    return this.show(path, await this.deps.store.load(path));
  }

  /** On startup: the note at `path` when it still holds conversation `id`; else (moved while the
   * app was closed) the note of `id`, the original when there are copies. */
  async reopen(id: string, path: string | null): Promise<boolean> {
    if (path !== null && (await this.deps.store.idAt(path)) === id) return this.open(path);
    const found = await this.deps.store.findById(id);
    return found ? this.open(found) : false;
  }

  /** Renames the conversation saved at `path`: its title and its note's file name (in the folder
   * the note is in). */
  async rename(path: string, title: string): Promise<void> {
    const clean = title.trim();
    if (!clean) return;
    if (path === this.currentConversation.path) {
      if (this.currentConversation.problem || this.currentConversation.missing) return;
      this.currentConversation = { ...this.currentConversation, title: clean };
      await this.flush();
      // The save did not land (a conflict forked the conversation): the note is not renamed.
      if (this.currentConversation.path !== path) return;
    } else {
      const loaded = await this.deps.store.load(path);
      if (!loaded.ok) {
        this.deps.notify(`"${path}" could not be read (line ${loaded.line}: ${loaded.error}); it was not renamed.`);
        return;
      }
      const saved = await this.deps.store.save({ ...loaded.conversation, title: clean, updated: this.deps.now() }, path);
      if (saved.kind !== 'saved') {
        this.deps.notify(`"${path}" could not be renamed: it ${saved.kind === 'missing' ? 'no longer exists' : saved.kind === 'error' ? `could not be saved (${saved.message})` : 'changed meanwhile'}.`);
        return;
      }
    }
    const next = await this.deps.store.renameNote(path, clean);
    // The vault's rename event has moved the open conversation already; this covers a vault without one.
    if (this.currentConversation.path === path) this.moveTo(next);
    this.events.emit('history', undefined);
  }

  /** Moves the note at `path` to the trash; deleting the open conversation's note starts a new chat. */
  async delete(path: string): Promise<void> {
    if (path === this.currentConversation.path) {
      this.cancelTimer?.();
      this.cancelTimer = null;
      await this.saving;
      this.deps.session.clear();
      this.switchTo(this.fresh());
    }
    await this.deps.store.delete(path);
    this.events.emit('history', undefined);
  }

  /** Writes the open conversation's deleted note back where it was (or, when something else is
   * there now, to a new note), and goes on saving to it. */
  async restoreNote(): Promise<void> {
    await this.saving;
    const current = this.currentConversation;
    const epoch = this.epoch;
    if (!current.missing || current.path === null) return;
    const items = this.deps.session.toSaved();
    const snapshot = this.snapshotOf(items);
    const title = current.title || titleFrom(items) || 'Chat';
    const conversation: SavedConversation = { id: current.id, title, model: this.deps.settings().model.trim(), created: current.created, updated: this.deps.now(), items };
    let result = await this.deps.store.restore(conversation, current.path);
    if (result.kind === 'conflict') result = await this.deps.store.save(conversation, null);
    if (this.epoch !== epoch) return;
    if (result.kind !== 'saved') {
      this.deps.notify(`Could not restore "${current.path}": ${result.kind === 'error' ? result.message : 'it could not be written'}.`);
      return;
    }
    this.saved = { title, model: conversation.model, items: snapshot };
    this.currentConversation = { ...this.currentConversation, title, path: result.path, missing: false };
    this.events.emit('current', this.currentConversation);
    this.events.emit('history', undefined);
    this.deps.openChanged(current.id, result.path);
  }

  /** How many conversation notes are in the folder a folder setting names. */
  async countIn(folderSetting: string): Promise<number> {
    return (await this.deps.store.notesIn(this.deps.store.folderPath(folderSetting))).length;
  }

  /** Moves the conversation notes in the folder setting `from` names to the one `to` names (the
   * open conversation follows its note); returns how many moved. */
  async moveFolder(from: string, to: string): Promise<number> {
    await this.flush();
    const moved = await this.deps.store.moveFolder(this.deps.store.folderPath(from), this.deps.store.folderPath(to));
    this.events.emit('history', undefined);
    return moved;
  }

  /** Closes a conversation whose note was deleted, without writing it back: a new chat. */
  close(): void {
    this.cancelTimer?.();
    this.cancelTimer = null;
    this.deps.session.clear();
    this.switchTo(this.fresh());
  }

  dispose(): void {
    this.disposed = true;
    for (const off of this.unsubscribe) off();
    this.cancelTimer?.();
    this.cancelTimer = null;
  }

  private async saveNow(retried = false): Promise<void> {
    const session = this.deps.session;
    const current = this.currentConversation;
    const epoch = this.epoch;
    if (current.problem || current.missing) return;
    const items = session.toSaved();
    if (!items.some((i) => i.kind === 'message')) return;
    const title = current.title || titleFrom(items) || 'Chat';
    const model = this.deps.settings().model.trim();
    if (current.path && this.saved && this.saved.title === title && this.saved.model === model && this.saved.items.matches(items)) return;
    // Taken now: a streaming reply's text grows in place while the note is written.
    const snapshot = this.snapshotOf(items);
    const conversation: SavedConversation = { id: current.id, title, model, created: current.created, updated: this.deps.now(), items };
    const result = await this.deps.store.save(conversation, current.path);
    // The user switched conversations while this was written: nothing more to update.
    if (this.epoch !== epoch) return;
    // The note was moved while it was written (a rename, a move to another folder): save again, to
    // where it is now.
    if (result.kind !== 'saved' && !retried && current.path !== null && this.currentConversation.path !== current.path) return this.saveNow(true);
    switch (result.kind) {
      case 'saved': {
        this.saved = { title, model, items: snapshot };
        this.events.emit('saved', { path: result.path, conversation });
        const created = current.path === null;
        // A saved note keeps the path the vault's rename events gave it.
        this.currentConversation = { ...this.currentConversation, title, ...(created ? { path: result.path } : {}) };
        if (created) {
          this.events.emit('current', this.currentConversation);
          this.events.emit('history', undefined);
          this.deps.openChanged(current.id, result.path);
        }
        break;
      }
      case 'missing':
        this.noteDeleted(result.path);
        break;
      case 'conflict': {
        // Someone else wrote the note (another device, a hand edit): keep theirs, go on in a new note.
        this.fork(current, title, `"${result.path}" was changed elsewhere. It was left as it is; this conversation continues in a new note.`);
        await this.saveNow();
        break;
      }
      case 'read-only':
        break;
      case 'error':
        // Deleted while it was written: the chat already says so (and offers to restore it).
        if (this.currentConversation.missing) break;
        this.deps.notify(`Could not save the conversation to "${result.path}": ${result.message}`);
        break;
    }
  }

  /** The open conversation's note changed on disk. Handled in turn with the saves, so the modify
   * events of this plugin's own saves are looked at once the save is done, and match what it wrote. */
  private noteModified(path: string): void {
    if (this.disposed || path !== this.currentConversation.path) return;
    this.saving = this.saving.then(() => this.takeExternalChange(path)).catch(() => undefined);
  }

  /** Loads a hand edit (or another device's save) of the open note when the chat is idle with
   * everything saved; otherwise leaves the note as it is and goes on in a new note, as a
   * conflicting save would. */
  private async takeExternalChange(path: string): Promise<void> {
    const current = this.currentConversation;
    const epoch = this.epoch;
    const still = (): boolean => !this.disposed && this.epoch === epoch && this.currentConversation.path === path;
    if (!still() || !(await this.deps.store.changedOnDisk(path)) || !still()) return;
    if (!this.hasLocalWork()) {
      const result = await this.deps.store.load(path);
      if (!still()) return;
      // Reading takes a moment: the user may have sent a message meanwhile.
      if (!this.hasLocalWork()) {
        this.show(path, result);
        // The title may have been edited too: an open history list shows it.
        this.events.emit('history', undefined);
        return;
      }
    }
    const title = current.title || titleFrom(this.deps.session.toSaved()) || 'Chat';
    const when = this.deps.session.busy ? 'while a reply was being written' : 'before the chat had saved its latest changes';
    this.fork(current, title, `"${path}" was changed outside the chat ${when}. Your edit was left as it is; this conversation continues in a new note.`);
    this.scheduleSave();
  }

  /** A note was renamed or moved (by anyone): the open conversation follows its note. */
  private noteRenamed(path: string, oldPath: string): void {
    if (this.disposed) return;
    if (oldPath === this.currentConversation.path) this.moveTo(path);
    if (path.endsWith('.md') || oldPath.endsWith('.md')) this.events.emit('history', undefined);
  }

  /** A note was deleted (by anyone): when it is the open conversation's, the chat keeps what it
   * shows but saves nothing until the user restores the note or closes the conversation. */
  private noteDeleted(path: string): void {
    if (this.disposed) return;
    const current = this.currentConversation;
    if (path === current.path && !current.missing) {
      this.cancelTimer?.();
      this.cancelTimer = null;
      this.currentConversation = { ...current, missing: true };
      this.events.emit('current', this.currentConversation);
      this.deps.notify(`The note of this conversation, "${path}", was deleted. Restore it from the chat, or close the conversation.`);
    }
    if (path.endsWith('.md')) this.events.emit('history', undefined);
  }

  /** The open conversation's note is now at `path`. */
  private moveTo(path: string): void {
    if (this.currentConversation.path === path) return;
    this.currentConversation = { ...this.currentConversation, path };
    this.events.emit('current', this.currentConversation);
    this.deps.openChanged(this.currentConversation.id, path);
  }

  /** Whether a reload would lose something: a reply being written or changes not saved yet. A
   * read-only conversation has neither: nothing can be sent or saved in it. */
  private hasLocalWork(): boolean {
    const session = this.deps.session;
    if (session.busy) return true;
    if (this.currentConversation.problem) return false;
    return !this.saved?.items.matches(session.toSaved());
  }

  /** Copies of `items`, reusing those of the last save that did not change. */
  private snapshotOf(items: readonly SavedItem[]): ItemSnapshots {
    const snapshot = this.saved?.items.clone() ?? new ItemSnapshots();
    snapshot.update(items);
    return snapshot;
  }

  /** Shows a loaded note (read-only with the reason when it could not be read in full); false when
   * there is no such note. */
  private show(path: string, result: LoadResult): boolean {
    if (result.ok) {
      const c = result.conversation;
      this.deps.session.load(c.items);
      // As the session gives them back, so the comparisons are like for like.
      this.saved = { title: c.title, model: c.model, items: this.snapshotOf(this.deps.session.toSaved()) };
      this.switchTo({ id: c.id, title: c.title, created: c.created, path, problem: null, missing: false });
      if (result.recovered) this.deps.notify(`Recovered "${c.title}" from its last save, which was interrupted.`);
      if (result.tail) this.deps.notify(tornTailMessage(c.title, result.tail));
      return true;
    }
    if (result.line === 0) return false;
    const problem = `"${path}" could not be read (line ${result.line}: ${result.error}). It is shown read-only and will not be overwritten: fix the note, or start a new chat.`;
    const partial = result.partial;
    this.deps.session.load(partial?.items ?? [], problem);
    this.switchTo({ id: partial?.id ?? this.deps.newId(), title: partial?.title ?? path, created: partial?.created ?? this.deps.now(), path, problem, missing: false });
    this.deps.notify(problem);
    return true;
  }

  /** Leaves `current`'s note as it is: the conversation goes on under a new id, in a new note
   * that the next save creates. */
  private fork(current: CurrentConversation, title: string, message: string): void {
    this.switchTo({ id: this.deps.newId(), title: `${title} (continued)`, created: current.created, path: null, problem: null, missing: false });
    this.deps.notify(message);
  }

  private switchTo(next: CurrentConversation): void {
    if (next.path === null) this.saved = null;
    this.epoch++;
    this.currentConversation = next;
    this.events.emit('current', next);
    this.deps.openChanged(next.id, next.path);
  }

  private fresh(): CurrentConversation {
    return { id: this.deps.newId(), title: '', created: this.deps.now(), path: null, problem: null, missing: false };
  }

}

/** What the user is told about a note whose end was cut off (a save or a reply interrupted by a crash). */
export function tornTailMessage(title: string, tail: TornTail): string {
  if (tail.recovered && tail.dropped === '') return `The last message of "${title}" was cut off (line ${tail.line}); it was recovered as far as it was written.`;
  const first = tail.dropped.split('\n').find((l) => l.trim() !== '') ?? '';
  const chars = Array.from(first);
  const what = `${tail.dropped.length.toLocaleString('en')} characters from line ${tail.line} ("${chars.length > 40 ? `${chars.slice(0, 40).join('')}…` : first}")`;
  return `The end of "${title}" was cut off and could not be read: ${what} ${tail.recovered ? 'after the recovered message ' : ''}will be left out when the conversation is next saved. Copy them from the note first if you need them.`;
}

/** A title from the first user message: its first line, Markdown marks dropped, at most 60 characters. */
export function titleFrom(items: readonly { kind: string; message?: { role: string; content: string } }[]): string {
  const first = items.find((i) => i.kind === 'message' && i.message?.role === 'user')?.message?.content ?? '';
  const line = first
    .split('\n')
    .map((l) => l.replace(/[#>*_`[\]|]/g, ' ').replace(/\s+/g, ' ').trim())
    .find((l) => l !== '');
  if (!line) return '';
  const chars = Array.from(line);
  if (chars.length <= 60) return line;
  const cut = chars.slice(0, 60).join('');
  const space = cut.lastIndexOf(' ');
  return `${(space > 30 ? cut.slice(0, space) : cut).trim()}…`;
}
