// The compaction settings the CLI runs with. Defaults mirror the plugin's (DEFAULT_SETTINGS in
// src/chat/settings.ts: reply reserve 2048, trigger at 85 % of the window, no message limit, keep 2
// exchanges and 2,000 tokens, a 1,500-token block, micro-compaction on). They are copied, not
// imported: the CLI sits beside the chat layer and must not depend on it.
import { type Budgets, contextWindowFor, resolveBudgets } from '../core';
import type { Conversation } from './formats';

export const CLI_DEFAULTS = {
  replyReserve: 2048,
  triggerPercent: 85,
  messageLimit: 0,
  keepExchanges: 2,
  keepTokens: 2000,
  budget: 1500,
  micro: true,
} as const;

export interface CliSettings {
  budget: number;
  keepExchanges: number;
  keepTokens: number;
  /** From --window; otherwise the model's window. */
  window?: number;
  /** From --model; otherwise the model the export names. */
  model?: string;
  replyReserve: number;
  triggerPercent: number;
  messageLimit: number;
  micro: boolean;
  focus?: string;
}

/** The settings as they apply to one conversation: its model, window and compaction point. */
export interface Resolved extends CliSettings {
  model?: string;
  window: number;
  windowFrom: 'option' | 'model' | 'default';
  point: number;
  /** What the policy works with in this window (configured numbers scaled down where they do not fit). */
  budgets: Budgets;
}

export function resolve(settings: CliSettings, conversation: Conversation): Resolved {
  const model = settings.model ?? conversation.model;
  const window = settings.window ?? contextWindowFor(model);
  const windowFrom = settings.window !== undefined ? 'option' : model && contextWindowFor(model) !== contextWindowFor(undefined) ? 'model' : 'default';
  const budgets = resolveBudgets({
    window,
    replyReserve: settings.replyReserve,
    trigger: { kind: 'percent', percent: settings.triggerPercent },
    messageLimit: settings.messageLimit,
    keepExchanges: settings.keepExchanges,
    keepTokens: settings.keepTokens,
    blockBudget: settings.budget,
    restoredBudget: 0,
  });
  const out: Resolved = { ...settings, window, windowFrom, point: budgets.point, budgets };
  if (model) out.model = model;
  else delete out.model;
  return out;
}
