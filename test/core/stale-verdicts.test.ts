// An agent's verdict on its fix ("The fix is working correctly.") holds only for the fix it looked
// at then: edited again, failed afterwards, or found wanting in its own later words, the verdict is
// carried neither as done nor as a key fact. Hand-written runs, never benchmark data.
import { describe, expect, it } from 'vitest';
import { isVerdict } from '../../src/core/stale-verdicts';
import { compacted, run } from './agent-run';

const TASK = 'Fix the bug: invoice totals ignore discounts when an order has more than one line. You must only change source files, never the tests.';
const EDIT = "sed -i 's/l.price/l.net_price/' billing/totals.py";

describe("an agent's verdict on its fix", () => {
  it('reads "works", "passes", "has been applied" as verdicts, and "still fails" as none', () => {
    expect(isVerdict('The fix is working correctly.')).toBe(true);
    expect(isVerdict('All tests pass now.')).toBe(false);
    expect(isVerdict('The tests are passing.')).toBe(true);
    expect(isVerdict('The fix has been applied.')).toBe(true);
    expect(isVerdict('The fix still fails on two lines.')).toBe(false);
    expect(isVerdict('The `total` function sums the prices.')).toBe(false);
  });

  it('is kept while it stands: said after the last edit, with nothing found wrong since', () => {
    const { block } = compacted(run(TASK, [
      ['', EDIT, '<returncode>0</returncode>'],
      ['The fix is working correctly.', 'python repro.py', '90\n<returncode>0</returncode>'],
      ['', 'ls', 'billing\n'],
    ]), 1500);
    expect(block).toContain('The fix is working correctly.');
  });

  it('is not carried once the agent edits the source again after it', () => {
    const { block, record } = compacted(run(TASK, [
      ['', EDIT, '<returncode>0</returncode>'],
      ['The fix is working correctly.', 'python repro.py', '90\n<returncode>0</returncode>'],
      ['A line without a discount rate gives None, so the total raises.', "sed -i 's/l.net_price/l.net_price or l.price/' billing/totals.py", '<returncode>0</returncode>'],
      ['', 'ls', 'billing\n'],
    ]), 1500);
    expect(block).not.toContain('The fix is working correctly.');
    expect(record.done.map((d) => d.text)).not.toContain('The fix is working correctly.');
  });

  it('is not carried once the agent finds it still wrong, or a later check fails', () => {
    const said = compacted(run(TASK, [
      ['', EDIT, '<returncode>0</returncode>'],
      ['The fix is working correctly.', 'python repro.py', '90\n<returncode>0</returncode>'],
      ['The report still shows the old total for two lines.', 'python report.py', 'total: 100\n<returncode>0</returncode>'],
    ]), 1500);
    expect(said.block).not.toContain('The fix is working correctly.');
    const failed = compacted(run(TASK, [
      ['', EDIT, '<returncode>0</returncode>'],
      ['The fix is working correctly.', 'python repro.py', '90\n<returncode>0</returncode>'],
      ['', 'python -m pytest tests', "E   AssertionError: assert 100 == 90\n1 failed, 3 passed\n<returncode>1</returncode>"],
    ]), 1500);
    expect(failed.block).not.toContain('The fix is working correctly.');
  });
});
