// Where an agent's edits stand, as the State's heading says it (whether a check ran since the last
// source edit, and how it went), and the scratch scripts named before the code looked at: readers
// of agent-run blocks could not tell whether a fix was in place and tested, and missed the scratch
// list where the State's share ran out. Hand-written runs.
import { describe, expect, it } from 'vitest';
import { compacted, run, type Step } from './agent-run';
import { mergeState } from '../../src/core/state-merge';
import { stateStatus } from '../../src/core/state-format';
import type { TaskState } from '../../src/core/record';

const TASK = 'Fix the invoice total: discounts on the second line are lost.';
const READ: Step = ['Let me read the total.', 'cat billing/total.py', 'def total(lines):\n    return lines[0][0] * lines[0][1]'];
const EDIT: Step = ['The issue is that total() only reads the first line.', "sed -i 's/lines\\[0\\]\\[0\\] \\* lines\\[0\\]\\[1\\]/sum(a * d for a, d in lines)/' billing/total.py", ''];
const FAILING: Step = ['Running the tests.', 'python -m pytest tests/test_total.py', 'FAILED tests/test_total.py::test_two_lines - AssertionError: 30 != 25\n<returncode>1</returncode>'];
const PASSING: Step = ['Running the tests again.', 'python -m pytest tests/test_total.py', '3 passed in 0.12s\n<returncode>0</returncode>'];
const PRINTING: Step = ['Trying the example.', 'python repro.py', 'total: 25\n<returncode>0</returncode>'];

const heading = (steps: Step[]): string | undefined => compacted(run(TASK, steps)).block.split('\n').find((l) => /^State\b.*:$/.test(l));

describe("the State's heading after a source edit", () => {
  it('says the test run since the last edit passed or failed', () => {
    expect(heading([READ, EDIT, PASSING])).toBe('State (edited, test passed):');
    expect(heading([READ, EDIT, FAILING])).toBe('State (edited, test failed):');
  });

  it('says untested when the only check ran before the last edit, however it went', () => {
    expect(heading([READ, FAILING, EDIT])).toBe('State (edited, untested):');
    expect(heading([READ, PASSING, EDIT])).toBe('State (edited, untested):');
  });

  it('says a check ran since when it printed no verdict', () => {
    expect(heading([READ, EDIT, PRINTING])).toBe('State (edited, checked since):');
  });

  it('says the test failed when the run since printed the bug, exiting 0', () => {
    const bug: Step = ['Trying the example.', 'python repro.py', 'total: 30\n✗ BUG: the second discount is still lost\n<returncode>0</returncode>'];
    expect(heading([READ, EDIT, bug])).toBe('State (edited, test failed):');
  });

  it('takes a run whose runner is missing for no check: the edit stays untested', () => {
    const missing: Step = ['Running the tests.', 'python -m pytest tests/test_total.py', '/usr/bin/python: No module named pytest\n<returncode>1</returncode>'];
    expect(heading([READ, EDIT, missing])).toBe('State (edited, untested):');
    // (And a passing check before it still stands.)
    expect(heading([READ, EDIT, PASSING, missing])).toBe('State (edited, test passed):');
  });

  it('keeps "source files unchanged" before any edit, and no status heading for a file only restored', () => {
    expect(compacted(run(TASK, [READ, FAILING])).block).toContain('- Changed: no source file edited yet');
    expect(heading([READ, FAILING])).not.toMatch(/edited/);
    const restored = compacted(run(TASK, [READ, ['Backing up.', 'cp billing/total.py billing/total.py.bak', ''], EDIT, ['Putting it back.', 'cp billing/total.py.bak billing/total.py', '']]));
    expect(restored.record.state?.changed.map((c) => c.restored)).toEqual([true]);
    expect(stateStatus(restored.record.state)).toBeNull();
  });

  it('carries the status over a chain: a later round that checks without editing checked every earlier edit', () => {
    const first = compacted(run(TASK, [READ, EDIT])).record.state as TaskState;
    expect(stateStatus(first)).toBe('State (edited, untested):');
    const later: TaskState = { changed: [], scratch: [], checked: { command: 'python -m pytest', passed: true, outcome: 'passed: 3 passed', sources: ['z'] }, cause: null, notesRead: [], searches: [], lastAction: null, editing: true };
    expect(stateStatus(mergeState(first, later))).toBe('State (edited, test passed):');
    // (A later round that edits again and checks nothing leaves the edit untested.)
    const edited: TaskState = { ...later, checked: null, changed: [{ path: 'billing/total.py', how: "sed -i 's/a/b/' billing/total.py", sources: ['y'] }] };
    expect(stateStatus(mergeState(mergeState(first, later), edited))).toBe('State (edited, untested):');
  });

  it('is not shown in a loop of the plugin note tools', () => {
    const chat = run('Add basil to my shopping list.', [['', { name: 'append_to_note', args: { path: 'Shopping list.md', content: '- Basil' } }, 'Appended to Shopping list.md']]);
    expect(compacted(chat).block).not.toMatch(/State \(/);
    // (Nor after an edit of a note: no test checks a note, so it is never "untested".)
    const edited = run('Add the bake rule to my sourdough note.', [['', { name: 'edit_note', args: { path: 'Baking/Sourdough.md', append_to_section: 'Rules', text: '- Bake only when the starter doubles within 6 h.' } }, 'OK: appended 1 line to section "Rules" of Baking/Sourdough.md']]);
    const { block, record } = compacted(edited);
    expect(record.state?.changed.map((c) => c.path)).toEqual(['Baking/Sourdough.md']);
    expect(block).not.toMatch(/State \(/);
  });
});

describe('the scratch scripts', () => {
  it('are named before the code looked at: a small State keeps them', () => {
    const steps: Step[] = [
      ['I will reproduce it.', "cat > repro_total.py << 'EOF'\nfrom billing.total import total\nprint(total([(10, 1), (20, 0.5)]))\nEOF", ''],
      ['The `total` function reads one line.', 'grep -n "def total" billing/total.py', '12:def total(lines):'],
      ['And `subtotal` adds the discount twice.', 'grep -n "def subtotal" billing/total.py', '30:def subtotal(lines):'],
      PRINTING,
    ];
    const lines = compacted(run(TASK, steps)).block.split('\n');
    const scratch = lines.findIndex((l) => l.startsWith('- Scratch: repro_total.py'));
    const looked = lines.findIndex((l) => l.startsWith('- Looked at:'));
    expect(scratch).toBeGreaterThan(0);
    if (looked >= 0) expect(scratch).toBeLessThan(looked);
  });
});

describe('a long scratch list', () => {
  it('names the latest six scripts: a short line fits where the whole list did not', () => {
    const writes: Step[] = Array.from({ length: 9 }, (_, i) => [`Script ${i + 1}.`, `cat > try_${i + 1}.py << 'EOF'\nprint(${i + 1})\nEOF`, ''] as const);
    const line = compacted(run(TASK, [READ, ...writes, PRINTING])).block.split('\n').find((l) => l.startsWith('- Scratch:'));
    expect(line).toBe('- Scratch: try_4.py, try_5.py, try_6.py, try_7.py, try_8.py, try_9.py');
  });
});

describe('a verdict a check printed', () => {
  it('reads "Result: PASS" as passed', () => {
    const verdict: Step = ['Trying the fix.', 'python test_fix.py', 'Total: 25\nResult: PASS\n<returncode>0</returncode>'];
    expect(heading([READ, EDIT, verdict])).toBe('State (edited, test passed):');
  });
});

describe('a script written and not run', () => {
  it('says it was written, not "no output"', () => {
    const write: Step = ['I will reproduce it.', "cat > repro_total.py << 'EOF'\n# Two lines, one discount each\nfrom billing.total import total\nprint(total([(10, 1), (20, 0.5)]))\nEOF", ''];
    const { block } = compacted(run(TASK, [READ, write]));
    expect(block).toMatch(/- Ran: cat > repro_total\.py.* — wrote repro_total\.py$/m);
    expect(block).not.toContain('— no output');
  });
});
