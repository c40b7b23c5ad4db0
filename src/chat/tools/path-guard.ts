// Which paths the model's tools may touch: inside the vault, outside the config folder and every
// other dot-folder (.trash, .git …). Checked on the raw text (before normalising could hide a `..`
// or make an absolute path look relative) and again on the normalised path.
export interface PathContext {
  configDir: string;
  normalizePath(path: string): string;
}

export type GuardedPath = { ok: true; path: string } | { ok: false; reason: string };

/** The vault path a tool may use for `raw`, or why not. `''` (the vault root) only with allowRoot. */
export function guardPath(raw: unknown, ctx: PathContext, options: { allowRoot?: boolean } = {}): GuardedPath {
  if (typeof raw !== 'string') return { ok: false, reason: 'The path must be a string.' };
  const text = raw.trim();
  if (text === '' || text === '/' || text === '.') {
    return options.allowRoot ? { ok: true, path: '' } : { ok: false, reason: 'A note path is required.' };
  }
  if (/^[\\/]/.test(text) || /^[a-z][a-z0-9+.-]*:/i.test(text) || text.startsWith('~')) {
    return { ok: false, reason: `"${text}" is an absolute path or a URL: use a path relative to the vault root.` };
  }
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is matched
  if (/[\u0000-\u001f]/.test(text)) return { ok: false, reason: 'The path contains control characters.' };
  const segments = text.split(/[\\/]+/);
  if (segments.some((s) => s === '..')) return { ok: false, reason: `"${text}" leaves the vault ("..").` };
  const path = ctx.normalizePath(text.replace(/\\/g, '/'));
  const normalSegments = path.split('/').filter((s) => s !== '');
  if (normalSegments.some((s) => s === '..' || s === '.')) return { ok: false, reason: `"${text}" leaves the vault.` };
  const config = ctx.normalizePath(ctx.configDir).toLowerCase();
  const lower = path.toLowerCase();
  if (lower === config || lower.startsWith(`${config}/`)) return { ok: false, reason: `"${text}" is in the configuration folder, which tools may not touch.` };
  if (normalSegments.some((s) => s.startsWith('.'))) return { ok: false, reason: `"${text}" is a hidden path, outside the vault's notes.` };
  if (path === '' || path === '/') return options.allowRoot ? { ok: true, path: '' } : { ok: false, reason: 'A note path is required.' };
  return { ok: true, path };
}
