// When to compact: before a request, if the prompt would cross the compaction point or the
// conversation has more messages than the limit; or when the user asks ("Compact now").
import { type CutOptions, type CutResult, selectCut } from './cut';
import type { ChatMessage } from './messages';

export type TriggerReason = 'tokens' | 'messages' | 'manual';

export interface TriggerInput {
  /** Estimated (or anchored) size of the prompt that is about to be sent. */
  promptTokens: number;
  /** From {@link compactionPoint}. */
  compactionPoint: number;
  /** Messages that would be sent. */
  messageCount: number;
  /** Compact when messageCount exceeds this; 0 or less disables the limit. */
  messageLimit: number;
}

export interface TriggerDecision {
  fire: boolean;
  /** Every condition that holds, token trigger first. */
  reasons: TriggerReason[];
}

export function shouldCompact(input: TriggerInput): TriggerDecision {
  const reasons: TriggerReason[] = [];
  if (input.promptTokens > input.compactionPoint) reasons.push('tokens');
  if (input.messageLimit > 0 && input.messageCount > input.messageLimit) reasons.push('messages');
  return { fire: reasons.length > 0, reasons };
}

export type CompactionPlan =
  | { action: 'none' }
  | { action: 'compact'; reasons: TriggerReason[]; cut: Extract<CutResult, { ok: true }> }
  /** A trigger fired (or the user asked) but every message must be kept: reported, never an error. */
  | { action: 'nothing-to-compact'; reasons: TriggerReason[]; message: string };

/**
 * Decides what to do before a request: nothing, compact at a cut, or report that there is nothing
 * to compact. `manual` skips the triggers (the user pressed "Compact now").
 */
export function planCompaction(
  messages: readonly ChatMessage[],
  trigger: TriggerInput | { manual: true },
  cutOptions: CutOptions,
): CompactionPlan {
  const reasons: TriggerReason[] = 'manual' in trigger ? ['manual'] : shouldCompact(trigger).reasons;
  if (reasons.length === 0) return { action: 'none' };
  const cut = selectCut(messages, cutOptions);
  return cut.ok ? { action: 'compact', reasons, cut } : { action: 'nothing-to-compact', reasons, message: cut.message };
}
