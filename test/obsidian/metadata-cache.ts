// Obsidian's MetadataCache: link resolution and per-file metadata. Obsidian indexes in the
// background; here metadata is computed from the current text on demand (memoised per content),
// so it is never stale — code that relies on reading the cache *before* indexing catches up will
// not see that lag here.
import type { CachedMetadata } from 'obsidian';
import { Events, type EventRef } from './events';
import { TFile, type TAbstractFile } from './files';
import { parseMetadata } from './metadata';
import { parentPath, parseLinktext } from './path';
import type { Vault } from './vault';

function withoutMd(path: string): string {
  return path.endsWith('.md') ? path.slice(0, -3) : path;
}

/** Resolves `./` and `../` against a folder (`/` is the root). */
function resolveRelative(folder: string, link: string): string {
  const parts = folder === '/' ? [] : folder.split('/');
  for (const segment of link.split('/')) {
    if (segment === '..') parts.pop();
    else if (segment !== '.' && segment !== '') parts.push(segment);
  }
  return parts.join('/');
}

export class MetadataCache extends Events {
  private readonly memo = new Map<string, { content: string; cache: CachedMetadata }>();

  constructor(private readonly vault: Vault) {
    super();
    // Obsidian re-indexes after each change and then announces it; these follow the vault directly.
    vault.on('create', (file) => this.announce(file));
    vault.on('modify', (file) => this.announce(file));
    vault.on('delete', (file) => {
      if (!(file instanceof TFile)) return;
      const previous = this.memo.get(file.path)?.cache ?? null;
      this.memo.delete(file.path);
      this.trigger('deleted', file, previous);
    });
    vault.on('rename', (file, oldPath) => {
      if (file instanceof TFile) this.memo.delete(oldPath);
    });
  }

  /**
   * The best match for a link path, as Obsidian resolves it: case-insensitive; an exact vault path
   * (with or without `.md`) wins; `./` and `../` are relative to the source note; otherwise any file
   * whose path ends with the link path, preferring the source's own folder, then the shortest path.
   * An empty link path points at the source itself (`[[#Heading]]`).
   */
  getFirstLinkpathDest(linkpath: string, sourcePath: string): TFile | null {
    if (linkpath === '') return this.vault.getFileByPath(sourcePath);
    const files = this.vault.getFiles();
    const sourceFolder = parentPath(sourcePath);
    const relative = linkpath.startsWith('./') || linkpath.startsWith('../');
    const wanted = (relative ? resolveRelative(sourceFolder, linkpath) : linkpath.replace(/^\/+/, '')).toLowerCase();
    const exact = files.filter((f) => {
      const path = f.path.toLowerCase();
      return path === wanted || (f.extension === 'md' && path === `${wanted}.md`);
    });
    if (exact.length > 0 || relative) return exact.find((f) => withoutMd(f.path) === withoutMd(linkpath)) ?? exact[0] ?? null;
    const candidates = files.filter((f) => {
      const path = f.path.toLowerCase();
      return path.endsWith(`/${wanted}`) || (f.extension === 'md' && path.endsWith(`/${wanted}.md`));
    });
    candidates.sort((a, b) => {
      const aHere = parentPath(a.path) === sourceFolder ? 0 : 1;
      const bHere = parentPath(b.path) === sourceFolder ? 0 : 1;
      return aHere - bHere || a.path.length - b.path.length || a.path.localeCompare(b.path);
    });
    return candidates[0] ?? null;
  }

  getFileCache(file: TFile): CachedMetadata | null {
    return this.getCache(file.path);
  }

  getCache(path: string): CachedMetadata | null {
    const file = this.vault.getFileByPath(path);
    const content = this.vault.adapter.peek(path);
    if (!file || file.extension !== 'md' || content === null) return null;
    const memo = this.memo.get(path);
    if (memo?.content === content) return memo.cache;
    const cache = parseMetadata(content);
    this.memo.set(path, { content, cache });
    return cache;
  }

  /** The file's name when that is unique in the vault, else its full path; `.md` omitted by default. */
  fileToLinktext(file: TFile, sourcePath: string, omitMdExtension = true): string {
    void sourcePath;
    const unique = this.vault.getFiles().filter((f) => f.name.toLowerCase() === file.name.toLowerCase()).length === 1;
    const text = unique ? file.name : file.path;
    return omitMdExtension && file.extension === 'md' ? withoutMd(text) : text;
  }

  /** source path → { destination path → link count }, for links that resolve. */
  get resolvedLinks(): Record<string, Record<string, number>> {
    return this.linkTable(true);
  }

  /** source path → { link path as written → count }, for links that do not resolve. */
  get unresolvedLinks(): Record<string, Record<string, number>> {
    return this.linkTable(false);
  }

  override on(name: 'changed', callback: (file: TFile, data: string, cache: CachedMetadata) => unknown, ctx?: unknown): EventRef;
  override on(name: 'deleted', callback: (file: TFile, prevCache: CachedMetadata | null) => unknown, ctx?: unknown): EventRef;
  override on(name: 'resolve', callback: (file: TFile) => unknown, ctx?: unknown): EventRef;
  override on(name: 'resolved', callback: () => unknown, ctx?: unknown): EventRef;
  override on(name: string, callback: (...data: never[]) => unknown, ctx?: unknown): EventRef;
  override on(name: string, callback: (...data: never[]) => unknown, ctx?: unknown): EventRef {
    return super.on(name, callback, ctx);
  }

  private announce(file: TAbstractFile): void {
    if (!(file instanceof TFile)) return;
    const cache = this.getFileCache(file);
    const data = this.vault.adapter.peek(file.path);
    if (!cache || data === null) return;
    this.trigger('changed', file, data, cache);
    this.trigger('resolve', file);
    this.trigger('resolved');
  }

  private linkTable(resolved: boolean): Record<string, Record<string, number>> {
    const table: Record<string, Record<string, number>> = {};
    for (const file of this.vault.getMarkdownFiles()) {
      const row: Record<string, number> = {};
      const cache = this.getFileCache(file);
      for (const ref of [...(cache?.links ?? []), ...(cache?.embeds ?? [])]) {
        const { path } = parseLinktext(ref.link);
        if (path === '') continue;
        const dest = this.getFirstLinkpathDest(path, file.path);
        if (resolved && dest) row[dest.path] = (row[dest.path] ?? 0) + 1;
        if (!resolved && !dest) row[path] = (row[path] ?? 0) + 1;
      }
      table[file.path] = row;
    }
    return table;
  }
}
