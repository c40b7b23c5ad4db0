// The session's conversation to and from its saved form (conversation-format's items): message
// entries, applied compaction rounds, and the placeholders micro-compaction sent in place of old
// tool results. Pure functions over plain data: the session's parts hold the state, and
// conversation-switch.ts applies what `fromSaved` returns (boundary, block and restored notes
// follow from the last round).
import { EDITABLE_SECTIONS, type LineEdit } from '../core/edits';
import { newMessageId } from '../core/messages';
import type { CompactionRecord } from '../core/record';
import type { ProviderErrorKind } from '../providers/errors';
import type { SavedCompaction, SavedFailure, SavedItem } from './conversation-format';
import { compactionNoticeText, isSendable } from './entries';
import type { ChatEntry, ChatError, CompactionCause, CompactionState, MessageEntry } from './entries';

/** The part of a session's state that is saved. */
export interface PersistedState {
  entries: ChatEntry[];
  /** The applied rounds, oldest first. */
  compactions: CompactionState[];
  /** Sent content of micro-compacted tool results, by message id. */
  cleared: Map<string, string>;
}

/** The conversation as saved: every message and every applied compaction round, in order. A reply
 * still streaming is saved as stopped (what a crash would leave); a failed reply is saved when any
 * text or tool call had arrived, marked with how it ended, and left out when it produced nothing. */
export function toSaved(entries: readonly ChatEntry[], compactions: readonly CompactionState[], cleared: ReadonlyMap<string, string>): SavedItem[] {
  const items: SavedItem[] = [];
  for (const entry of entries) {
    if (entry.kind === 'notice') {
      // A person's own text in the note: written back where it was.
      if (entry.hand) {
        items.push({ kind: 'hand', text: entry.text });
        continue;
      }
      const state = entry.compaction;
      // An undone round is no longer applied: its notice stays in the view only.
      if (!state || entry.undone || !compactions.includes(state)) continue;
      items.push({ kind: 'compaction', compaction: savedCompaction(state, cleared) });
      continue;
    }
    const produced = isSendable({ ...entry, status: 'done' });
    if ((entry.status === 'error' || entry.status === 'streaming') && !produced) continue;
    items.push({
      kind: 'message',
      message: entry.message,
      ...(entry.mentions ? { mentions: entry.mentions } : {}),
      ...(entry.model !== undefined ? { model: entry.model } : {}),
      ...(entry.status === 'stopped' || entry.status === 'streaming' ? { stopped: true } : {}),
      // Still growing: the store writes it as an open block that the next saves extend.
      ...(entry.status === 'streaming' ? { streaming: true } : {}),
      ...(entry.stopReason !== undefined ? { stopReason: entry.stopReason } : {}),
      ...(entry.status === 'error' ? { failure: savedFailure(entry.error) } : {}),
      ...(entry.pinned ? { pinned: true } : {}),
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
      const entry: MessageEntry = { kind: 'message', id: item.message.id, message: item.message, status: item.failure ? 'error' : item.stopped ? 'stopped' : 'done' };
      if (item.failure) entry.error = chatError(item.failure);
      if (item.mentions) entry.mentions = item.mentions;
      if (item.model !== undefined) entry.model = item.model;
      if (item.stopReason !== undefined) entry.stopReason = item.stopReason;
      if (item.pinned) entry.pinned = true;
      state.entries.push(entry);
      continue;
    }
    if (item.kind === 'hand') {
      state.entries.push({ kind: 'notice', id: newId(), level: 'info', text: item.text, hand: true });
      continue;
    }
    const { placeholders, ...rest } = item.compaction;
    // Causes come from a note a person may have edited: unknown ones are dropped.
    // Edits and pins come from a note a person may have edited: malformed ones are dropped.
    const round: CompactionState = { ...rest, record: withValidEdits(rest.record), causes: rest.causes.filter(isCause) };
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

/** Errors of the connection (the reply broke off) as opposed to errors the server reported. */
const INTERRUPTIONS: readonly string[] = ['interrupted', 'timeout', 'malformed'];

function savedFailure(error: ChatError | undefined): SavedFailure {
  const kind = error?.kind ?? 'unexpected';
  return { ended: INTERRUPTIONS.includes(kind) ? 'interrupted' : 'error', kind, message: error?.message ?? 'The reply failed.' };
}

const ERROR_KINDS: readonly ChatError['kind'][] = [
  'auth', 'model-not-found', 'not-found', 'rate-limit', 'server', 'connection', 'timeout', 'interrupted', 'malformed', 'context-overflow', 'aborted', 'bad-request', 'no-model', 'unexpected',
] satisfies (ProviderErrorKind | 'no-model' | 'unexpected')[];

/** The error as the user saw it; a kind this version does not know (a newer note) reads as unexpected. */
function chatError(failure: SavedFailure): ChatError {
  const kind = ERROR_KINDS.find((k) => k === failure.kind) ?? 'unexpected';
  return { kind, message: failure.message };
}

/** The record with only the edit steps this version can apply (a note edited by hand may hold
 * anything), and `keptPinned` only when it is a list of ids. */
function withValidEdits(record: CompactionRecord): CompactionRecord {
  const { edits, keptPinned, ...rest } = record;
  const out: CompactionRecord = { ...rest };
  const valid = Array.isArray(edits) ? edits.filter(isLineEdit) : [];
  if (valid.length) out.edits = valid;
  if (Array.isArray(keptPinned) && keptPinned.every((id) => typeof id === 'string')) out.keptPinned = keptPinned;
  if (typeof rest.blockBudget !== 'number' || !Number.isFinite(rest.blockBudget)) delete out.blockBudget;
  return out;
}

function isLineEdit(value: unknown): value is LineEdit {
  const e = value as Partial<LineEdit> | null;
  return (
    e !== null &&
    typeof e === 'object' &&
    (EDITABLE_SECTIONS as readonly unknown[]).includes(e.section) &&
    typeof e.key === 'string' &&
    (e.text === undefined || typeof e.text === 'string') &&
    (e.removed === undefined || e.removed === true) &&
    (e.source === undefined || typeof e.source === 'string')
  );
}

function isCause(value: string): value is CompactionCause {
  return value === 'tokens' || value === 'messages' || value === 'manual' || value === 'overflow';
}
