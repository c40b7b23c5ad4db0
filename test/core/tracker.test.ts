import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { estimateMessageTokens, estimatePromptTokens, estimateSystemPromptTokens, estimateToolDefinitionsTokens, REQUEST_OVERHEAD_TOKENS } from '../../src/core/message-tokens';
import type { ChatMessage, ToolDefinition } from '../../src/core/messages';
import { TokenTracker } from '../../src/core/tracker';
import { anyText, msg } from './arbitraries';
import { SAMPLES } from './token-samples';

const tools: ToolDefinition[] = [
  { name: 'read_note', description: 'Read a note from the vault', parameters: { type: 'object', properties: { path: { type: 'string' } } } },
];

describe('TokenTracker', () => {
  it('equals the full estimate of the same request', () => {
    const messages = [msg('user', 'What links to [[Project plan]]?', 'u'), msg('assistant', 'Three notes do.', 'a')];
    const tracker = new TokenTracker({ model: 'gpt-4o', systemPrompt: 'You are helpful.', tools });
    messages.forEach((m) => tracker.append(m));
    expect(tracker.total()).toBe(estimatePromptTokens({ systemPrompt: 'You are helpful.', messages, tools }, 'gpt-4o'));
  });

  it('rejects a duplicate id and ignores removal of an unknown one', () => {
    const tracker = new TokenTracker();
    tracker.append(msg('user', 'a', 'x'));
    expect(() => tracker.append(msg('user', 'b', 'x'))).toThrow(/already tracked/);
    expect(tracker.remove('nope')).toBe(false);
  });

  it('anchors on provider usage and estimates only what came after', () => {
    const tracker = new TokenTracker({ model: 'gpt-4o', systemPrompt: 'sys' });
    const u = msg('user', 'hello there', 'u');
    tracker.append(u);
    tracker.recordUsage({ promptTokens: 1000 }, 'u');
    expect(tracker.total()).toBe(1000);
    const reply = msg('assistant', 'a reply of some words', 'a');
    tracker.append(reply);
    expect(tracker.total()).toBe(1000 + estimateMessageTokens(reply, 'gpt-4o'));
    expect(tracker.breakdown()).toMatchObject({ anchorTokens: 1000, sinceAnchor: estimateMessageTokens(reply, 'gpt-4o') });
  });

  it('uses the reported completion tokens for the reply', () => {
    const tracker = new TokenTracker();
    tracker.append(msg('user', 'q', 'u'));
    tracker.append(msg('assistant', 'short', 'a'));
    tracker.recordUsage({ promptTokens: 500, completionTokens: 321 }, 'u', { id: 'a' });
    expect(tracker.messageTokens('a')).toBe(325);
    expect(tracker.total()).toBe(825);
  });

  it('drops the anchor when a message it covered changes or the system prompt changes', () => {
    const tracker = new TokenTracker();
    tracker.append(msg('user', 'q', 'u'));
    tracker.append(msg('user', 'q2', 'u2'));
    tracker.recordUsage({ promptTokens: 777 }, 'u2');
    tracker.remove('u');
    expect(tracker.isAnchored()).toBe(false);
    expect(tracker.total()).toBe(tracker.estimated());
    tracker.recordUsage({ promptTokens: 777 }, 'u2');
    tracker.setSystemPrompt('<previous_context>…</previous_context>');
    expect(tracker.isAnchored()).toBe(false);
  });

  it('keeps the anchor when only later messages change', () => {
    const tracker = new TokenTracker();
    tracker.append(msg('user', 'q', 'u'));
    tracker.recordUsage({ promptTokens: 100 }, 'u');
    const reply = msg('assistant', 'par', 'a');
    tracker.append(reply);
    tracker.update({ ...reply, content: 'partial reply growing as it streams' });
    tracker.remove('a');
    expect(tracker.total()).toBe(100);
  });

  it('ignores nonsense usage', () => {
    const tracker = new TokenTracker();
    tracker.append(msg('user', 'q', 'u'));
    tracker.recordUsage({ promptTokens: Number.NaN }, 'u');
    tracker.recordUsage({ promptTokens: 5 }, 'missing');
    expect(tracker.isAnchored()).toBe(false);
  });

  // One model per tokenizer family, and an unknown one (the default family).
  const familyModels = fc.constantFrom(undefined, 'gpt-4o', 'gpt-4', 'claude-sonnet-4', 'llama2:13b', 'mistral:7b', 'qwen3:8b');
  const sampleText = fc.constantFrom(...Object.values(SAMPLES).flat());

  it('adds up to the request overhead, system prompt and tools plus the sum of per-message estimates', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(anyText, sampleText), { maxLength: 30 }), familyModels, (texts, model) => {
        const tracker = new TokenTracker({ model, systemPrompt: 'You are a careful assistant.', tools });
        const messages = texts.map((text, i) => msg(i % 2 ? 'assistant' : 'user', text, `m${i}`));
        let sum = 0;
        for (const m of messages) {
          tracker.append(m);
          sum += estimateMessageTokens(m, model);
          // The incremental total after every append, not only at the end.
          expect(tracker.total()).toBe(REQUEST_OVERHEAD_TOKENS + estimateSystemPromptTokens('You are a careful assistant.', model) + estimateToolDefinitionsTokens(tools, model) + sum);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('keeps its running total equal to a full recount after any appends, updates and removals', () => {
    type Op = { kind: 'append'; role: 'user' | 'assistant' | 'system'; text: string } | { kind: 'remove'; pick: number } | { kind: 'update'; pick: number; text: string };
    const op: fc.Arbitrary<Op> = fc.oneof(
      fc.record({ kind: fc.constant('append' as const), role: fc.constantFrom('user' as const, 'assistant' as const, 'system' as const), text: anyText }),
      fc.record({ kind: fc.constant('remove' as const), pick: fc.nat() }),
      fc.record({ kind: fc.constant('update' as const), pick: fc.nat(), text: anyText }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), familyModels, (ops, model) => {
        const tracker = new TokenTracker({ model, systemPrompt: 'sys', tools });
        const live: ChatMessage[] = [];
        ops.forEach((o, i) => {
          if (o.kind === 'append') {
            const m = msg(o.role, o.text, `m${i}`);
            live.push(m);
            tracker.append(m);
          } else if (live.length) {
            const index = o.pick % live.length;
            if (o.kind === 'remove') tracker.remove((live.splice(index, 1)[0] as ChatMessage).id);
            else {
              const m: ChatMessage = { ...(live[index] as ChatMessage), content: o.text };
              live[index] = m;
              tracker.update(m);
            }
          }
        });
        expect(tracker.total()).toBe(tracker.recount());
        expect(tracker.total()).toBe(estimatePromptTokens({ systemPrompt: 'sys', messages: live, tools }, model));
        const b = tracker.breakdown();
        expect(b.overhead + b.systemPrompt + b.tools + b.byRole.user + b.byRole.assistant + b.byRole.system + b.byRole.tool).toBe(b.total);
      }),
    );
  });
});
