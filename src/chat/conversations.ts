// The open conversation and its note: saves the session (debounced, and at once when a reply
// ends), opens, renames and deletes saved conversations, and never writes over a note it could not
// read or that changed elsewhere (the conversation then continues in a new note). A hand edit of
// the open conversation's note is loaded into the chat when nothing local would be lost. Plain
// class: main.ts gives it timers and a way to tell the user.
import type { SavedConversation, SavedItem, TornTail } from './conversation-format';
import type { ConversationStore, HistoryItem, LoadResult } from './conversation-store';
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
  /** The open conversation changed (main.ts keeps its id in plugin data to reopen it on startup). */
  openChanged(id: string): void;
}

export interface CurrentConversation {
  id: string;
  title: string;
  created: number;
  /** Its note, once saved or when opened from one. */
  path: string | null;
  /** Why it is read-only (its note could not be read in full), or null. */
  problem: string | null;
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
    // The vault subscription lasts until the plugin unloads (the vault's owner unregisters it).
    deps.store.onNoteModified((path) => this.noteModified(path));
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

  /** Opens a saved conversation by id (false when there is no such note). */
  async open(id: string): Promise<boolean> {
    const path = await this.deps.store.findById(id);
    return path ? this.openPath(path) : false;
  }

  async openPath(path: string): Promise<boolean> {
    await this.flush();
    return this.show(path, await this.deps.store.load(path));
  }

  /** Renames a saved conversation: its title and its note's file name. */
  async rename(id: string, title: string): Promise<void> {
    const clean = title.trim();
    if (!clean) return;
    if (id === this.currentConversation.id) {
      if (this.currentConversation.problem) return;
      this.currentConversation = { ...this.currentConversation, title: clean };
      await this.flush();
    } else {
      const path = await this.deps.store.findById(id);
      if (!path) return;
      const loaded = await this.deps.store.load(path);
      if (!loaded.ok) {
        this.deps.notify(`"${path}" could not be read (line ${loaded.line}: ${loaded.error}); it was not renamed.`);
        return;
      }
      await this.deps.store.save({ ...loaded.conversation, title: clean, updated: this.deps.now() });
    }
    const path = await this.deps.store.renameNote(id, clean);
    if (id === this.currentConversation.id) this.switchTo({ ...this.currentConversation, path });
    this.events.emit('history', undefined);
  }

  /** Moves a conversation's note to the trash; deleting the open one starts a new chat. */
  async delete(id: string): Promise<void> {
    if (id === this.currentConversation.id) {
      this.cancelTimer?.();
      this.cancelTimer = null;
      await this.saving;
      this.deps.session.clear();
      this.switchTo(this.fresh());
    }
    await this.deps.store.delete(id);
    this.events.emit('history', undefined);
  }

  dispose(): void {
    this.disposed = true;
    for (const off of this.unsubscribe) off();
    this.cancelTimer?.();
    this.cancelTimer = null;
  }

  private async saveNow(): Promise<void> {
    const session = this.deps.session;
    const current = this.currentConversation;
    if (current.problem) return;
    const items = session.toSaved();
    if (!items.some((i) => i.kind === 'message')) return;
    const title = current.title || titleFrom(items) || 'Chat';
    const model = this.deps.settings().model.trim();
    if (current.path && this.saved && this.saved.title === title && this.saved.model === model && this.saved.items.matches(items)) return;
    // Taken now: a streaming reply's text grows in place while the note is written.
    const snapshot = this.snapshotOf(items);
    const conversation: SavedConversation = { id: current.id, title, model, created: current.created, updated: this.deps.now(), items };
    const result = await this.deps.store.save(conversation);
    // The user switched conversations while this was written: nothing more to update.
    if (this.currentConversation.id !== current.id) return;
    switch (result.kind) {
      case 'saved': {
        this.saved = { title, model, items: snapshot };
        this.events.emit('saved', { path: result.path, conversation });
        const isNew = this.currentConversation.path !== result.path;
        this.currentConversation = { ...this.currentConversation, title, path: result.path };
        if (isNew) {
          this.events.emit('current', this.currentConversation);
          this.events.emit('history', undefined);
          this.deps.openChanged(current.id);
        }
        break;
      }
      case 'conflict': {
        // Someone else wrote the note (another device, a hand edit): keep theirs, go on in a new note.
        this.fork(current, title, `"${result.path}" was changed elsewhere. It was left as it is; this conversation continues in a new note.`);
        await this.saveNow();
        break;
      }
      case 'read-only':
        break;
      case 'error':
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
    const still = (): boolean => !this.disposed && this.currentConversation.id === current.id && this.currentConversation.path === path;
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
      this.switchTo({ id: c.id, title: c.title, created: c.created, path, problem: null });
      if (result.recovered) this.deps.notify(`Recovered "${c.title}" from its last save, which was interrupted.`);
      if (result.tail) this.deps.notify(tornTailMessage(c.title, result.tail));
      return true;
    }
    if (result.line === 0) return false;
    const problem = `"${path}" could not be read (line ${result.line}: ${result.error}). It is shown read-only and will not be overwritten: fix the note, or start a new chat.`;
    const partial = result.partial;
    this.deps.session.load(partial?.items ?? [], problem);
    this.switchTo({ id: partial?.id ?? this.deps.newId(), title: partial?.title ?? path, created: partial?.created ?? this.deps.now(), path, problem });
    this.deps.notify(problem);
    return true;
  }

  /** Leaves `current`'s note as it is: the conversation goes on under a new id, in a new note
   * that the next save creates. */
  private fork(current: CurrentConversation, title: string, message: string): void {
    this.deps.store.detach(current.id);
    this.switchTo({ id: this.deps.newId(), title: `${title} (continued)`, created: current.created, path: null, problem: null });
    this.deps.notify(message);
  }

  private switchTo(next: CurrentConversation): void {
    if (next.path === null) this.saved = null;
    this.currentConversation = next;
    this.events.emit('current', next);
    this.deps.openChanged(next.id);
  }

  private fresh(): CurrentConversation {
    return { id: this.deps.newId(), title: '', created: this.deps.now(), path: null, problem: null };
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
