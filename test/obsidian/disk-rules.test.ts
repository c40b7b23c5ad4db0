// Where the disk and the vault refuse or fold names: case (macOS, Windows and iOS fold it, Linux
// does not; platform.ts) and Obsidian's name rules (no name ending in a dot or a space).
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryAdapter } from './adapter';
import { Vault } from './index';
import { resetPlatform } from './platform';

function vaultWith(files: Record<string, string>, caseInsensitive: boolean | null): Vault {
  const adapter = new MemoryAdapter();
  adapter.caseInsensitive = caseInsensitive;
  adapter.seed(files);
  return new Vault(adapter);
}

afterEach(() => resetPlatform());

describe('a case-insensitive disk', () => {
  it('finds a case twin with exists, unless asked to be sensitive', async () => {
    const vault = vaultWith({ 'Compact Chat/a.md': 'x' }, true);
    expect(await vault.adapter.exists('compact chat')).toBe(true);
    expect(await vault.adapter.exists('compact chat/A.md')).toBe(true);
    expect(await vault.adapter.exists('compact chat', true)).toBe(false);
    expect(await vault.adapter.read('COMPACT CHAT/a.md')).toBe('x');
  });

  it('refuses to create a folder or a file that differs only in case', async () => {
    const vault = vaultWith({ 'Compact Chat/a.md': 'x' }, true);
    await expect(vault.createFolder('compact chat')).rejects.toThrow('already exists');
    await expect(vault.create('Compact Chat/A.md', 'y')).rejects.toThrow('already exists');
    expect(vault.getFolderByPath('compact chat')).toBeNull();
  });

  it('stores a new file in the existing folder of the other case', async () => {
    const vault = vaultWith({ 'Notes/a.md': 'x' }, true);
    const file = await vault.create('notes/b.md', 'y');
    expect(file.path).toBe('Notes/b.md');
  });

  it('follows the platform flags by default', async () => {
    const vault = vaultWith({ 'Compact Chat/a.md': 'x' }, null);
    expect(await vault.adapter.exists('compact chat')).toBe(false);
    resetPlatform({ isLinux: false, isMacOS: true });
    expect(await vault.adapter.exists('compact chat')).toBe(true);
    resetPlatform({ isLinux: false, isWin: true });
    expect(await vault.adapter.exists('compact chat')).toBe(true);
  });
});

describe('a case-sensitive disk', () => {
  it('keeps case twins apart', async () => {
    const vault = vaultWith({ 'Compact Chat/a.md': 'x' }, false);
    expect(await vault.adapter.exists('compact chat')).toBe(false);
    await vault.createFolder('compact chat');
    await vault.create('compact chat/a.md', 'y');
    expect(vault.getFolderByPath('compact chat')).not.toBeNull();
    expect(await vault.adapter.read('Compact Chat/a.md')).toBe('x');
  });
});

describe('name rules', () => {
  it('refuses file and folder names ending in a dot or a space', async () => {
    const vault = vaultWith({ 'a.md': 'x' }, false);
    await expect(vault.createFolder('Chats.')).rejects.toThrow('cannot end with a dot or a space');
    await expect(vault.createFolder('Chats /Old')).rejects.toThrow('cannot end with a dot or a space');
    await expect(vault.create('Notes./b.md', 'y')).rejects.toThrow('cannot end with a dot or a space');
    const file = vault.getFileByPath('a.md');
    if (!file) throw new Error('no file');
    await expect(vault.rename(file, 'b. ')).rejects.toThrow('cannot end with a dot or a space');
    expect(vault.getFolderByPath('Chats.')).toBeNull();
    await vault.createFolder('Chats. 2');
    expect(vault.getFolderByPath('Chats. 2')).not.toBeNull();
  });
});
