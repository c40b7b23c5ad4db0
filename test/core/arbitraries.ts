// fast-check generators of conversations shaped like real ones: tool calls with results out of
// order or interleaved, orphan results, reused call ids, system messages, empty and odd-Unicode text.
import fc from 'fast-check';
import type { ChatMessage, ToolCall } from '../../src/core/messages';

export const anyText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom('', ' ', '你好，世界', 'こんにちは', '[[Note|alias]]', '```ts\nconst x = 1;\n```', '😀👍🏽', '\uD800', 'a\uDC00b'),
);

type Step =
  | { kind: 'user'; text: string }
  | { kind: 'system'; text: string }
  | { kind: 'assistant'; text: string; calls: number; reuseIds: boolean; shuffle: number[]; interleave: boolean }
  | { kind: 'orphan'; text: string };

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('user' as const), text: anyText }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('system' as const), text: anyText }) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('assistant' as const),
      text: anyText,
      calls: fc.integer({ min: 0, max: 3 }),
      reuseIds: fc.boolean(),
      shuffle: fc.array(fc.integer({ min: 0, max: 100 }), { minLength: 3, maxLength: 3 }),
      interleave: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('orphan' as const), text: anyText }) },
);

/** Builds messages from steps; ids are unique, timestamps increase. */
export function buildConversation(steps: readonly Step[]): ChatMessage[] {
  const messages: ChatMessage[] = [];
  let n = 0;
  const base = { createdAt: 0 };
  const next = () => ({ id: `m${n}`, createdAt: base.createdAt + n++ * 1000 });
  let pending: ChatMessage[] = [];
  for (const s of steps) {
    if (s.kind === 'user') messages.push({ ...next(), role: 'user', content: s.text });
    else if (s.kind === 'system') messages.push({ ...next(), role: 'system', content: s.text });
    else if (s.kind === 'orphan') messages.push({ ...next(), role: 'tool', toolCallId: `orphan-${n}`, content: s.text });
    else {
      const header = next();
      const calls: ToolCall[] = Array.from({ length: s.calls }, (_, i) => ({
        id: s.reuseIds ? `call_${i}` : `${header.id}-c${i}`,
        name: i % 2 ? 'search_vault' : 'read_note',
        arguments: JSON.stringify({ path: `Notes/n${i}.md` }),
      }));
      messages.push({ ...header, role: 'assistant', content: s.text, ...(calls.length ? { toolCalls: calls } : {}) });
      const results: ChatMessage[] = calls.map((c) => ({ ...next(), role: 'tool', toolCallId: c.id, name: c.name, content: `result of ${c.id}` }));
      // Out of order: sort by the generated keys.
      const order = results.map((r, i) => ({ r, k: s.shuffle[i] ?? i })).sort((a, b) => a.k - b.k).map((x) => x.r);
      if (s.interleave && order.length > 1) {
        // Half now, the rest after the next step: results interleaved with other messages.
        messages.push(...order.slice(0, 1));
        pending = order.slice(1);
        continue;
      }
      messages.push(...order);
    }
    if (pending.length) {
      messages.push(...pending);
      pending = [];
    }
  }
  messages.push(...pending);
  return messages;
}

export const conversation = fc.array(step, { maxLength: 40 }).map(buildConversation);

export function msg(role: 'user' | 'assistant' | 'system', content: string, id: string): ChatMessage {
  return { id, createdAt: 0, role, content };
}
