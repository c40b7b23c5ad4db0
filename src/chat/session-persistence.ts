// The session's conversation to and from its saved form (conversation-format's items): message
// entries, applied compaction rounds, and the placeholders micro-compaction sent in place of old
// tool results. Pure functions over plain data: the session holds the state and applies what
// `fromSaved` returns (boundary, block and restored notes follow from the last round).
import { newMessageId } from '../core/messages';
import type { SavedCompaction, SavedItem } from './conversation-format';
import { compactionNoticeText, isSendable } from './entries';
import type { ChatEntry, CompactionCause, CompactionState, MessageEntry } from './entries';

/** The part of a session's state that is saved. */
export interface PersistedState {
  entries: ChatEntry[];
  /** The applied rounds, oldest first. */
  compactions: CompactionState[];
  /** Sent content of micro-compacted tool results, by message id. */
  cleared: Map<string, string>;
}

/** The conversation as saved: every message (failed turns aside) and every applied compaction
 * round, in order. A reply still streaming is saved as stopped (what a crash would leave). */
export function toSaved(entries: readonly ChatEntry[], compactions: readonly CompactionState[], cleared: ReadonlyMap<string, string>): SavedItem[] {
  const items: SavedItem[] = [];
  for (const entry of entries) {
    if (entry.kind === 'notice') {
      const state = entry.compaction;
      // An undone round is no longer applied: its notice stays in the view only.
      if (!state || entry.undone || !compactions.includes(state)) continue;
      items.push({ kind: 'compaction', compaction: savedCompaction(state, cleared) });
      continue;
    }
    if (entry.status === 'error') continue;
    if (entry.status === 'streaming' && !isSendable({ ...entry, status: 'done' })) continue;
    items.push({
      kind: 'message',
      message: entry.message,
      ...(entry.mentions ? { mentions: entry.mentions } : {}),
      ...(entry.model !== undefined ? { model: entry.model } : {}),
      ...(entry.status === 'stopped' || entry.status === 'streaming' ? { stopped: true } : {}),
      ...(entry.stopReason !== undefined ? { stopReason: entry.stopReason } : {}),
    });
  }
  return items;
}

/** A saved conversation as session state: each round gets its notice back (a new id: notices are
 * not saved) and its placeholders go back to `cleared`. */
export function fromSaved(items: readonly SavedItem[], newId: () => string = newMessageId): PersistedState {
  const state: PersistedState = { entries: [], compactions: [], cleared: new Map() };
  for (const item of items) {
    if (item.kind === 'message') {
      const entry: MessageEntry = { kind: 'message', id: item.message.id, message: item.message, status: item.stopped ? 'stopped' : 'done' };
      if (item.mentions) entry.mentions = item.mentions;
      if (item.model !== undefined) entry.model = item.model;
      if (item.stopReason !== undefined) entry.stopReason = item.stopReason;
      state.entries.push(entry);
      continue;
    }
    const { placeholders, ...rest } = item.compaction;
    // Causes come from a note a person may have edited: unknown ones are dropped.
    const round: CompactionState = { ...rest, causes: rest.causes.filter(isCause) };
    for (const [id, text] of Object.entries(placeholders ?? {})) state.cleared.set(id, text);
    state.compactions.push(round);
    state.entries.push({ kind: 'notice', id: newId(), level: 'info', text: compactionNoticeText(round, round.record.removedIds.length), compaction: round });
  }
  return state;
}

/** A round as saved, with the placeholders of the tool results it micro-compacted. */
function savedCompaction(state: CompactionState, cleared: ReadonlyMap<string, string>): SavedCompaction {
  const compaction: SavedCompaction = { ...state };
  const placeholders: Record<string, string> = {};
  for (const id of state.microCleared) {
    const text = cleared.get(id);
    if (text !== undefined) placeholders[id] = text;
  }
  if (Object.keys(placeholders).length) compaction.placeholders = placeholders;
  return compaction;
}

function isCause(value: string): value is CompactionCause {
  return value === 'tokens' || value === 'messages' || value === 'manual' || value === 'overflow';
}
