// The vault's file objects. As in Obsidian, one object stands for one file for its whole life:
// a rename mutates `path`/`name` in place, so references a plugin holds stay valid.
import type { FileStats } from 'obsidian';
import type { Vault } from './vault';

export abstract class TAbstractFile {
  vault: Vault;
  path = '';
  name = '';
  parent: TFolder | null = null;

  constructor(vault: Vault) {
    this.vault = vault;
  }

  /** Internal: called on creation and on rename. */
  setPath(path: string): void {
    this.path = path;
    this.name = path === '/' ? '' : path.slice(path.lastIndexOf('/') + 1);
  }
}

export class TFile extends TAbstractFile {
  stat: FileStats;
  basename = '';
  extension = '';

  constructor(vault: Vault, path: string, stat: FileStats) {
    super(vault);
    this.stat = stat;
    this.setPath(path);
  }

  override setPath(path: string): void {
    super.setPath(path);
    const dot = this.name.lastIndexOf('.');
    this.extension = dot > 0 ? this.name.slice(dot + 1) : '';
    this.basename = dot > 0 ? this.name.slice(0, dot) : this.name;
  }
}

export class TFolder extends TAbstractFile {
  children: TAbstractFile[] = [];

  constructor(vault: Vault, path: string) {
    super(vault);
    this.setPath(path);
  }

  isRoot(): boolean {
    return this.path === '/';
  }
}
