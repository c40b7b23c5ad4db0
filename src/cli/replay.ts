// The two compactions the CLI runs: one "Compact now" over a whole conversation, and a replay of
// the plugin's automatic compaction message by message (--rounds).
import {
  type ChatMessage,
  type CompactionRecord,
  type CompactionResult,
  type CutOptions,
  TokenTracker,
  compact,
  estimateMessageTokens,
  estimateSystemPromptTokens,
  groupUnits,
  microCompact,
  planCompaction,
  selectCut,
} from '../core';
import type { Resolved } from './settings';

/** Cut options as the plugin's session builds them: what is kept never takes more than half the
 * room before the compaction point, so a compaction always has something to remove. */
export function cutOptions(s: Resolved, tokensOf?: (m: ChatMessage) => number): CutOptions {
  return {
    keepExchanges: s.keepExchanges,
    keepTokens: s.keepTokens,
    maxKeepTokens: Math.max(1, Math.floor(s.point / 2)),
    ...(s.model ? { model: s.model } : {}),
    ...(tokensOf ? { tokensOf } : {}),
  };
}

const lastTime = (messages: readonly ChatMessage[]): number => messages.reduce((t, m) => Math.max(t, m.createdAt), 0);

/** One manual compaction of the whole conversation, as "Compact now" would do it. The record's
 * timestamp is the time of the latest message (0 when the export has none): never the clock. */
export function compactOnce(messages: readonly ChatMessage[], s: Resolved): CompactionResult {
  const cut = selectCut(messages, cutOptions(s));
  if (!cut.ok) return cut;
  return compact(messages, {
    budgetTokens: s.budget,
    cut: cut.index,
    ...(s.focus ? { focus: s.focus } : {}),
    ...(s.model ? { model: s.model } : {}),
    now: lastTime(messages),
    trigger: 'manual',
  });
}

export type ReplayEvent =
  | {
      kind: 'compaction';
      /** 1-based position of the user message about to be sent. */
      beforeMessage: number;
      beforeMessageId: string;
      reasons: string[];
      promptBefore: number;
      promptAfter: number;
      removedCount: number;
      keptCount: number;
      microCleared: string[];
      record: CompactionRecord;
      block: string;
    }
  | { kind: 'micro'; beforeMessage: number; beforeMessageId: string; reasons: string[]; cleared: string[]; tokensSaved: number; promptBefore: number; promptAfter: number }
  | { kind: 'skipped'; beforeMessage: number; beforeMessageId: string; reasons: string[]; message: string };

export interface ReplayResult {
  events: ReplayEvent[];
  rounds: number;
  /** The largest prompt estimate seen before any request, and the estimate at the end. */
  peakTokens: number;
  finalTokens: number;
  messages: number;
}

/**
 * Replays the conversation as the plugin would have sent it: each message is appended to a token
 * tracker; before each user message is sent, if the triggers fire, old tool results are
 * micro-compacted first, then the conversation is compacted with the previous record and the
 * rest continues from the kept messages plus the block. A compaction that would not shrink the
 * prompt is not applied (reported once, like the plugin).
 */
export function replay(messages: readonly ChatMessage[], s: Resolved): ReplayResult {
  const model = s.model;
  const tracker = new TokenTracker(model ? { model } : {});
  /** Placeholders sent instead of micro-compacted tool results, by id. */
  const cleared = new Map<string, ChatMessage>();
  const sentVersion = (m: ChatMessage): ChatMessage => cleared.get(m.id) ?? m;
  const all: ChatMessage[] = [];
  let boundary = 0;
  let previous: CompactionRecord | null = null;
  const events: ReplayEvent[] = [];
  let lastSkip = '';
  let peak = 0;
  const tokensOf = (m: ChatMessage): number => tracker.messageTokens(m.id) ?? estimateMessageTokens(m, model);
  const trigger = () => ({ promptTokens: tracker.total(), compactionPoint: s.point, messageCount: all.length - boundary, messageLimit: s.messageLimit });

  messages.forEach((message, index) => {
    all.push(message);
    tracker.append(message);
    if (message.role !== 'user') return;
    const at = { beforeMessage: index + 1, beforeMessageId: message.id };
    peak = Math.max(peak, tracker.total());
    const sent = all.slice(boundary);
    const plan = planCompaction(sent, trigger(), cutOptions(s, tokensOf));
    if (plan.action === 'none') return;
    const reasons = plan.reasons;
    const promptBefore = tracker.total();
    const skip = (text: string): void => {
      if (text !== lastSkip) events.push({ kind: 'skipped', ...at, reasons, message: text });
      lastSkip = text;
    };

    let microCleared: string[] = [];
    if (s.micro && !reasons.includes('messages')) {
      const micro = microCompact(sent.map(sentVersion), { keepRecentUnits: Math.max(4, s.keepExchanges * 2), ...(model ? { model } : {}) });
      if (micro.clearedIds.length) {
        microCleared = micro.clearedIds;
        for (const m of micro.messages) {
          if (!micro.clearedIds.includes(m.id)) continue;
          cleared.set(m.id, m);
          tracker.update(m);
        }
        const again = planCompaction(all.slice(boundary), trigger(), cutOptions(s, tokensOf));
        if (again.action === 'none') {
          events.push({ kind: 'micro', ...at, reasons, cleared: micro.clearedIds, tokensSaved: micro.tokensSaved, promptBefore, promptAfter: tracker.total() });
          lastSkip = '';
          return;
        }
      }
    }

    const cut = selectCut(all.slice(boundary), cutOptions(s, tokensOf));
    if (!cut.ok) return skip(cut.message);
    const result = compact(all, {
      budgetTokens: s.budget,
      cut: boundary + cut.index,
      previous,
      ...(model ? { model } : {}),
      now: message.createdAt,
      trigger: reasons[0] === 'messages' ? 'messages' : 'tokens',
      tokensOf,
    });
    if (!result.ok) return skip(result.message);
    if (result.unchanged) return skip('Nothing new to compact.');

    const removedTokens = result.removed.reduce((sum, m) => sum + (tracker.messageTokens(m.id) ?? 0), 0);
    const estimated = tracker.estimated();
    const promptAfter = estimated - removedTokens - estimateSystemPromptTokens(previous?.block ?? '', model) + estimateSystemPromptTokens(result.block, model);
    if (promptAfter >= estimated) {
      return skip(`Compaction was not applied: it would not shrink the prompt (${estimated.toLocaleString('en-US')} → ${promptAfter.toLocaleString('en-US')} tokens).`);
    }
    for (const m of result.removed) tracker.remove(m.id);
    tracker.setSystemPrompt(result.block);
    previous = result.record;
    const through = result.record.removedThrough;
    boundary = through ? all.findIndex((m) => m.id === through) + 1 : boundary;
    lastSkip = '';
    events.push({
      kind: 'compaction',
      ...at,
      reasons,
      promptBefore,
      promptAfter: tracker.total(),
      removedCount: result.removed.length,
      keptCount: result.kept.length,
      microCleared,
      record: result.record,
      block: result.block,
    });
  });
  peak = Math.max(peak, tracker.total());
  return { events, rounds: events.filter((e) => e.kind === 'compaction').length, peakTokens: peak, finalTokens: tracker.total(), messages: messages.length };
}

/** Units of a message list (for the stats line). */
export function unitCount(messages: readonly ChatMessage[]): number {
  return groupUnits(messages).length;
}
