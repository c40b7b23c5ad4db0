// Which paths the model's tools may touch: inside the vault, outside the config folder and every
// other dot-folder (.trash, .git …). Checked on the raw text (before normalising could hide a `..`
// or make an absolute path look relative) and again on the normalised path.
export interface PathContext {
  configDir: string;
  normalizePath(path: string): string;
}

export type GuardedPath = { ok: true; path: string } | { ok: false; reason: string };

/** Characters that change how a path displays without being visible themselves: bidi controls
 * (which can show "gpj.exe" reversed as "exe.jpg"), zero-width and other invisible characters,
 * C1 controls and line separators. A path to be written must not hold any: the approval dialog
 * must show the user exactly the path that will be written. */
const INVISIBLE = /[\u0080-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]/;

/** The path with each invisible character spelled as \u escape, so a message shows it as it is. */
function visible(text: string): string {
  return text.replace(new RegExp(INVISIBLE.source, 'g'), (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The vault path a tool may use for `raw`, or why not. `''` (the vault root) only with allowRoot;
 * with `write`, a path holding invisible or direction-changing characters is refused. */
export function guardPath(raw: unknown, ctx: PathContext, options: { allowRoot?: boolean; write?: boolean } = {}): GuardedPath {
  if (typeof raw !== 'string') return { ok: false, reason: 'The path must be a string.' };
  const text = raw.trim();
  if (text === '' || text === '/' || text === '.') {
    return options.allowRoot ? { ok: true, path: '' } : { ok: false, reason: 'A note path is required.' };
  }
  if (/^[\\/]/.test(text) || /^[a-z][a-z0-9+.-]*:/i.test(text) || text.startsWith('~')) {
    return { ok: false, reason: `"${text}" is an absolute path or a URL: use a path relative to the vault root.` };
  }
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is matched
  if (/[\u0000-\u001f\u007f]/.test(text)) return { ok: false, reason: 'The path contains control characters.' };
  // On the raw text: trim() would quietly drop a BOM or a line separator at either end.
  if (options.write && INVISIBLE.test(raw)) {
    return { ok: false, reason: `"${visible(raw)}" contains invisible or text-direction characters (shown as \\u escapes), so it would not display as the path written. Use a path without them.` };
  }
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
