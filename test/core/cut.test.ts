import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { selectCut } from '../../src/core/cut';
import type { ChatMessage } from '../../src/core/messages';
import { groupUnits } from '../../src/core/units';
import { conversation, msg } from './arbitraries';

/** u0 a0 u1 a1 … : n exchanges of one user and one assistant message each. */
function exchanges(n: number, size = 10): ChatMessage[] {
  return Array.from({ length: n }, (_, i) => [
    msg('user', `question ${i} `.repeat(size), `u${i}`),
    msg('assistant', `answer ${i} `.repeat(size), `a${i}`),
  ]).flat();
}

describe('selectCut', () => {
  it('keeps the last N exchanges', () => {
    const cut = selectCut(exchanges(5), { keepExchanges: 2, keepTokens: 0 });
    expect(cut.ok && cut.index).toBe(6);
  });

  it('keeps at least K recent tokens, whichever keeps more', () => {
    const messages = exchanges(6);
    const one = selectCut(messages, { keepExchanges: 1, keepTokens: 0 });
    const tokens = one.ok ? one.keptTokens : 0;
    const cut = selectCut(messages, { keepExchanges: 1, keepTokens: tokens + 1 });
    // The token minimum works unit by unit: one more unit (a4) is enough.
    expect(cut.ok && cut.index).toBe(9);
    expect(cut.ok && cut.keptTokens).toBeGreaterThan(tokens);
  });

  it('reports nothing to compact, not an error, when everything must be kept', () => {
    const cut = selectCut(exchanges(2), { keepExchanges: 3, keepTokens: 0 });
    expect(cut).toMatchObject({ ok: false, reason: 'nothing-to-compact' });
    expect(selectCut([], { keepExchanges: 1, keepTokens: 0 })).toMatchObject({ ok: false });
    expect(selectCut([msg('user', 'hi', 'u')], { keepExchanges: 0, keepTokens: 0 })).toMatchObject({ ok: false });
  });

  it('never cuts inside a tool unit', () => {
    const messages: ChatMessage[] = [
      msg('user', 'read it', 'u0'),
      { id: 'a0', createdAt: 0, role: 'assistant', content: '', toolCalls: [{ id: 'c', name: 'read_note', arguments: '{}' }] },
      msg('user', 'interrupting', 'u1'),
      { id: 't', createdAt: 0, role: 'tool', toolCallId: 'c', content: 'text '.repeat(200) },
      msg('assistant', 'done', 'a1'),
      msg('user', 'next', 'u2'),
    ];
    // Keeping one exchange would cut at u2 (index 5) — valid. Keeping two would cut at u1 (2),
    // inside the a0…t unit, so the cut moves back to 1.
    const cut = selectCut(messages, { keepExchanges: 2, keepTokens: 0 });
    expect(cut.ok && cut.index).toBe(1);
  });

  it('caps what is kept with maxKeepTokens, but never drops the latest request', () => {
    const messages = [...exchanges(3), msg('user', 'huge '.repeat(5000), 'last')];
    const capped = selectCut(messages, { keepExchanges: 3, keepTokens: 0, maxKeepTokens: 500 });
    expect(capped.ok && capped.index).toBe(6);
  });

  it('always keeps the latest user message, cuts only between units, and counts tokens consistently', () => {
    const options = fc.record({
      keepExchanges: fc.integer({ min: 0, max: 5 }),
      keepTokens: fc.integer({ min: 0, max: 400 }),
      maxKeepTokens: fc.option(fc.integer({ min: 1, max: 400 }), { nil: undefined }),
    });
    fc.assert(
      fc.property(conversation, options, (messages, opts) => {
        const cut = selectCut(messages, opts);
        if (!cut.ok) return;
        expect(cut.index).toBeGreaterThan(0);
        const lastUser = messages.map((m) => m.role).lastIndexOf('user');
        if (lastUser >= 0) expect(cut.index).toBeLessThanOrEqual(lastUser);
        else expect(cut.index).toBeLessThan(messages.length);
        for (const unit of groupUnits(messages)) {
          expect(unit.start >= cut.index || unit.end < cut.index).toBe(true);
        }
        expect(cut.removedUnits.length + cut.keptUnits.length).toBe(cut.units.length);
      }),
    );
  });
});
