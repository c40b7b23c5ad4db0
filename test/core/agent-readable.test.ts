// Agent-run blocks as a reader needs them (issue 30, second pass): the agent's thinking aloud is no
// key fact, the cause says where in the code it lies, a resolved setup error is one short line,
// a fix is an action (never a heredoc's opening line or a bare tool name), two edits of one file
// alike are one line, an error met in one round and resolved in the next shows resolved, and the
// rules do not crowd a small block. Hand-written runs, never benchmark data.
import { describe, expect, it } from 'vitest';
import { codePlaces, placeNamed } from '../../src/core/code-places';
import type { ChatMessage } from '../../src/core/messages';
import type { ErrorLine } from '../../src/core/record';
import { errorLines, errorText, installOf } from '../../src/core/error-fate';
import { addResolutions } from '../../src/core/render-extras';
import type { SectionId } from '../../src/core/block-format';
import { compacted, run } from './agent-run';

const TASK = 'Fix the bug: invoice totals ignore discounts when an order has more than one line. You must only change source files, never the tests.';

describe("an agent's thinking aloud", () => {
  it('is no key fact: that it now understands, found a file, needs to look at something, or what the task description says', () => {
    const chat = run(TASK, [
      ["I'll start by exploring the repository. Now I understand the structure better.", 'ls', 'billing\ntests\n'],
      ['I found the `totals.py` file. Based on the task description, I need to understand how discounts are applied.', 'cat billing/totals.py', 'def total(lines):\n    return sum(l.price for l in lines)\n'],
      ['The task description says discounts are ignored for several lines. The `total` function sums the prices without ever reading the discount field of a line.', 'grep -n discount billing/lines.py', '12:    discount = 0\n'],
      ['Now I can see the `Invoice` class and its `net_total` method. The main bug is likely in the rounding helper of the invoice module.', 'cat billing/invoice.py', 'class Invoice: ...\n'],
      ['Good, the changes look complete.', 'git diff', ''],
      ['Let me run the tests.', 'python -m pytest tests', '3 passed\n'],
    ]);
    const { block } = compacted(chat);
    const facts = block.slice(block.indexOf('Key facts:'));
    expect(block).not.toMatch(/I understand the structure better/);
    expect(block).not.toMatch(/I found the `totals.py` file/);
    expect(block).not.toMatch(/I need to understand how discounts/);
    expect(facts).not.toMatch(/The task description says/);
    expect(facts).not.toMatch(/I can see the `Invoice` class|likely in the rounding helper|the changes look complete/);
    expect(block).toMatch(/sums the prices without ever reading the discount field/);
  });
});

describe('a sentence that goes on from a step the agent announced', () => {
  it('is carried without the announcement: "Let me …" and "Now I need to understand …" say nothing it leans on', () => {
    const chat = run(TASK, [
      ['Let me look at the fixtures again. The problem is that every fixture line has a zero discount, so the tests never see one applied.', 'cat tests/fixtures.py', 'LINES = [Line(10, 0)]\n'],
      ['Now I need to understand the rounding better. The problem is that the rounding happens before the discount is taken off each line.', 'cat billing/round.py', 'def round_money(x): ...\n'],
      ['', 'python -m pytest tests 2>&1', '3 passed\n'],
    ]);
    const { block, record } = compacted(chat, 1500);
    for (const f of record.facts) expect(f.text).not.toMatch(/^(?:Let me look|Now I need to understand)/);
    expect(block.slice(block.indexOf('Key facts:'))).not.toMatch(/Assistant: (?:Let me look at the fixtures again|Now I need to understand the rounding)/);
    expect(block).toContain('- Assistant: The problem is that every fixture line has a zero discount, so the tests never see one applied.');
    // (Where its error output went says nothing of what ran.)
    expect(block).toContain('python -m pytest tests —');
    expect(block).not.toContain('2>&1');
  });
});

describe('where the cause lies', () => {
  it('finds the definitions the tools showed, with their line numbers: grep -n, cat -n, sed -n ranges and grep -rn', () => {
    const chat = run(TASK, [
      ['', 'grep -n "def total" billing/totals.py -A 3', '41:def total(lines):\n42-    return sum(l.price for l in lines)\n'],
      ['', 'cat -n billing/lines.py', '     1\tclass Line:\n     2\t    def discounted_price(self):\n'],
      ['', "sed -n '90,92p' billing/report.py", '\n# report\ndef render_report(rows):\n    pass\n'],
      ['', 'grep -rn "def apply_discount" billing', 'billing/discounts.py:7:def apply_discount(price, rate):\n'],
    ]);
    const places = codePlaces(chat);
    expect(places).toEqual(
      expect.arrayContaining([
        { path: 'billing/totals.py', line: 41, name: 'total' },
        { path: 'billing/lines.py', line: 1, name: 'Line' },
        { path: 'billing/lines.py', line: 2, name: 'discounted_price' },
        { path: 'billing/report.py', line: 91, name: 'render_report' },
        { path: 'billing/discounts.py', line: 7, name: 'apply_discount' },
      ]),
    );
    // The one the text names first, as code; a plain English word is not a name.
    expect(placeNamed('`total()` never calls `apply_discount`', places)?.name).toBe('total');
    expect(placeNamed('The total is wrong for every line', places)).toBeNull();
  });

  it("places a name qualified by its class in that class's file, not another class's method of the same name", () => {
    const places = [
      { path: 'forms/boundfield.py', line: 247, name: 'BoundWidget' },
      { path: 'forms/boundfield.py', line: 279, name: 'id_for_label' },
      { path: 'forms/widgets.py', line: 765, name: 'id_for_label' },
    ];
    expect(placeNamed('`BoundWidget.id_for_label` ignores the id in attrs.', places)).toEqual({ path: 'forms/boundfield.py', line: 279, name: 'id_for_label' });
    expect(placeNamed('`BoundWidget.label_tag` drops the id.', [...places, { path: 'forms/widgets.py', line: 90, name: 'label_tag' }])).toEqual({ path: 'forms/boundfield.py', line: 247, name: 'BoundWidget' });
  });

  it('says the cause with the file, line and name of the code it names', () => {
    const chat = run(TASK, [
      ['', 'grep -n "def total" billing/totals.py -A 3', '41:def total(lines):\n42-    return sum(l.price for l in lines)\n'],
      ['The issue is that `total()` sums the prices and never applies the line discount.', 'cat billing/lines.py', 'class Line: ...\n'],
      ['Let me run the tests.', 'python -m pytest tests/test_totals.py', '1 failed, 3 passed\n'],
    ]);
    const { block } = compacted(chat);
    expect(block).toContain('- Cause: The issue is that `total()` sums the prices and never applies the line discount. (at billing/totals.py, line 41, total)');
  });
});

describe('errors and what resolved them', () => {
  it('writes a setup error an install resolved as one short line, with no line for the install', () => {
    const chat = run(TASK, [
      ['', 'python repro.py', 'Traceback (most recent call last):\n  File "repro.py", line 1, in <module>\nModuleNotFoundError: No module named \'pytz\'\n'],
      ['', 'pip install pytz -q 2>&1', 'Successfully installed pytz-2024.1\n'],
      ['', 'python repro.py', 'total: 90\n'],
    ]);
    const { record } = compacted(chat, 1500);
    const error = record.errors[0] as ErrorLine;
    expect(installOf(error.resolution)).toBe('pip install pytz');
    expect(errorText(error)).toBe("Resolved by install: ModuleNotFoundError: No module named 'pytz'");
    const lines = new Map<SectionId, string[]>([['errors', [`- ${errorText(error)}`]]]);
    addResolutions(lines, record.errors, '', 0, 1000, (x) => x.length);
    expect(lines.get('errors')).toEqual(["- Resolved by install: ModuleNotFoundError: No module named 'pytz'"]);
  });

  it('writes several setup errors an install resolved on one line, where the first stood, and the others as they were', () => {
    const e = (text: string, extra: Partial<ErrorLine>): ErrorLine => ({ text, sources: ['m1'], at: 0, score: 1, round: 1, ...extra });
    const errors = [e("ModuleNotFoundError: No module named 'pytz'", { resolution: 'pip install pytz' }), e("KeyError: 'net'", { unresolved: true, frame: 'billing/totals.py, line 41, in total' }), e("ModuleNotFoundError: No module named 'asgiref'", { resolution: 'pip install asgiref -q' })];
    expect(errorLines(errors)).toEqual(["- Resolved by install: ModuleNotFoundError: No module named 'pytz'; ModuleNotFoundError: No module named 'asgiref'", "- Unresolved: KeyError: 'net' (at billing/totals.py, line 41, in total)"]);
    expect(errorLines(errors, false)[1]).toBe("- Unresolved: KeyError: 'net'");
  });

  it('does not take an install for the fix of an import error that names something else', () => {
    const chat = run(TASK, [
      ['', 'python -m unittest billing_tests', 'ImportError: Failed to import test module: billing_tests\n<returncode>1</returncode>'],
      ['', 'pip install pytest', 'Successfully installed pytest-8.0\n'],
    ]);
    expect(compacted(chat, 1500).record.errors[0]?.resolution).toBeUndefined();
  });

  it('does not take an install of something else, a cause or a plan for the fix', () => {
    const chat = run(TASK, [
      ['', 'python -m unittest billing_tests', "ModuleNotFoundError: No module named 'billing_tests'\n"],
      ['The test module is failing because the tests live in another folder. Instead of unittest, let me try pytest.', 'pip install pytest', 'Successfully installed pytest-8.0\n'],
    ]);
    const { block, record } = compacted(chat, 1500);
    expect(record.errors[0]?.resolution).toBeUndefined();
    expect(block).toContain("- Unresolved: ModuleNotFoundError: No module named 'billing_tests'");
  });

  it('says a script rewritten by a heredoc was written and then ran without the error, never the heredoc opening line', () => {
    const chat = run(TASK, [
      ['', "cat > repro.py << 'EOF'\nimport billing\nprint(billing.totl([]))\nEOF\npython repro.py", "AttributeError: module 'billing' has no attribute 'totl'\n"],
      ['', "cat > repro.py << 'EOF'\nimport billing\nprint(billing.total([]))\nEOF", ''],
      ['', 'python repro.py', '0\n'],
    ]);
    const { block, record } = compacted(chat, 1500);
    expect(record.errors[0]?.resolution).toBe('wrote repro.py, then python repro.py ran without this error');
    expect(block).not.toMatch(/Then: cat > repro\.py << 'EOF'$/m);
  });

  it('takes the install right after a missing module for its fix even when scripts are written after it and the run is not repeated', () => {
    const chat = run(TASK, [
      ['', 'python repro.py', "ModuleNotFoundError: No module named 'pytz'\n<returncode>1</returncode>"],
      ['', 'cd /repo && pip install pytz -q 2>&1', ''],
      ['', "cat > check.py << 'EOF'\nprint(1)\nEOF", ''],
    ]);
    expect(compacted(chat, 1500).record.errors[0]?.resolution).toBe('pip install pytz');
  });

  it('counts a later inline script of the same interpreter that runs through as the error gone; one that fails otherwise says nothing', () => {
    const inline = (body: string): string => `python -c "\n${body}\n"`;
    const chat = run(TASK, [
      ['', inline('import billing\nbilling.total(None)'), "AttributeError: 'NoneType' object has no attribute 'lines'\n<returncode>1</returncode>"],
      ['', inline('import billing\nbilling.total([], x=1)'), "TypeError: total() got an unexpected keyword argument 'x'\n<returncode>1</returncode>"],
      ['', inline('import billing\nprint(billing.total([]))'), '0\n<returncode>0</returncode>'],
    ]);
    const errors = compacted(chat, 1500).record.errors;
    expect(errors.find((e) => e.text.startsWith('AttributeError'))?.resolution).toBe('a later python -c script ran without this error');
    expect(errors.find((e) => e.text.startsWith('TypeError'))?.resolution).toBe('a later python -c script ran without this error');
  });

  it("says a write tool that failed and then went through was retried, after the user's reply", () => {
    const write = { name: 'write_note', args: { path: 'Plans/Garden.md', text: 'Fence: 40 cm east.' } };
    const chat: ChatMessage[] = [
      { id: 'u0', createdAt: 0, role: 'user', content: 'Add the fence line to my garden note.' },
      { id: 'a1', createdAt: 0, role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: write.name, arguments: JSON.stringify(write.args) }] },
      { id: 't1', createdAt: 0, role: 'tool', toolCallId: 'c1', content: 'Error: write_note is read-only in this vault.', isError: true },
      { id: 'a2', createdAt: 0, role: 'assistant', content: 'Editing is switched off in the settings.' },
      { id: 'u1', createdAt: 0, role: 'user', content: 'I enabled it. Try again.' },
      { id: 'a3', createdAt: 0, role: 'assistant', content: '', toolCalls: [{ id: 'c2', name: write.name, arguments: JSON.stringify(write.args) }] },
      { id: 't2', createdAt: 0, role: 'tool', toolCallId: 'c2', content: 'OK: appended 1 line to Plans/Garden.md' },
      { id: 'a4', createdAt: 0, role: 'assistant', content: 'Done.' },
      { id: 'u2', createdAt: 0, role: 'user', content: 'Thanks. What next?' },
    ];
    const { record } = compacted(chat, 1500);
    expect(record.errors[0]?.resolution).toBe('the user said "I enabled it."; write_note Plans/Garden.md succeeded on retry (OK: appended 1 line to Plans/Garden.md)');
    // (The write that failed changed nothing: one edit.)
    expect(record.state?.changed.map((c) => [c.path, c.edits ?? 1])).toEqual([['Plans/Garden.md', 1]]);
  });
});

describe('a file edited more than once', () => {
  it('shows edits alike but for their line numbers once, the latest, with how many edits there were; different edits each', () => {
    const sub = (line: number): string => `sed -i '${line}s/price)/price * (1 - line.discount))/' billing/totals.py`;
    const chat = run(TASK, [
      ['', sub(41), ''],
      ['', sub(57), ''],
      ['', "sed -i '12s/discount = 0/discount = 0.0/' billing/totals.py", ''],
    ]);
    const { block } = compacted(chat);
    expect(block).toContain('- Changed: billing/totals.py (edited 3 times)');
    expect(block).toContain(`  - ${sub(57)}`);
    expect(block).not.toContain(sub(41));
    expect(block).toContain("  - sed -i '12s/discount = 0/discount = 0.0/' billing/totals.py");
  });

  it('says how an inline script changed a file, not only `python -c "`', () => {
    const script = 'python -c "\n# Apply the discount in total()\nsrc = open(\'billing/totals.py\').read()\nopen(\'billing/totals.py\', \'w\').write(src.replace(\'l.price\', \'l.net_price\'))\n"';
    const { record } = compacted(run(TASK, [['', script, '']]));
    expect(record.state?.changed[0]?.how).toBe('python -c "…" # Apply the discount in total()');
  });
});

describe('an error across chained rounds', () => {
  it('met in one round and resolved in the next, shows resolved with what resolved it', () => {
    const first = run(TASK, [['', 'python repro.py', "Traceback (most recent call last):\n  File \"repro.py\", line 2, in <module>\nAttributeError: 'Line' object has no attribute 'net_price'\n<returncode>1</returncode>"]]);
    const one = compacted(first, 1500);
    expect(one.record.errors[0]?.unresolved).toBe(true);
    // Round 2: the messages after round 1's cut — an edit, then the same run, through.
    const second: ChatMessage[] = [
      { id: 'a10', createdAt: 0, role: 'assistant', content: '', toolCalls: [{ id: 'c10', name: 'bash', arguments: JSON.stringify({ command: "sed -i 's/net_price/price/' billing/totals.py" }) }] },
      { id: 't10', createdAt: 0, role: 'tool', toolCallId: 'c10', content: '<returncode>0</returncode>' },
      { id: 'a11', createdAt: 0, role: 'assistant', content: '', toolCalls: [{ id: 'c11', name: 'bash', arguments: JSON.stringify({ command: 'python repro.py' }) }] },
      { id: 't11', createdAt: 0, role: 'tool', toolCallId: 'c11', content: '90\n<returncode>0</returncode>' },
      { id: 'u11', createdAt: 0, role: 'user', content: 'Go on.' },
    ];
    const two = compacted(second, 1500, one.record);
    const error = two.record.errors.find((e) => e.text.startsWith('AttributeError'));
    expect(error?.unresolved).toBeUndefined();
    expect(error?.resolution).toBe("sed -i 's/net_price/price/' billing/totals.py");
    expect(two.block).toMatch(/^- (?:Resolved: )?AttributeError: 'Line' object has no attribute 'net_price'\n {2}- Then: sed -i 's\/net_price\/price\/' billing\/totals\.py$/m);
  });
});

describe('the code the agent looked at', () => {
  it('lists the definitions it talked about, per file, with their lines — not those it only saw', () => {
    const chat = run(TASK, [
      ['', 'grep -n "def " billing/totals.py', '41:def total(lines):\n57:def subtotal(lines):\n80:def format_money(x):\n'],
      ['The `subtotal()` function adds the discount twice when a line has a quantity above one.', 'grep -rn "def apply_discount" billing', 'billing/discounts.py:7:def apply_discount(price, rate):\n'],
      ['So `apply_discount` is called from `total()` as well.', 'ls tests', 'test_totals.py\n'],
    ]);
    const { block } = compacted(chat, 1500);
    expect(block).toContain('- Looked at: billing/totals.py — total at line 41, subtotal at line 57');
    expect(block).toContain('- Looked at: billing/discounts.py — apply_discount at line 7');
    expect(block).not.toContain('format_money');
  });

  it('names the definition it read last even when its words do not, and not the next one a range showed at its end', () => {
    const chat = run(TASK, [
      ['The `subtotal()` function adds the discount twice.', 'grep -n "def subtotal" billing/totals.py', '57:def subtotal(lines):\n'],
      ['Let me read the method around the discount.', "sed -n '120,140p' billing/totals.py", `    def apply_line_discount(self, line):\n${'        x = 1\n'.repeat(16)}    def format_total(self):\n        return 1\n`],
    ]);
    const { block } = compacted(chat, 1500);
    expect(block).toContain('- Looked at: billing/totals.py — subtotal at line 57, apply_line_discount at line 120');
    expect(block).not.toContain('format_total');
  });

  it('keeps every definition it searched for and read in a file, latest last, not only the first: the bug site is often the second', () => {
    const chat = run(TASK, [
      ['The `subtotal()` function adds each line once.', 'grep -n "def subtotal" billing/totals.py', '57:def subtotal(lines):\n'],
      ['', 'grep -n "def apply_line_discount" billing/totals.py', '120:    def apply_line_discount(self, line):\n'],
      ['Let me read it.', "sed -n '120,130p' billing/totals.py", `    def apply_line_discount(self, line):\n${'        x = 1\n'.repeat(10)}`],
      ['', "sed -n '1,20p' billing/rates.py", `def rate_for(code):\n${'    x = 1\n'.repeat(19)}`],
    ]);
    const { block } = compacted(chat, 1500);
    expect(block).toContain('- Looked at: billing/totals.py — subtotal at line 57, apply_line_discount at line 120');
    expect(block).toContain('- Looked at: billing/rates.py — rate_for at line 1');
  });

  it('counts a definition named in a guess as looked at ("which seems to be responsible"), though the guess is no fact', () => {
    const chat = run(TASK, [
      ['The `subtotal()` function adds each line once.', 'grep -n "def subtotal" billing/totals.py', '57:def subtotal(lines):\n'],
      ['Now let me look at the `round_line` helper, which seems to be responsible for the discount:', 'grep -rn "round_line" billing', 'billing/totals.py:88:def round_line(line):\nbilling/totals.py:60:    return round_line(l)\n'],
      ['', 'ls tests', 'test_totals.py\n'],
    ]);
    const { block } = compacted(chat, 1500);
    expect(block).toMatch(/^- Looked at: billing\/totals\.py — .*round_line at line 88/m);
    expect(block).not.toMatch(/Assistant: .*seems to be responsible/);
  });
});

describe('the files a block lists', () => {
  it("does not list the agent's own scripts as files read (Scratch names them), nor installed packages' files as references", () => {
    const task = `${TASK}\n\nTraceback (most recent call last):\n  File "/home/ann/venv/lib/python3.11/site-packages/billing/core.py", line 9, in run\n  File "/srv/app/billing/totals.py", line 41, in total\nTypeError: unsupported operand`;
    const chat = run(task, [
      ['', "cat > /repo/repro.py << 'EOF'\nimport billing\nprint(billing.total([]))\nEOF", ''],
      ['', 'python repro.py', '0\n'],
      ['', 'cat billing/totals.py', 'def total(lines): ...\n'],
    ]);
    const { block } = compacted(chat, 1500);
    expect(block).toMatch(/^- Scratch: \/repo\/repro\.py$/m);
    expect(block).toMatch(/^Files read: billing\/totals\.py$/m);
    expect(block).not.toContain('site-packages');
  });
});

describe('a file written by a heredoc', () => {
  it('shows as the write without its marker: with the run after it, or with what its first comment says', () => {
    const write = "cat > fix_total.py << 'EOF'\n# Apply the line discount in total()\nsrc = open('billing/totals.py').read()\nEOF";
    const { block } = compacted(run(TASK, [['Let me write the fix script.', write, '']]), 1500);
    expect(block).toContain('- Ran: cat > fix_total.py # Apply the line discount in total()');
    expect(block).not.toContain("<< 'EOF'");
  });
});
