// What the history panel lists of a conversation note, and how copies sharing an id are told from
// their original (a sync conflict copy, a note copied by hand: separate conversations). Pure.

export interface HistoryItem {
  id: string;
  path: string;
  title: string;
  updated: number;
  /** The folder the note is in ('' for the vault root). */
  folder: string;
  /** Another note has the same conversation id and was there first (a sync conflict copy, a note
   * copied by hand): that note's path and title. The two are separate conversations. */
  copyOf?: { path: string; title: string };
}

/** Marks every note that shares its id with one created before it (or, created at the same time,
 * with a shorter path: a copy's name is usually the original's plus a suffix) as a copy of it. */
export function markCopies(items: (HistoryItem & { ctime: number })[]): void {
  const byId = new Map<string, (HistoryItem & { ctime: number })[]>();
  for (const item of items) byId.set(item.id, [...(byId.get(item.id) ?? []), item]);
  for (const group of byId.values()) {
    if (group.length < 2) continue;
    group.sort((a, b) => a.ctime - b.ctime || a.path.length - b.path.length || a.path.localeCompare(b.path));
    const first = group[0] as HistoryItem;
    for (const copy of group.slice(1)) copy.copyOf = { path: first.path, title: first.title };
  }
}
