// The two compactions the CLI runs: one "Compact now" over a whole conversation, and a replay of
// the plugin's automatic compaction message by message (--rounds).
import {
  type ChatMessage,
  type CompactionRecord,
  type CompactionResult,
  type ToolDefinition,
  REQUEST_OVERHEAD_TOKENS,
  TokenTracker,
  compact,
  decideCompaction,
  estimateMessageTokens,
  estimateSystemPromptTokens,
  groupUnits,
  historyWorthOffering,
  HISTORY_LINE,
  HISTORY_TOOL_DEFINITION,
  microCompact,
  microSuffices,
  compactionTarget,
  sentFrom,
  withHistoryLine,
} from '../core';
import type { Resolved } from './settings';

const lastTime = (messages: readonly ChatMessage[]): number => messages.reduce((t, m) => Math.max(t, m.createdAt), 0);
const isUser = (m: ChatMessage): boolean => m.role === 'user';
const none = (): boolean => false;

/** One manual compaction of the whole conversation, as "Compact now" would do it: the policy's
 * cut for the whole conversation as one prompt. The record's timestamp is the time of the latest
 * message (0 when the export has none): never the clock. */
export function compactOnce(messages: readonly ChatMessage[], s: Resolved): CompactionResult {
  const model = s.model;
  const tokensOf = (m: ChatMessage): number => estimateMessageTokens(m, model);
  const prompt = REQUEST_OVERHEAD_TOKENS + messages.reduce((sum, m) => sum + tokensOf(m), 0);
  const plan = decideCompaction({ budgets: s.budgets, messages, tokensOf, promptTokens: prompt, fixedTokens: REQUEST_OVERHEAD_TOKENS, manual: true, ...(model ? { model } : {}) });
  if (plan.action === 'none') return { ok: false, reason: 'nothing-to-compact', message: 'Nothing to compact.' };
  if (plan.action === 'nothing-to-compact') return { ok: false, reason: 'nothing-to-compact', message: plan.message };
  return compact(messages, {
    budgetTokens: s.budget,
    cut: plan.cut,
    ...(s.focus ? { focus: s.focus } : {}),
    ...(model ? { model } : {}),
    now: lastTime(messages),
    trigger: 'manual',
  });
}

interface At {
  /** 1-based position of the last message the request carries (the user message or tool result
   * about to be sent). */
  beforeMessage: number;
  beforeMessageId: string;
}

export type ReplayEvent =
  | (At & {
      kind: 'compaction';
      reasons: string[];
      promptBefore: number;
      promptAfter: number;
      removedCount: number;
      keptCount: number;
      microCleared: string[];
      /** The latest user message is still sent although the cut passed it (a tool loop compacted
       * inside its turn). */
      inTurn: boolean;
      /** The target is out of reach: the latest user message (always sent whole) is too big for it. */
      oversized: boolean;
      record: CompactionRecord;
      block: string;
    })
  | (At & { kind: 'micro'; reasons: string[]; cleared: string[]; tokensSaved: number; promptBefore: number; promptAfter: number })
  | (At & { kind: 'skipped'; reasons: string[]; message: string });

export interface ReplayResult {
  events: ReplayEvent[];
  rounds: number;
  /** The largest prompt sent (after any compaction before its request), and the estimate at the end. */
  peakTokens: number;
  finalTokens: number;
  messages: number;
  /** Requests made while the prompt was still over the compaction point (oversized requests aside). */
  overPoint: number;
  /** Requests over the point whose latest user message alone is over the room a compaction at the point aims at. */
  oversizedRequests: number;
  /** Requests made (one before every assistant message, and one at the end when the conversation
   * ends on a user message or a tool result). */
  requests: number;
}

/**
 * Replays the conversation as the plugin would have sent it: each message is appended to a token
 * tracker, and before every request (each assistant message is the reply to one) the compaction
 * policy is consulted, as the chat session does: old tool results are micro-compacted first when
 * that alone reaches the target, otherwise the conversation is compacted at the policy's cut with
 * the previous record, and the rest continues from the kept messages plus the block. A compaction
 * that would not shrink the prompt is not applied (reported once, like the plugin).
 */
export function replay(messages: readonly ChatMessage[], s: Resolved, options: { tools?: readonly ToolDefinition[] } = {}): ReplayResult {
  const model = s.model;
  const budgets = s.budgets;
  // Tool definitions sent with every request count in the prompt, as in the plugin.
  const tracker = new TokenTracker({ ...(model ? { model } : {}), ...(options.tools ? { tools: options.tools } : {}) });
  /** Placeholders sent instead of micro-compacted tool results, by id. */
  const cleared = new Map<string, ChatMessage>();
  const sentVersion = (m: ChatMessage): ChatMessage => cleared.get(m.id) ?? m;
  const all: ChatMessage[] = [];
  let boundary = 0;
  let previous: CompactionRecord | null = null;
  const events: ReplayEvent[] = [];
  let lastSkip = '';
  let peak = 0;
  let overPoint = 0;
  let oversizedRequests = 0;
  let requests = 0;
  const tokensOf = (m: ChatMessage): number => tracker.messageTokens(m.id) ?? estimateMessageTokens(m, model);
  /** A request the latest round carried in compacted form is no longer sent (as the session). */
  const carriedNow = (m: ChatMessage): boolean => m.id === previous?.requestCarried;
  /** The block as sent: once messages are no longer sent, it names the history tool, which the
   * session then offers with the other tools (see searchable()). */
  let shownBlock = '';
  let offered = false;
  const blockTokens = (): number => estimateSystemPromptTokens(shownBlock, model);
  /** Characters of the messages no longer sent as written (as the session's history index). */
  const unsentChars = (): number => all.slice(0, boundary).reduce((n, m) => n + m.content.length, 0) + [...cleared.keys()].reduce((n, id) => n + (all.find((m) => m.id === id && all.indexOf(m) >= boundary)?.content.length ?? 0), 0);
  const searchable = (): void => {
    offered = true;
    shownBlock = withHistoryLine(previous?.block ?? '');
    tracker.setSystemPrompt(shownBlock);
    tracker.setTools([...(options.tools ?? []), HISTORY_TOOL_DEFINITION]);
  };
  /** While the tool is offered its line goes with every block, so it is a fixed part: the next
   * block's budget must leave room for it, and for the system message it is sent in (as the
   * session's context counts it: the line alone is a system prompt, overhead included). */
  const lineTokens = (): number => (offered ? estimateSystemPromptTokens(HISTORY_LINE, model) : 0);
  const fixedTokens = (): number => tracker.estimated() - blockTokens() + lineTokens() - sentFrom(all, boundary, isUser, none, carriedNow).reduce((sum, m) => sum + tokensOf(m), 0);

  const beforeRequest = (last: ChatMessage, position: number): void => {
    requests++;
    const at: At = { beforeMessage: position, beforeMessageId: last.id };
    const round = (quiet: boolean): void => {
      const promptBefore = tracker.total();
      const sent = sentFrom(all, boundary, isUser, none, carriedNow);
      let plan = decideCompaction({ budgets, messages: sent, tokensOf, promptTokens: promptBefore, fixedTokens: fixedTokens(), ...(model ? { model } : {}) });
      if (plan.action !== 'none') {
        const reasons = plan.reasons;
        const skip = (text: string): void => {
          if (quiet) return;
          if (text !== lastSkip) events.push({ kind: 'skipped', ...at, reasons, message: text });
          lastSkip = text;
        };
        let microCleared: string[] = [];
        if (plan.action === 'compact' && s.micro && !reasons.includes('messages')) {
          const micro = microCompact(sent.map(sentVersion), { keepRecentUnits: Math.max(4, budgets.keepExchanges * 2), ...(model ? { model } : {}) });
          if (micro.clearedIds.length) {
            microCleared = micro.clearedIds;
            for (const m of micro.messages) {
              if (!micro.clearedIds.includes(m.id)) continue;
              cleared.set(m.id, m);
              tracker.update(m);
            }
            if (microSuffices(tracker.total(), plan)) {
              events.push({ kind: 'micro', ...at, reasons, cleared: micro.clearedIds, tokensSaved: micro.tokensSaved, promptBefore, promptAfter: tracker.total() });
              lastSkip = '';
              plan = { action: 'none' };
            } else {
              plan = decideCompaction({ budgets, messages: sent, tokensOf, promptTokens: tracker.total(), promptBefore, fixedTokens: fixedTokens(), ...(model ? { model } : {}) });
            }
          }
        }
        if (plan.action === 'nothing-to-compact') skip(plan.message);
        else if (plan.action === 'compact') {
          const cutMessage = sent[plan.cut];
          const cut = cutMessage ? all.indexOf(cutMessage) : all.length;
          const carried = plan.carried === null ? undefined : sent[plan.carried]?.id;
          const result = compact(all, { budgetTokens: plan.blockBudget, cut, previous, ...(model ? { model } : {}), now: last.createdAt, trigger: reasons[0] === 'messages' ? 'messages' : 'tokens', tokensOf, ...(carried ? { requestCarried: carried } : {}) });
          if (!result.ok) skip(result.message);
          else if (result.unchanged) skip('Nothing new to compact.');
          else {
            const pinned = plan.pinned === null ? null : (sent[plan.pinned] as ChatMessage);
            // A request an earlier round of this turn kept sent, now carried by the block, stops
            // being sent with this round.
            const carriedMessage = carried && !result.removed.some((m) => m.id === carried) ? all.find((m) => m.id === carried) : undefined;
            const dropped = [...(carriedMessage ? [carriedMessage] : []), ...result.removed.filter((m) => m !== pinned)];
            const removedTokens = dropped.reduce((sum, m) => sum + (tracker.messageTokens(m.id) ?? 0), 0);
            const estimated = tracker.estimated();
            const nextBlock = offered ? withHistoryLine(result.block) : result.block;
            const promptAfter = estimated - removedTokens - blockTokens() + estimateSystemPromptTokens(nextBlock, model);
            if (promptAfter >= estimated) {
              skip(`Compaction was not applied: it would not shrink the prompt (${estimated.toLocaleString('en-US')} → ${promptAfter.toLocaleString('en-US')} tokens).`);
            } else {
              for (const m of dropped) tracker.remove(m.id);
              // As the session's context: the new block carries the line if the tool was offered.
              shownBlock = nextBlock;
              tracker.setSystemPrompt(shownBlock);
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
                removedCount: dropped.length,
                keptCount: sentFrom(all, boundary, isUser, none, carriedNow).length,
                microCleared,
                inTurn: pinned !== null,
                oversized: plan.oversized,
                record: result.record,
                block: result.block,
              });
            }
          }
        }
      }
    };
    round(false);
    // Offering the history tool adds its definition and a line to the prompt the policy just
    // sized: it is asked once more, silently when nothing more can go (as the session does).
    if (!offered && historyWorthOffering(unsentChars(), budgets.window)) {
      searchable();
      round(true);
    }
    const sentNow = tracker.total();
    peak = Math.max(peak, sentNow);
    if (sentNow > budgets.point) {
      const request = sentFrom(all, boundary, isUser, none, carriedNow).find(isUser);
      if (request && tokensOf(request) > compactionTarget(budgets.point, budgets.window)) oversizedRequests++;
      else overPoint++;
    }
  };

  messages.forEach((message, index) => {
    const last = all[all.length - 1];
    if (message.role === 'assistant' && last) beforeRequest(last, index);
    // A new request: a user message the last in-turn compaction kept before the boundary is no
    // longer the latest, so it stops being sent (the block carries it).
    if (message.role === 'user') for (const m of sentFrom(all, boundary, isUser, none, carriedNow).slice(0, 1)) if (all.indexOf(m) < boundary) tracker.remove(m.id);
    all.push(message);
    tracker.append(message);
  });
  const last = all[all.length - 1];
  if (last && last.role !== 'assistant') beforeRequest(last, all.length);
  return { events, rounds: events.filter((e) => e.kind === 'compaction').length, peakTokens: peak, finalTokens: tracker.total(), messages: messages.length, overPoint, oversizedRequests, requests };
}

/** Units of a message list (for the stats line). */
export function unitCount(messages: readonly ChatMessage[]): number {
  return groupUnits(messages).length;
}
