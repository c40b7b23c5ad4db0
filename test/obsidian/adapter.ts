// The vault's disk: an in-memory file tree behind Obsidian's DataAdapter interface. Errors look like
// the Node fs errors Obsidian's desktop adapter surfaces (`ENOENT: no such file or directory, open
// 'x'`, with a `code`). The Vault is a view over this same tree, like Obsidian's file watcher.
import type { DataWriteOptions, ListedFiles, Stat } from 'obsidian';
import { joinPath, parentPath } from './path';
import { hasCaseInsensitiveDisk } from './platform';

interface FileEntry {
  kind: 'file';
  data: string;
  /** UTF-8 bytes of `data`, kept as it changes (a real disk's stat does not read the file). */
  size: number;
  ctime: number;
  mtime: number;
}
interface FolderEntry {
  kind: 'folder';
  ctime: number;
  mtime: number;
}
type Entry = FileEntry | FolderEntry;
export type EntryKind = Entry['kind'];

/** What the vault hears from the disk, synchronously, after each change. */
export type AdapterChange =
  | { type: 'create' | 'modify' | 'delete'; path: string; kind: EntryKind }
  | { type: 'rename'; path: string; oldPath: string; kind: EntryKind };

/** Operations a test can make fail. `write` covers write, append and process. */
export type FailingOperation = 'read' | 'write' | 'remove' | 'rename' | 'copy' | 'mkdir';

export interface FailureOptions {
  /** Thrown instead of the default `EIO` error. */
  error?: Error;
  /** For writes: store the first half of the new bytes before throwing, as a crash mid-write would. */
  torn?: boolean;
  /** How many matching calls fail (default 1). */
  times?: number;
}

interface PendingFailure {
  operation: FailingOperation;
  path: string;
  error?: Error;
  torn: boolean;
  remaining: number;
}

const ROOT = '/';

function fsError(code: string, description: string, syscall: string, path: string): Error {
  return Object.assign(new Error(`${code}: ${description}, ${syscall} '${path}'`), { code, syscall, path });
}

function byteLength(text: string): number {
  return new TextEncoder().encode(text).length;
}

/** Root is `/`; `''` is accepted for it too, as Obsidian's adapters do. */
function key(path: string): string {
  return path === '' ? ROOT : path;
}

function isInside(path: string, folder: string): boolean {
  return folder === ROOT ? path !== ROOT : path.startsWith(`${folder}/`);
}

export class MemoryAdapter {
  private readonly entries = new Map<string, Entry>();
  private readonly listeners = new Set<(change: AdapterChange) => void>();
  private readonly failures: PendingFailure[] = [];
  /** true/false pins the disk's case rule for a test; null follows the Platform flags (see
   * platform.ts hasCaseInsensitiveDisk), so `setPlatform({ isMacOS: true })` makes it fold case. */
  caseInsensitive: boolean | null = null;

  constructor(private readonly vaultName = 'Test vault') {
    const now = Date.now();
    this.entries.set(ROOT, { kind: 'folder', ctime: now, mtime: now });
  }

  getName(): string {
    return this.vaultName;
  }

  /** Where the disk folds case, a path differing only in case names the same entry unless
   * `sensitive` (obsidian.d.ts `DataAdapter.exists`). */
  async exists(normalizedPath: string, sensitive?: boolean): Promise<boolean> {
    return this.entries.has(sensitive ? key(normalizedPath) : this.resolve(normalizedPath));
  }

  /** Whether this disk folds case now. */
  foldsCase(): boolean {
    return this.caseInsensitive ?? hasCaseInsensitiveDisk();
  }

  /** The path as stored: on a case-folding disk, the existing entry (or existing parent folders)
   * that differ only in case, as the OS resolves them; otherwise the path itself. */
  resolve(normalizedPath: string): string {
    const path = key(normalizedPath);
    if (!this.foldsCase() || this.entries.has(path)) return path;
    const lower = path.toLowerCase();
    for (const existing of this.entries.keys()) if (existing.toLowerCase() === lower) return existing;
    const parent = parentPath(path);
    return parent === ROOT ? path : joinPath(this.resolve(parent), path.slice(path.lastIndexOf('/') + 1));
  }

  async stat(normalizedPath: string): Promise<Stat | null> {
    const entry = this.entries.get(this.resolve(normalizedPath));
    if (!entry) return null;
    return { type: entry.kind, ctime: entry.ctime, mtime: entry.mtime, size: entry.kind === 'file' ? entry.size : 0 };
  }

  async list(normalizedPath: string): Promise<ListedFiles> {
    const folder = this.resolve(normalizedPath);
    const entry = this.entries.get(folder);
    if (!entry) throw fsError('ENOENT', 'no such file or directory', 'scandir', folder);
    if (entry.kind !== 'folder') throw fsError('ENOTDIR', 'not a directory', 'scandir', folder);
    const listed: ListedFiles = { files: [], folders: [] };
    for (const [path, child] of this.entries) {
      if (path === ROOT || parentPath(path) !== folder) continue;
      (child.kind === 'file' ? listed.files : listed.folders).push(path);
    }
    return listed;
  }

  async read(normalizedPath: string): Promise<string> {
    this.takeFailure('read', normalizedPath);
    return this.readNow(normalizedPath);
  }

  async write(normalizedPath: string, data: string, options?: DataWriteOptions): Promise<void> {
    this.writeNow(normalizedPath, data, options, false);
  }

  /** Creates a new file; throws "File already exists." when the path is taken. The check and the
   * write happen with no await in between (like `fs.open` with 'wx'), so two creators racing for
   * one path cannot both succeed. Not part of DataAdapter: the Vault's `create` uses it. */
  async writeNew(normalizedPath: string, data: string, options?: DataWriteOptions): Promise<void> {
    // On a case-folding disk a case twin is "already there" too (the point 1).
    if (this.entries.has(this.resolve(normalizedPath))) throw new Error('File already exists.');
    this.writeNow(normalizedPath, data, options, false);
  }

  /** Creates the file when missing, like `fs.appendFile`. */
  async append(normalizedPath: string, data: string, options?: DataWriteOptions): Promise<void> {
    this.writeNow(normalizedPath, data, options, true);
  }

  /** Read-modify-write with no await in between, so no other write can interleave. */
  async process(normalizedPath: string, fn: (data: string) => string, options?: DataWriteOptions): Promise<string> {
    this.takeFailure('read', normalizedPath);
    const next = fn(this.readNow(normalizedPath));
    this.writeNow(normalizedPath, next, options, false);
    return next;
  }

  getResourcePath(normalizedPath: string): string {
    return `app://memory/${encodeURI(normalizedPath)}`;
  }

  /** Recursive, and a no-op for an existing folder (like `fs.mkdir(…, { recursive: true })`). */
  async mkdir(normalizedPath: string): Promise<void> {
    this.takeFailure('mkdir', normalizedPath);
    this.mkdirNow(this.resolve(normalizedPath));
  }

  /** There is no system trash here: the item is deleted, which is what a successful trash looks like. */
  async trashSystem(normalizedPath: string): Promise<boolean> {
    this.takeFailure('remove', normalizedPath);
    this.removeTree(this.existing(normalizedPath, 'unlink'));
    return true;
  }

  /** Moves into `.trash/` at the vault root, de-duplicating the name. */
  async trashLocal(normalizedPath: string): Promise<void> {
    this.takeFailure('remove', normalizedPath);
    const path = this.existing(normalizedPath, 'rename');
    this.mkdirNow('.trash');
    const name = path.slice(path.lastIndexOf('/') + 1);
    let target = joinPath('.trash', name);
    for (let n = 2; this.entries.has(target); n++) target = joinPath('.trash', `${name} ${n}`);
    this.renameNow(path, target);
  }

  async rmdir(normalizedPath: string, recursive: boolean): Promise<void> {
    this.takeFailure('remove', normalizedPath);
    const path = this.existing(normalizedPath, 'rmdir');
    if (this.entries.get(path)?.kind !== 'folder') throw fsError('ENOTDIR', 'not a directory', 'rmdir', path);
    if (!recursive && this.descendants(path).length > 0) throw fsError('ENOTEMPTY', 'directory not empty', 'rmdir', path);
    this.removeTree(path);
  }

  async remove(normalizedPath: string): Promise<void> {
    this.takeFailure('remove', normalizedPath);
    const path = this.existing(normalizedPath, 'unlink');
    if (this.entries.get(path)?.kind !== 'file') throw fsError('EISDIR', 'illegal operation on a directory', 'unlink', path);
    this.removeTree(path);
  }

  async rename(normalizedPath: string, normalizedNewPath: string): Promise<void> {
    this.takeFailure('rename', normalizedPath);
    const path = this.existing(normalizedPath, 'rename');
    const target = this.resolve(normalizedNewPath);
    // A case-only rename on a case-folding disk resolves to the file itself: keep the new case.
    this.renameNow(path, target === path ? key(normalizedNewPath) : target);
  }

  async copy(normalizedPath: string, normalizedNewPath: string): Promise<void> {
    this.takeFailure('copy', normalizedPath);
    const path = this.existing(normalizedPath, 'copyfile');
    const source = this.entries.get(path);
    if (source?.kind !== 'file') throw fsError('EISDIR', 'illegal operation on a directory', 'copyfile', path);
    const target = this.resolve(normalizedNewPath);
    if (this.entries.has(target)) throw new Error('Destination file already exists!');
    this.requireParentFolder(target, 'copyfile');
    const now = Date.now();
    this.entries.set(target, { kind: 'file', data: source.data, size: source.size, ctime: now, mtime: now });
    this.emit({ type: 'create', path: target, kind: 'file' });
  }

  // ── Synchronous access for the Vault, the MetadataCache and tests (not part of DataAdapter) ──

  /** File content, or null for a missing path or a folder. */
  peek(path: string): string | null {
    const entry = this.entries.get(key(path));
    return entry?.kind === 'file' ? entry.data : null;
  }

  kindOf(path: string): EntryKind | null {
    return this.entries.get(key(path))?.kind ?? null;
  }

  fileStat(path: string): { ctime: number; mtime: number; size: number } | null {
    const entry = this.entries.get(key(path));
    return entry?.kind === 'file' ? { ctime: entry.ctime, mtime: entry.mtime, size: entry.size } : null;
  }

  /** Every path except the root, parents before their children. */
  allPaths(): string[] {
    return [...this.entries.keys()].filter((p) => p !== ROOT).sort((a, b) => a.split('/').length - b.split('/').length);
  }

  /** Every file's content, hidden ones (config dir, trash) included. */
  snapshot(): Record<string, string> {
    const files: Record<string, string> = {};
    for (const [path, entry] of this.entries) if (entry.kind === 'file') files[path] = entry.data;
    return files;
  }

  /** Creates files (and their folders) before anything listens, as a vault already on disk. */
  seed(files: Record<string, string>): void {
    for (const [path, data] of Object.entries(files)) {
      this.mkdirNow(parentPath(path));
      this.writeNow(path, data, undefined, false);
    }
  }

  onChange(listener: (change: AdapterChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Makes the next call(s) of `operation` on exactly `path` throw. */
  failNext(operation: FailingOperation, path: string, options: FailureOptions = {}): void {
    this.failures.push({ operation, path, error: options.error, torn: options.torn ?? false, remaining: options.times ?? 1 });
  }

  // ── Internals ──

  private takeFailure(operation: FailingOperation, path: string): PendingFailure | null {
    const failure = this.failures.find((f) => f.operation === operation && f.path === path);
    if (!failure) return null;
    failure.remaining--;
    if (failure.remaining <= 0) this.failures.splice(this.failures.indexOf(failure), 1);
    if (operation === 'write' && failure.torn) return failure; // the writer stores half, then throws
    throw failure.error ?? fsError('EIO', 'i/o error', operation, path);
  }

  private readNow(normalizedPath: string): string {
    const path = this.resolve(normalizedPath);
    const entry = this.entries.get(path);
    if (!entry) throw fsError('ENOENT', 'no such file or directory', 'open', path);
    if (entry.kind !== 'file') throw fsError('EISDIR', 'illegal operation on a directory', 'read', path);
    return entry.data;
  }

  private writeNow(normalizedPath: string, data: string, options: DataWriteOptions | undefined, append: boolean): void {
    const path = this.resolve(normalizedPath);
    const torn = this.takeFailure('write', path);
    this.requireParentFolder(path, 'open');
    const existing = this.entries.get(path);
    if (existing?.kind === 'folder') throw fsError('EISDIR', 'illegal operation on a directory', 'open', path);
    const written = torn ? data.slice(0, Math.floor(data.length / 2)) : data;
    const now = Date.now();
    if (existing) {
      existing.data = append ? existing.data + written : written;
      existing.size = (append ? existing.size : 0) + byteLength(written);
      // Real disks keep times far finer than a millisecond, so two writes never share one there:
      // here each write moves the time on by at least 1 ms, so a size-and-time check sees every write.
      existing.mtime = options?.mtime ?? Math.max(now, existing.mtime + 1);
      if (options?.ctime !== undefined) existing.ctime = options.ctime;
      this.emit({ type: 'modify', path, kind: 'file' });
    } else {
      this.entries.set(path, { kind: 'file', data: written, size: byteLength(written), ctime: options?.ctime ?? now, mtime: options?.mtime ?? now });
      this.emit({ type: 'create', path, kind: 'file' });
    }
    if (torn) throw torn.error ?? fsError('EIO', 'i/o error', 'write', path);
  }

  private mkdirNow(path: string): void {
    if (path === ROOT) return;
    const entry = this.entries.get(path);
    if (entry?.kind === 'folder') return;
    if (entry) throw fsError('EEXIST', 'file already exists', 'mkdir', path);
    this.mkdirNow(parentPath(path));
    const now = Date.now();
    this.entries.set(path, { kind: 'folder', ctime: now, mtime: now });
    this.emit({ type: 'create', path, kind: 'folder' });
  }

  private renameNow(path: string, target: string): void {
    if (path === target) return;
    if (this.entries.has(target)) throw new Error('Destination file already exists!');
    this.requireParentFolder(target, 'rename');
    if (isInside(target, path)) throw fsError('EINVAL', 'invalid argument', 'rename', path);
    const moved = [path, ...this.descendants(path)];
    const relocated = moved.map((oldPath) => {
      const entry = this.entries.get(oldPath) as Entry;
      this.entries.delete(oldPath);
      return { oldPath, newPath: target + oldPath.slice(path.length), entry };
    });
    for (const { newPath, entry } of relocated) this.entries.set(newPath, entry);
    for (const { oldPath, newPath, entry } of relocated) {
      this.emit({ type: 'rename', path: newPath, oldPath, kind: entry.kind });
    }
  }

  /** Deletes a file or a folder with everything in it, announcing the deepest paths first. */
  private removeTree(path: string): void {
    for (const p of [...this.descendants(path).reverse(), path]) {
      const entry = this.entries.get(p) as Entry;
      this.entries.delete(p);
      this.emit({ type: 'delete', path: p, kind: entry.kind });
    }
  }

  /** Paths under `folder`, parents before children. */
  private descendants(folder: string): string[] {
    return [...this.entries.keys()]
      .filter((p) => isInside(p, folder))
      .sort((a, b) => a.split('/').length - b.split('/').length);
  }

  private existing(normalizedPath: string, syscall: string): string {
    const path = this.resolve(normalizedPath);
    if (!this.entries.has(path)) throw fsError('ENOENT', 'no such file or directory', syscall, path);
    return path;
  }

  private requireParentFolder(path: string, syscall: string): void {
    const parent = this.entries.get(parentPath(path));
    if (!parent) throw fsError('ENOENT', 'no such file or directory', syscall, path);
    if (parent.kind !== 'folder') throw fsError('ENOTDIR', 'not a directory', syscall, path);
  }

  private emit(change: AdapterChange): void {
    for (const listener of [...this.listeners]) listener(change);
  }
}
