import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/core/messages';
import { groupUnits, validCutPositions } from '../../src/core/units';
import { conversation, msg } from './arbitraries';

const call = (id: string) => ({ id, name: 'read_note', arguments: '{"path":"a.md"}' });
const tool = (id: string, toolCallId: string): ChatMessage => ({ id, createdAt: 0, role: 'tool', toolCallId, content: 'ok' });
const assistant = (id: string, ...calls: string[]): ChatMessage => ({ id, createdAt: 0, role: 'assistant', content: '', toolCalls: calls.map(call) });

describe('groupUnits', () => {
  it('makes one unit per user, system and plain assistant message', () => {
    const units = groupUnits([msg('system', 's', 's'), msg('user', 'u', 'u'), msg('assistant', 'a', 'a')]);
    expect(units.map((u) => [u.kind, u.indices])).toEqual([
      ['system', [0]],
      ['user', [1]],
      ['assistant', [2]],
    ]);
  });

  it('keeps an assistant with all the results of its calls, in any order', () => {
    const units = groupUnits([msg('user', 'u', 'u'), assistant('a', 'c1', 'c2'), tool('t2', 'c2'), tool('t1', 'c1'), msg('assistant', 'done', 'b')]);
    expect(units.map((u) => [u.kind, u.indices])).toEqual([
      ['user', [0]],
      ['assistant', [1, 2, 3]],
      ['assistant', [4]],
    ]);
  });

  it('attaches results that arrive interleaved with other messages', () => {
    const messages = [assistant('a', 'c1', 'c2'), tool('t1', 'c1'), msg('user', 'meanwhile', 'u'), tool('t2', 'c2')];
    const units = groupUnits(messages);
    expect(units.map((u) => u.indices)).toEqual([[0, 1, 3], [2]]);
    // No cut may fall inside the spanning unit.
    expect(validCutPositions(units, messages.length)).toEqual([true, false, false, false, true]);
  });

  it('leaves a result that answers no earlier call alone as an orphan', () => {
    const units = groupUnits([tool('t0', 'nowhere'), msg('user', 'u', 'u'), tool('t1', 'later'), assistant('a', 'later')]);
    expect(units.map((u) => u.kind)).toEqual(['orphan-tool', 'user', 'orphan-tool', 'assistant']);
  });

  it('matches a reused call id to the newest call that has no result yet', () => {
    const units = groupUnits([assistant('a1', 'call_0'), assistant('a2', 'call_0'), tool('t1', 'call_0'), tool('t2', 'call_0')]);
    expect(units.map((u) => u.indices)).toEqual([[0, 3], [1, 2]]);
  });

  it('partitions any conversation exactly, and never separates a call from its result', () => {
    fc.assert(
      fc.property(conversation, (messages) => {
        const units = groupUnits(messages);
        const seen = units.flatMap((u) => u.indices).sort((a, b) => a - b);
        expect(seen).toEqual(messages.map((_, i) => i));
        const unitOf = new Map<number, number>();
        units.forEach((u, k) => u.indices.forEach((i) => unitOf.set(i, k)));
        messages.forEach((m, i) => {
          if (m.role !== 'tool') return;
          const unit = units[unitOf.get(i) as number];
          if (unit?.kind === 'assistant') {
            const head = messages[unit.start];
            expect(head?.role === 'assistant' && head.toolCalls?.some((c) => c.id === m.toolCallId)).toBe(true);
          } else {
            // An orphan: no earlier assistant made this call.
            const earlier = messages.slice(0, i).some((x) => x.role === 'assistant' && x.toolCalls?.some((c) => c.id === m.toolCallId));
            expect(earlier).toBe(false);
          }
        });
      }),
    );
  });
});
