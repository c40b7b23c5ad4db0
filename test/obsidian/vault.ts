// Obsidian's Vault over the in-memory adapter. The vault indexes every non-hidden path and turns
// the adapter's changes into create/modify/delete/rename events, so writes made through
// `vault.adapter` show up in the vault exactly like writes made through the vault.
import type { DataWriteOptions } from 'obsidian';
import type { AdapterChange, EntryKind, MemoryAdapter } from './adapter';
import { Events, type EventRef } from './events';
import { TAbstractFile, TFile, TFolder } from './files';
import { isHiddenPath, joinPath, normalizePath, parentPath } from './path';

/** Obsidian refuses file and folder names ending in a dot or a space (Windows cannot store them;
 * the app's "File name cannot end with a dot or a space" message, see the help page "Files and
 * folders > File names"). Only the vault's create/rename paths check it, as in Obsidian: the
 * adapter writes what it is given. */
function assertAllowedName(path: string): void {
  const bad = path.split('/').find((segment) => /[. ]$/.test(segment));
  if (bad !== undefined) throw new Error(`File name cannot end with a dot or a space: "${bad}".`);
}

export class Vault extends Events {
  adapter: MemoryAdapter;
  /** Obsidian's config folder; plugins must use this rather than hard-coding `.obsidian`. */
  configDir = '.obsidian';
  private readonly root: TFolder;
  private readonly fileMap = new Map<string, TAbstractFile>();
  /** Set by `shuffleListing`: folder contents and file lists come in an order it picks. */
  private random: (() => number) | null = null;

  constructor(adapter: MemoryAdapter) {
    super();
    this.adapter = adapter;
    this.root = new TFolder(this, '/');
    this.fileMap.set('/', this.root);
    for (const path of adapter.allPaths()) {
      const kind = adapter.kindOf(path);
      if (kind && !isHiddenPath(path)) this.index(path, kind);
    }
    adapter.onChange((change) => this.onAdapterChange(change));
  }

  getName(): string {
    return this.adapter.getName();
  }

  /** Exact, case-sensitive lookup: pass paths through normalizePath first, as in Obsidian. */
  getAbstractFileByPath(path: string): TAbstractFile | null {
    return this.fileMap.get(path) ?? null;
  }

  getFileByPath(path: string): TFile | null {
    const file = this.fileMap.get(path);
    return file instanceof TFile ? file : null;
  }

  getFolderByPath(path: string): TFolder | null {
    const folder = this.fileMap.get(path);
    return folder instanceof TFolder ? folder : null;
  }

  getRoot(): TFolder {
    return this.root;
  }

  /** Throws "File already exists." for a taken path (checked in the same step as the write) and
   * ENOENT when the parent folder is missing. */
  async create(path: string, data: string, options?: DataWriteOptions): Promise<TFile> {
    const target = normalizePath(path);
    assertAllowedName(target);
    // One step, as in Obsidian: two creates racing for a path cannot both succeed.
    await this.adapter.writeNew(target, data, options);
    // Under a parent folder's case twin the disk stores the file in the existing folder.
    const file = this.getFileByPath(this.adapter.resolve(target));
    if (!file) throw new Error(`"${target}" is hidden (dot-path) and not part of the vault index.`);
    return file;
  }

  /** Creates missing parent folders too; throws "Folder already exists." for a taken path, which on
   * a case-folding disk includes a case twin (adapter.exists ignores case there). */
  async createFolder(path: string): Promise<TFolder> {
    const target = normalizePath(path);
    assertAllowedName(target);
    if (await this.adapter.exists(target)) throw new Error('Folder already exists.');
    await this.adapter.mkdir(target);
    const folder = this.getFolderByPath(target);
    if (!folder) throw new Error(`"${target}" is hidden (dot-path) and not part of the vault index.`);
    return folder;
  }

  async read(file: TFile): Promise<string> {
    return this.adapter.read(file.path);
  }

  /** The adapter is memory, so the "cache" is always current. */
  async cachedRead(file: TFile): Promise<string> {
    return this.adapter.read(file.path);
  }

  getResourcePath(file: TFile): string {
    return this.adapter.getResourcePath(file.path);
  }

  async delete(file: TAbstractFile, force?: boolean): Promise<void> {
    void force;
    if (file instanceof TFolder) await this.adapter.rmdir(file.path, true);
    else await this.adapter.remove(file.path);
  }

  async trash(file: TAbstractFile, system: boolean): Promise<void> {
    if (system && (await this.adapter.trashSystem(file.path))) return;
    await this.adapter.trashLocal(file.path);
  }

  /** Fails if the destination exists or its parent folder is missing. */
  async rename(file: TAbstractFile, newPath: string): Promise<void> {
    const target = normalizePath(newPath);
    assertAllowedName(target);
    await this.adapter.rename(file.path, target);
  }

  // Writing through a TFile that was deleted meanwhile is an error here rather than a silent
  // re-creation, so a plugin holding a stale reference finds out in tests.
  async modify(file: TFile, data: string, options?: DataWriteOptions): Promise<void> {
    this.assertLive(file);
    await this.adapter.write(file.path, data, options);
  }

  async append(file: TFile, data: string, options?: DataWriteOptions): Promise<void> {
    this.assertLive(file);
    await this.adapter.append(file.path, data, options);
  }

  /** Atomic read-modify-write; resolves to the text written. */
  async process(file: TFile, fn: (data: string) => string, options?: DataWriteOptions): Promise<string> {
    this.assertLive(file);
    return this.adapter.process(file.path, fn, options);
  }

  async copy<T extends TAbstractFile>(file: T, newPath: string): Promise<T> {
    const target = normalizePath(newPath);
    if (file instanceof TFolder) {
      await this.createFolder(target);
      for (const child of [...file.children]) await this.copy(child, joinPath(target, child.name));
    } else {
      await this.adapter.copy(file.path, target);
    }
    return this.getAbstractFileByPath(target) as T;
  }

  /** Every indexed file and folder, the root included. */
  getAllLoadedFiles(): TAbstractFile[] {
    const all = [...this.fileMap.values()];
    return this.random ? shuffled(all, this.random) : all;
  }

  /**
   * Test support (not Obsidian API): Obsidian promises no order for a folder's `children` or for
   * `getFiles()`, so a test can make it random (a seeded `random` makes a failure repeatable).
   * Every folder's children are shuffled now, a new file goes to a random place among its
   * siblings, and the file lists come shuffled. `null` goes back to insertion order.
   */
  shuffleListing(random: (() => number) | null): void {
    this.random = random;
    if (!random) return;
    for (const file of this.fileMap.values()) {
      if (file instanceof TFolder) file.children.splice(0, file.children.length, ...shuffled(file.children, random));
    }
  }

  getAllFolders(includeRoot = false): TFolder[] {
    return this.getAllLoadedFiles().filter((f): f is TFolder => f instanceof TFolder && (includeRoot || !f.isRoot()));
  }

  getFiles(): TFile[] {
    return this.getAllLoadedFiles().filter((f): f is TFile => f instanceof TFile);
  }

  getMarkdownFiles(): TFile[] {
    return this.getFiles().filter((f) => f.extension === 'md');
  }

  static recurseChildren(root: TFolder, cb: (file: TAbstractFile) => unknown): void {
    cb(root);
    for (const child of root.children) {
      if (child instanceof TFolder) Vault.recurseChildren(child, cb);
      else cb(child);
    }
  }

  override on(name: 'create' | 'modify' | 'delete', callback: (file: TAbstractFile) => unknown, ctx?: unknown): EventRef;
  override on(name: 'rename', callback: (file: TAbstractFile, oldPath: string) => unknown, ctx?: unknown): EventRef;
  override on(name: string, callback: (...data: never[]) => unknown, ctx?: unknown): EventRef;
  override on(name: string, callback: (...data: never[]) => unknown, ctx?: unknown): EventRef {
    return super.on(name, callback, ctx);
  }

  private assertLive(file: TFile): void {
    if (this.fileMap.get(file.path) !== file) {
      throw Object.assign(new Error(`ENOENT: no such file or directory, open '${file.path}'`), { code: 'ENOENT' });
    }
  }

  private index(path: string, kind: EntryKind): TAbstractFile {
    const file = kind === 'folder' ? new TFolder(this, path) : new TFile(this, path, this.statOf(path));
    this.attach(file);
    this.fileMap.set(path, file);
    return file;
  }

  private statOf(path: string): { ctime: number; mtime: number; size: number } {
    return this.adapter.fileStat(path) ?? { ctime: 0, mtime: 0, size: 0 };
  }

  private attach(file: TAbstractFile): void {
    const parent = this.getFolderByPath(parentPath(file.path));
    file.parent = parent;
    if (parent && this.random) parent.children.splice(Math.floor(this.random() * (parent.children.length + 1)), 0, file);
    else parent?.children.push(file);
  }

  private detachFromParent(file: TAbstractFile): void {
    const siblings = file.parent?.children;
    siblings?.splice(siblings.indexOf(file), 1);
    file.parent = null;
  }

  private onAdapterChange(change: AdapterChange): void {
    const existing = this.fileMap.get(change.type === 'rename' ? change.oldPath : change.path);
    switch (change.type) {
      case 'create':
        if (!isHiddenPath(change.path)) this.trigger('create', this.index(change.path, change.kind));
        break;
      case 'modify':
        if (existing instanceof TFile) {
          existing.stat = this.statOf(existing.path);
          this.trigger('modify', existing);
        }
        break;
      case 'delete':
        if (existing) this.forget(existing);
        break;
      case 'rename':
        if (isHiddenPath(change.path)) {
          // Moving into a dot-folder (e.g. .trash) removes the file from the vault's view.
          if (existing) this.forget(existing);
        } else if (!existing) {
          this.trigger('create', this.index(change.path, change.kind));
        } else {
          this.fileMap.delete(change.oldPath);
          this.detachFromParent(existing);
          existing.setPath(change.path);
          this.attach(existing);
          this.fileMap.set(change.path, existing);
          this.trigger('rename', existing, change.oldPath);
        }
        break;
    }
  }

  private forget(file: TAbstractFile): void {
    this.fileMap.delete(file.path);
    this.detachFromParent(file);
    this.trigger('delete', file);
  }
}

/** A copy of `items` in random order (Fisher–Yates). */
function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}
