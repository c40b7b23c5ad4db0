/** The import cycles among `sources` (path → text): each group of files importing each other. */
export function importCycles(sources: Record<string, string>): string[][];
/** The .ts files under `dir` (path relative to it with '/' → text). */
export function readSources(dir: string): Record<string, string>;
