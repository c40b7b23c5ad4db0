import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/core/messages';
import { microCompact } from '../../src/core/micro-compact';
import { groupUnits } from '../../src/core/units';
import { conversation } from './arbitraries';

const big = 'The meeting notes list every attendee and every action item in detail. '.repeat(60);

function session(): ChatMessage[] {
  return [
    { id: 'u1', createdAt: 0, role: 'user', content: 'Summarise my meeting notes.' },
    { id: 'a1', createdAt: 0, role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'read_note', arguments: '{"path":"Meetings/2024-05-01.md"}' }] },
    { id: 't1', createdAt: 0, role: 'tool', toolCallId: 'c1', name: 'read_note', content: big },
    { id: 'a2', createdAt: 0, role: 'assistant', content: 'Here is the summary.' },
    { id: 'u2', createdAt: 0, role: 'user', content: 'And the other note?' },
    { id: 'a3', createdAt: 0, role: 'assistant', content: '', toolCalls: [{ id: 'c2', name: 'read_note', arguments: '{"path":"Meetings/2024-05-02.md"}' }] },
    { id: 't2', createdAt: 0, role: 'tool', toolCallId: 'c2', name: 'read_note', content: big },
  ];
}

describe('microCompact', () => {
  it('replaces old bulky tool results with a placeholder naming the tool, its arguments and the size', () => {
    const original = session();
    const r = microCompact(original, { keepRecentUnits: 2, model: 'gpt-4o' });
    expect(r.clearedIds).toEqual(['t1']);
    const placeholder = r.messages[2];
    expect(placeholder?.role).toBe('tool');
    expect(placeholder?.role === 'tool' && placeholder.toolCallId).toBe('c1');
    expect(placeholder?.content).toContain('read_note({"path":"Meetings/2024-05-01.md"})');
    expect(placeholder?.content).toContain(`${big.length.toLocaleString('en-US')} characters`);
    expect(r.messages[6]?.content).toBe(big);
    expect(r.tokensSaved).toBeGreaterThan(100);
    // The stored transcript is untouched.
    expect(original[2]?.content).toBe(big);
  });

  it('keeps every tool pair and the message order, for any conversation', () => {
    fc.assert(
      fc.property(conversation, fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 50 }), (messages, keep, minTokens) => {
        const r = microCompact(messages, { keepRecentUnits: keep, minTokens });
        expect(r.messages.map((m) => [m.id, m.role])).toEqual(messages.map((m) => [m.id, m.role]));
        expect(groupUnits(r.messages)).toEqual(groupUnits(messages));
        r.messages.forEach((m, i) => {
          const before = messages[i] as ChatMessage;
          if (m.role === 'tool' && before.role === 'tool') expect(m.toolCallId).toBe(before.toolCallId);
          if (m.role === 'assistant' && before.role === 'assistant') expect(m.toolCalls).toEqual(before.toolCalls);
          if (!r.clearedIds.includes(m.id)) expect(m).toBe(before);
        });
      }),
      { numRuns: 200 },
    );
  });
});
