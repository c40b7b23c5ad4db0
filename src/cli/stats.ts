// `compact-chat stats`: token estimates per role and where the compaction point falls.
import { type ChatMessage, type Role, ROLES, TokenTracker, groupUnits } from '../core';
import type { Conversation } from './formats';
import type { Resolved } from './settings';

export interface RoleStats {
  messages: number;
  tokens: number;
}

export interface ConversationStats {
  id: string;
  title: string;
  messages: number;
  units: number;
  toolCalls: number;
  images: number;
  byRole: Record<Role, RoleStats>;
  /** Estimated prompt if the whole conversation were sent (messages + request overhead). */
  totalTokens: number;
  model: string | null;
  window: number;
  windowFrom: Resolved['windowFrom'];
  compactionPoint: number;
  replyReserve: number;
  triggerPercent: number;
  /** 1-based position of the first message after which the running total exceeds the point; null when it never does. */
  crossesAt: number | null;
  crossesAtId: string | null;
  /** Times of the first and last message, ms (0 when the export has none). */
  firstAt: number;
  lastAt: number;
}

export function conversationStats(conversation: Conversation, s: Resolved): ConversationStats {
  const tracker = new TokenTracker(s.model ? { model: s.model } : {});
  let crossesAt: number | null = null;
  let crossesAtId: string | null = null;
  let toolCalls = 0;
  let images = 0;
  const counts: Record<Role, number> = { system: 0, user: 0, assistant: 0, tool: 0 };
  conversation.messages.forEach((m: ChatMessage, i) => {
    tracker.append(m);
    counts[m.role]++;
    if (m.role === 'assistant') toolCalls += m.toolCalls?.length ?? 0;
    if (m.role === 'user') images += m.images?.length ?? 0;
    if (crossesAt === null && tracker.total() > s.point) {
      crossesAt = i + 1;
      crossesAtId = m.id;
    }
  });
  const breakdown = tracker.breakdown();
  const byRole = Object.fromEntries(ROLES.map((r) => [r, { messages: counts[r], tokens: breakdown.byRole[r] }])) as Record<Role, RoleStats>;
  const times = conversation.messages.map((m) => m.createdAt).filter((t) => t > 0);
  return {
    id: conversation.id,
    title: conversation.title,
    messages: conversation.messages.length,
    units: groupUnits(conversation.messages).length,
    toolCalls,
    images,
    byRole,
    totalTokens: tracker.total(),
    model: s.model ?? null,
    window: s.window,
    windowFrom: s.windowFrom,
    compactionPoint: s.point,
    replyReserve: s.budgets.replyReserve,
    triggerPercent: s.triggerPercent,
    crossesAt,
    crossesAtId,
    firstAt: times.reduce((a, t) => (a === 0 || t < a ? t : a), 0),
    lastAt: times.reduce((a, t) => Math.max(a, t), 0),
  };
}
