// The Vault and its adapter over one in-memory tree: operations, events and errors.
import { describe, expect, it, vi } from 'vitest';
import { MemoryAdapter } from './adapter';
import { TAbstractFile, TFile, TFolder, Vault } from './index';

function makeVault(files: Record<string, string> = {}): Vault {
  const adapter = new MemoryAdapter();
  adapter.seed(files);
  return new Vault(adapter);
}

/**
 * Vault's own delete/trash, called through a structural type: the lint rule rightly sends plugins
 * to FileManager.trashFile, but these tests are about what the Vault itself does.
 */
function removal(vault: Vault): {
  delete(file: TAbstractFile): Promise<void>;
  trash(file: TAbstractFile, system: boolean): Promise<void>;
} {
  return vault;
}

function fileAt(vault: Vault, path: string): TFile {
  const file = vault.getFileByPath(path);
  if (!file) throw new Error(`no file ${path}`);
  return file;
}

function folderAt(vault: Vault, path: string): TFolder {
  const folder = vault.getFolderByPath(path);
  if (!folder) throw new Error(`no folder ${path}`);
  return folder;
}

function events(vault: Vault): string[] {
  const log: string[] = [];
  for (const name of ['create', 'modify', 'delete'] as const) {
    vault.on(name, (file: TAbstractFile) => log.push(`${name} ${file.path}`));
  }
  vault.on('rename', (file: TAbstractFile, oldPath: string) => log.push(`rename ${oldPath} → ${file.path}`));
  return log;
}

describe('the file tree', () => {
  it('indexes seeded files with folders, names and stats', () => {
    const vault = makeVault({ 'notes/Day one.md': 'héllo', 'data.json': '{}' });
    const file = vault.getFileByPath('notes/Day one.md');
    expect(file).toBeInstanceOf(TFile);
    expect(file).toMatchObject({ name: 'Day one.md', basename: 'Day one', extension: 'md', vault });
    expect(file?.stat.size).toBe(6); // bytes, not characters
    expect(file?.stat.mtime).toBeGreaterThan(0);
    const folder = vault.getFolderByPath('notes');
    expect(folder).toBeInstanceOf(TFolder);
    expect(file?.parent).toBe(folder);
    expect(folder?.children).toEqual([file]);
    expect(vault.getRoot().isRoot()).toBe(true);
    expect(vault.getAbstractFileByPath('/')).toBe(vault.getRoot());
    expect(vault.getFileByPath('notes')).toBeNull();
    expect(vault.getMarkdownFiles().map((f) => f.path)).toEqual(['notes/Day one.md']);
    expect(vault.getFiles()).toHaveLength(2);
    expect(vault.getAllLoadedFiles()).toContain(vault.getRoot());
    expect(vault.getAllFolders().map((f) => f.path)).toEqual(['notes']);
    expect(vault.configDir).toBe('.obsidian');
  });

  it('does not index dot-folders such as the config dir', () => {
    const vault = makeVault({ '.obsidian/app.json': '{}', 'a.md': '' });
    expect(vault.getAbstractFileByPath('.obsidian')).toBeNull();
    expect(vault.getAbstractFileByPath('.obsidian/app.json')).toBeNull();
  });

  it('looks paths up exactly, so callers normalise first', () => {
    const vault = makeVault({ 'a.md': '' });
    expect(vault.getAbstractFileByPath('/a.md')).toBeNull();
    expect(vault.getAbstractFileByPath('A.md')).toBeNull();
  });
});

describe('vault operations', () => {
  it('creates, reads, modifies, appends and processes files, with events', async () => {
    const vault = makeVault({ 'notes/x.md': '' });
    const log = events(vault);
    const file = await vault.create('/notes//new.md', 'one');
    expect(file.path).toBe('notes/new.md');
    await vault.modify(file, 'two');
    await vault.append(file, '!');
    const written = await vault.process(file, (data) => data.toUpperCase());
    expect(written).toBe('TWO!');
    expect(await vault.read(file)).toBe('TWO!');
    expect(await vault.cachedRead(file)).toBe('TWO!');
    expect(log).toEqual(['create notes/new.md', 'modify notes/new.md', 'modify notes/new.md', 'modify notes/new.md']);
  });

  it('refuses to create over an existing path or under a missing folder', async () => {
    const vault = makeVault({ 'a.md': 'x' });
    await expect(vault.create('a.md', 'y')).rejects.toThrow('File already exists.');
    await expect(vault.create('missing/b.md', 'y')).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await vault.adapter.read('a.md')).toBe('x');
  });

  it('creates folders with their parents, once', async () => {
    const vault = makeVault();
    const log = events(vault);
    const folder = await vault.createFolder('a/b');
    expect(folder.path).toBe('a/b');
    expect(log).toEqual(['create a', 'create a/b']);
    await expect(vault.createFolder('a/b')).rejects.toThrow('Folder already exists.');
  });

  it('fails to read, or write through, a file that no longer exists', async () => {
    const vault = makeVault({ 'a.md': 'x' });
    const file = fileAt(vault, 'a.md');
    await removal(vault).delete(file);
    await expect(vault.read(file)).rejects.toThrow("ENOENT: no such file or directory, open 'a.md'");
    await expect(vault.modify(file, 'y')).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(vault.adapter.exists('a.md')).resolves.toBe(false);
  });

  it('renames in place, keeping the same object, and moves folders with their content', async () => {
    const vault = makeVault({ 'old/a.md': 'x', 'dest/keep.md': '' });
    const log = events(vault);
    const file = fileAt(vault, 'old/a.md');
    await vault.rename(file, 'old/b.md');
    expect(file.path).toBe('old/b.md');
    expect(file.basename).toBe('b');
    expect(vault.getFileByPath('old/b.md')).toBe(file);
    const folder = folderAt(vault, 'old');
    await vault.rename(folder, 'dest/old');
    expect(file.path).toBe('dest/old/b.md');
    expect(folder.parent).toBe(vault.getFolderByPath('dest'));
    expect(log).toEqual(['rename old/a.md → old/b.md', 'rename old → dest/old', 'rename old/b.md → dest/old/b.md']);
    await expect(vault.rename(file, 'dest/keep.md')).rejects.toThrow('Destination file already exists!');
    await expect(vault.rename(file, 'nowhere/b.md')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('deletes folders recursively, deepest first', async () => {
    const vault = makeVault({ 'f/sub/a.md': '', 'f/b.md': '' });
    const log = events(vault);
    await removal(vault).delete(folderAt(vault, 'f'));
    expect(log).toEqual(['delete f/sub/a.md', 'delete f/b.md', 'delete f/sub', 'delete f']);
    expect(vault.getAllLoadedFiles()).toEqual([vault.getRoot()]);
  });

  it('trashes to the system trash, or to .trash when asked for local trash', async () => {
    const vault = makeVault({ 'a.md': 'x', 'b.md': 'y' });
    const log = events(vault);
    await removal(vault).trash(fileAt(vault, 'a.md'), true);
    await removal(vault).trash(fileAt(vault, 'b.md'), false);
    expect(log).toEqual(['delete a.md', 'delete b.md']);
    expect(vault.adapter.snapshot()).toEqual({ '.trash/b.md': 'y' });
  });

  it('copies files and folders', async () => {
    const vault = makeVault({ 'f/a.md': 'x' });
    const copy = await vault.copy(fileAt(vault, 'f/a.md'), 'f/b.md');
    expect(await vault.read(copy)).toBe('x');
    const folderCopy = await vault.copy(folderAt(vault, 'f'), 'g');
    expect(folderCopy.children.map((c) => c.path)).toEqual(['g/a.md', 'g/b.md']);
    await expect(vault.copy(copy, 'f/a.md')).rejects.toThrow('Destination file already exists!');
  });
});

describe('the adapter', () => {
  it('shares the tree with the vault: its writes become vault files and events', async () => {
    const vault = makeVault();
    const created = vi.fn();
    vault.on('create', created);
    await vault.adapter.mkdir('inbox');
    await vault.adapter.write('inbox/n.md', 'hi');
    expect(vault.getFileByPath('inbox/n.md')).toBeInstanceOf(TFile);
    expect(created).toHaveBeenCalledTimes(2);
    expect(await vault.adapter.list('/')).toEqual({ files: [], folders: ['inbox'] });
    expect(await vault.adapter.list('inbox')).toEqual({ files: ['inbox/n.md'], folders: [] });
    expect(await vault.adapter.stat('inbox/n.md')).toMatchObject({ type: 'file', size: 2 });
    expect(await vault.adapter.stat('inbox')).toMatchObject({ type: 'folder' });
    expect(await vault.adapter.stat('nope')).toBeNull();
  });

  it('writes hidden files for plugins without the vault seeing them', async () => {
    const vault = makeVault();
    await vault.adapter.mkdir('.obsidian/plugins/p');
    await vault.adapter.write('.obsidian/plugins/p/data.json', '{}');
    expect(await vault.adapter.exists('.obsidian/plugins/p/data.json')).toBe(true);
    expect(vault.getAllLoadedFiles()).toEqual([vault.getRoot()]);
  });

  it('honours write options and keeps folder/file errors apart', async () => {
    const vault = makeVault({ 'f/a.md': '' });
    await vault.adapter.write('f/b.md', 'x', { ctime: 1, mtime: 2 });
    expect(await vault.adapter.stat('f/b.md')).toMatchObject({ ctime: 1, mtime: 2 });
    await expect(vault.adapter.remove('f')).rejects.toMatchObject({ code: 'EISDIR' });
    await expect(vault.adapter.rmdir('f', false)).rejects.toMatchObject({ code: 'ENOTEMPTY' });
    await expect(vault.adapter.read('f')).rejects.toMatchObject({ code: 'EISDIR' });
    await vault.adapter.rmdir('f', true);
    expect(await vault.adapter.exists('f')).toBe(false);
  });
});

describe('failure injection', () => {
  it('fails the next write of a path, once, leaving the old content', async () => {
    const vault = makeVault({ 'a.md': 'old' });
    const file = fileAt(vault, 'a.md');
    vault.adapter.failNext('write', 'a.md');
    await expect(vault.modify(file, 'new')).rejects.toMatchObject({ code: 'EIO' });
    expect(await vault.read(file)).toBe('old');
    await vault.modify(file, 'new');
    expect(await vault.read(file)).toBe('new');
  });

  it('can tear a write in half, as a crash mid-write would', async () => {
    const vault = makeVault({ 'a.md': 'old' });
    const error = new Error('disk full');
    vault.adapter.failNext('write', 'a.md', { torn: true, error });
    await expect(vault.adapter.write('a.md', '12345678')).rejects.toBe(error);
    expect(await vault.adapter.read('a.md')).toBe('1234');
  });

  it('covers reads, renames and process', async () => {
    const vault = makeVault({ 'a.md': 'x' });
    const file = fileAt(vault, 'a.md');
    vault.adapter.failNext('read', 'a.md', { times: 2 });
    await expect(vault.read(file)).rejects.toThrow('EIO');
    await expect(vault.process(file, (d) => d + '!')).rejects.toThrow('EIO');
    expect(await vault.read(file)).toBe('x');
    vault.adapter.failNext('rename', 'a.md');
    await expect(vault.rename(file, 'b.md')).rejects.toThrow('EIO');
    expect(file.path).toBe('a.md');
  });
});

describe('listing order a test can shuffle', () => {
  /** A repeatable random sequence (a small LCG). */
  const seeded = (seed: number): (() => number) => () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);

  it('shuffles folder children and file lists, places new files at random, and keeps every file', async () => {
    const files = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`F/n${i}.md`, `${i}`]));
    const vault = makeVault(files);
    const names = (): string[] => folderAt(vault, 'F').children.map((c) => c.name);
    const inOrder = names();
    const orders = new Set<string>();
    for (let seed = 1; seed <= 5; seed++) {
      vault.shuffleListing(seeded(seed));
      orders.add(names().join());
      expect([...names()].sort()).toEqual([...inOrder].sort());
    }
    expect(orders.size).toBeGreaterThan(1);
    await vault.create('F/new.md', 'x');
    expect(names()).toContain('new.md');
    expect(names()).toHaveLength(13);
    expect(vault.getMarkdownFiles().map((f) => f.path).sort()).toEqual([...Object.keys(files), 'F/new.md'].sort());
    vault.shuffleListing(null);
    await vault.create('F/last.md', 'x');
    expect(names().at(-1)).toBe('last.md');
  });
});
