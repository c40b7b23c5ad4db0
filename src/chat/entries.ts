// The conversation's entries as the session holds them (messages with their status, notices,
// applied compaction rounds), and what the session, its persistence (session-persistence.ts) and
// the views all need to know about them: which messages are sent, and the text of a compaction
// round's notice (written when the round is applied, and again when a saved conversation is loaded).
import type { ChatMessage } from '../core/messages';
import type { CompactionRecord } from '../core/record';
import type { TriggerReason } from '../core/triggers';
import type { ProviderErrorKind } from '../providers/errors';
import type { StopReason } from '../providers/types';
import { plural, promptChange } from './format';
import type { RestoredNotes } from './restore';

export type MessageStatus = 'done' | 'streaming' | 'stopped' | 'error';

/** An error shown in the conversation, with what the user can do about it. */
export interface ChatError {
  kind: ProviderErrorKind | 'no-model' | 'unexpected';
  message: string;
  /** Models the server offers, for a model it does not know. */
  availableModels?: string[];
}

export interface MessageEntry {
  kind: 'message';
  id: string;
  message: ChatMessage;
  status: MessageStatus;
  error?: ChatError;
  stopReason?: StopReason;
  /** The model that wrote an assistant reply. */
  model?: string;
  /** Vault paths of the notes a user message mentions (`[[…]]`): sent as context with it. */
  mentions?: string[];
  /** Pinned by the user: always sent verbatim, never removed by compaction (with its unit). */
  pinned?: boolean;
}

export interface NoticeEntry {
  kind: 'notice';
  id: string;
  level: 'info' | 'warning';
  text: string;
  /** Set for the notice of an applied compaction. */
  compaction?: CompactionState;
  /** Set on that notice once the round was undone (the notice stays: it happened). */
  undone?: boolean;
  /** Text the user wrote in the conversation's note outside the messages (`text`): shown as their
   * note, saved back where it was, never sent. */
  hand?: boolean;
}

export type ChatEntry = MessageEntry | NoticeEntry;

export type CompactionCause = TriggerReason | 'overflow';

/** One applied compaction round: the core's record (boundary = `record.removedThrough`, the block
 * sent, the round) plus what the session did around it. */
export interface CompactionState {
  record: CompactionRecord;
  causes: CompactionCause[];
  /** Tool results replaced by placeholders just before this round (micro-compaction). */
  microCleared: string[];
  restored: RestoredNotes;
  /** Estimated prompt tokens just before and just after (system prompt included). */
  promptBefore: number;
  promptAfter: number;
}

/** Whether an entry is part of what is sent: failed turns and empty replies are not. */
export function isSendable(entry: MessageEntry): boolean {
  if (entry.status === 'error' || entry.status === 'streaming') return false;
  const m = entry.message;
  return m.role !== 'assistant' || m.content.trim() !== '' || (m.toolCalls?.length ?? 0) > 0;
}

/** The prose line of a round's notice: "12 messages summarised; 7,012 → 2,210 tokens. Round 1, near
 * the context limit; re-attached 1 note." (the same figures as the summary panel). */
export function compactionNoticeText(state: CompactionState, removed: number): string {
  const notes = state.restored.notes.length ? `; re-attached ${plural(state.restored.notes.length, 'note')}` : '';
  return `${plural(removed, 'message')} summarised; ${promptChange(state.promptBefore, state.promptAfter)}. Round ${state.record.round}, ${describeCauses(state.causes)}${notes}. Every message is still in the conversation.`;
}

function describeCauses(causes: CompactionCause[]): string {
  const words: Record<CompactionCause, string> = {
    tokens: 'near the context limit',
    messages: 'message limit reached',
    manual: 'requested',
    overflow: 'the server said the prompt was too long',
  };
  return causes.map((c) => words[c]).join(', ');
}
