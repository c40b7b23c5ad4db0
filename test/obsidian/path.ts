// Vault path and link-text helpers, following Obsidian's own rules.

/**
 * Obsidian's normalizePath: any run of `/` or `\` becomes one `/`, leading and trailing slashes are
 * dropped (the empty result is the root, `/`), non-breaking spaces become spaces, and the whole
 * path is Unicode-NFC so that a decomposed `é` from macOS names the same file as a composed one.
 */
export function normalizePath(path: string): string {
  let result = path.replace(/[\\/]+/g, '/').replace(/^\/+|\/+$/g, '');
  if (result === '') result = '/';
  return result.replace(/[\u00A0\u202F]/g, ' ').normalize('NFC');
}

/** Splits `path#subpath`; the subpath keeps its `#` (`note#^block` → `#^block`). */
export function parseLinktext(linktext: string): { path: string; subpath: string } {
  const hash = linktext.indexOf('#');
  if (hash === -1) return { path: linktext, subpath: '' };
  return { path: linktext.slice(0, hash), subpath: linktext.slice(hash) };
}

/** The file part of a link text (a wikilink's inside, without `[[`/`]]` and alias). */
export function getLinkpath(linktext: string): string {
  return parseLinktext(linktext).path;
}

/** `a/b/c.md` → `a/b`; a root-level path → `/`. */
export function parentPath(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash <= 0 ? '/' : path.slice(0, slash);
}

/** Joins a folder path and a name, treating `/` as the root. */
export function joinPath(folder: string, name: string): string {
  return folder === '/' || folder === '' ? name : `${folder}/${name}`;
}

/** Dot-files and dot-folders (.obsidian, .trash, .git) live on disk but are never indexed by the vault. */
export function isHiddenPath(path: string): boolean {
  return path.split('/').some((segment) => segment.startsWith('.'));
}
