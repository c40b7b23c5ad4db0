// The chat layer's vault interfaces (the conversation store's and the tools') implemented with
// Obsidian's API. Kept here, beside the other Obsidian-facing code, so src/chat stays free of
// `obsidian`; main.ts wires them.
import { type App, type Component, Platform, TFile, TFolder, type Vault, normalizePath, prepareSimpleSearch } from 'obsidian';
import type { ConversationVault } from '../chat/conversation-vault';
import type { ToolVault } from '../chat/tools/vault-tools';

/** Whether the vault's disk ignores case: APFS (macOS, iOS) and NTFS (Windows) do by default. The
 * adapter's `exists(path, sensitive?)` is case-insensitive there (obsidian.d.ts `DataAdapter.exists`). */
function diskFoldsCase(): boolean {
  return Platform.isMacOS || Platform.isWin || Platform.isIosApp;
}

/**
 * `path` spelt as the vault already has it where the disk ignores case: "compact chat/x.md" becomes
 * "Compact Chat/x.md" when that folder exists. The vault index is exact, but on such a disk
 * `createFolder("compact chat")` throws "Folder already exists", so without this every save would
 * fail and the history would list nothing. Elsewhere (Linux) case twins are distinct: unchanged.
 */
export function inVaultCase(vault: Vault, path: string): string {
  if (!diskFoldsCase() || path === '/' || vault.getAbstractFileByPath(path)) return path;
  let resolved = '';
  for (const segment of path.split('/')) {
    const next = resolved ? `${resolved}/${segment}` : segment;
    const parent = resolved ? vault.getFolderByPath(resolved) : vault.getRoot();
    const twin = vault.getAbstractFileByPath(next) ?? parent?.children.find((c) => c.name.toLowerCase() === segment.toLowerCase());
    resolved = twin ? twin.path : next;
  }
  return resolved;
}

/** `owner` (the plugin) holds the vault event subscriptions, so unloading it removes them. */
export function conversationVault(app: App, owner: Pick<Component, 'registerEvent'>): ConversationVault {
  const { vault } = app;
  const file = (path: string): TFile => {
    const found = vault.getFileByPath(path);
    if (!found) throw new Error(`No note at "${path}".`);
    return found;
  };
  return {
    normalizePath: (path) => inVaultCase(vault, normalizePath(path)),
    read: async (path) => {
      const found = vault.getFileByPath(path);
      if (found) return vault.read(found);
      // Hidden files (the temporary file of a save) are not in the vault index.
      return (await vault.adapter.exists(path)) ? vault.adapter.read(path) : null;
    },
    listNotes: (folder) => {
      const parent = folder ? vault.getFolderByPath(folder) : vault.getRoot();
      return (parent?.children ?? []).filter((f): f is TFile => f instanceof TFile && f.extension === 'md').map((f) => f.path);
    },
    conversationNotes: () =>
      vault.getMarkdownFiles()
        .filter((f) => {
          const front = app.metadataCache.getFileCache(f)?.frontmatter;
          return front !== undefined && front['compact-chat'] !== undefined && front.id !== undefined;
        })
        .map((f) => f.path),
    ensureFolder: async (folder) => {
      if (folder && !vault.getFolderByPath(folder)) await vault.createFolder(folder);
    },
    create: async (path, text) => {
      await vault.create(path, text);
    },
    replace: async (path, text, expected) => {
      let same = true;
      await vault.process(file(path), (data) => {
        same = data === expected;
        return same ? text : data;
      });
      return same;
    },
    append: (path, text) => vault.append(file(path), text),
    stat: async (path) => {
      // The adapter's stat (a file system stat on desktop): no read of the note.
      const stat = await vault.adapter.stat(path);
      return stat?.type === 'file' ? { size: stat.size, mtime: stat.mtime, ctime: stat.ctime } : null;
    },
    writeHidden: (path, text) => vault.adapter.write(path, text),
    removeHidden: async (path) => {
      if (await vault.adapter.exists(path)) await vault.adapter.remove(path);
    },
    rename: (path, newPath) => app.fileManager.renameFile(file(path), newPath),
    trash: (path) => app.fileManager.trashFile(file(path)),
    onModify: (listener) => {
      owner.registerEvent(
        vault.on('modify', (changed) => {
          if (changed instanceof TFile) listener(changed.path);
        }),
      );
    },
    onRename: (listener) => {
      owner.registerEvent(
        vault.on('rename', (moved, oldPath) => {
          // A folder's move sends one event per file in it too.
          if (moved instanceof TFile) listener(moved.path, oldPath);
        }),
      );
    },
    onDelete: (listener) => {
      owner.registerEvent(
        vault.on('delete', (gone) => {
          if (gone instanceof TFile) listener(gone.path);
        }),
      );
    },
  };
}

export function toolVault(app: App): ToolVault {
  const { vault } = app;
  return {
    configDir: vault.configDir,
    normalizePath: (path) => inVaultCase(vault, normalizePath(path)),
    kind: (path) => {
      const found = path === '' ? vault.getRoot() : vault.getAbstractFileByPath(path);
      return found instanceof TFile ? 'file' : found instanceof TFolder ? 'folder' : null;
    },
    read: (path) => {
      const found = vault.getFileByPath(path);
      if (!found) throw new Error(`No note at "${path}".`);
      return vault.cachedRead(found);
    },
    markdownFiles: () => vault.getMarkdownFiles().map((f) => f.path),
    list: (folder) => {
      const found = folder === '' ? vault.getRoot() : vault.getFolderByPath(folder);
      if (!found) return null;
      return {
        folders: found.children.filter((c) => c instanceof TFolder).map((c) => c.path),
        files: found.children.filter((c) => c instanceof TFile).map((c) => c.path),
      };
    },
    create: async (given, text) => {
      const path = inVaultCase(vault, normalizePath(given));
      const slash = path.lastIndexOf('/');
      const parent = slash > 0 ? path.slice(0, slash) : '';
      if (parent && !vault.getFolderByPath(parent)) await vault.createFolder(parent);
      await vault.create(path, text);
    },
    append: async (path, text) => {
      const found = vault.getFileByPath(path);
      if (!found) throw new Error(`No note at "${path}".`);
      await vault.append(found, text);
    },
    prepareSearch: (query) => prepareSimpleSearch(query),
  };
}
