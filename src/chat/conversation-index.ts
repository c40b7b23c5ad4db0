// One search over every saved conversation of the conversation folder (core/cross-search.ts ranks):
// what the model's `search_conversations` tool and the history list's content search read. Built
// lazily, on the first search, from the notes (read a few at a time, yielding between them, so the
// chat never waits on a whole folder); then kept current: a save the plugin makes is applied from
// the conversation it saved (only the messages that changed are indexed again: a new message is one
// update), a note changed by anyone else (a hand edit, another device, a rename or delete in the
// file explorer) is read again on the next search — the vault's modify events mark it, and the
// folder's listing is compared with what is held. A new conversation folder starts over.
// Plain class over the chat layer's `ConversationVault`; no DOM, no obsidian.
import { CrossIndex, conversationDate } from '../core/cross-search';
import type { ChatMessage } from '../core/messages';
import { type SavedConversation, parseConversation } from './conversation-format';
import type { ConversationVault } from './conversation-vault';

/** The vault reads the index needs (main.ts gives it the plugin's `ConversationVault`). */
export type IndexVault = Pick<ConversationVault, 'read' | 'listNotes' | 'onModify' | 'onRename' | 'onDelete'>;

export interface IndexOptions {
  /** The conversation folder, normalised as the store has it ('' for the vault's root). */
  folder(): string;
  /** Lets other work run between notes read while building (main.ts: a zero timer). */
  pause?(): Promise<void>;
}

/** One message found, with the conversation it belongs to. */
export interface ConversationHit {
  path: string;
  conversationId: string;
  title: string;
  /** The conversation's date: its first message's time, else when it was created (ms). */
  date: number;
  messageId: string;
  /** 0-based position among the conversation's messages. */
  index: number;
  role: string;
  /** The message's text, verbatim. */
  text: string;
  /** The conversation's score (what ranks it); its messages come best first. */
  score: number;
}

export interface IndexSearchOptions {
  limit: number;
  /** The note of the conversation asking, left out. */
  exclude?: string | null;
  /** Who asks ('user': the history list; 'assistant': the model's tool). */
  asker: 'user' | 'assistant';
  /** When the question is asked (ms), for "two weeks ago". */
  now?: number;
  perConversation?: number;
}

interface Held {
  id: string;
  title: string;
  date: number;
  messageIds: string[];
}

/** Notes read between pauses while building. */
const NOTES_PER_PAUSE = 20;

export class ConversationIndex {
  private index = new CrossIndex<string>();
  private held = new Map<string, Held>();
  /** Notes of the folder that are not conversations (or did not parse): not read again until changed. */
  private skipped = new Set<string>();
  /** Notes changed on disk since they were read. */
  private readonly dirty = new Set<string>();
  /** The folder the index was built for (null: not built yet). */
  private builtFor: string | null = null;
  private refreshing: Promise<void> | null = null;

  constructor(
    private readonly vault: IndexVault,
    private readonly options: IndexOptions,
  ) {
    vault.onModify((path) => {
      if (this.builtFor !== null) this.dirty.add(path);
    });
    // A note renamed onto the path of one deleted before is another note at a path the index
    // holds: both paths are read again (the listing alone would take it for the old one).
    vault.onRename((path, oldPath) => {
      if (this.builtFor === null) return;
      this.dirty.add(path);
      this.dirty.add(oldPath);
    });
    vault.onDelete((path) => {
      if (this.builtFor !== null) this.dirty.add(path);
    });
  }

  /** Whether the folder holds a conversation note other than `except` (cheap: a listing, no read;
   * asked before every request to decide whether the tool is offered). */
  othersExist(except: string | null): boolean {
    return this.vault.listNotes(this.options.folder()).some((path) => path !== except && !this.skipped.has(path));
  }

  /** The plugin saved `conversation` to `path`: applied at once when the index is built (else the
   * first search reads it with the rest). */
  saved(path: string, conversation: SavedConversation): void {
    if (this.builtFor === null || !inFolder(path, this.builtFor)) return;
    this.apply(path, conversation);
  }

  /** The conversations' messages that best match `query`, conversations best first. */
  async search(query: string, options: IndexSearchOptions): Promise<ConversationHit[]> {
    await this.refresh();
    const hits = this.index.search(query, {
      limit: options.limit,
      asker: options.asker,
      ...(options.now ? { now: options.now } : {}),
      ...(options.exclude ? { exclude: options.exclude } : {}),
      ...(options.perConversation ? { perConversation: options.perConversation } : {}),
    });
    return hits.map((h) => {
      const held = this.held.get(h.conversation) as Held;
      return {
        path: h.conversation,
        conversationId: held.id,
        title: held.title,
        date: held.date,
        messageId: held.messageIds[h.index] ?? '',
        index: h.index,
        role: h.role,
        text: h.text,
        score: h.score,
      };
    });
  }

  /** The notes held, and each one's messages as indexed (tests compare with a fresh build). */
  snapshot(): Record<string, { id: string; title: string; messages: { text: string; role: string }[] }> {
    const out: Record<string, { id: string; title: string; messages: { text: string; role: string }[] }> = {};
    for (const [path, held] of this.held) out[path] = { id: held.id, title: held.title, messages: this.index.messagesOf(path) };
    return out;
  }

  /** Brings the index in line with the folder: built on first use (or after the folder setting
   * changed), then the notes that appeared, vanished or changed. One refresh at a time. */
  refresh(): Promise<void> {
    this.refreshing ??= this.doRefresh().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  private async doRefresh(): Promise<void> {
    const folder = this.options.folder();
    if (this.builtFor !== folder) {
      this.index = new CrossIndex<string>();
      this.held = new Map();
      this.skipped = new Set();
      this.dirty.clear();
      this.builtFor = folder;
    }
    const present = new Set(this.vault.listNotes(folder));
    for (const path of [...this.held.keys()]) {
      if (present.has(path)) continue;
      this.index.remove(path);
      this.held.delete(path);
    }
    for (const path of [...this.skipped]) if (!present.has(path)) this.skipped.delete(path);
    const toRead = [...present].filter((path) => this.dirty.has(path) || (!this.held.has(path) && !this.skipped.has(path)));
    for (const path of this.dirty) if (!present.has(path)) this.dirty.delete(path);
    let read = 0;
    for (const path of toRead.sort()) {
      this.dirty.delete(path);
      await this.readNote(path);
      if (++read % NOTES_PER_PAUSE === 0) await this.options.pause?.();
    }
  }

  private async readNote(path: string): Promise<void> {
    const text = await this.vault.read(path);
    const parsed = text === null ? null : parseConversation(text);
    if (!parsed?.ok) {
      this.index.remove(path);
      this.held.delete(path);
      if (text !== null) this.skipped.add(path);
      return;
    }
    this.skipped.delete(path);
    this.apply(path, parsed.conversation);
  }

  private apply(path: string, conversation: SavedConversation): void {
    const messages: ChatMessage[] = [];
    for (const item of conversation.items) if (item.kind === 'message') messages.push(item.message);
    const date = conversationDate(messages) || conversation.created;
    this.held.set(path, { id: conversation.id, title: conversation.title, date, messageIds: messages.map((m) => m.id) });
    this.index.sync(
      path,
      messages.map((m) => ({ text: m.content, role: m.role })),
      date,
    );
  }
}

function inFolder(path: string, folder: string): boolean {
  if (!folder) return !path.includes('/');
  return path.startsWith(`${folder}/`) && !path.slice(folder.length + 1).includes('/');
}
