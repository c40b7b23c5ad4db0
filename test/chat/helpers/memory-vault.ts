// The vault as the conversation index reads it (list, read, modify, rename and delete events), in memory.
import type { IndexVault } from '../../../src/chat/conversation-index';

/** The vault as the index reads it, in memory; `modify` fires the listeners as the vault's event does. */
export class MemoryVault implements IndexVault {
  readonly files = new Map<string, string>();
  reads = 0;
  private readonly listeners: ((path: string) => void)[] = [];
  private readonly renames: ((path: string, oldPath: string) => void)[] = [];
  private readonly deletes: ((path: string) => void)[] = [];
  read(path: string): Promise<string | null> {
    this.reads++;
    return Promise.resolve(this.files.get(path) ?? null);
  }
  listNotes(folder: string): string[] {
    return [...this.files.keys()].filter((p) => p.startsWith(`${folder}/`) && p.endsWith('.md') && !p.slice(folder.length + 1).includes('/'));
  }
  onModify(listener: (path: string) => void): void {
    this.listeners.push(listener);
  }
  onRename(listener: (path: string, oldPath: string) => void): void {
    this.renames.push(listener);
  }
  onDelete(listener: (path: string) => void): void {
    this.deletes.push(listener);
  }
  /** Moves a note, firing the rename listeners (as the vault does; no modify event). */
  rename(from: string, to: string): void {
    const text = this.files.get(from);
    if (text === undefined) return;
    this.files.delete(from);
    this.files.set(to, text);
    for (const l of this.renames) l(to, from);
  }
  /** Deletes a note, firing the delete listeners. */
  remove(path: string): void {
    if (!this.files.delete(path)) return;
    for (const l of this.deletes) l(path);
  }
  write(path: string, text: string, event = true): void {
    this.files.set(path, text);
    if (event) for (const l of this.listeners) l(path);
  }
}

