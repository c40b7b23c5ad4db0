// The little of the vault the chat layer needs, as an interface: main.ts implements it with the
// Obsidian API, tests with a map. Keeps src/chat free of `obsidian` and testable without a DOM.
export interface NoteSource {
  /** The note's current text, or null when there is no such note (or it cannot be read). */
  readNote(path: string): Promise<string | null>;
  /** The path a `[[link]]` (without brackets, alias or heading) resolves to, or null. */
  resolveLink(linktext: string, sourcePath: string): string | null;
  /** Path of the note the user is looking at, or null. */
  activeNotePath(): string | null;
}

/** A NoteSource over a plain map of path → text (tests, the CLI). Links resolve by path or basename. */
export class MapNoteSource implements NoteSource {
  active: string | null = null;

  constructor(readonly notes: Map<string, string> = new Map()) {}

  readNote(path: string): Promise<string | null> {
    return Promise.resolve(this.notes.get(path) ?? null);
  }

  resolveLink(linktext: string): string | null {
    const target = linktext.trim();
    const withExt = target.endsWith('.md') ? target : `${target}.md`;
    if (this.notes.has(withExt)) return withExt;
    const lower = withExt.toLowerCase();
    for (const path of this.notes.keys()) {
      const base = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
      if (base === lower || path.toLowerCase() === lower) return path;
    }
    return null;
  }

  activeNotePath(): string | null {
    return this.active;
  }
}
