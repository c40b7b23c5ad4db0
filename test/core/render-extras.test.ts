import { describe, expect, it } from 'vitest';
import type { SectionId } from '../../src/core/block-format';
import { addCommandOutput, largestFitting, trimToFit } from '../../src/core/render-extras';

// One token per word, for sizes the test can count.
const words = (s: string): number => s.split(/\s+/).filter(Boolean).length;

describe('render extras', () => {
  it('finds the most items that fit, in few tries, and its fit', () => {
    const tried: number[] = [];
    const tryN = (n: number): string | null => (tried.push(n), n <= 37 ? `fit ${n}` : null);
    expect(largestFitting(0, 100, tryN)).toEqual({ n: 37, fit: 'fit 37' });
    expect(tried.length).toBeLessThan(15);
    expect(largestFitting(5, 100, (n) => (n <= 5 ? 'x' : null))).toEqual({ n: 5, fit: null });
    expect(largestFitting(0, 3, () => 'all')).toEqual({ n: 3, fit: 'all' });
  });

  it('fences command output under its command, only the lines that fit with both fences', () => {
    const lines = new Map<SectionId, string[]>([['leftOff', ['Left off: Let me search:', '- Ran: grep -n x a.py']]]);
    const used = addCommandOutput(lines, ['12: x = 1', '40: y = x + 1', 'a ``` fence'], 0, 9, words);
    expect(lines.get('leftOff')).toEqual(['Left off: Let me search:', '- Ran: grep -n x a.py', '  ```', '  12: x = 1', '  ```']);
    expect(used).toBe(2 * (1 + 1) + (4 + 1));
    // No command shown: no output.
    const bare = new Map<SectionId, string[]>([['leftOff', ['Left off: Done.']]]);
    expect(addCommandOutput(bare, ['12: x = 1'], 0, 100, words)).toBe(0);
    expect(bare.get('leftOff')).toEqual(['Left off: Done.']);
  });

  it('trims a fenced block whole, never leaving a fence open', () => {
    const lines = new Map<SectionId, string[]>([
      ['goal', ['Goal: Fix the regex.']],
      ['leftOff', ['Left off: The regex drops lines.', '- Ran: grep -n x a.py', '  ```', '  12: x = re.compile(a)', '  40: y = x.search(b)', '  ```']],
    ]);
    const block = trimToFit(lines, 20, 0, words);
    expect(block).not.toContain('```');
    expect(block).toContain('- Ran: grep -n x a.py');
  });
});
