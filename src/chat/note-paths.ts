// The paths and names of conversation notes: the hidden sibling a save writes first, a note's
// folder and name, a file name made from a title. Pure string work (no vault access).
import { dropLoneSurrogates } from '../core/text';

/** The hidden sibling a save writes first. */
export function tmpPath(path: string): string {
  const slash = path.lastIndexOf('/');
  return `${path.slice(0, slash + 1)}.${path.slice(slash + 1)}.tmp`;
}

/** The folder a path is in ('' for the vault root). */
export function parentOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

/** A note's name: its path without folder and `.md`. */
export function basename(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1).replace(/\.md$/, '');
}

/** A file name from a title: no characters Obsidian or the file systems refuse, no lone surrogates. */
export function safeFileName(title: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is matched
  const cleaned = dropLoneSurrogates(title.replace(/[\\/:*?"<>|#^[\]\u0000-\u001f\u007f]/g, ' '))
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^\.+/, '');
  const cut = Array.from(cleaned).slice(0, 60).join('').replace(/…$/, '').trim();
  return cut || 'Chat';
}
