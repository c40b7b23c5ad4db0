// What the session and its persistence (session-persistence.ts) both need to know about entries:
// which messages are sent, and the text of a compaction round's notice (written when the round is
// applied, and again when a saved conversation is loaded).
import { plural } from './format';
import type { CompactionCause, CompactionState, MessageEntry } from './session';

/** Whether an entry is part of what is sent: failed turns and empty replies are not. */
export function isSendable(entry: MessageEntry): boolean {
  if (entry.status === 'error' || entry.status === 'streaming') return false;
  const m = entry.message;
  return m.role !== 'assistant' || m.content.trim() !== '' || (m.toolCalls?.length ?? 0) > 0;
}

export function compactionNoticeText(state: CompactionState, removed: number): string {
  const notes = state.restored.notes.length ? `; re-attached ${plural(state.restored.notes.length, 'note')}` : '';
  return `Compacted ${plural(removed, 'message')} (round ${state.record.round}, ${describeCauses(state.causes)}): about ${state.promptBefore.toLocaleString('en-US')} → ${state.promptAfter.toLocaleString('en-US')} tokens${notes}. Every message is still in the conversation.`;
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
