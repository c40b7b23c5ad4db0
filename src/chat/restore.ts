// After a compaction the model loses the notes it was working with. Like coding agents that
// re-read recently used files after compacting, the session re-reads those notes fresh from the
// vault and attaches them to the system prompt within a token budget: the active note first (when
// the user includes it), then notes mentioned or read by tools in the removed part, newest first.
import type { ChatMessage } from '../core/messages';
import { marginFor } from '../core/block-margin';
import type { CompactionRecord } from '../core/record';
import { estimateTokens, tokenizerFamily } from '../core/tokens';
import type { NoteSource } from './vault-access';

export interface RestoredNote {
  path: string;
  /** Estimated tokens of the note as attached. */
  tokens: number;
  /** True when only the start of the note fit in the budget. */
  truncated: boolean;
}

export interface RestoredNotes {
  notes: RestoredNote[];
  /** The block added to the system prompt ('' when nothing was attached). */
  block: string;
  tokens: number;
}

export const EMPTY_RESTORED: RestoredNotes = { notes: [], block: '', tokens: 0 };

/** Below this many tokens left, a note is not worth attaching in part. */
const MIN_PARTIAL_TOKENS = 64;
/** How many candidates are read at most (reading is cheap, but not free on mobile). */
const MAX_CANDIDATES = 20;

const WIKILINK = /!?\[\[([^\]|#^\n]+)(?:[#^][^\]|\n]*)?(?:\|[^\]\n]*)?\]\]/g;
const MD_LINK = /\[[^\]\n]*\]\(([^)\s]+\.md)(?:#[^)\s]*)?\)/g;

/**
 * Paths of the notes to restore, best first: the active note, then for each removed message from
 * the newest back, the notes its tool calls read and the notes it links to. Only notes that resolve
 * to a file in the vault are returned.
 */
export function restoreCandidates(
  removed: readonly ChatMessage[],
  record: Pick<CompactionRecord, 'filesRead'> | null,
  notes: NoteSource,
  activePath: string | null,
): string[] {
  const out: string[] = [];
  const add = (path: string | null): void => {
    if (path && !out.includes(path)) out.push(path);
  };
  add(activePath);
  const readBy = new Map<string, string[]>();
  for (const entry of record?.filesRead ?? []) {
    for (const id of entry.sources) readBy.set(id, [...(readBy.get(id) ?? []), entry.path]);
  }
  for (let i = removed.length - 1; i >= 0 && out.length < MAX_CANDIDATES; i--) {
    const message = removed[i] as ChatMessage;
    for (const path of readBy.get(message.id) ?? []) add(resolve(path, notes));
    const text = message.role === 'tool' ? '' : message.content;
    const links: string[] = [];
    for (const match of text.matchAll(WIKILINK)) links.push(match[1] ?? '');
    for (const match of text.matchAll(MD_LINK)) links.push(decodeLink(match[1] ?? ''));
    // Within one message, the later mention is the newer one.
    for (const link of links.reverse()) add(resolve(link, notes));
  }
  return out.slice(0, MAX_CANDIDATES);
}

function decodeLink(link: string): string {
  try {
    return decodeURIComponent(link);
  } catch {
    return link;
  }
}

function resolve(link: string, notes: NoteSource): string | null {
  const target = link.trim();
  if (!target || /^[a-z]+:\/\//i.test(target)) return null;
  return notes.resolveLink(target.replace(/\.md$/i, ''), '') ?? notes.resolveLink(target, '');
}

/** How a block of attached notes is introduced to the model. */
export interface NotesBlockKind {
  tag: string;
  intro: string;
}

export const RESTORED_NOTES: NotesBlockKind = {
  tag: 'restored_notes',
  intro: 'Notes the conversation was working with before it was compacted, re-read from the vault as they are now:',
};

/** Reads the candidates fresh and attaches as many as fit in `budgetTokens`, in order: by the
 * model's own count, each note held back by the margin its text needs (they fill the room a
 * compaction's target leaves, which must hold by the model's count as the block does). */
export function restoreNotes(paths: readonly string[], notes: NoteSource, budgetTokens: number, model?: string): Promise<RestoredNotes> {
  return attachNotes(paths, notes, budgetTokens, RESTORED_NOTES, model, true);
}

/**
 * Reads notes fresh from the vault and wraps as many as fit in `budgetTokens` (in order) in one
 * `<tag>` block; a note that does not fit whole is cut at a line or word end and marked. Shared by
 * every kind of attached note (restored after a compaction, mentioned with `[[…]]`). `held`: each
 * note takes from the budget what its estimate can be by the model's count (the estimate over
 * 1 − its text's margin, block-margin.ts), so the notes fit the budget by that count too.
 */
export async function attachNotes(paths: readonly string[], notes: NoteSource, budgetTokens: number, kind: NotesBlockKind, model?: string, held = false): Promise<RestoredNotes> {
  if (budgetTokens <= 0 || paths.length === 0) return EMPTY_RESTORED;
  const header = `<${kind.tag}>\n${kind.intro}\n`;
  const footer = `</${kind.tag}>`;
  let left = budgetTokens - estimateTokens(header + footer, model);
  const parts: string[] = [];
  const attached: RestoredNote[] = [];
  for (const path of paths) {
    if (left < MIN_PARTIAL_TOKENS) break;
    const text = await notes.readNote(path);
    if (text === null) continue;
    const open = `<note path="${path.replace(/"/g, '&quot;')}">\n`;
    const close = '\n</note>\n';
    const frame = estimateTokens(open + close, model);
    // What 1 token of the note's estimate can be by the model's count.
    const scale = held ? 1 / (1 - marginFor(text.split('\n'), (t) => estimateTokens(t, model), tokenizerFamily(model))) : 1;
    const taken = (tokens: number): number => Math.ceil(frame + (tokens - frame) * scale);
    let body = text;
    let tokens = frame + estimateTokens(body, model);
    let truncated = false;
    if (taken(tokens) > left) {
      body = fitText(text, Math.floor((left - frame) / scale) - 8, model);
      if (!body) continue;
      body += '\n[… truncated]';
      truncated = true;
      tokens = frame + estimateTokens(body, model);
    }
    parts.push(open + body + close);
    attached.push({ path, tokens, truncated });
    left -= taken(tokens);
  }
  if (!attached.length) return EMPTY_RESTORED;
  const block = header + parts.join('') + footer;
  return { notes: attached, block, tokens: estimateTokens(block, model) };
}

/** The vault paths a text's `[[links]]` resolve to, first mention first (at most `limit`). */
export function linkedNotes(text: string, notes: NoteSource, limit = 10): string[] {
  const out: string[] = [];
  for (const match of text.matchAll(WIKILINK)) {
    const path = notes.resolveLink((match[1] ?? '').trim(), '');
    if (path && !out.includes(path)) out.push(path);
    if (out.length >= limit) break;
  }
  return out;
}

/** The longest prefix of `text`, cut at a line or word end (never inside a surrogate pair),
 * whose estimate fits in `tokens`. */
export function fitText(text: string, tokens: number, model?: string): string {
  if (tokens <= 0) return '';
  if (estimateTokens(text, model) <= tokens) return text;
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (estimateTokens(text.slice(0, mid), model) <= tokens) lo = mid;
    else hi = mid - 1;
  }
  // A prefix ending on a high surrogate would leave half an emoji behind.
  const last = text.charCodeAt(lo - 1);
  if (lo > 0 && last >= 0xd800 && last <= 0xdbff) lo--;
  const prefix = text.slice(0, lo);
  const cut = Math.max(prefix.lastIndexOf('\n'), prefix.lastIndexOf(' '));
  return (cut > lo * 0.6 ? prefix.slice(0, cut) : prefix).trimEnd();
}
