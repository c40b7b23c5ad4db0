import { describe, expect, it } from 'vitest';
import { formatTokens, plural } from '../../src/chat/format';

describe('formatTokens', () => {
  it.each([
    [0, '0'],
    [850, '850'],
    [1000, '1k'],
    [1234, '1.2k'],
    [12_345, '12k'],
    [131_072, '131k'],
    [999_499, '999k'],
    [999_500, '1M'],
    [1_047_576, '1.05M'],
    [9_998_000, '10M'],
    [10_000_000, '10M'],
  ])('%d → %s', (n, text) => {
    expect(formatTokens(n)).toBe(text);
  });
});

describe('plural', () => {
  it('adds an s except for one', () => {
    expect(plural(0, 'message')).toBe('0 messages');
    expect(plural(1, 'message')).toBe('1 message');
    expect(plural(2, 'unit')).toBe('2 units');
  });
});
