// What the conversation store needs of the vault: the port main.ts fills with Obsidian's Vault API
// (src/ui/obsidian-vault.ts) and the tests with the in-memory vault. Types only; no I/O here.

export interface ConversationVault {
  normalizePath(path: string): string;
  /** The file's text, or null when there is none. Reads hidden paths too. */
  read(path: string): Promise<string | null>;
  /** Markdown notes directly inside `folder`. */
  listNotes(folder: string): string[];
  /** Markdown notes anywhere in the vault whose front matter marks them as conversation notes
   * (a `compact-chat` format key and an `id`), as the metadata cache has them. */
  conversationNotes(): string[];
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
  /** Calls `listener` when a file is renamed or moved (by anyone), with its new and old path. */
  onRename(listener: (path: string, oldPath: string) => void): void;
  /** Calls `listener` when a file is deleted or moved to the trash (by anyone). */
  onDelete(listener: (path: string) => void): void;
}

export interface NoteStat {
  size: number;
  mtime: number;
  /** When the file was created, where the vault knows it. */
  ctime?: number;
}
