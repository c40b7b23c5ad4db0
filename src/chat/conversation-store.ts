// Conversation notes on disk: find, load, save, rename, delete, search. Never writes over a note it
// could not read or one changed behind its back. A conversation is its note: every operation names
// the note by its path, never by the conversation id alone (a sync conflict copy, or a note copied
// by hand, carries the same id as its original and is a conversation of its own). The vault's
// rename and delete events keep what this store knows of a note with the note. Plain class over
// `ConversationVault`, which main.ts implements with the Vault API (src/ui/obsidian-vault.ts) and
// tests with the in-memory vault.
//
// A save writes what changed (note-writer.ts): the common save — a reply arrived, a streaming
// reply grew or finished — appends blocks to the note; each block ends with its own end line, so an
// append cut off by a crash leaves a note that still loads, with the torn tail recovered or
// reported (conversation-blocks.ts). Before appending, the note's size and modification time are
// compared with those after this store's last write (reading the whole note only when they differ),
// so a note changed elsewhere is never appended to.
//
// Any other save rewrites the note: "temporary file, then in-place replace" rather than "temporary
// file, then rename". Obsidian's adapter cannot rename over an existing file, so a rename would need
// a delete first, leaving an instant with no note at all (and it closes open tabs and breaks the
// file's identity for links). Instead a rewrite first writes the complete new text to a hidden
// sibling (`.<name>.md.tmp`, outside the vault index), then replaces the note's text with
// `vault.process` (which also checks, in the same step, that the note is still what we last read or
// wrote), then removes the temporary file. At every instant one complete version is on disk: before
// the replace the note is the old version; if the process dies during the replace, the temporary
// file holds the complete new one, and `load` recovers from it when the note no longer parses.
import { type ParseResult, type SavedConversation, type TornTail, parseConversation, parseConversationHeader } from './conversation-format';
import { type WrittenNote, planNew, planSave, writtenFromLoad } from './note-writer';
import type { ConversationVault, NoteStat } from './conversation-vault';
import { type HistoryItem, markCopies } from './history-items';
import { basename, parentOf, safeFileName, tmpPath } from './note-paths';

/** Obsidian Sync's per-file limit. */
export const SYNC_LIMIT_BYTES = 5 * 1024 * 1024;

export type LoadResult =
  /** `recovered`: from the temporary file of a rewrite that died. `tail`: the note ended in an
   * incomplete block (an append or a reply cut off), recovered into the last message or left out. */
  | { ok: true; conversation: SavedConversation; path: string; recovered: boolean; tail?: TornTail }
  | { ok: false; path: string; error: string; line: number; partial: SavedConversation | null };

export type SaveResult =
  | { kind: 'saved'; path: string }
  | { kind: 'read-only'; path: string }
  /** The note is gone (deleted, or moved where this store did not see it go): nothing was written.
   * Only `restore` writes a conversation's note back. */
  | { kind: 'missing'; path: string }
  /** The note changed on disk since it was read or written here (another device, a hand edit). */
  | { kind: 'conflict'; path: string }
  | { kind: 'error'; path: string; message: string };

export class ConversationStore {
  /** Note path → the note as last read or written here (to detect changes made elsewhere, and to
   * know what a save must add). */
  private readonly notes = new Map<string, NoteState>();
  /** Old path → new path of the notes renamed or moved since this store was made. */
  private readonly movedTo = new Map<string, string>();
  /** Notes that did not parse: never written. */
  private readonly readOnly = new Set<string>();
  private readonly warnedSize = new Set<string>();

  constructor(
    private readonly vault: ConversationVault,
    private readonly options: { folder(): string; warn(message: string): void },
  ) {}

  folder(): string {
    return this.folderPath(this.options.folder());
  }

  /** A conversation folder setting as a vault path ('' for the root; empty means the default). */
  folderPath(setting: string): string {
    const folder = this.vault.normalizePath(setting.trim() || 'Compact Chat');
    return folder === '/' ? '' : folder;
  }

  /** The conversation notes directly in `folder` (a vault path). */
  async notesIn(folder: string): Promise<HistoryItem[]> {
    return (await this.list()).filter((item) => item.folder === folder);
  }

  /** Moves every conversation note directly in folder `from` to folder `to` (vault paths), keeping
   * its file name (" 2" … when taken there). The vault renames them as the user would, updating
   * links to them; its rename events carry the open conversation along. Returns how many moved. */
  async moveFolder(from: string, to: string): Promise<number> {
    const items = await this.notesIn(from);
    if (!items.length || from === to) return 0;
    await this.vault.ensureFolder(to);
    let moved = 0;
    for (const item of items) {
      const name = basename(item.path);
      let target = '';
      for (let n = 1; !target || (await this.vault.read(target)) !== null; n++) target = this.vault.normalizePath(`${to ? `${to}/` : ''}${name}${n > 1 ? ` ${n}` : ''}.md`);
      await this.vault.rename(item.path, target);
      this.moved(item.path, target);
      moved++;
    }
    return moved;
  }

  isReadOnly(path: string): boolean {
    return this.readOnly.has(path);
  }

  /**
   * Every conversation note: those in the conversation folder (any format) and those anywhere else
   * whose front matter marks them as one (moved or filed away by the user). Grouped by folder, the
   * conversation folder first, then the others by name; newest first within a folder. Notes sharing
   * an id are all listed; each but the first created is marked as a copy of it.
   */
  async list(): Promise<HistoryItem[]> {
    const home = this.folder();
    const items: (HistoryItem & { ctime: number })[] = [];
    for (const path of new Set([...this.vault.listNotes(home), ...this.vault.conversationNotes()])) {
      const text = await this.vault.read(path);
      const header = text === null ? null : parseConversationHeader(text);
      if (!header) continue;
      const stat = await this.vault.stat(path);
      items.push({ id: header.id, path, title: header.title || basename(path), updated: header.updated, folder: parentOf(path), ctime: stat?.ctime ?? header.created });
    }
    markCopies(items);
    const rank = (folder: string): string => (folder === home ? '' : `\u0001${folder.toLowerCase()}`);
    return items
      .sort((a, b) => (rank(a.folder) < rank(b.folder) ? -1 : rank(a.folder) > rank(b.folder) ? 1 : b.updated - a.updated || a.path.localeCompare(b.path)))
      .map(({ ctime: _ctime, ...item }) => item);
  }

  /** Conversations whose title or text contains every word of `query` (case-insensitive). */
  async search(query: string): Promise<HistoryItem[]> {
    const items = await this.list();
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    if (!words.length) return items;
    const out: HistoryItem[] = [];
    for (const item of items) {
      const text = `${item.title}\n${(await this.vault.read(item.path)) ?? ''}`.toLowerCase();
      if (words.every((w) => text.includes(w))) out.push(item);
    }
    return out;
  }

  /** The note of conversation `id`: the original when there are copies; null when none. */
  async findById(id: string): Promise<string | null> {
    return (await this.list()).find((item) => item.id === id && !item.copyOf)?.path ?? null;
  }

  /** The conversation id in the note's front matter (null when there is no such note or none). */
  async idAt(path: string): Promise<string | null> {
    const text = await this.vault.read(path);
    return text === null ? null : (parseConversationHeader(text)?.id ?? null);
  }

  /**
   * Loads a note, recovering the newest complete version after a save that died at any step: the
   * temporary file is compared with the note, and it replaces the note when it is a complete,
   * newer save of the same conversation (the save died before or during the replace). It is
   * removed only once read and found to be the note's own text or incomplete (the save died while
   * writing it); anything else (another conversation's, an older one) is left where it is.
   */
  async load(path: string): Promise<LoadResult> {
    const text = await this.vault.read(path);
    if (text === null) return { ok: false, path, error: 'The note does not exist.', line: 0, partial: null };
    const tmp = tmpPath(path);
    const tmpText = await this.vault.read(tmp);
    const parsed: ParseResult = parseConversation(text);
    const fromTmp = tmpText === null ? null : parseConversation(tmpText);
    // A temporary file is written whole before the replace: one with a torn end is a write that died.
    const tmpComplete = fromTmp?.ok === true && !fromTmp.tail;
    if (tmpText !== null && fromTmp?.ok && tmpComplete && tmpText !== text && supersedes(fromTmp.conversation, parsed)) {
      if (await this.vault.replace(path, tmpText, text)) {
        await this.vault.removeHidden(tmp).catch(() => undefined);
        this.readOnly.delete(path);
        await this.remember(path, tmpText, writtenFromLoad(fromTmp.conversation, appendable(fromTmp, tmpText)));
        return { ok: true, conversation: fromTmp.conversation, path, recovered: true };
      }
    }
    if (parsed.ok) {
      // A note that did not parse and was fixed since (by hand) is writable again.
      this.readOnly.delete(path);
      await this.remember(path, text, writtenFromLoad(parsed.conversation, appendable(parsed, text)));
      // Read and judged: the note's own text (the save died after the replace) or a torn write.
      if (tmpText !== null && (tmpText === text || !tmpComplete)) await this.vault.removeHidden(tmp).catch(() => undefined);
      return { ok: true, conversation: parsed.conversation, path, recovered: false, ...(parsed.tail ? { tail: parsed.tail } : {}) };
    }
    this.readOnly.add(path);
    this.notes.set(path, { text, bytes: byteLength(text), stat: await this.vault.stat(path), written: null });
    return { ok: false, path, error: parsed.error, line: parsed.line, partial: parsed.partial };
  }

  /** Saves the conversation to its note `path` (null: a new note in the conversation folder, named
   * after its title): appends what is new when that is all that changed, else rewrites the note. A
   * note that is gone is not created again (`missing`): the user deleted it. */
  async save(conversation: SavedConversation, at: string | null): Promise<SaveResult> {
    let path = at;
    if (path && this.readOnly.has(path)) return { kind: 'read-only', path };
    try {
      const note = path ? this.notes.get(path) : undefined;
      const stat = path ? await this.vault.stat(path) : null;
      if (path !== null && stat === null) return { kind: 'missing', path };
      if (path === null || stat === null) {
        const plan = planNew(conversation);
        this.checkSize(conversation, byteLength(plan.text));
        await this.vault.ensureFolder(this.folder());
        path = await this.remember(await this.createFree(conversation.title, plan.text), plan.text, plan.next);
        return { kind: 'saved', path };
      }
      if (!note?.written || !(await this.unchanged(path, note, stat))) return { kind: 'conflict', path };
      const plan = planSave(note.written, conversation);
      if (plan.kind === 'none') return { kind: 'saved', path };
      if (plan.kind === 'append') {
        this.checkSize(conversation, note.bytes + byteLength(plan.text));
        await this.append(path, note, plan.text, plan.next);
        return { kind: 'saved', path: await this.followed(path) };
      }
      this.checkSize(conversation, byteLength(plan.text));
      const tmp = tmpPath(path);
      await this.vault.writeHidden(tmp, plan.text);
      let replaced: boolean;
      try {
        replaced = await this.vault.replace(path, plan.text, note.text);
      } catch (error) {
        // The note was moved or deleted meanwhile: nothing to recover, the temporary file goes. (A
        // replace that died part-way leaves it: load recovers from it.)
        if ((await this.vault.stat(path).catch(() => null)) === null) await this.vault.removeHidden(tmp).catch(() => undefined);
        throw error;
      }
      if (!replaced) {
        await this.vault.removeHidden(tmp).catch(() => undefined);
        return { kind: 'conflict', path };
      }
      path = await this.remember(path, plan.text, plan.next);
      await this.vault.removeHidden(tmp).catch(() => undefined);
      return { kind: 'saved', path };
    } catch (error) {
      return { kind: 'error', path: path ?? '', message: error instanceof Error ? error.message : String(error) };
    }
  }

  /** Appends to the note. If the append fails part-way, what is on disk is read back: the next save
   * then rewrites it (the torn end goes), or, when it cannot even be read, treats it as changed
   * elsewhere (the conversation goes on in a new note; nothing is written over). */
  private async append(path: string, note: NoteState, text: string, next: WrittenNote): Promise<void> {
    try {
      await this.vault.append(path, text);
    } catch (error) {
      const now = await this.vault.read(path).catch(() => null);
      if (now === null) this.notes.delete(path);
      else this.notes.set(path, { text: now, bytes: byteLength(now), stat: await this.vault.stat(path).catch(() => null), written: { ...note.written!, appendable: false } });
      throw error;
    }
    note.text += text;
    note.bytes += byteLength(text);
    note.written = next;
    const stat = await this.vault.stat(path);
    // Someone else wrote at the same moment: the next save compares the text itself.
    note.stat = stat && stat.size === note.bytes ? stat : null;
  }

  /** Whether the note on disk is still what this store last read or wrote: its size and time
   * when they are known and match, else its text. */
  private async unchanged(path: string, note: NoteState, stat: NoteStat): Promise<boolean> {
    if (note.stat && note.stat.size === stat.size && note.stat.mtime === stat.mtime) return true;
    const text = await this.vault.read(path);
    if (text !== note.text) return false;
    note.stat = stat;
    return true;
  }

  /** Calls `listener` when a note's text changes (any note, any writer: see `changedOnDisk`). */
  onNoteModified(listener: (path: string) => void): void {
    this.vault.onModify(listener);
  }

  /** Whether the note's text differs from what was last read or written here: true for a hand
   * edit or another device's save, false for this store's own saves (the modify events of its
   * `replace` and of a watcher seeing the same write again carry the text it wrote). */
  async changedOnDisk(path: string): Promise<boolean> {
    const note = this.notes.get(path);
    const stat = await this.vault.stat(path);
    if (stat === null) return false;
    if (note?.stat && note.stat.size === stat.size && note.stat.mtime === stat.mtime) return false;
    const text = await this.vault.read(path);
    if (text === null) return false;
    if (note && text === note.text) {
      note.stat = stat;
      return false;
    }
    return true;
  }

  /** Writes a conversation's note back where it was (the user chose to restore a deleted note):
   * the whole note, created at `path` (its folder too) unless something else is there now. */
  async restore(conversation: SavedConversation, path: string): Promise<SaveResult> {
    try {
      if ((await this.vault.stat(path)) !== null) return { kind: 'conflict', path };
      const plan = planNew(conversation);
      const slash = path.lastIndexOf('/');
      await this.vault.ensureFolder(slash > 0 ? path.slice(0, slash) : '');
      await this.vault.create(path, plan.text);
      this.readOnly.delete(path);
      await this.remember(path, plan.text, plan.next);
      return { kind: 'saved', path };
    } catch (error) {
      return { kind: 'error', path, message: error instanceof Error ? error.message : String(error) };
    }
  }

  /** Renames the note at `path` to match a new title, in the folder it is in (the title itself is
   * saved with the conversation). Returns the new path. */
  async renameNote(path: string, title: string): Promise<string> {
    const target = await this.freePath(title, path, parentOf(path));
    if (target === path) return path;
    await this.vault.rename(path, target);
    // The vault's rename event moved what is known of the note; for a vault that sends none, here.
    this.moved(path, target);
    return target;
  }

  async delete(path: string): Promise<void> {
    await this.vault.trash(path);
    this.forget(path);
  }

  /** Calls `listener` when a note is renamed or moved, after this store follows it. */
  onNoteRenamed(listener: (path: string, oldPath: string) => void): void {
    this.vault.onRename((path, oldPath) => {
      this.moved(oldPath, path);
      listener(path, oldPath);
    });
  }

  /** Calls `listener` when a note is deleted, after this store forgets it. */
  onNoteDeleted(listener: (path: string) => void): void {
    this.vault.onDelete((path) => {
      this.forget(path);
      listener(path);
    });
  }

  /** What is known of the note at `from` is now the note at `to`. The same state object, so a save
   * writing to the note while it moves (an append in flight) updates it where it now is. */
  private moved(from: string, to: string): void {
    this.movedTo.set(from, to);
    const note = this.notes.get(from);
    if (!note) return;
    this.notes.delete(from);
    // The time may change with a move: the next save compares the text once.
    note.stat = null;
    this.notes.set(to, note);
    if (this.readOnly.delete(from)) this.readOnly.add(to);
  }

  /** Where the note written at `path` is now: `path`, or where it was moved to meanwhile. */
  private async followed(path: string): Promise<string> {
    let at = path;
    for (let hops = 0; hops < 10 && this.movedTo.has(at) && (await this.vault.stat(at)) === null; hops++) at = this.movedTo.get(at) as string;
    return at;
  }

  private forget(path: string): void {
    this.notes.delete(path);
    this.readOnly.delete(path);
  }

  /** Keeps what was just written at `path` (or where the note moved to meanwhile); returns that path. */
  private async remember(writtenAt: string, text: string, written: WrittenNote): Promise<string> {
    const path = await this.followed(writtenAt);
    this.notes.set(path, { text, bytes: byteLength(text), stat: null, written });
    const stat = await this.vault.stat(path);
    const note = this.notes.get(path);
    // Only when nothing else was written meanwhile (its size is what was written here).
    if (note && stat && stat.size === note.bytes) note.stat = stat;
    return path;
  }

  private checkSize(conversation: SavedConversation, bytes: number): void {
    if (this.warnedSize.has(conversation.id)) return;
    if (bytes <= SYNC_LIMIT_BYTES) return;
    this.warnedSize.add(conversation.id);
    this.options.warn(
      `The conversation "${conversation.title}" is ${(bytes / 1024 / 1024).toFixed(1)} MB: it may not sync on the Standard plan of Obsidian Sync, 5 MB a file. Start a new chat to keep notes small.`,
    );
  }

  /** Creates the note at the first free name. The vault's create refuses a taken path (as
   * Obsidian's does), so a note another writer created meanwhile is never overwritten: the next
   * name is tried instead. */
  private async createFree(title: string, text: string): Promise<string> {
    for (let attempt = 0; ; attempt++) {
      const path = await this.freePath(title);
      try {
        await this.vault.create(path, text);
        return path;
      } catch (error) {
        // Taken since freePath looked: try again; any other failure is the save's error.
        if (attempt >= 20 || (await this.vault.read(path)) === null) throw error;
      }
    }
  }

  /** `<folder>/<title>.md`, with " 2", " 3" … when taken (`own` counts as free); the conversation
   * folder unless another is given. */
  private async freePath(title: string, own?: string, folder = this.folder()): Promise<string> {
    const name = safeFileName(title);
    for (let n = 1; ; n++) {
      const candidate = this.vault.normalizePath(`${folder ? `${folder}/` : ''}${name}${n > 1 ? ` ${n}` : ''}.md`);
      if (candidate === own || (await this.vault.read(candidate)) === null) return candidate;
    }
  }
}

/** The note as last read or written here. */
interface NoteState {
  text: string;
  /** Its size in UTF-8 bytes (kept as appends add to it). */
  bytes: number;
  /** Its size and time on disk right after; null when unknown (the text is compared instead). */
  stat: NoteStat | null;
  /** What the writer knows of its blocks; null for a note that could not be read (never written). */
  written: WrittenNote | null;
}

/** Whether blocks can be appended to the note as it is: format 2, nothing incomplete at its end,
 * ending with a line break, LF line ends only (CR is never written: text holding one is escaped). */
function appendable(parsed: ParseResult, text: string): boolean {
  return parsed.ok && parsed.format >= 2 && !parsed.tail && text.endsWith('\n') && !text.includes('\r');
}

const encoder = new TextEncoder();

function byteLength(text: string): number {
  return encoder.encode(text).length;
}

/** Whether a complete temporary file is a newer save than the note: the same conversation, not
 * older, or any version of it when the note no longer parses (a replace that died half-way; one
 * cut off in the blocks still reads, with the new save's `updated` in its front matter). */
function supersedes(candidate: SavedConversation, note: ParseResult): boolean {
  if (!note.ok) return note.partial === null || note.partial.id === candidate.id;
  return note.conversation.id === candidate.id && candidate.updated >= note.conversation.updated;
}

