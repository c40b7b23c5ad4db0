// Puts the conversation into the shape every provider accepts before any wire format is built:
// each assistant message with tool calls is followed directly by exactly one result per call.
//
// All three APIs reject a request where that does not hold (OpenAI: "tool_calls must be followed
// by tool messages responding to each tool_call_id"; Anthropic: every tool_use needs a tool_result
// in the next user message, and a tool_result needs its tool_use). Our conversation can break it:
// results may arrive interleaved with other messages, compaction or an edit may remove a call but
// keep its result, and a reply stopped mid-tool leaves calls without results. The pairing follows
// core's atomic units (groupUnits), so what is sent agrees with what compaction keeps together.
import type { ChatMessage, ToolCall, ToolResultMessage } from '../core/messages';
import { groupUnits } from '../core/units';

export interface PairedResult {
  call: ToolCall;
  content: string;
  isError: boolean;
}

export type Turn =
  | { kind: 'system'; text: string }
  | { kind: 'user'; text: string }
  | { kind: 'assistant'; text: string; calls: ToolCall[] }
  /** Follows the assistant turn whose calls it answers, one result per call, in call order. */
  | { kind: 'tool-results'; results: PairedResult[] };

/** Text sent in place of a result that never came (the user stopped the reply, the tool crashed). */
export const MISSING_RESULT = 'No result: the tool call was not completed.';

/**
 * A result whose call is not in what is sent cannot be sent as a tool result. Its content may
 * still matter (the note the model read), so it goes as plain text in a user message, labelled so
 * the model does not take it for something the user typed.
 */
export function orphanResultText(message: ToolResultMessage): string {
  const tool = message.name ? `tool "${message.name}"` : 'a tool';
  const status = message.isError ? ' (it failed)' : '';
  return `[Result of ${tool}${status}, call ${message.toolCallId}, whose request is no longer in this conversation:]\n${message.content}`;
}

export function pairTurns(messages: readonly ChatMessage[]): Turn[] {
  const turns: Turn[] = [];
  for (const unit of groupUnits(messages)) {
    const first = messages[unit.indices[0] as number] as ChatMessage;
    if (first.role === 'system') {
      turns.push({ kind: 'system', text: first.content });
    } else if (first.role === 'user') {
      turns.push({ kind: 'user', text: first.content });
    } else if (first.role === 'tool') {
      turns.push({ kind: 'user', text: orphanResultText(first) });
    } else {
      const calls = first.toolCalls ?? [];
      turns.push({ kind: 'assistant', text: first.content, calls: [...calls] });
      if (!calls.length) continue;
      // The first result per call id answers it; a second result for the same id would be a
      // duplicate tool result (rejected by the APIs), so it travels as text instead.
      const answers = new Map<string, ToolResultMessage>();
      const extras: ToolResultMessage[] = [];
      for (const index of unit.indices.slice(1)) {
        const result = messages[index] as ToolResultMessage;
        if (answers.has(result.toolCallId)) extras.push(result);
        else answers.set(result.toolCallId, result);
      }
      const seen = new Set<string>();
      const results: PairedResult[] = [];
      for (const call of calls) {
        // A model that reused one id for two calls in the same message: only the first can be
        // answered by id, the second gets the "no result" text.
        const answer = seen.has(call.id) ? undefined : answers.get(call.id);
        seen.add(call.id);
        results.push(
          answer
            ? { call, content: answer.content, isError: answer.isError === true }
            : { call, content: MISSING_RESULT, isError: true },
        );
      }
      turns.push({ kind: 'tool-results', results });
      for (const extra of extras) turns.push({ kind: 'user', text: orphanResultText(extra) });
    }
  }
  return turns;
}
