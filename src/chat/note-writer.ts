// What a save writes to a conversation note: only what changed. The note is front matter plus one
// block per item (conversation-blocks.ts), so when the conversation on disk is a prefix of the one
// being saved — a reply arrived, a streaming reply grew or finished — the save appends the new
// blocks (or the new lines of the open block) and nothing else; the cost follows the change, not the
// conversation. Anything else (an edited or removed message, a new title or model, a note that is
// not format 2 yet) rewrites the note, reusing the text of the blocks that did not change.
//
// Obsidian's API has no write at an offset (`Vault.append` / `DataAdapter.append` add at the end,
// `Vault.process` and `modify` replace the whole text), so "rewrite a little" is not on offer: the
// front matter's `updated` is left as it is by an append, and the append's last end line carries the
// save's time instead (`saved=…`), which the reader prefers.
//
// Pure: the store does the reading and writing and keeps a `WrittenNote` per note.
import type { ChatMessage } from '../core/messages';
import type { SavedConversation, SavedItem } from './conversation-format';
import { serializeHeader } from './conversation-format';
import { openBlock, serializeBlock, withSaveStamp } from './conversation-blocks';

/** What is in the note, as far as this writer put it there (or read it). */
export interface WrittenNote {
  id: string;
  title: string;
  model: string;
  created: number;
  extraFrontMatter: string[];
  /** Copies of the items as written (the session changes its messages in place). */
  items: SavedItem[];
  /** Each item's complete block, when known (a note that was read has none until a rewrite). */
  blocks: (string | undefined)[];
  /** When the last item was written open (a reply being written): the text written for it. */
  open: string | null;
  /** Whether blocks can be appended: a format-2 note with nothing incomplete at its end. */
  appendable: boolean;
}

export type SavePlan =
  | { kind: 'none' }
  /** `text` goes at the end of the note. */
  | { kind: 'append'; text: string; next: WrittenNote }
  /** `text` is the whole new note. */
  | { kind: 'rewrite'; text: string; next: WrittenNote };

/** What to write to save `c` over a note holding `prev`. */
export function planSave(prev: WrittenNote, c: SavedConversation): SavePlan {
  return appendPlan(prev, c) ?? rewritePlan(prev, c);
}

/** The whole note for `c`, written afresh. */
export function planNew(c: SavedConversation): { text: string; next: WrittenNote } {
  return rewritePlan(null, c);
}

/** The note as read from disk: `appendable` when it can be extended as it is. */
export function writtenFromLoad(c: SavedConversation, appendable: boolean): WrittenNote {
  return { ...header(c), items: c.items.map(copy), blocks: [], open: null, appendable };
}

function appendPlan(prev: WrittenNote, c: SavedConversation): SavePlan | null {
  if (!prev.appendable || !sameHeader(prev, c) || c.items.length < prev.items.length) return null;
  const n = prev.items.length;
  const last = c.items.length - 1;
  for (let i = 0; i < n; i++) {
    if (i === n - 1 && prev.open !== null) continue;
    if (!sameItem(prev.items[i] as SavedItem, c.items[i] as SavedItem)) return null;
  }
  const next: WrittenNote = { ...prev, items: prev.items.slice(), blocks: prev.blocks.slice(), open: null };
  let text = '';
  const write = (i: number): boolean => {
    const item = c.items[i] as SavedItem;
    const streaming = i === last && item.kind === 'message' && item.streaming === true;
    const block = streaming ? openBlock(item) : serializeBlock(item);
    if (i === n - 1 && prev.open !== null) {
      // The open block grows: what was written must be where the block now starts.
      const was = prev.items[i] as SavedItem;
      if (was.kind !== 'message' || item.kind !== 'message' || was.message.id !== item.message.id || !block.startsWith(prev.open)) return false;
      text += block.slice(prev.open.length);
    } else {
      text += block;
    }
    next.items[i] = copy(item);
    next.blocks[i] = streaming ? undefined : block;
    if (streaming) next.open = block;
    return true;
  };
  for (let i = prev.open !== null ? n - 1 : n; i <= last; i++) if (!write(i)) return null;
  if (text === '') return { kind: 'none' };
  return { kind: 'append', text: withSaveStamp(text, c.updated), next };
}

function rewritePlan(prev: WrittenNote | null, c: SavedConversation): { kind: 'rewrite'; text: string; next: WrittenNote } {
  const next: WrittenNote = { ...header(c), items: [], blocks: [], open: null, appendable: true };
  let text = serializeHeader(c);
  const last = c.items.length - 1;
  c.items.forEach((item, i) => {
    const streaming = i === last && item.kind === 'message' && item.streaming === true;
    const was = prev?.items[i];
    const cached = prev && was && !(i === prev.items.length - 1 && prev.open !== null) && sameItem(was, item) ? prev.blocks[i] : undefined;
    const block = streaming ? openBlock(item) : (cached ?? serializeBlock(item));
    text += block;
    next.items.push(copy(item));
    next.blocks.push(streaming ? undefined : block);
    if (streaming) next.open = block;
  });
  return { kind: 'rewrite', text, next };
}

function header(c: SavedConversation): Omit<WrittenNote, 'items' | 'blocks' | 'open' | 'appendable'> {
  return { id: c.id, title: c.title, model: c.model, created: c.created, extraFrontMatter: [...(c.extraFrontMatter ?? [])] };
}

/** The front matter but `updated` (an append records the save time on its own lines). */
function sameHeader(prev: WrittenNote, c: SavedConversation): boolean {
  return prev.id === c.id && prev.title === c.title && prev.model === c.model && Object.is(prev.created, c.created) && same(prev.extraFrontMatter, c.extraFrontMatter ?? []);
}

/**
 * Whether an item is as it was written. Every save runs this over every item, so it is cheap: of a
 * message only the fields the note holds are compared (the session changes a reply's text in place,
 * so the copy taken when it was written is what it is compared with); every other key of the item
 * (known or not: a feature's flag, `extra`) is compared in depth.
 */
function sameItem(was: SavedItem, now: SavedItem): boolean {
  if (was.kind !== now.kind) return false;
  if (was.kind === 'compaction') return same(was, now);
  const a = was as unknown as Record<string, unknown>;
  const b = now as unknown as Record<string, unknown>;
  let keys = 0;
  for (const key in b) {
    const x = a[key];
    const y = b[key];
    if (key === 'message' ? !sameMessage(x as ChatMessage, y as ChatMessage) : x !== y && !same(x, y)) return false;
    keys++;
  }
  for (const _key in a) keys--;
  return keys === 0;
}

function sameMessage(a: ChatMessage, b: ChatMessage): boolean {
  if (a.id !== b.id || !Object.is(a.createdAt, b.createdAt) || a.role !== b.role || a.content !== b.content) return false;
  switch (b.role) {
    case 'user':
      return a.role === 'user' && (a.images === b.images || same(a.images, b.images));
    case 'assistant':
      return a.role === 'assistant' && (a.toolCalls === b.toolCalls || same(a.toolCalls, b.toolCalls));
    case 'tool':
      return a.role === 'tool' && a.toolCallId === b.toolCallId && a.name === b.name && a.isError === b.isError;
    default:
      return true;
  }
}

/** Deep equality of plain data (strings compared as values: the same string is compared at once).
 * Runs over every item on every save, so it allocates nothing. */
export function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return a !== a && b !== b; // NaN
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!same(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let keys = 0;
  for (const key in x) {
    if (!Object.prototype.hasOwnProperty.call(y, key) || !same(x[key], y[key])) return false;
    keys++;
  }
  for (const _key in y) keys--;
  return keys === 0;
}

/** A copy of plain data (objects and arrays copied, strings shared). */
function copy<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(copy) as T;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) out[key] = copy(v);
  return out as T;
}
