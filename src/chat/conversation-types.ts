// The saved conversation's shapes, on their own: conversation-format.ts (which re-exports them),
// conversation-blocks.ts, conversation-meta.ts and conversation-format-v1.ts all use them, and the
// format module imports the other three, so keeping them there would make an import cycle.
import type { ChatMessage } from '../core/messages';
import type { CompactionRecord } from '../core/record';
import type { StopReason } from '../providers/types';
import type { RestoredNotes } from './restore';

export interface SavedCompaction {
  record: CompactionRecord;
  causes: string[];
  microCleared: string[];
  restored: RestoredNotes;
  promptBefore: number;
  promptAfter: number;
  /** The placeholder text sent for each micro-cleared tool result, by message id. */
  placeholders?: Record<string, string>;
}

export interface SavedMessage {
  kind: 'message';
  message: ChatMessage;
  /** Vault paths of the notes a user message mentioned (`[[…]]`), sent as context with it. */
  mentions?: string[];
  /** The model that wrote an assistant reply. */
  model?: string;
  /** A reply the user stopped (or that was cut off by a crash while streaming). */
  stopped?: boolean;
  stopReason?: StopReason;
  /** A reply that failed after some text arrived: how it ended, and the error as the user saw it. */
  failure?: SavedFailure;
  /** Pinned by the user: always sent verbatim, never removed by compaction. */
  pinned?: boolean;
  /** Metadata keys this version does not know (from a newer version or another feature), kept and
   * written back as they were. */
  extra?: Record<string, unknown>;
  /** Not saved: the reply is still being written. It is written as an open block that later saves
   * extend (an append, not a rewrite); read back, an open block is a stopped reply. */
  streaming?: boolean;
}

export interface SavedFailure {
  /** 'interrupted': the connection broke, stalled or sent what could not be read; 'error': any other. */
  ended: 'interrupted' | 'error';
  /** The provider's error kind (kept as text: a note may come from a newer version). */
  kind: string;
  message: string;
}

export interface SavedCompactionItem {
  kind: 'compaction';
  compaction: SavedCompaction;
}

/** Text a person wrote in the note outside the message blocks (under a reply, between messages, at
 * the end): kept where it is on every save, shown in the chat as their note, never sent. */
export interface SavedHandItem {
  kind: 'hand';
  /** The lines as written, without the blank lines around them. */
  text: string;
}

export type SavedItem = SavedMessage | SavedCompactionItem | SavedHandItem;

export interface SavedConversation {
  id: string;
  title: string;
  model: string;
  /** Milliseconds since the epoch. */
  created: number;
  updated: number;
  items: SavedItem[];
  /** Front matter lines this format does not know (a user's tags …), kept verbatim. */
  extraFrontMatter?: string[];
}

/** The end of a note that is not a complete block: what a crash in the middle of an append (or of
 * a reply being written) leaves. */
export interface TornTail {
  /** 1-based line where the incomplete block starts. */
  line: number;
  /** true: a message's text was read from it (the last item, marked stopped); false: nothing could be. */
  recovered: boolean;
  /** The lines that were left out. */
  dropped: string;
}
