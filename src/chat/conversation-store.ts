// Conversation notes on disk: find, load, save, rename, delete, search. Never writes over a note it
// could not read or one changed behind its back. Plain class over `ConversationVault`, which main.ts
// implements with the Vault API (src/ui/obsidian-vault.ts) and tests with the in-memory vault.
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
import { dropLoneSurrogates } from '../core/text';

/** Obsidian Sync's per-file limit. */
export const SYNC_LIMIT_BYTES = 5 * 1024 * 1024;

export interface ConversationVault {
  normalizePath(path: string): string;
  /** The file's text, or null when there is none. Reads hidden paths too. */
  read(path: string): Promise<string | null>;
  /** Markdown notes directly inside `folder`. */
  listNotes(folder: string): string[];
  /** Creates the folder (and its parents) when missing. */
  ensureFolder(folder: string): Promise<void>;
  /** Creates a new note; rejects when the path is taken (never overwrites). */
  create(path: string, text: string): Promise<void>;
  /** Replaces the note's text if it still equals `expected` (atomic read-check-write); false when it
   * changed meanwhile. */
  replace(path: string, text: string, expected: string): Promise<boolean>;
  /** Adds `text` at the end of the note (`Vault.append`). */
  append(path: string, text: string): Promise<void>;
  /** The file's size in bytes and modification time, or null when there is none (cheap: no read). */
  stat(path: string): Promise<NoteStat | null>;
  /** Writes / removes a hidden file (not in the vault index). */
  writeHidden(path: string, text: string): Promise<void>;
  removeHidden(path: string): Promise<void>;
  rename(path: string, newPath: string): Promise<void>;
  trash(path: string): Promise<void>;
  /** Calls `listener` with the path of every note whose text changed, whoever wrote it (this
   * plugin's own saves included), until the plugin unloads. */
  onModify(listener: (path: string) => void): void;
}

export interface NoteStat {
  size: number;
  mtime: number;
}

export interface HistoryItem {
  id: string;
  path: string;
  title: string;
  updated: number;
}

export type LoadResult =
  /** `recovered`: from the temporary file of a rewrite that died. `tail`: the note ended in an
   * incomplete block (an append or a reply cut off), recovered into the last message or left out. */
  | { ok: true; conversation: SavedConversation; path: string; recovered: boolean; tail?: TornTail }
  | { ok: false; path: string; error: string; line: number; partial: SavedConversation | null };

export type SaveResult =
  | { kind: 'saved'; path: string }
  | { kind: 'read-only'; path: string }
  /** The note changed on disk since it was read or written here (another device, a hand edit). */
  | { kind: 'conflict'; path: string }
  | { kind: 'error'; path: string; message: string };

export class ConversationStore {
  /** Conversation id → note path, as far as known. */
  private readonly paths = new Map<string, string>();
  /** Note path → the note as last read or written here (to detect changes made elsewhere, and to
   * know what a save must add). */
  private readonly notes = new Map<string, NoteState>();
  /** Notes that did not parse: never written. */
  private readonly readOnly = new Set<string>();
  private readonly warnedSize = new Set<string>();

  constructor(
    private readonly vault: ConversationVault,
    private readonly options: { folder(): string; warn(message: string): void },
  ) {}

  folder(): string {
    const folder = this.vault.normalizePath(this.options.folder().trim() || 'Compact Chat');
    return folder === '/' ? '' : folder;
  }

  pathOf(id: string): string | null {
    return this.paths.get(id) ?? null;
  }

  isReadOnly(path: string): boolean {
    return this.readOnly.has(path);
  }

  /** Every conversation note in the folder, newest first. */
  async list(): Promise<HistoryItem[]> {
    const items: HistoryItem[] = [];
    for (const path of this.vault.listNotes(this.folder())) {
      const text = await this.vault.read(path);
      const header = text === null ? null : parseConversationHeader(text);
      if (!header) continue;
      this.paths.set(header.id, path);
      items.push({ id: header.id, path, title: header.title || basename(path), updated: header.updated });
    }
    return items.sort((a, b) => b.updated - a.updated);
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

  async findById(id: string): Promise<string | null> {
    if (!this.paths.has(id)) await this.list();
    return this.paths.get(id) ?? null;
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
        await this.remember(fromTmp.conversation.id, path, tmpText, writtenFromLoad(fromTmp.conversation, appendable(fromTmp, tmpText)));
        return { ok: true, conversation: fromTmp.conversation, path, recovered: true };
      }
    }
    if (parsed.ok) {
      // A note that did not parse and was fixed since (by hand) is writable again.
      this.readOnly.delete(path);
      await this.remember(parsed.conversation.id, path, text, writtenFromLoad(parsed.conversation, appendable(parsed, text)));
      // Read and judged: the note's own text (the save died after the replace) or a torn write.
      if (tmpText !== null && (tmpText === text || !tmpComplete)) await this.vault.removeHidden(tmp).catch(() => undefined);
      return { ok: true, conversation: parsed.conversation, path, recovered: false, ...(parsed.tail ? { tail: parsed.tail } : {}) };
    }
    this.readOnly.add(path);
    this.notes.set(path, { text, bytes: byteLength(text), stat: await this.vault.stat(path), written: null });
    // Its id now points at the read-only note, so a save of that conversation can never land anywhere.
    if (parsed.partial) this.paths.set(parsed.partial.id, path);
    return { ok: false, path, error: parsed.error, line: parsed.line, partial: parsed.partial };
  }

  /** Saves the conversation to its note (created on first save, named after its title): appends
   * what is new when that is all that changed, else rewrites the note. */
  async save(conversation: SavedConversation): Promise<SaveResult> {
    let path = this.paths.get(conversation.id) ?? null;
    if (path && this.readOnly.has(path)) return { kind: 'read-only', path };
    try {
      const note = path ? this.notes.get(path) : undefined;
      const stat = path ? await this.vault.stat(path) : null;
      if (path === null || stat === null) {
        // New, or its note was deleted / renamed away: create it (again).
        const plan = planNew(conversation);
        this.checkSize(conversation, byteLength(plan.text));
        await this.vault.ensureFolder(this.folder());
        path = await this.createFree(conversation.title, plan.text);
        await this.remember(conversation.id, path, plan.text, plan.next);
        return { kind: 'saved', path };
      }
      if (!note?.written || !(await this.unchanged(path, note, stat))) return { kind: 'conflict', path };
      const plan = planSave(note.written, conversation);
      if (plan.kind === 'none') return { kind: 'saved', path };
      if (plan.kind === 'append') {
        this.checkSize(conversation, note.bytes + byteLength(plan.text));
        await this.append(path, note, plan.text, plan.next);
        return { kind: 'saved', path };
      }
      this.checkSize(conversation, byteLength(plan.text));
      const tmp = tmpPath(path);
      await this.vault.writeHidden(tmp, plan.text);
      if (!(await this.vault.replace(path, plan.text, note.text))) {
        await this.vault.removeHidden(tmp).catch(() => undefined);
        return { kind: 'conflict', path };
      }
      await this.remember(conversation.id, path, plan.text, plan.next);
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

  /** Forgets the id's note (a conflict: the conversation continues in a new note). */
  detach(id: string): void {
    this.paths.delete(id);
  }

  /** Renames the note to match a new title (the title itself is saved with the conversation). */
  async renameNote(id: string, title: string): Promise<string | null> {
    const path = await this.findById(id);
    if (!path) return null;
    const target = await this.freePath(title, path);
    if (target === path) return path;
    await this.vault.rename(path, target);
    const note = this.notes.get(path);
    this.notes.delete(path);
    if (note) this.notes.set(target, { ...note, stat: null });
    if (this.readOnly.delete(path)) this.readOnly.add(target);
    this.paths.set(id, target);
    return target;
  }

  async delete(id: string): Promise<boolean> {
    const path = await this.findById(id);
    if (!path) return false;
    await this.vault.trash(path);
    this.paths.delete(id);
    this.notes.delete(path);
    this.readOnly.delete(path);
    return true;
  }

  private async remember(id: string, path: string, text: string, written: WrittenNote): Promise<void> {
    this.paths.set(id, path);
    this.notes.set(path, { text, bytes: byteLength(text), stat: null, written });
    const stat = await this.vault.stat(path);
    const note = this.notes.get(path);
    // Only when nothing else was written meanwhile (its size is what was written here).
    if (note && stat && stat.size === note.bytes) note.stat = stat;
  }

  private checkSize(conversation: SavedConversation, bytes: number): void {
    if (this.warnedSize.has(conversation.id)) return;
    if (bytes <= SYNC_LIMIT_BYTES) return;
    this.warnedSize.add(conversation.id);
    this.options.warn(
      `The conversation "${conversation.title}" is ${(bytes / 1024 / 1024).toFixed(1)} MB, over Obsidian Sync's 5 MB limit per file: it will not sync. Start a new chat to keep notes small.`,
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

  /** `<folder>/<title>.md`, with " 2", " 3" … when taken (`own` counts as free). */
  private async freePath(title: string, own?: string): Promise<string> {
    const folder = this.folder();
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

/** The hidden sibling a save writes first. */
export function tmpPath(path: string): string {
  const slash = path.lastIndexOf('/');
  return `${path.slice(0, slash + 1)}.${path.slice(slash + 1)}.tmp`;
}

function basename(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1).replace(/\.md$/, '');
}

/** A file name from a title: no characters Obsidian or the file systems refuse, no lone surrogates. */
export function safeFileName(title: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is matched
  const cleaned = dropLoneSurrogates(title.replace(/[\\/:*?"<>|#^[\]\u0000-\u001f\u007f]/g, ' '))
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^\.+/, '');
  const cut = Array.from(cleaned).slice(0, 60).join('').replace(/…$/, '').trim();
  return cut || 'Chat';
}
