import { describe, expect, it } from 'vitest';
import { planCompaction, shouldCompact } from '../../src/core/triggers';
import { msg } from './arbitraries';

const base = { promptTokens: 100, compactionPoint: 1000, messageCount: 4, messageLimit: 10 };

describe('shouldCompact', () => {
  it('does not fire below both limits', () => {
    expect(shouldCompact(base)).toEqual({ fire: false, reasons: [] });
  });
  it('fires on tokens and reports it', () => {
    expect(shouldCompact({ ...base, promptTokens: 1001 })).toEqual({ fire: true, reasons: ['tokens'] });
  });
  it('fires on the message count on its own', () => {
    expect(shouldCompact({ ...base, messageCount: 11 })).toEqual({ fire: true, reasons: ['messages'] });
  });
  it('reports both when both hold, and ignores a disabled limit', () => {
    expect(shouldCompact({ ...base, promptTokens: 5000, messageCount: 11 }).reasons).toEqual(['tokens', 'messages']);
    expect(shouldCompact({ ...base, messageCount: 500, messageLimit: 0 }).fire).toBe(false);
  });
});

describe('planCompaction', () => {
  const messages = [msg('user', 'a', 'u0'), msg('assistant', 'b', 'a0'), msg('user', 'c', 'u1'), msg('assistant', 'd', 'a1'), msg('user', 'e', 'u2')];
  const cutOptions = { keepExchanges: 1, keepTokens: 0 };

  it('does nothing when no trigger fires', () => {
    expect(planCompaction(messages, base, cutOptions)).toEqual({ action: 'none' });
  });
  it('compacts at a cut when a trigger fires', () => {
    const plan = planCompaction(messages, { ...base, messageCount: 5, messageLimit: 4 }, cutOptions);
    expect(plan.action).toBe('compact');
    if (plan.action === 'compact') {
      expect(plan.reasons).toEqual(['messages']);
      expect(plan.cut.index).toBe(4);
    }
  });
  it('says clearly when a trigger fires but nothing can be compacted', () => {
    const plan = planCompaction([msg('user', 'only one', 'u')], { ...base, promptTokens: 99_999 }, cutOptions);
    expect(plan).toMatchObject({ action: 'nothing-to-compact', reasons: ['tokens'] });
    if (plan.action === 'nothing-to-compact') expect(plan.message).toMatch(/^Nothing to compact/);
  });
  it('compacts on request without a trigger', () => {
    expect(planCompaction(messages, { manual: true }, cutOptions)).toMatchObject({ action: 'compact', reasons: ['manual'] });
  });
});
