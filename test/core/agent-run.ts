// A hand-written agent run for the tests that read its block (shared so each test file does not
// write its own): the task, then one assistant message per step with its tool call and result, and
// a follow-up the compaction keeps.
import { compact } from '../../src/core/compact';
import type { ChatMessage } from '../../src/core/messages';
import type { CompactionRecord } from '../../src/core/record';

export type Step = readonly [text: string, command: string | { name: string; args: Record<string, unknown> }, output: string];

/** The run: `task`, the steps (a string is a bash command), then `followUp`; ids start with `prefix`. */
export function run(task: string, steps: readonly Step[], followUp = 'Go on.', prefix = ''): ChatMessage[] {
  const chat: ChatMessage[] = [{ id: `${prefix}u0`, createdAt: 0, role: 'user', content: task }];
  steps.forEach(([text, call, output], i) => {
    const n = `${prefix}${i + 1}`;
    const { name, args } = typeof call === 'string' ? { name: 'bash', args: { command: call } } : call;
    chat.push({ id: `a${n}`, createdAt: 0, role: 'assistant', content: text, toolCalls: [{ id: `c${n}`, name, arguments: JSON.stringify(args) }] });
    chat.push({ id: `t${n}`, createdAt: 0, role: 'tool', toolCallId: `c${n}`, content: output });
  });
  chat.push({ id: `${prefix}u-last`, createdAt: 0, role: 'user', content: followUp });
  return chat;
}

/** The compaction of all of `chat` but its last message: the block and the record. */
export function compacted(chat: ChatMessage[], budgetTokens = 1200, previous: CompactionRecord | null = null): { block: string; record: CompactionRecord } {
  const r = compact(chat, { budgetTokens, cut: chat.length - 1, model: 'gpt-4o', previous });
  if (!r.ok) throw new Error(r.message);
  return { block: r.block, record: r.record };
}
