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
import type { SavedConversation, SavedItem } from './conversation-format';
import { serializeHeader } from './conversation-format';
import { openBlock, serializeBlock, withSaveStamp } from './conversation-blocks';
import { ItemSnapshots, same } from './item-snapshots';

/** What is in the note, as far as this writer put it there (or read it). */
export interface WrittenNote {
  id: string;
  title: string;
  model: string;
  created: number;
  extraFrontMatter: string[];
  /** The items as written. */
  items: ItemSnapshots;
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
  const items = new ItemSnapshots();
  c.items.forEach((item, i) => items.set(i, item));
  return { ...header(c), items, blocks: [], open: null, appendable };
}

function appendPlan(prev: WrittenNote, c: SavedConversation): SavePlan | null {
  if (!prev.appendable || !sameHeader(prev, c) || c.items.length < prev.items.length) return null;
  const n = prev.items.length;
  const last = c.items.length - 1;
  for (let i = 0; i < n; i++) {
    if (i === n - 1 && prev.open !== null) continue;
    if (!prev.items.same(i, c.items[i] as SavedItem)) return null;
  }
  const next: WrittenNote = { ...prev, items: prev.items.clone(), blocks: prev.blocks.slice(), open: null };
  let text = '';
  const write = (i: number): boolean => {
    const item = c.items[i] as SavedItem;
    const streaming = i === last && item.kind === 'message' && item.streaming === true;
    const block = streaming ? openBlock(item) : serializeBlock(item);
    if (i === n - 1 && prev.open !== null) {
      // The open block grows: what was written must be where the block now starts.
      if (item.kind !== 'message' || prev.items.idAt(i) !== item.message.id || !block.startsWith(prev.open)) return false;
      text += block.slice(prev.open.length);
    } else {
      text += block;
    }
    next.items.set(i, item);
    next.blocks[i] = streaming ? undefined : block;
    if (streaming) next.open = block;
    return true;
  };
  for (let i = prev.open !== null ? n - 1 : n; i <= last; i++) if (!write(i)) return null;
  if (text === '') return { kind: 'none' };
  return { kind: 'append', text: withSaveStamp(text, c.updated), next };
}

function rewritePlan(prev: WrittenNote | null, c: SavedConversation): { kind: 'rewrite'; text: string; next: WrittenNote } {
  const next: WrittenNote = { ...header(c), items: new ItemSnapshots(), blocks: [], open: null, appendable: true };
  let text = serializeHeader(c);
  const last = c.items.length - 1;
  c.items.forEach((item, i) => {
    const streaming = i === last && item.kind === 'message' && item.streaming === true;
    const cached = prev && i < prev.items.length && !(i === prev.items.length - 1 && prev.open !== null) && prev.items.same(i, item) ? prev.blocks[i] : undefined;
    const block = streaming ? openBlock(item) : (cached ?? serializeBlock(item));
    text += block;
    next.items.set(i, item);
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
