// Copies of a conversation's items as they were written to its note, to tell on the next save which
// items changed. Every save checks every item, so the copies are laid out by field (one array per
// field) and the check allocates nothing: 2,000 unchanged messages cost little more than reading
// their ids and text. The session changes a reply's text in place, hence copies, not references.
import type { ChatMessage } from '../core/messages';
import type { SavedItem } from './conversation-format';

export class ItemSnapshots {
  private kinds: string[] = [];
  private ids: string[] = [];
  private createdAts: number[] = [];
  private roles: string[] = [];
  private contents: string[] = [];
  /** Per role: images (user), tool calls (assistant), [toolCallId, name, isError] (tool). */
  private roleData: unknown[] = [];
  /** The item's other keys (all of a compaction round), copied; and how many keys it had. */
  private rest: (Record<string, unknown> | undefined)[] = [];
  private keyCounts: number[] = [];

  get length(): number {
    return this.kinds.length;
  }

  clone(): ItemSnapshots {
    const c = new ItemSnapshots();
    c.kinds = this.kinds.slice();
    c.ids = this.ids.slice();
    c.createdAts = this.createdAts.slice();
    c.roles = this.roles.slice();
    c.contents = this.contents.slice();
    c.roleData = this.roleData.slice();
    c.rest = this.rest.slice();
    c.keyCounts = this.keyCounts.slice();
    return c;
  }

  /** Whether `items` are exactly the items held (in order, none more or less). */
  matches(items: readonly SavedItem[]): boolean {
    if (items.length !== this.length) return false;
    for (let i = 0; i < items.length; i++) if (!this.same(i, items[i] as SavedItem)) return false;
    return true;
  }

  /** Holds `items` from now on (copying only those that changed). */
  update(items: readonly SavedItem[]): void {
    items.forEach((item, i) => {
      if (i >= this.length || !this.same(i, item)) this.set(i, item);
    });
    for (const column of [this.kinds, this.ids, this.createdAts, this.roles, this.contents, this.roleData, this.rest, this.keyCounts]) column.length = items.length;
  }

  /** The message id at `i` ('' for a compaction round). */
  idAt(i: number): string {
    return this.ids[i] ?? '';
  }

  set(i: number, item: SavedItem): void {
    this.kinds[i] = item.kind;
    const rest: Record<string, unknown> = {};
    let keys = 0;
    let others = 0;
    for (const [key, value] of Object.entries(item)) {
      keys++;
      if (key === 'message' || key === 'kind') continue;
      rest[key] = copy(value);
      others++;
    }
    this.rest[i] = others ? rest : undefined;
    this.keyCounts[i] = keys;
    if (item.kind !== 'message') {
      this.ids[i] = '';
      this.createdAts[i] = 0;
      this.roles[i] = '';
      this.contents[i] = '';
      this.roleData[i] = undefined;
      return;
    }
    const m = item.message;
    this.ids[i] = m.id;
    this.createdAts[i] = m.createdAt;
    this.roles[i] = m.role;
    this.contents[i] = m.content;
    this.roleData[i] = copy(roleData(m));
  }

  /** Whether `item` is what was written at `i`. */
  same(i: number, item: SavedItem): boolean {
    if (this.kinds[i] !== item.kind) return false;
    if (item.kind === 'message') {
      const m = item.message;
      if (m.id !== this.ids[i] || m.content !== this.contents[i] || m.role !== this.roles[i] || !Object.is(m.createdAt, this.createdAts[i])) return false;
      const was = this.roleData[i];
      if (m.role === 'tool') {
        const t = was as [string, string | undefined, boolean | undefined] | undefined;
        if (!t || t[0] !== m.toolCallId || t[1] !== m.name || t[2] !== m.isError) return false;
      } else {
        const data = m.role === 'user' ? m.images : m.role === 'assistant' ? m.toolCalls : undefined;
        if (data !== was && !same(data, was)) return false;
      }
    }
    const rest = this.rest[i];
    const fields = item as unknown as Record<string, unknown>;
    let keys = 0;
    for (const key in fields) {
      keys++;
      if (key === 'message' || key === 'kind') continue;
      if (rest === undefined) return false;
      const value = fields[key];
      if (value !== rest[key] && !same(value, rest[key])) return false;
    }
    return keys === this.keyCounts[i];
  }
}

/** What a message holds besides id, time, role and text (undefined for most). */
function roleData(m: ChatMessage): unknown {
  switch (m.role) {
    case 'user':
      return m.images;
    case 'assistant':
      return m.toolCalls;
    case 'tool':
      return [m.toolCallId, m.name, m.isError];
    default:
      return undefined;
  }
}

/** Deep equality of plain data; allocates nothing. */
export function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return Number.isNaN(a) && Number.isNaN(b);
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
  for (const key in y) if (Object.prototype.hasOwnProperty.call(y, key)) keys--;
  return keys === 0;
}

/** A copy of plain data (objects and arrays copied, strings shared). */
export function copy<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(copy) as T;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) out[key] = copy(v);
  return out as T;
}
