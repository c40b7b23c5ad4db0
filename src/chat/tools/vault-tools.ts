// The vault tools the model may call: read_note, search_vault, list_folder (read-only), and
// create_note / append_to_note, which do nothing until the user approves exactly what will be
// written and where. Every path goes through guardPath. Results are plain text the model reads;
// failures are error results, never exceptions.
import type { ToolCall, ToolDefinition } from '../../core/messages';
import { parseToolArguments } from '../../core/messages';
import type { ToolRunner } from '../tool-loop';
import { SearchIndex, parseQuery } from '../../core/search';
import { guardPath } from './path-guard';

export interface ToolVault {
  configDir: string;
  normalizePath(path: string): string;
  /** What the vault index holds at `path` (hidden paths are never in it). */
  kind(path: string): 'file' | 'folder' | null;
  read(path: string): Promise<string>;
  markdownFiles(): string[];
  /** Direct children of a folder ('' is the root), or null when there is no such folder. */
  list(folder: string): { folders: string[]; files: string[] } | null;
  /** Creates the note (and missing parent folders); fails when it exists. */
  create(path: string, text: string): Promise<void>;
  append(path: string, text: string): Promise<void>;
  /** Obsidian's prepareSimpleSearch (no longer used by search_vault, which ranks with the core's
   * search; kept so the vault adapter in src/ui needs no change). */
  prepareSearch(query: string): (text: string) => { score: number; matches: [number, number][] } | null;
}

export interface WriteRequest {
  tool: 'create_note' | 'append_to_note';
  /** The exact, normalised vault path. */
  path: string;
  /** The exact text that will be written (the whole note, or what is appended). */
  text: string;
}

/** Asks the user; true only for an explicit approval. */
export type Approver = (request: WriteRequest) => Promise<boolean>;

export const READ_LIMIT_CHARS = 20_000;
export const SEARCH_MAX_RESULTS = 20;
export const SEARCH_MAX_FILES = 5_000;
export const LIST_MAX_ENTRIES = 200;
const SNIPPET_CHARS = 80;

const stringArg = (description: string) => ({ type: 'string', description });

export const VAULT_TOOL_DEFINITIONS: ToolDefinition[] = [
  {
    name: 'read_note',
    description: 'Read a note of the Obsidian vault. Returns its Markdown text (long notes are cut).',
    parameters: { type: 'object', properties: { path: stringArg('Vault path of the note, e.g. "Projects/Plan.md".') }, required: ['path'] },
  },
  {
    name: 'search_vault',
    description: 'Search the notes of the vault by relevance (title, headings and text; exact phrases in "quotes"). Returns the best-matching note paths, best first, with snippets.',
    parameters: { type: 'object', properties: { query: stringArg('Words to search for.') }, required: ['query'] },
  },
  {
    name: 'list_folder',
    description: 'List the notes and folders directly inside a vault folder ("" or "/" for the vault root).',
    parameters: { type: 'object', properties: { path: stringArg('Vault path of the folder.') }, required: [] },
  },
  {
    name: 'create_note',
    description: 'Create a new note with the given Markdown content. The user is asked to approve first.',
    parameters: {
      type: 'object',
      properties: { path: stringArg('Vault path of the new note, ending in .md.'), content: stringArg('The whole text of the note.') },
      required: ['path', 'content'],
    },
  },
  {
    name: 'append_to_note',
    description: 'Append text to the end of an existing note, exactly as given (start it with a newline to begin a new line). The user is asked to approve first.',
    parameters: {
      type: 'object',
      properties: { path: stringArg('Vault path of the note.'), content: stringArg('The text to append.') },
      required: ['path', 'content'],
    },
  },
];

export class VaultTools implements ToolRunner {
  constructor(
    private readonly vault: ToolVault,
    private readonly approve: Approver,
  ) {}

  definitions(): ToolDefinition[] {
    return VAULT_TOOL_DEFINITIONS;
  }

  async run(call: ToolCall): Promise<{ content: string; isError?: boolean }> {
    const args = parseToolArguments(call.arguments.trim() === '' ? { ...call, arguments: '{}' } : call);
    if (!args) return fail(`The arguments of ${call.name} are not a JSON object: ${call.arguments.slice(0, 200)}`);
    try {
      switch (call.name) {
        case 'read_note':
          return await this.readNote(args.path);
        case 'search_vault':
          return await this.search(args.query);
        case 'list_folder':
          return this.listFolder(args.path);
        case 'create_note':
          return await this.createNote(args.path, args.content);
        case 'append_to_note':
          return await this.appendToNote(args.path, args.content);
        default:
          return fail(`Unknown tool "${call.name}". Available: ${VAULT_TOOL_DEFINITIONS.map((d) => d.name).join(', ')}.`);
      }
    } catch (error) {
      return fail(`${call.name} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private async readNote(raw: unknown): Promise<{ content: string; isError?: boolean }> {
    const guarded = guardPath(raw, this.vault);
    if (!guarded.ok) return fail(guarded.reason);
    const path = this.notePath(guarded.path);
    if (!path) return fail(`No note at "${guarded.path}".`);
    const text = await this.vault.read(path);
    if (text.length <= READ_LIMIT_CHARS) return { content: text };
    return { content: `${safeSlice(text, READ_LIMIT_CHARS)}\n[… cut: the note has ${text.length} characters, the first ${READ_LIMIT_CHARS} are shown]` };
  }

  /** Ranks the notes by relevance (the core's BM25 search over title, headings and text, the
   * title weighted most), best first, each with a snippet around its first matching word. */
  private async search(raw: unknown): Promise<{ content: string; isError?: boolean }> {
    if (typeof raw !== 'string' || !raw.trim()) return fail('A search query is required.');
    const query = raw.trim();
    const files = this.vault.markdownFiles().filter((p) => guardPath(p, this.vault).ok).slice(0, SEARCH_MAX_FILES);
    const texts = new Map<string, string>();
    const index = new SearchIndex<string>({ textOf: (path) => texts.get(path) ?? '' });
    for (const path of files) {
      const text = await this.vault.read(path);
      texts.set(path, text);
      index.add(path, noteFields(path, text));
    }
    const hits = index.search(query, SEARCH_MAX_RESULTS + 1);
    if (!hits.length) return { content: `No notes match "${query}" (searched the titles, headings and text of ${files.length} notes).` };
    const shown = hits.slice(0, SEARCH_MAX_RESULTS);
    const words = parseQuery(query).terms;
    const lines = shown.map((h) => {
      const snippet = snippetFor(texts.get(h.key) ?? '', words);
      return snippet ? `${h.key}\n  …${snippet}…` : h.key;
    });
    const more = hits.length > shown.length ? `\n(more matches not shown; refine the query)` : '';
    return { content: lines.join('\n') + more };
  }

  private listFolder(raw: unknown): { content: string; isError?: boolean } {
    const guarded = guardPath(raw ?? '', this.vault, { allowRoot: true });
    if (!guarded.ok) return fail(guarded.reason);
    const listed = this.vault.list(guarded.path);
    if (!listed) return fail(`No folder at "${guarded.path}".`);
    const visible = (p: string): boolean => guardPath(p, this.vault).ok;
    const entries = [...listed.folders.filter(visible).sort().map((p) => `${p}/`), ...listed.files.filter(visible).sort()];
    if (!entries.length) return { content: `"${guarded.path || '/'}" is empty.` };
    const shown = entries.slice(0, LIST_MAX_ENTRIES);
    const more = entries.length > shown.length ? `\n(${entries.length - shown.length} more not shown)` : '';
    return { content: shown.join('\n') + more };
  }

  private async createNote(rawPath: unknown, content: unknown): Promise<{ content: string; isError?: boolean }> {
    if (typeof content !== 'string') return fail('"content" must be a string.');
    const guarded = guardPath(rawPath, this.vault, { write: true });
    if (!guarded.ok) return fail(guarded.reason);
    const path = /\.md$/i.test(guarded.path) ? guarded.path : `${guarded.path}.md`;
    if (this.vault.kind(path) !== null) return fail(`"${path}" already exists. Use append_to_note, or choose another path.`);
    if (!(await this.approve({ tool: 'create_note', path, text: content }))) return declined('create', path);
    if (this.vault.kind(path) !== null) return fail(`"${path}" was created meanwhile; nothing was written.`);
    await this.vault.create(path, content);
    return { content: `Created "${path}" (${content.length} characters).` };
  }

  private async appendToNote(rawPath: unknown, content: unknown): Promise<{ content: string; isError?: boolean }> {
    if (typeof content !== 'string') return fail('"content" must be a string.');
    const guarded = guardPath(rawPath, this.vault, { write: true });
    if (!guarded.ok) return fail(guarded.reason);
    const path = this.notePath(guarded.path);
    if (!path) return fail(`No note at "${guarded.path}". Use create_note to create it.`);
    if (!(await this.approve({ tool: 'append_to_note', path, text: content }))) return declined('append to', path);
    if (this.vault.kind(path) !== 'file') return fail(`"${path}" was removed meanwhile; nothing was written.`);
    await this.vault.append(path, content);
    return { content: `Appended ${content.length} characters to "${path}".` };
  }

  /** The note at `path`, or at `path.md`. */
  private notePath(path: string): string | null {
    if (this.vault.kind(path) === 'file') return path;
    if (!/\.md$/i.test(path) && this.vault.kind(`${path}.md`) === 'file') return `${path}.md`;
    return null;
  }
}

function fail(content: string): { content: string; isError: true } {
  return { content, isError: true };
}

function declined(action: string, path: string): { content: string; isError: true } {
  return fail(`The user declined: nothing was written (${action} "${path}" was refused). Do not retry unless the user asks.`);
}

/** Title weighted three times and headings twice over the text: a note named for the subject is
 * usually the one asked for. */
function noteFields(path: string, text: string): { text: string; weight: number }[] {
  const title = path.slice(path.lastIndexOf('/') + 1).replace(/\.md$/i, '');
  const headings = text.match(/^#{1,6}\s.*$/gm) ?? [];
  return [
    { text: title, weight: 3 },
    { text: headings.join('\n'), weight: 2 },
    { text, weight: 1 },
  ];
}

/** A snippet around the first place any query term (a stemmed key, so a prefix of the word) occurs. */
function snippetFor(text: string, terms: readonly string[]): string {
  const lower = text.toLowerCase();
  let best = -1;
  let length = 0;
  for (const term of terms) {
    const at = lower.indexOf(term);
    if (at >= 0 && (best < 0 || at < best)) {
      best = at;
      length = term.length;
    }
  }
  return best < 0 ? '' : snippetAround(text, best, best + length);
}

/** One line of context around [start, end), never cutting a surrogate pair. */
function snippetAround(text: string, start: number, end: number): string {
  let from = Math.max(0, start - SNIPPET_CHARS);
  let to = Math.min(text.length, end + SNIPPET_CHARS);
  if (from > 0 && isLow(text.charCodeAt(from))) from--;
  if (to < text.length && isLow(text.charCodeAt(to))) to++;
  return text.slice(from, to).replace(/\s+/g, ' ').trim();
}

function safeSlice(text: string, n: number): string {
  return isLow(text.charCodeAt(n)) ? text.slice(0, n - 1) : text.slice(0, n);
}

function isLow(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
