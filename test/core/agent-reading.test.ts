// Agent-run blocks as a fresh reader found them (issue 30, fourth pass): a file only searched is
// not said to be read, a reasoning the agent called wrong is not carried, nor the steps of an
// example it worked through, nor output quoted back, and an edit script says what it did rather
// than one of its lines. Hand-written runs, never benchmark data.
import { describe, expect, it } from 'vitest';
import { fileOpsOfShell } from '../../src/core/extract-files';
import { shellHow } from '../../src/core/edit-how';
import type { ChatMessage } from '../../src/core/messages';
import { compacted, run } from './agent-run';

const TASK = 'Fix the bug: invoice totals ignore discounts when an order has more than one line. You must only change source files, never the tests.';

const factsOf = (block: string): string => block.slice(block.indexOf('Key facts:'), block.includes('Left off:') ? block.indexOf('Left off:') : undefined);

describe('a file only searched', () => {
  it('is a search when grep shows no lines of context, a read with -A/-B/-C or another reader', () => {
    expect(fileOpsOfShell('grep -n "discount" billing/lines.py | head -20').searched).toEqual(['billing/lines.py']);
    expect(fileOpsOfShell('grep -rn discount billing/lines.py billing/totals.py').searched).toEqual(['billing/lines.py', 'billing/totals.py']);
    expect(fileOpsOfShell('grep -B5 -A5 "discount" billing/lines.py').searched).toBeUndefined();
    expect(fileOpsOfShell('grep -n discount -A 20 billing/lines.py').searched).toBeUndefined();
    expect(fileOpsOfShell('cat billing/lines.py; grep -n discount billing/lines.py').searched).toBeUndefined();
    expect(fileOpsOfShell('sed -n 1,40p billing/lines.py').searched).toBeUndefined();
  });

  it('is listed under "Files searched", apart from the files read; read once, it is read', () => {
    const chat = run(TASK, [
      ['Let me look for the discount field.', 'grep -n "discount" billing/lines.py', '12:    discount = 0\n'],
      ['Let me read the totals.', 'cat billing/totals.py', 'def total(lines):\n    return sum(l.price for l in lines)\n'],
      ['Let me search the invoice module.', 'grep -n "total" billing/invoice.py', '3:    t = total(self.lines)\n'],
      ['Let me read it whole.', 'cat billing/invoice.py', 'class Invoice:\n    t = total(self.lines)\n'],
    ]);
    const { block, record } = compacted(chat);
    expect(record.filesRead.find((f) => f.path === 'billing/lines.py')?.searched).toBe(true);
    expect(record.filesRead.find((f) => f.path === 'billing/invoice.py')?.searched).toBeUndefined();
    expect(block).toMatch(/^Files read: (?=.*billing\/totals\.py)(?=.*billing\/invoice\.py)(?!.*lines\.py).*$/m);
    expect(block).toMatch(/^Files searched: billing\/lines\.py$/m);
  });
});

describe("the agent's reasoning", () => {
  it('that it called wrong ("my double-rounding analysis is wrong") is not carried, however far back in its message', () => {
    const chat = run(TASK, [
      [
        'The totals are summed in `total`. According to my analysis, the discount is applied twice (double rounding). The `total` function reads `price` from each line. So my double-rounding analysis is wrong.',
        'cat billing/totals.py',
        'def total(lines):\n    return sum(l.price for l in lines)\n',
      ],
      ['The `total` function never reads the `discount` field of a line.', 'grep -n discount billing/lines.py', '12:    discount = 0\n'],
    ]);
    const { block } = compacted(chat);
    expect(block).not.toMatch(/applied twice/);
    expect(block).not.toMatch(/analysis is wrong/);
    expect(block).toMatch(/`total` function never reads the `discount` field/);
  });

  it('drops the items of an example it worked through under a lead-in ("For two lines:"), not those of a finding', () => {
    const chat = run(TASK, [
      [
        'The `total` function never reads the `discount` field of a line.\n\nFor an order with two discounted lines:\n- The result should be the sum of the discounted prices',
        'cat billing/totals.py',
        'def total(lines):\n    return sum(l.price for l in lines)\n',
      ],
      ['Let me run the tests.', 'python -m pytest tests', '1 failed\n'],
    ]);
    const facts = factsOf(compacted(chat).block);
    expect(facts).not.toMatch(/sum of the discounted prices/);
    expect(facts).toMatch(/`total` function never reads the `discount` field/);
  });

  it('quoting back the output just shown, or saying a name is not in the list, is no key fact', () => {
    const chat = run(TASK, [
      ['The output shows `total: 30` but it should be `total: 27` since the discount is 10%.', 'python repro.py', 'total: 30\n'],
      ['`discount` is NOT in the list! The `total` function never reads the `discount` field of a line.', "python -c \"import billing; print(dir(billing.Line))\"", "['price', 'qty']\n"],
      ['Let me run the tests.', 'python -m pytest tests', '1 failed\n'],
    ]);
    const facts = factsOf(compacted(chat).block);
    expect(facts).not.toMatch(/The output shows `total: 30`/);
    expect(facts).not.toMatch(/NOT in the list/);
    expect(facts).toMatch(/`total` function never reads the `discount` field/);
  });
});

describe('an edit script', () => {
  it('whose replace or insert call holds no text of its own reads as its run, not as that line', () => {
    const script = "cat > fix.py << 'EOF'\n# Read the file\nwith open('billing/totals.py') as f:\n    lines = f.readlines()\nlines.insert(at, new_method)\nwith open('billing/totals.py', 'w') as f:\n    f.writelines(lines)\nEOF\npython fix.py";
    expect(shellHow(script, 'billing/totals.py')).toBe('python fix.py');
    const literal = "cat > fix.py << 'EOF'\ntext = open('billing/totals.py').read()\ntext = text.replace('l.price', 'l.price - l.discount')\nopen('billing/totals.py', 'w').write(text)\nEOF\npython fix.py";
    expect(shellHow(literal, 'billing/totals.py')).toBe("text = text.replace('l.price', 'l.price - l.discount')");
  });

  it('is said by what it printed under Changed, and a script written alone by a comment on what it does, not its plumbing', () => {
    const script = "cat > fix.py << 'EOF'\n# Read the file\nwith open('billing/totals.py') as f:\n    lines = f.readlines()\nlines.insert(at, new_method)\nwith open('billing/totals.py', 'w') as f:\n    f.writelines(lines)\nEOF\npython fix.py";
    const chat = run(TASK, [
      ['Let me apply the fix.', script, 'Added the discount to total\n'],
      ['Let me write a checker.', "cat > check.py << 'EOF'\n# Read the file\n# Check that total subtracts the discount\nimport billing\nEOF", ''],
    ]);
    const { block } = compacted(chat);
    expect(block).toContain('python fix.py — printed: Added the discount to total');
    expect(block).not.toContain('lines.insert(at, new_method)');
    expect(block).toContain('# Check that total subtracts the discount');
    expect(block).not.toContain('# Read the file');
  });
});

describe('what a search found', () => {
  it('is the function its match lies in, when the lines of context show it (not a class, a test file, or a definition searched for)', () => {
    const chat = run(TASK, [
      ['Let me find where the error code is raised.', 'grep -B8 -A2 "billing.E012" billing/checks.py', "    @classmethod\n    def _check_lines(cls, lines):\n        errors = []\n        for line in lines:\n            if line.qty < 0:\n                errors.append(\n                    Error('negative quantity', id='billing.E012')\n                )\n        return errors\n"],
      ['Let me look at the tests.', 'grep -B3 "billing.E012" tests/test_checks.py', "class CheckTests:\n    def test_negative(self):\n        assert errors[0].id == 'billing.E012'\n"],
      ['Let me find the definition.', 'grep -n -A3 "def total" billing/totals.py', '1:def total(lines):\n2-    return sum(l.price for l in lines)\n'],
      ['Let me run the tests.', 'python -m pytest tests', '1 failed\n'],
    ]);
    const { block, record } = compacted(chat);
    expect(record.state?.found).toEqual([{ pattern: 'billing.E012', path: 'billing/checks.py', name: '_check_lines', params: '(cls, lines)' }]);
    expect(block).toContain('- Found: `billing.E012` in `_check_lines(cls, lines)`, billing/checks.py');
  });

  it('says what the definition is for: its parameters, and a call of it the output showed, with the definition the call sits in (never a name inside a string)', () => {
    const output = [
      '    def _check_orders(cls):',
      '        errors = []',
      "        errors.extend(cls._check_lines(cls.orders, 'orders'))",
      '        return errors',
      '',
      '    def _check_lines(cls, lines, option):',
      '        errors = []',
      '        for line in lines:',
      "            raise TypeError('Cannot call _check_lines() on an empty order')",
      "                errors.append(Error('negative quantity', id='billing.E012'))",
      '        return errors',
    ].join('\n');
    const chat = run(TASK, [
      ['Let me find where the error code is raised.', 'grep -B12 -A2 "billing.E012" billing/checks.py', output],
      ['Let me run the tests.', 'python -m pytest tests', '1 failed\n'],
    ]);
    const { block } = compacted(chat, 1500);
    expect(block).toContain("- Found: `billing.E012` in `_check_lines(cls, lines, option)`, billing/checks.py; called in `_check_orders` as `errors.extend(cls._check_lines(cls.orders, 'orders'))`");
    // (The string naming it is no call.)
    const quoted = compacted(run(TASK, [
      ['Let me find where the error code is raised.', 'grep -B6 -A2 "billing.E012" billing/checks.py', output.split('\n').slice(5).join('\n')],
      ['Let me run the tests.', 'python -m pytest tests', '1 failed\n'],
    ]), 1500).block;
    expect(quoted).toMatch(/^- Found: `billing\.E012` in `_check_lines\(cls, lines, option\)`, billing\/checks\.py$/m);
  });
});

describe('a check that went through', () => {
  it('shows the fault the agent found in it next, in its own words, and none when it found none', () => {
    const steps = (remark: string): ChatMessage[] =>
      run(TASK, [
        ['Let me try the idea with a patched total.', "cat > explore.py << 'EOF'\nimport billing\nbilling.total = lambda lines: 27\nprint('total:', billing.total([]))\nEOF\npython explore.py", 'total: 27\n'],
        [remark, 'grep -n "def total" billing/totals.py', '1:def total(lines):\n'],
      ]);
    const faulted = compacted(steps("That's 27, which is correct! But it's a constant, not the sum of the discounted lines. Let me look at total again.")).block;
    expect(faulted).toMatch(/- Checked: python explore\.py — .*total: 27\n {2}- Agent: But it's a constant, not the sum of the discounted lines\./);
    const fine = compacted(steps("That's 27, which is correct! Let me look at total again.")).block;
    expect(fine).not.toContain('- Agent:');
  });
});

describe('a view of a function', () => {
  it("says the function and its docstring's first sentence, not only how many lines it showed", () => {
    const chat = run(TASK, [
      ['Let me run the tests.', 'python -m pytest tests', '1 failed\n'],
      ['Let me look at the helper.', "sed -n '10,16p' billing/totals.py", 'def apply_discount(line, rate):\n    """\n    Return the price of one line less its discount.\n    The rate is a fraction.\n    """\n    return line.price * (1 - rate)\n\n'],
    ]);
    expect(compacted(chat).block).toContain("- Ran: sed -n '10,16p' billing/totals.py — showed 6 lines of `apply_discount`: \"Return the price of one line less its discount.\"");
    const bare = run(TASK, [['Let me look at the helper.', "sed -n '10,12p' billing/totals.py", 'def apply_discount(line, rate):\n    return line.price * (1 - rate)\n']]);
    expect(compacted(bare).block).toContain('— showed 2 lines');
  });
});

describe('a finding narrated as looked at again', () => {
  it('drops "Looking back at the `f` method, I see that", and the "it" after a clause is `f`', () => {
    const chat = run(TASK, [
      ['Looking back at the `total` function in totals.py, I see that when a line has a discount, it adds the price without it.', 'grep -n discount billing/lines.py', '12:    discount = 0\n'],
      ['Let me run the tests.', 'python -m pytest tests', '1 failed\n'],
    ]);
    expect(factsOf(compacted(chat).block)).toContain('When a line has a discount, `total` adds the price without it.');
  });
});

describe('the left-off view of source code', () => {
  it('fences none of its code lines (picked for naming the task they read as arbitrary); a run of a script still shows its lines', () => {
    const view = run(TASK, [
      ['Let me run the tests.', 'python -m pytest tests', '1 failed\n'],
      ['Let me check the discount models.', 'cat billing/discounts.py', 'from billing import models\nclass LineDiscount(models.Model):\n    total = invoice.discounts(order)\nclass OrderDiscount(models.Model):\n    total = invoice.discounts(order)\n'],
    ]);
    const block = compacted(view).block;
    expect(block).toContain('- Ran: cat billing/discounts.py — showed 5 lines');
    expect(block).not.toContain('total = invoice.discounts(order)');
    const script = run(TASK, [['Let me run the check.', 'python check_discounts.py', 'order discount: 0\nline discount: 0.1\n']]);
    expect(compacted(script).block).toMatch(/discount: 0\.1/);
  });
});

describe("an agent's message of reasoning", () => {
  it('gives at most three key facts, its best-ranked: no paragraph glued on one fact line', () => {
    const reasoning = [
      'The `total` function sums `price` over the lines of an order.',
      'The `discount` field of a line is set by `apply_discount` in the pricing module.',
      'The `Invoice.net_total` method calls `total` before `apply_discount` runs.',
      'The `Order.lines` property returns the lines without their discounts loaded.',
      'The `Line.discount` attribute defaults to zero when the order has several lines.',
    ].join(' ');
    const chat = run(TASK, [
      [reasoning, 'grep -n discount billing/lines.py', '12:    discount = 0\n'],
      ['Let me run the tests.', 'python -m pytest tests', '1 failed\n'],
    ]);
    const facts = factsOf(compacted(chat, 3000).block);
    const said = ['sums `price`', '`apply_discount` in the pricing', 'calls `total` before', 'without their discounts loaded', 'defaults to zero'].filter((s) => facts.includes(s));
    expect(said.length).toBe(3);
  });

  it("in the plugin's note-tool loop, an answer keeps every sentence worth its room: the cap is for code work's reasoning", () => {
    const answer = [
      'The garden plan puts four raised beds along the east fence, each 1.2 metres deep.',
      'The pond liner and pump cost 240 euros of the 900 euro budget.',
      'The seed inventory lists tomatoes, beans and zucchini but no basil.',
      'The carrot seeds were ordered from Kings Seeds on 2 March.',
      'The compost bins are turned every three weeks from April.',
    ];
    const chat = run('Summarise my garden notes for the spring.', [
      [answer.join(' '), { name: 'read_note', args: { path: 'Garden/Plan.md' } }, '# Plan\nFour raised beds.\n'],
      ['Let me check the inventory too.', { name: 'read_note', args: { path: 'Garden/Seed inventory.md' } }, '# Inventory\nTomatoes, beans.\n'],
    ]);
    const facts = factsOf(compacted(chat, 3000).block);
    expect(['east fence', '240 euros', 'no basil', 'Kings Seeds', 'every three weeks'].filter((s) => facts.includes(s))).toHaveLength(5);
  });
});
