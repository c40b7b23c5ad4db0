// What the agent said of the code it looked at, under "Looked at": its latest finding naming the
// definition first, as code — not a step it announced, a plan, a sentence building on another, nor
// one naming the code only as an example. Readers found "subtotal at line 57" named code without
// saying what it does. Hand-written runs.
import { describe, expect, it } from 'vitest';
import { compacted, run, type Step } from './agent-run';

const TASK = 'Fix the invoice total: discounts on the second line are lost.';
const VIEW = (from: number, name: string): string => `${from}\tdef ${name}(lines):\n${from + 1}\t    out = 0\n${from + 2}\t    for a, d in lines[:1]:\n${from + 3}\t        out += a * d\n${from + 4}\t    return out`;

const lookedUnder = (block: string): string[] => {
  const lines = block.split('\n');
  const at = lines.findIndex((l) => l.startsWith('- Looked at:'));
  const out: string[] = [];
  for (const l of lines.slice(at + 1)) {
    if (!l.startsWith('  - ')) break;
    out.push(l.slice(4));
  }
  return at < 0 ? [] : out;
};

describe('what the agent said of the code it looked at', () => {
  it('is its latest finding naming the definition first, under the Looked at line, and no key fact again', () => {
    const steps: Step[] = [
      ['Let me find the total.', 'grep -n "def subtotal" billing/totals.py', '57:def subtotal(lines):'],
      ['Let me read it.', "cat -n billing/totals.py | sed -n '57,61p'", VIEW(57, 'subtotal')],
      ['`subtotal()` loops over the first line only, so the second discount is never applied. Let me look at the callers.', 'grep -rn "subtotal" billing', 'billing/invoice.py:12:    return subtotal(order.lines)'],
      ['The callers all go through the invoice, which sums every order once.', 'ls tests', 'test_totals.py'],
    ];
    const { block } = compacted(run(TASK, steps), 1500);
    expect(block).toMatch(/- Looked at: billing\/totals\.py — subtotal at line 57/);
    expect(lookedUnder(block)).toEqual(['`subtotal()` loops over the first line only, so the second discount is never applied.']);
    expect(block.split('loops over the first line only').length - 1).toBe(1);
  });

  it('is none of a step, a plan, a sentence building on another, or one naming the code as an example', () => {
    const steps: Step[] = [
      ['Let me find the total.', 'grep -n "def subtotal" billing/totals.py', '57:def subtotal(lines):'],
      ['`subtotal` adds each line at its list price.', 'grep -n "subtotal" billing/invoice.py', '12:    return subtotal(order.lines)'],
      [
        'Let me look at `subtotal` more closely. I need to change `subtotal` to cover every line. Similarly, `subtotal` rounds too early. Invoices can hold many lines with discounts applied in `subtotal`.',
        "cat -n billing/totals.py | sed -n '57,61p'",
        VIEW(57, 'subtotal'),
      ],
    ];
    const { block } = compacted(run(TASK, steps), 1500);
    // (The earlier finding stands: none of the later sentences is one.)
    expect(lookedUnder(block)).toEqual(['`subtotal` adds each line at its list price.']);
  });
});
