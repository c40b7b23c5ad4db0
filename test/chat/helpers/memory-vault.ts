// The vault as the conversation index reads it (list, read, modify events), in memory.
import type { IndexVault } from '../../../src/chat/conversation-index';

/** The vault as the index reads it, in memory; `modify` fires the listeners as the vault's event does. */
export class MemoryVault implements IndexVault {
  readonly files = new Map<string, string>();
  reads = 0;
  private readonly listeners: ((path: string) => void)[] = [];
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
  write(path: string, text: string, event = true): void {
    this.files.set(path, text);
    if (event) for (const l of this.listeners) l(path);
  }
}

