// The figures the token meter shows, computed from the tracker and the settings. Plain data, so
// the view only formats them.
import type { TokenBreakdown } from '../core/tracker';
import type { ProviderUsage } from '../providers/types';

export type MeterLevel = 'ok' | 'near' | 'over';

export interface MeterFigures {
  /** Best estimate of the next prompt (anchored on the provider's figure when there is one). */
  used: number;
  window: number;
  compactionPoint: number;
  /** used / window, 0–1 (clamped). */
  usedRatio: number;
  /** compactionPoint / window, 0–1. */
  pointRatio: number;
  /** 'near' from 90 % of the compaction point, 'over' past it. */
  level: MeterLevel;
  breakdown: {
    systemPrompt: number;
    previousContext: number;
    restoredNotes: number;
    activeNote: number;
    messages: number;
    toolResults: number;
    tools: number;
    overhead: number;
  };
  /** The pure estimate, and what the provider last reported for a whole prompt. */
  estimated: number;
  reported: number | null;
  reportedIsLowerBound: boolean;
  anchored: boolean;
  sentMessages: number;
  messageLimit: number;
}

export interface MeterInput {
  breakdown: TokenBreakdown;
  window: number;
  compactionPoint: number;
  /** Estimated tokens of the system prompt's parts (without the message framing). */
  parts: { base: number; previousContext: number; restored: number; activeNote: number };
  reported: ProviderUsage | null;
  sentMessages: number;
  messageLimit: number;
}

/** Share of the compaction point from which the meter turns amber. */
export const NEAR_SHARE = 0.9;

export function meterFigures(input: MeterInput): MeterFigures {
  const b = input.breakdown;
  const { previousContext, restored, activeNote } = input.parts;
  // The system prompt's framing and separators go to the user's own system prompt.
  const systemPrompt = Math.max(0, b.systemPrompt - previousContext - restored - activeNote);
  const used = b.total;
  const level: MeterLevel = used > input.compactionPoint ? 'over' : used >= input.compactionPoint * NEAR_SHARE ? 'near' : 'ok';
  return {
    used,
    window: input.window,
    compactionPoint: input.compactionPoint,
    usedRatio: input.window > 0 ? Math.min(1, used / input.window) : 0,
    pointRatio: input.window > 0 ? Math.min(1, input.compactionPoint / input.window) : 0,
    level,
    breakdown: {
      systemPrompt,
      previousContext,
      restoredNotes: restored,
      activeNote,
      messages: b.byRole.user + b.byRole.assistant + b.byRole.system,
      toolResults: b.byRole.tool,
      tools: b.tools,
      overhead: b.overhead,
    },
    estimated: b.estimated,
    reported: input.reported?.promptTokens ?? null,
    reportedIsLowerBound: input.reported?.promptTokensLowerBound === true,
    anchored: b.anchorTokens !== null,
    sentMessages: input.sentMessages,
    messageLimit: input.messageLimit,
  };
}

/** The meter's tooltip: one line per part, then estimated vs reported. */
export function describeMeter(f: MeterFigures): string {
  const n = (x: number): string => x.toLocaleString('en-US');
  const lines = [
    `${n(f.used)} of ${n(f.window)} tokens; compaction at ${n(f.compactionPoint)}`,
    `System prompt: ${n(f.breakdown.systemPrompt)}`,
    `Previous context: ${n(f.breakdown.previousContext)}`,
    `Messages: ${n(f.breakdown.messages)}`,
    `Tool results: ${n(f.breakdown.toolResults)}`,
    `Attached notes: ${n(f.breakdown.restoredNotes + f.breakdown.activeNote)}`,
    `Estimated: ${n(f.estimated)}`,
    f.reported === null
      ? 'Reported by the provider: not yet'
      : `Reported by the provider: ${n(f.reported)}${f.reportedIsLowerBound ? ' (may leave out cached tokens)' : ''}${f.anchored ? ', used as the anchor' : ''}`,
  ];
  if (f.messageLimit > 0) lines.push(`Messages sent: ${f.sentMessages} of ${f.messageLimit}`);
  return lines.join('\n');
}
