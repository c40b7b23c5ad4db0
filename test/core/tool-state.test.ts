// Tool loops: the carried context says where the work stands (issue 30). Hand-written agent runs
// (never benchmark data): the task's rules as constraints, the State section (changed with how,
// scratch, checked, cause), errors once each with their fate, retracted prose dropped, "Left off"
// the last command, and a small-window replay that never carries an empty block.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { replay } from '../../src/cli/replay';
import { CLI_DEFAULTS, resolve } from '../../src/cli/settings';
import { errorText } from '../../src/core/error-fate';
import { compact } from '../../src/core/compact';
import { withoutRefuted, withoutSymptoms } from '../../src/core/agent-prose';
import { extractRules, rulesOf } from '../../src/core/extract-rules';
import { mergeState } from '../../src/core/state-merge';
import { sentencesOf } from '../../src/core/extract-sentences';
import { restatesCommand } from '../../src/core/left-off';
import { estimateMessageTokens } from '../../src/core/message-tokens';
import { estimateTokens } from '../../src/core/tokens';
import type { ChatMessage } from '../../src/core/messages';
import type { TaskState } from '../../src/core/record';
import { run, type Step } from './agent-run';

function blockOf(chat: ChatMessage[], budgetTokens = 1200): { block: string; state: TaskState | undefined; errors: string[] } {
  const r = compact(chat, { budgetTokens, cut: chat.length - 1, model: 'gpt-4o' });
  if (!r.ok) throw new Error(r.message);
  return { block: r.block, state: r.record.state, errors: r.record.errors.map((e) => e.text) };
}

/** The key facts a compaction of the whole run (but its last message) draws from. */
function factsOf(chat: ChatMessage[], budgetTokens = 1200): string[] {
  const r = compact(chat, { budgetTokens, cut: chat.length - 1, model: 'gpt-4o' });
  if (!r.ok) throw new Error(r.message);
  return r.record.facts.map((f) => f.text);
}

const section = (block: string, heading: string): string => {
  const lines = block.split('\n');
  // ("State:" finds the State whatever its heading says of the work: "State (edited, untested):".)
  const at = heading === 'State:' ? lines.findIndex((l) => /^State(?: \([^)]*\))?:$/.test(l)) : lines.indexOf(heading);
  if (at < 0) return '';
  const out: string[] = [];
  for (const line of lines.slice(at + 1)) {
    if (!/^\s*- |^\s{2}/.test(line)) break;
    out.push(line);
  }
  return out.join('\n');
};

const TEMPLATE = `<issue>
The invoice total ignores discounts when the order has more than one line.
</issue>

<instructions>
## Overview
Your task is specifically to change non-test files so the totals are right.

## Boundaries
- MODIFY: source files under billing/
- DO NOT MODIFY: tests or the CI configuration.
- Never push to the remote repository.

## Response format
Each response MUST include a THOUGHT section and exactly one tool call.

## Environment
Always use non-interactive flags, and do not expect a persistent shell.

<example_response>
THOUGHT: I must read billing/total.py first.
</example_response>

## Submission
Do not commit your changes.
Only files you changed on purpose may be in the patch, never these:
- scratch scripts you wrote
- files under /tmp

You must submit with this exact command:

\`\`\`bash
echo DONE && cat patch.diff
\`\`\`
</instructions>`;

describe('the task and its rules', () => {
  it('keeps the binding sentences of the task message, once, in their own words — not its examples, format advice or environment notes', () => {
    const rules = extractRules({ id: 'u0', createdAt: 0, role: 'user', content: TEMPLATE }).map((r) => r.text);
    expect(rules).toEqual([
      'Your task is specifically to change non-test files so the totals are right.',
      'MODIFY: source files under billing/',
      'DO NOT MODIFY: tests or the CI configuration.',
      'Never push to the remote repository.',
      'Do not commit your changes.',
      'Only files you changed on purpose may be in the patch, never these: scratch scripts you wrote; files under /tmp.',
      'You must submit with this exact command: `echo DONE && cat patch.diff`',
    ]);
    const joined = rules.join('\n');
    expect(joined).not.toMatch(/THOUGHT|non-interactive|persistent|read billing\/total\.py/);
    // The task text itself is the goal, not a rule.
    expect(joined).not.toContain('ignores discounts');
  });

  it('carries the rules under Constraints and the task as the goal', () => {
    const { block } = blockOf(run(TEMPLATE, [['Let me read the total.', 'cat billing/total.py', 'def total(lines): ...']]));
    expect(block).toContain('Goal: The invoice total ignores discounts when the order has more than one line.');
    expect(section(block, 'Constraints and preferences:')).toContain('- DO NOT MODIFY: tests or the CI configuration.');
    // (Said once at most: the least binding rule may not fit in the rules' share.)
    expect(block.split('Never push to the remote repository.').length - 1).toBeLessThanOrEqual(1);
  });

  it("reads a user's own message for the rules it states, not for its other sentences", () => {
    const rules = extractRules({ id: 'u', createdAt: 0, role: 'user', content: 'Tidy up my reading notes. Only edit notes in the Books folder. Do not delete any note. The list is long.' }).map((r) => r.text);
    // (A short rule beside another reads with it.)
    expect(rules).toEqual(['Only edit notes in the Books folder. Do not delete any note.']);
  });
});

describe('the State section', () => {
  const fix = run('Fix the discount bug in billing/total.py.', [
    ['I will reproduce it first.', "cat > reproduce.py << 'EOF'\nfrom billing.total import total\nprint(total([(10, 0.5), (10, 0)]))\nEOF", ''],
    ['The discount is applied to the first line only.', 'python reproduce.py', 'Traceback (most recent call last):\n  File "/repo/reproduce.py", line 2, in <module>\n    print(total([(10, 0.5), (10, 0)]))\n  File "/repo/billing/total.py", line 7, in total\n    return lines[0][0] * lines[0][1]\nAssertionError: discount lost on line 2\n<returncode>1</returncode>'],
    ['I changed the sum to cover every line.', "sed -i 's/lines\\[0\\]\\[0\\] \\* lines\\[0\\]\\[1\\]/sum(a * (1 - d) for a, d in lines)/' billing/total.py", '<returncode>0</returncode>'],
    ['Now a helper for the rounding.', "cat > billing/rounding.py << 'EOF'\nimport decimal\ndef round_cents(x):\n    return round(x, 2)\nEOF", '<returncode>0</returncode>'],
    ['The issue is that total() only read the first line of the order. The formatter gets the new rounding.', { name: 'edit_file', args: { path: 'billing/format.py', old_str: 'def fmt(x):\n    return str(x)', new_str: 'def fmt(x):\n    return str(round_cents(x))' } }, 'Edited billing/format.py'],
    ['Running the reproduction again.', 'python reproduce.py', '15.0\nAll checks passed\n<returncode>0</returncode>'],
  ]);

  it('lists each source edit with how (sed -i, a heredoc, a write tool call) in the order made, and the repro script apart as scratch', () => {
    const { block, state } = blockOf(fix);
    expect(state?.changed.map((c) => c.path)).toEqual(['billing/total.py', 'billing/rounding.py', 'billing/format.py']);
    const lines = section(block, 'State:');
    expect(lines).toContain("- Changed: sed -i 's/lines\\[0\\]\\[0\\] \\* lines\\[0\\]\\[1\\]/sum(a * (1 - d) for a, d in lines)/' billing/total.py");
    // A heredoc's first line that says something; a write tool's first changed line.
    expect(lines).toContain('- Changed: billing/rounding.py\n  - def round_cents(x):');
    expect(lines).toContain('- Changed: billing/format.py\n  - return str(round_cents(x))');
    expect(lines).toContain('- Scratch: reproduce.py');
    expect(block).not.toMatch(/Files modified/);
  });

  it('shows the last test run and its outcome: a failing run, then a passing one, is passed', () => {
    const { block, state } = blockOf(fix);
    expect(state?.checked).toMatchObject({ command: 'python reproduce.py', passed: true });
    // (The run "Left off" shows, with its outcome, is not said again as the check.)
    expect(block).toContain('- Ran: python reproduce.py — passed: All checks passed');
    expect(section(block, 'State:')).not.toContain('- Checked:');
    const failing = blockOf(fix.slice(0, 7).concat([{ id: 'u-last', createdAt: 0, role: 'user', content: 'Go on.' }]));
    expect(section(failing.block, 'State:')).toContain('- Checked: python reproduce.py — failed with return code 1: AssertionError: discount lost on line 2');
  });

  it("says the agent's latest conclusion about the cause", () => {
    expect(section(blockOf(fix).block, 'State:')).toContain('- Cause: The issue is that total() only read the first line of the order.');
  });

  it('says a file edited and then restored from its backup was restored', () => {
    const chat = run('Fix the parser.', [
      ['Backup first.', 'cp src/parse.py src/parse.py.bak', ''],
      ['Try a change.', "sed -i 's/int(/float(/' src/parse.py", ''],
      ['That broke it; restoring.', 'cp src/parse.py.bak src/parse.py', ''],
    ]);
    const { block, state } = blockOf(chat);
    expect(state?.changed).toEqual([expect.objectContaining({ path: 'src/parse.py', restored: true })]);
    expect(block).toContain('- Changed, then restored: src/parse.py');
    expect(state?.scratch).toEqual(['src/parse.py.bak']);
  });

  it('chains: a later round adds its edits after the earlier ones, and its check and cause win', () => {
    const earlier: TaskState = { changed: [{ path: 'a.py', how: "sed -i 's/1/2/' a.py", sources: ['x'] }], scratch: ['t.py'], checked: { command: 'python t.py', passed: false, outcome: 'failed', sources: ['x'] }, cause: null, notesRead: [], searches: [], lastAction: null };
    const later: TaskState = { changed: [{ path: 'b.py', how: 'def f():', sources: ['y'] }, { path: 'a.py', how: "sed -i 's/2/3/' a.py", sources: ['y'] }], scratch: [], checked: { command: 'python t.py', passed: true, outcome: 'passed', sources: ['y'] }, cause: null, notesRead: [], searches: [], lastAction: null };
    const merged = mergeState(earlier, later);
    expect(merged.changed.map((c) => [c.path, c.how])).toEqual([
      ['a.py', "sed -i 's/2/3/' a.py"],
      ['b.py', 'def f():'],
    ]);
    expect(merged.checked?.passed).toBe(true);
    expect(merged.scratch).toEqual(['t.py']);
  });
});

describe('errors with their fate', () => {
  it('shows an error resolved by an install with the install, once', () => {
    const chat = run('Run the report.', [
      ['Running it.', 'python report.py', "ModuleNotFoundError: No module named 'tabulate'\n<returncode>1</returncode>"],
      ['Installing it.', 'pip install tabulate', 'Successfully installed tabulate'],
      ['Again.', 'python report.py', "ModuleNotFoundError: No module named 'tabulate'\n<returncode>1</returncode>"],
      ['', 'pip install tabulate', 'Successfully installed tabulate'],
      ['Now it runs.', 'python report.py', 'Report written.\n<returncode>0</returncode>'],
    ]);
    const { block, errors } = blockOf(chat);
    expect(errors).toEqual(["ModuleNotFoundError: No module named 'tabulate'"]);
    // (A small block: the error bare, the install under it.)
    expect(section(block, 'Errors met:')).toBe("- ModuleNotFoundError: No module named 'tabulate'\n  - Then: pip install tabulate");
  });

  it('marks a resolved error as resolved on its own line when the block has room, so it reads apart from an open one', () => {
    const chat = run('Run the report.', [
      ['Reading the report code.', 'cat report.py', Array.from({ length: 80 }, (_, i) => `    row_${i} = tabulate(rows[${i}], headers="keys")`).join('\n')],
      ['Running it.', 'python report.py', "ModuleNotFoundError: No module named 'tabulate'\n<returncode>1</returncode>"],
      ['Installing it.', 'pip install tabulate', 'Successfully installed tabulate'],
      ['Now it runs.', 'python report.py', 'Report written.\n<returncode>0</returncode>'],
    ]);
    // (A setup error an install resolved says so in its label, on one line.)
    expect(blockOf(chat).block).toContain("- Resolved by install: ModuleNotFoundError: No module named 'tabulate'");
  });

  it('reduces a traceback to its exception line and innermost project frame, marked unresolved; its frames are never facts', () => {
    const traceback = [
      'Traceback (most recent call last):',
      '  File "/repo/app/main.py", line 3, in <module>',
      '    run()',
      '  File "/repo/app/jobs.py", line 41, in run',
      '    schedule(job)',
      '  File "/usr/lib/python3.11/sched.py", line 12, in schedule',
      '    raise KeyError(name)',
      "KeyError: 'nightly'",
    ].join('\n');
    // (A long read first: the block has the room of a real one.)
    const chat = run('Why does the nightly job crash?', [['Reading the scheduler.', 'cat app/jobs.py', Array.from({ length: 80 }, (_, i) => `    schedule(job_${i}, when="nightly", retries=${i % 3})`).join('\n')], ['Running the jobs.', 'python app/main.py', `${traceback}\n<returncode>1</returncode>`]], 'Here is the same traceback:\n' + traceback);
    const r = compact(chat, { budgetTokens: 1200, cut: chat.length, model: 'gpt-4o' });
    if (!r.ok) throw new Error(r.message);
    expect(r.block).toContain("- Unresolved: KeyError: 'nightly' (at /repo/app/jobs.py, line 41, in run)");
    // A small block spends no room on where an error was raised: the errors come first.
    const small = compact(chat, { budgetTokens: 400, cut: chat.length, model: 'gpt-4o' });
    if (!small.ok) throw new Error(small.message);
    expect(small.block).toContain("- Unresolved: KeyError: 'nightly'");
    expect(r.record.errors).toHaveLength(1);
    for (const f of r.record.facts) expect(f.text).not.toMatch(/File "|line \d+, in /);
  });

  it("names the notes a search returned, from the plugin's list or a JSON result", () => {
    const json = JSON.stringify({ results: [{ path: 'Garden/Soil.md', line: 3, snippet: 'compost' }, { path: 'Garden/Log.md', line: 9, snippet: 'compost beds' }] });
    const chat = run('What do my notes say about compost?', [['Searching the vault.', { name: 'search_vault', args: { query: 'compost' } }, json]]);
    const { state, block } = blockOf(chat);
    expect(state?.searches.map((x) => x.notes)).toEqual([['Garden/Soil.md', 'Garden/Log.md']]);
    expect(block).toContain('Searched "compost": Garden/Soil.md, Garden/Log.md');
    expect(block).not.toContain('"results"');
  });

  it('leads an error line with its fate, the error in the tool\'s own words after it', () => {
    expect(errorText({ text: 'Text "1. Mix flour" not found: the note changed since it was read.', sources: ['m1'], at: 0, score: 0, round: 1, unresolved: true })).toBe(
      'Unresolved: Text "1. Mix flour" not found: the note changed since it was read.',
    );
    expect(errorText({ text: 'Done...', sources: ['m1'], at: 0, score: 0, round: 1, resolution: 'pip install x' })).toBe('Resolved by install: Done...');
    expect(errorText({ text: 'Done...', sources: ['m1'], at: 0, score: 0, round: 1, resolution: 'export X=1' })).toBe('Resolved: Done...');
    expect(errorText({ text: 'Done...', sources: ['m1'], at: 0, score: 0, round: 1, resolution: 'pip install x' }, false)).toBe('Done...');
  });
});

describe("an agent's prose", () => {
  it('does not carry a conclusion it retracted, nor its guesses and questions', () => {
    const chat = run('Fix the date parsing.', [
      ['The bug is in the timezone table. Actually, no: the table is fine, the parser drops the offset.', 'cat parse.py', 'def parse(s): ...'],
      ['Maybe the locale matters too? The parser ignores the sign of the offset.', 'grep -n offset parse.py', '12: offset = abs(x)'],
    ]);
    const r = compact(chat, { budgetTokens: 1200, cut: chat.length - 1, model: 'gpt-4o' });
    if (!r.ok) throw new Error(r.message);
    expect(r.block).not.toContain('The bug is in the timezone table.');
    expect(r.block).not.toContain('Maybe the locale matters too?');
    expect(r.record.facts.map((f) => f.text)).toContain('The parser ignores the sign of the offset.');
  });

  it('does not carry a finding it later called wrong, a sentence leaning on the one before, nor a restatement of what the issue is about', () => {
    const chat = run('Fix the ordering.', [
      ['The issue is related to model inheritance and ordering.', 'cat models.py', 'class Child(Parent): ...'],
      ['The direction is inverted twice in the recursive call. So my double-rounding analysis is wrong.', 'python repro.py', 'ORDER BY id ASC'],
      ['The compiler passes the parsed order as the default order. Or to fix how directions are handled. Look at line 730: the call passes order.', 'sed -n 720,740p compiler.py', 'results.extend(...)'],
    ]);
    const kept = withoutRefuted(sentencesOf(chat)).map((x) => x.text);
    expect(kept).toContain('The compiler passes the parsed order as the default order.');
    for (const gone of ['The issue is related to model inheritance and ordering.', 'The direction is inverted twice in the recursive call.', 'So my double-rounding analysis is wrong.', 'Or to fix how directions are handled.', 'Look at line 730: the call passes order.']) expect(kept).not.toContain(gone);
  });

  it('takes back its latest claim of the bug in an earlier message when it calls its analysis wrong, however it named it', () => {
    const chat = run('Fix the ordering.', [
      ['The compiler reads the parent ordering. This is the bug! When we recurse into the parent, we should keep the direction, not invert it.', 'cat compiler.py', 'def compile(): ...'],
      ['The parent ordering is read once.', 'python repro.py', 'ORDER BY id ASC'],
      ['So my double-rounding analysis is wrong. We want a single negative here.', 'cat options.py', 'class Options: ...'],
    ]);
    const kept = withoutRefuted(sentencesOf(chat)).map((x) => x.text);
    for (const gone of ['This is the bug!', 'When we recurse into the parent, we should keep the direction, not invert it.']) expect(kept).not.toContain(gone);
    // (What it did not claim as the bug stands, and with no retraction nothing is taken back.)
    expect(kept).toContain('The compiler reads the parent ordering.');
    const unretracted = withoutRefuted(sentencesOf(chat.filter((m) => !m.content.startsWith('So my')))).map((x) => x.text);
    expect(unretracted).toContain('When we recurse into the parent, we should keep the direction, not invert it.');
  });

  it('takes back the claim before a retraction even past a line announcing a step, and a new diagnosis takes back the reasoning before it in its message', () => {
    const chat = run('Fix the ordering.', [
      ['The sort key uses the raw title for every row. Let me look at the full method:', "sed -n '40,60p' sort.py", 'def key(row): ...'],
      ['Actually, the code is correct. The sort key strips articles first.', 'cat order.py', 'def order(rows): ...'],
      ['The direction is read in step 2 and inverted in step 4. The issue is in step 4: the flag is flipped twice. Actually, I think I now understand the real issue. The parent ordering is applied after the child ordering.', 'cat compiler.py', 'def compile(): ...'],
    ]);
    const kept = withoutRefuted(sentencesOf(chat)).map((x) => x.text);
    expect(kept).toContain('The sort key strips articles first.');
    expect(kept).toContain('The parent ordering is applied after the child ordering.');
    for (const gone of ['The sort key uses the raw title for every row.', 'The direction is read in step 2 and inverted in step 4.', 'The issue is in step 4: the flag is flipped twice.']) expect(kept).not.toContain(gone);
    // The announcing line itself is no claim: it is not what the retraction took back.
    expect(kept).toContain('Let me look at the full method:');
    expect(blockOf(chat).block).not.toContain('step 4');
  });

  it('never takes the symptom said again for the cause: the conclusion about why before it stands', () => {
    const chat = run('Invoice totals are wrong: the total should include the discount but currently ignores it when the order has two lines.', [
      ['The issue is that `apply_discount` returns the total unchanged when `rows` has more than one line.', 'cat billing/discounts.py', 'def apply_discount(total, rows): ...'],
      ['The problem is that the total should include the discount but currently ignores it for two lines.', 'python repro.py', 'total: 30'],
      ['The problem occurs when the order has two lines.', 'python repro.py', 'total: 30'],
    ]);
    expect(blockOf(chat).state?.cause?.text).toBe('The issue is that `apply_discount` returns the total unchanged when `rows` has more than one line.');
    // With no conclusion about why, none at all rather than the symptom.
    const only = run('Invoice totals are wrong: the total should include the discount but currently ignores it when the order has two lines.', [['The problem occurs when the order has two lines.', 'python repro.py', 'total: 30']]);
    expect(blockOf(only).state?.cause ?? null).toBeNull();
  });

  it('does not carry the symptom said again as a finding, but keeps a finding that names code the task does not', () => {
    const task = 'Invoice totals are wrong: the total should include the discount but currently ignores it when the order has two lines.';
    const chat = run(task, [
      ['The issue is that the total should include the discount but currently ignores it for two lines.', 'python repro.py', 'total: 30'],
      ['The `apply_discount` helper returns the total instead of the discounted total.', 'cat billing/discounts.py', 'def apply_discount(total, rate): ...'],
    ]);
    const kept = withoutSymptoms(sentencesOf(chat), task).map((x) => x.text);
    expect(kept).not.toContain('The issue is that the total should include the discount but currently ignores it for two lines.');
    expect(kept).toContain('The `apply_discount` helper returns the total instead of the discounted total.');
    // The task's own words stay: it is the agent's saying them again that is dropped.
    expect(kept).toContain(task);
    const r = compact(chat, { budgetTokens: 1200, cut: chat.length - 1, model: 'gpt-4o' });
    if (!r.ok) throw new Error(r.message);
    expect(r.record.facts.map((f) => f.text).join('\n')).not.toContain('currently ignores it for two lines');
  });

  it('carries no remark on its own scaffolding as a key fact: its test getting complex, its script having a bug, the bug being elsewhere', () => {
    const chat = run('Fix the totals.', [
      ['The test setup is getting complex. My test script had a bug.', 'python repro.py', 'total: 30'],
      ['The issue must be somewhere else. The discount helper rounds each line before summing.', 'cat billing/discounts.py', 'def apply_discount(total, rate): ...'],
    ]);
    const r = compact(chat, { budgetTokens: 1200, cut: chat.length - 1, model: 'gpt-4o' });
    if (!r.ok) throw new Error(r.message);
    const facts = r.record.facts.map((f) => f.text).join('\n');
    expect(facts).toContain('The discount helper rounds each line before summing.');
    for (const gone of ['getting complex', 'had a bug', 'somewhere else']) expect(facts).not.toContain(gone);
  });

  it("carries the agent's report of having reproduced the issue neither as done nor as a key fact: Checked says what the run showed", () => {
    const chat = run('Fix the totals.', [
      ["I've successfully reproduced the issue. The discount helper rounds each line before summing.", 'python repro.py', 'total: 30 (expected 27)'],
      ['The helper is called once per line.', 'cat billing/discounts.py', 'def apply_discount(total, rate): ...'],
    ]);
    const r = compact(chat, { budgetTokens: 1200, cut: chat.length - 1, model: 'gpt-4o' });
    if (!r.ok) throw new Error(r.message);
    const lines = [...r.record.facts, ...r.record.done].map((f) => f.text).join('\n');
    expect(lines).toContain('The discount helper rounds each line before summing.');
    expect(lines).not.toContain('reproduced the issue');
  });

  it('carries no telling itself to think, no wondering and no restated task: not a fact, an open task nor a step', () => {
    const chat = run('Fix the totals.', [
      ['The PR specifically asks to round once, after the sum. The discount helper rounds each line before summing.', 'cat billing/discounts.py', 'def apply_discount(total, rate): ...'],
      ["However, I'm wondering if we should keep the old rounding for invoices. Actually, wait. I need to think about this more carefully. Let me read the invoice code:", 'cat billing/invoice.py', 'def invoice(order): ...'],
    ]);
    const r = compact(chat, { budgetTokens: 1200, cut: chat.length - 1, model: 'gpt-4o' });
    if (!r.ok) throw new Error(r.message);
    const lines = [...r.record.facts, ...r.record.openTasks, ...(r.record.leftOff ? [r.record.leftOff] : [])].map((f) => f.text).join('\n');
    expect(lines).toContain('The discount helper rounds each line before summing.');
    for (const gone of ['think about this', 'wondering', 'specifically asks']) expect(lines).not.toContain(gone);
    // (The step it announced with the command that took it, without the thinking aloud before it.)
    expect(r.record.leftOff?.text).toBe('Let me read the invoice code.');
  });

  it('carries no list item read alone that is no clause or a bare command, nor a short fragment of prose; items that say something stay', () => {
    const chat = run('The invoice export skips credit notes.', [
      [
        'The rows are built in this order:\n1. `HeaderRow` for the invoice (without the `credit` flag initially)\n2. Empty lines (converted to blank rows)\n3. The exporter drops every row whose total is negative.\n\nWe have a few options:\n1. Skip rows that would repeat the header\n2. Add `CreditRow` to the row types in the exporter\n\nThere are two places! Line 114 and line 280. I see, line 333 is just a comment line.',
        'cat export/rows.py',
        'class HeaderRow: ...',
      ],
    ]);
    const facts = factsOf(chat, 2000);
    for (const gone of ['`HeaderRow` for the invoice', 'Empty lines (converted', 'Skip rows that would repeat', 'Add `CreditRow`', 'Line 114 and line 280', 'line 333 is just a comment']) expect(facts.some((f) => f.includes(gone))).toBe(false);
    expect(facts.some((f) => f.includes('The exporter drops every row whose total is negative.'))).toBe(true);
  });

  it('carries no line opening on a "But" whose first half is gone: what leaned on it stands alone', () => {
    const chat = run('Fix the order of the weekly report.', [
      ['Actually no, that does not make sense either. If we sort by `created`, we probably want the newest rows first. But we are getting ASC. The difference is that the report passes `reverse=False` to `sorted()` in `build_rows`.', 'cat report/rows.py', 'def build_rows(rows): ...'],
      ['The exporter was added to write the rows in the order the query gives them. However, the query sorts by the insertion id. Then the rows come out oldest first in the exported report.', 'cat report/export.py', 'def export(rows): ...'],
    ]);
    const { block } = blockOf(chat, 2000);
    expect(block).not.toContain('But we are getting ASC.');
    expect(block).toContain('- Assistant: The difference is that the report passes');
  });

  it('property: only assistant sentences are ever dropped, and order is kept', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom('user', 'assistant'), fc.constantFrom('Actually, no.', 'The cache is stale.', 'Maybe it is the disk?', 'It works.', 'Wait, the path is wrong.')), { maxLength: 12 }), (turns) => {
        const messages = turns.map(([role, text], i): ChatMessage => ({ id: `m${i}`, createdAt: 0, role: role, content: text }));
        const all = sentencesOf(messages);
        const kept = withoutRefuted(all);
        expect(all.filter((s) => s.role === 'user').every((s) => kept.includes(s))).toBe(true);
        expect(kept.map((s) => all.indexOf(s))).toEqual([...kept.map((s) => all.indexOf(s))].sort((a, b) => a - b));
      }),
    );
  });
});

describe('where the work was left off', () => {
  it('is the last command, never a line ending on a colon, and no next step announced before later work', () => {
    const chat = run('Fix the export.', [
      ["Next, I'll think about the encoding.", 'cat export.py', 'def export(): ...'],
      ['Let me examine the writer:', "sed -n '10,40p' export.py | head -20", 'def write(rows):'],
    ]);
    const { block } = blockOf(chat);
    const lines = block.split('\n');
    // (The step it announced, with the command that took it, ends as a sentence.)
    const at = lines.indexOf('Left off: Let me examine the writer.');
    expect(at).toBeGreaterThan(0);
    expect(lines[at + 1]).toBe("- Ran: sed -n '10,40p' export.py — `def write(rows):`");
    expect(block).not.toContain('Next step:');
    for (const line of lines) if (!line.endsWith('Constraints and preferences:') && line !== 'State (source files unchanged):' && !/^[A-Z][a-z]+(?: [a-z]+){0,3}:$/.test(line)) expect(line).not.toMatch(/:\s*$/);
  });

  /** Steps that read long files first: a block with room for a two-sentence "Left off". */
  const reading: Step[] = [
    ['Let me look at the writer.', 'cat export.py', `def write(rows):\n${'    out.append(format_row(row))\n'.repeat(60)}`],
    ['And at its tests.', 'cat tests/test_export.py', `def test_dates():\n${'    assert write([row]) == expected\n'.repeat(60)}`],
  ];

  it('says what the last message found and the step its command takes, not the steps it thought aloud on the way', () => {
    const chat = run('Fix the export.', [
      ...reading,
      [
        'So `write()` never escapes the separator. Now let me look at the tests again and think about the best approach. Let me implement the simpler fix first. Let me check how the reader splits the fields:',
        'grep -n split export.py',
        '30: fields = line.split(",")',
      ],
    ]);
    const left = blockOf(chat).block.split('\n').find((l) => l.startsWith('Left off:'));
    expect(left).toBe('Left off: So `write()` never escapes the separator. Let me check how the reader splits the fields.');
  });

  it('says the step alone when what the agent found before it has no room', () => {
    const found = 'So the exporter writes every row through `format_row()`, which quotes the separator only when the value is a string and never when it is a number, a date or a decimal from the ledger.';
    const chat = run('Fix the export.', [...reading, [`${found} Let me read the tests:`, 'cat tests/test_export.py', 'def test_quotes(): ...']]);
    const small = blockOf(chat, 220).block.split('\n').find((l) => l.startsWith('Left off:'));
    expect(small).toBe('Left off: Let me read the tests.');
    expect(blockOf(chat, 220).block).toContain('Left off: Let me read the tests.\n- Ran: cat tests/test_export.py');
    expect(blockOf(chat).block).toContain(`Left off: ${found} Let me read the tests.\n- Ran: cat tests/test_export.py`);
  });

  it('keeps what the agent found it must do before the step, and leaves out its thinking aloud', () => {
    const chat = run('Fix the export.', [...reading, ['Now I understand the issue. I need to call `setup()` before the writer runs. Let me fix the script:', "sed -i 's/^run()/setup(); run()/' repro.py", '']]);
    const left = blockOf(chat).block.split('\n').find((l) => l.startsWith('Left off:'));
    expect(left).toBe('Left off: I need to call `setup()` before the writer runs. Let me fix the script.');
  });

  it('leaves out a step that says no more than its command ("Let me install pytz." over pip install pytz)', () => {
    expect(restatesCommand('Let me install pytz.', 'pip install pytz -q')).toBe(true);
    expect(restatesCommand('Let me look at the foreign key implementation in `related.py`.', 'head -100 django/db/models/fields/related.py')).toBe(false);
    expect(restatesCommand('The writer never escapes the separator.', 'grep -n split export.py')).toBe(false);
    const chat = run('Fix the export.', [...reading, ['The dates need pytz. Let me install pytz:', 'pip install pytz -q', '']]);
    expect(blockOf(chat).block).toMatch(/^Left off: The dates need pytz\.\n- Ran: pip install pytz -q/m);
  });

  it('leaves out a step announced in an earlier message than the last command: the agent no longer stands there', () => {
    const chat = run('Fix the export.', [...reading, ['', 'grep -n split export.py', '30: fields = line.split(",")']]);
    const { block } = blockOf(chat);
    expect(block).not.toMatch(/^Left off: (?:And at its tests|Let me look at the writer)/m);
    expect(block).toContain('- Ran: grep -n split export.py');
  });
});

describe('a small window with a long task message', () => {
  const longTask = (): string => {
    const para = Array.from({ length: 95 }, (_, i) => `Rule ${i + 1} of the harness says how the shell behaves and what the answer should look like in detail.`).join('\n');
    return `<pr_description>\nThe CSV exporter drops rows whose date is empty.\n</pr_description>\n\n<instructions>\n${para}\nDo NOT modify the tests.\nYou must submit with one command only.\n</instructions>`;
  };
  const steps = (n: number): Step[] =>
    Array.from({ length: n }, (_, i): Step => [
      `Step ${i + 1}: reading part ${i + 1} of the exporter to find where empty dates are dropped.`,
      `sed -n '${i * 40 + 1},${i * 40 + 40}p' export/csv.py`,
      Array.from({ length: 14 }, (_, k) => `${i * 40 + k + 1}:    value = row.get("field_${k}") or default_for("field_${k}")`).join('\n'),
    ]);

  it('replays at 4k without one compaction that removed messages and carried an empty block; the task and its rules stay in every block', () => {
    const chat = run(longTask(), steps(60));
    chat.pop();
    expect(estimateMessageTokens(chat[0] as ChatMessage, 'gpt-4o')).toBeGreaterThan(1800);
    const s = resolve({ ...CLI_DEFAULTS, window: 4096, model: 'gpt-4o' }, { id: 'c', title: '', messages: chat });
    const r = replay(chat, s);
    const rounds = r.events.filter((e) => e.kind === 'compaction');
    expect(rounds.length).toBeGreaterThan(3);
    for (const e of rounds) {
      if (e.kind !== 'compaction') continue;
      expect(e.block).not.toBe('');
      expect(e.block).toContain('Goal: The CSV exporter drops rows whose date is empty.');
      expect(e.block).toContain('Do NOT modify the tests.');
    }
    // Once tool rounds answered it, the task message is carried by the block, not sent whole.
    expect(rounds.some((e) => e.kind === 'compaction' && e.record.requestCarried === 'u0')).toBe(true);
    expect(r.overPoint).toBe(0);
  });
});

describe('where the work stands, as a reader needs it', () => {
  it('says no source file was edited yet, in a run with a shell and no edit; not in a run of note lookups', () => {
    const looking = run('Fix the rounding in billing/total.py.', [['Let me read it.', 'cat billing/total.py', 'def total(lines): ...']]);
    expect(section(blockOf(looking).block, 'State:')).toContain('- Changed: no source file edited yet');
    // With more to say of the state, the heading says it: a line of no source's words is none.
    const checking = run('Fix the rounding in billing/total.py.', [
      ['The total is summed before rounding, so the cents drift.', 'cat billing/total.py', 'def total(lines): ...'],
      ['Let me run the tests.', 'python -m pytest tests/test_total.py', 'FAILED tests/test_total.py::test_cents - AssertionError: 10.01 != 10.0\n<returncode>1</returncode>'],
      ['Let me read the test.', 'cat tests/test_total.py', 'def test_cents(): ...'],
    ]);
    const block = blockOf(checking).block;
    expect(block).not.toContain('no source file edited yet');
    expect(block).not.toContain('\nState:\n');
    expect(section(block, 'State (source files unchanged):')).toContain('- Checked: python -m pytest tests/test_total.py — failed');
    const notes = run('What do my notes say about compost?', [['Reading the note.', { name: 'read_note', args: { path: 'Garden/Soil.md' } }, 'Compost twice a year.']]);
    expect(blockOf(notes).block).not.toContain('no source file edited yet');
    const edited = run('Fix the rounding.', [['Fixing it.', "sed -i 's/round(x)/round(x, 2)/' billing/total.py", '']]);
    expect(blockOf(edited).block).not.toContain('no source file edited yet');
  });

  it('lists a script written and run in one command, and a copy of a source file, as scratch, not as changed', () => {
    const chat = run('Fix the parser.', [
      ['Reproducing.', "cat > repro.py << 'EOF'\nfrom app.parse import parse\nprint(parse('-01:00'))\nEOF\npython repro.py", '+01:00'],
      ['Trying a version aside.', "python - << 'EOF'\nsrc = open('app/parse.py').read()\nopen('app/parse.py.new', 'w').write(src.replace('abs(', '('))\nEOF", ''],
    ]);
    const { state } = blockOf(chat);
    expect(state?.changed).toEqual([]);
    expect(state?.scratch).toEqual(['repro.py', 'app/parse.py.new']);
  });

  it('says a source file edited by a script the agent wrote was changed by running it, with what it printed', () => {
    const script = "cat > fix_total.py << 'EOF'\nsrc = open('billing/total.py').read()\nsrc = src.replace('lines[0]', 'line')\nopen('billing/total.py', 'w').write(src)\nprint('Rewrote the sum over every line')\nEOF";
    const chat = run('Fix the total.', [
      ['Writing the fix as a script.', script, ''],
      ['Running it.', 'python fix_total.py', 'Rewrote the sum over every line'],
    ]);
    const { state, block } = blockOf(chat);
    expect(state?.changed.map((c) => c.path)).toEqual(['billing/total.py']);
    expect(state?.scratch).toEqual(['fix_total.py']);
    expect(section(block, 'State:')).toContain('- Changed: billing/total.py\n  - python fix_total.py — printed: Rewrote the sum over every line');
    // Running it is the edit, not a check of the work: the test run before it stays the check.
    const checked = run('Fix the total.', [
      ['Reproducing.', 'python repro.py', 'total: 30 (should be 27)\n<returncode>1</returncode>'],
      ['Writing the fix as a script.', script, ''],
      ['Running it.', 'python fix_total.py', 'Found the sum at line 12\nRewrote the sum over every line'],
    ]);
    const after = blockOf(checked);
    expect(after.state?.checked?.command).toBe('python repro.py');
    expect(after.state?.lastAction?.outcome).toBe('Rewrote the sum over every line');
  });

  it('changes no source file by writing a script that would edit it, until the script runs, also in a later round', () => {
    const script = "cat > fix_total.py << 'EOF'\nsrc = open('billing/total.py').read()\nsrc = src.replace('lines[0]', 'line')\nopen('billing/total.py', 'w').write(src)\nprint('Rewrote the sum over every line')\nEOF";
    const written = run('Fix the total.', [['Writing the fix as a script.', script, '']]);
    const first = blockOf(written);
    expect(first.state?.changed).toEqual([]);
    expect(first.block).toContain('State (source files unchanged):');
    expect(first.block).not.toContain('Files modified');
    // The next round runs it: the file is changed then, with what the run printed.
    const r1 = compact(written, { budgetTokens: 1200, cut: written.length - 1, model: 'gpt-4o' });
    if (!r1.ok) throw new Error(r1.message);
    const later: ChatMessage[] = [
      ...written,
      { id: 'a9', createdAt: 0, role: 'assistant', content: 'Running it.', toolCalls: [{ id: 'c9', name: 'bash', arguments: JSON.stringify({ command: 'python fix_total.py' }) }] },
      { id: 't9', createdAt: 0, role: 'tool', toolCallId: 'c9', content: 'Rewrote the sum over every line' },
      { id: 'u9', createdAt: 0, role: 'user', content: 'Go on.' },
    ];
    const r2 = compact(later, { budgetTokens: 1200, cut: later.length - 1, model: 'gpt-4o', previous: r1.record });
    if (!r2.ok) throw new Error(r2.message);
    expect(r2.record.state?.changed.map((c) => [c.path, c.how])).toEqual([['billing/total.py', 'python fix_total.py — printed: Rewrote the sum over every line']]);
  });

  it("takes the cause from the sentences after an announced conclusion, never from what the issue is 'about', and else from the latest finding", () => {
    const announced = run('Fix the offsets.', [
      ['The issue is about time zones.', 'cat app/parse.py', 'def parse(s): ...'],
      ['Now I understand the issue. The parser drops the sign of the offset before it converts it. Let me look at the tests:', 'ls tests', 'test_parse.py'],
    ]);
    expect(blockOf(announced).state?.cause?.text).toBe('The parser drops the sign of the offset before it converts it.');
    const finding = run('Fix the offsets.', [['So `parse()` does not handle a negative offset at all.', 'cat app/parse.py', 'def parse(s): ...']]);
    expect(blockOf(finding).state?.cause?.text).toBe('`parse()` does not handle a negative offset at all.');
    const topic = run('Fix the offsets.', [['The issue is about time zones in the parser module.', 'cat app/parse.py', 'def parse(s): ...']]);
    expect(blockOf(topic).state?.cause).toBeNull();
  });

  it('takes a cause announced with a colon whose first sentence is only the first step of the explanation with the steps through the one that says why', () => {
    const cause = (said: string): string | undefined => blockOf(run('Clearing the cart should leave the shipping line.', [[said, 'cat shop/cart.py', 'def clear(self): ...']])).state?.cause?.text;
    expect(cause('The problem is: after `keep("shipping")`, the kept set is `{shipping}`. When we `drop("shipping")`, we take it out of the kept set, leaving it empty. An empty kept set means "keep every line" because nothing restricts it. The fix should be to switch back to dropping mode.')).toBe(
      'The problem is: after `keep("shipping")`, the kept set is `{shipping}`. When we `drop("shipping")`, we take it out of the kept set, leaving it empty. An empty kept set means "keep every line" because nothing restricts it.',
    );
    // (One that says why in its own sentence stands alone; nor is a solution after it a cause.)
    expect(cause('The problem is: after `keep("shipping")`, the kept set is `{shipping}`. One solution is to never empty the kept set because it restricts nothing.')).toBe('The problem is: after `keep("shipping")`, the kept set is `{shipping}`.');
    expect(cause('The real issue is: `clear()` empties the kept set and never calls `restore_shipping()` after it. Later the total is wrong too. One solution is to restore the line lazily.')).toBe('The real issue is: `clear()` empties the kept set and never calls `restore_shipping()` after it.');
  });

  it('takes no cause that only says what should happen, what shows instead, where it lies or what to do: the conclusion about why before it stands', () => {
    const why: Step = ['The issue is that `add_line()` never calls `refresh_total()` after it appends.', 'cat billing/order.py', 'def add_line(self, line): ...'];
    const cause = (said: string): string | undefined => blockOf(run('Fix the order total.', [why, [said, 'cat billing/total.py', 'def refresh_total(self): ...']])).state?.cause?.text;
    const expected = 'The issue is that `add_line()` never calls `refresh_total()` after it appends.';
    expect(cause('The issue is that `order.total` should be updated when a line is added.')).toBe(expected);
    expect(cause('The issue is that when the order is printed, it is showing the old total instead of the new one.')).toBe(expected);
    expect(cause('The issue is in the billing module, specifically `billing.order`.')).toBe(expected);
    expect(cause('The issue is that when a line is added, we need to refresh the total afterwards.')).toBe(expected);
    // A later conclusion that says why still wins.
    expect(cause('The issue is that `refresh_total()` only sums the lines it had cached.')).toBe('The issue is that `refresh_total()` only sums the lines it had cached.');
  });

  it('carries no statement of a fix not made yet as a key fact, abandoned or standing; one an edit carried out stays', () => {
    const facts = (steps: Step[]): string => {
      const chat = run('Fix the order total.', steps);
      const r = compact(chat, { budgetTokens: 1200, cut: chat.length - 1, model: 'gpt-4o' });
      if (!r.ok) throw new Error(r.message);
      return r.record.facts.map((f) => f.text).join('\n');
    };
    const abandoned = facts([
      ['The fix should be to call `refresh_total()` at the end of `add_line()`. The order keeps its lines in a plain list.', 'cat billing/order.py', 'def add_line(self, line): ...'],
      ['The cache is keyed by the order id alone. Let me check what the right fix should be for cached totals.', 'cat billing/cache.py', 'def cached_total(order): ...'],
    ]);
    expect(abandoned).not.toContain('The fix should be');
    expect(abandoned).toContain('The order keeps its lines in a plain list.');
    const made = facts([
      ['The fix should be to call `refresh_total()` at the end of `add_line()`. The order keeps its lines in a plain list.', 'cat billing/order.py', 'def add_line(self, line): ...'],
      ['Making it.', "sed -i 's/self.lines.append(line)/self.lines.append(line); self.refresh_total()/' billing/order.py", ''],
    ]);
    expect(made).toContain('The fix should be to call `refresh_total()` at the end of `add_line()`.');
  });

  it('ends an announced cause where the fix begins: the plan is said as the plan', () => {
    const chat = run('Fix the order total.', [['Now I understand the issue. The `add_line()` method never calls `refresh_total()` after it appends. The fix should be to call `refresh_total()` at the end of `add_line()`. Let me look at it:', 'cat billing/order.py', 'def add_line(self, line): ...']]);
    const { state } = blockOf(chat);
    expect(state?.cause?.text).toBe('The `add_line()` method never calls `refresh_total()` after it appends.');
    expect(state?.plan?.text).toBe('The fix should be to call `refresh_total()` at the end of `add_line()`.');
  });

  it('lists every place a file was edited, oldest first, and a chain keeps the earlier ones', () => {
    const chat = run('Fix the totals.', [
      ['First place.', "sed -i '12s/total =/total +=/' billing/total.py", ''],
      ['Second place.', "sed -i '40s/round(x)/round(x, 2)/' billing/total.py", ''],
    ]);
    const { block, state } = blockOf(chat);
    expect(section(block, 'State:')).toContain("- Changed: billing/total.py\n  - sed -i '12s/total =/total +=/' billing/total.py\n  - sed -i '40s/round(x)/round(x, 2)/' billing/total.py");
    const later: TaskState = { changed: [{ path: 'billing/total.py', how: "sed -i '50s/a/b/' billing/total.py", sources: ['z'] }], scratch: [], checked: null, cause: null, notesRead: [], searches: [], lastAction: null };
    const merged = mergeState(state, later).changed[0];
    expect([...(merged?.earlier ?? []), merged?.how]).toEqual(["sed -i '12s/total =/total +=/' billing/total.py", "sed -i '40s/round(x)/round(x, 2)/' billing/total.py", "sed -i '50s/a/b/' billing/total.py"]);
  });

  it('says the fix the agent settled on while no source file was edited after it, and not once it is made', () => {
    const steps: Step[] = [
      ['The fix should be to keep the sign of the offset when the parser converts it.', 'cat app/parse.py', 'def parse(s): ...'],
      ['Let me look at the tests first.', 'ls tests', 'test_parse.py'],
    ];
    expect(section(blockOf(run('Fix the offsets.', steps)).block, 'State (source files unchanged):')).toContain('- Planned fix: The fix should be to keep the sign of the offset when the parser converts it.');
    const made = run('Fix the offsets.', [...steps, ['Making it.', "sed -i 's/abs(offset)/offset/' app/parse.py", '']]);
    expect(blockOf(made).block).not.toContain('Planned fix:');
  });

  it('shows no plan the agent took back or left for a search of the right one, and a later plan in its own words', () => {
    const planned: Step = ['The fix should be to keep the sign of the offset when the parser converts it.', 'cat app/parse.py', 'def parse(s): ...'];
    const plan = (steps: Step[]): string | undefined => blockOf(run('Fix the offsets.', steps)).state?.plan?.text;
    // Taken back in the next sentence, or by a new diagnosis later: no plan rather than the old one.
    expect(plan([['The fix should be to keep the sign of the offset when the parser converts it. Wait, that breaks the UTC case.', 'cat app/parse.py', 'def parse(s): ...']])).toBeUndefined();
    expect(plan([planned, ['Actually, I think the real issue is in the tokenizer, not the parser.', 'cat app/tokens.py', 'def split(s): ...']])).toBeUndefined();
    expect(plan([planned, ['Let me check what the right fix should be for the UTC case.', 'cat tests/test_parse.py', 'def test_utc(): ...']])).toBeUndefined();
    // A guess is no plan.
    expect(plan([planned, ['Maybe the fix should be to parse the offset in the tokenizer instead?', 'cat app/tokens.py', 'def split(s): ...']])).toBeUndefined();
    // A later plan, also said as a belief (with its hedge) or in other words ("the logic should be").
    expect(plan([planned, ['I think the fix should be to parse the offset before the tokenizer strips the sign.', 'cat app/tokens.py', 'def split(s): ...']])).toBe('I think the fix should be to parse the offset before the tokenizer strips the sign.');
    expect(plan([planned, ['So the logic should be: read the sign first, then the hours and the minutes.', 'cat app/tokens.py', 'def split(s): ...']])).toBe('The logic should be: read the sign first, then the hours and the minutes.');
    // Talk of the fix that is no statement of it leaves the plan standing.
    expect(plan([planned, ['Let me run the tests to make sure the fix works.', 'ls tests', 'test_parse.py']])).toBe('The fix should be to keep the sign of the offset when the parser converts it.');
  });

  it('leaves off at the last tool call with its outcome in one line, even when that step said nothing', () => {
    const chat = run('Fix the export.', [
      ['Let me look at the writer.', 'cat export.py', 'def write(rows): ...'],
      ['', 'python -m pytest tests/test_export.py', 'FAILED tests/test_export.py::test_dates - AssertionError: 2 != 3\n<returncode>1</returncode>'],
    ]);
    const lines = blockOf(chat).block.split('\n');
    // (The prose announced the step before; the step it stands at is the last command.)
    const at = lines.indexOf('Left off:');
    expect(at).toBeGreaterThan(0);
    expect(lines[at + 1]).toBe('- Ran: python -m pytest tests/test_export.py — failed with return code 1: FAILED tests/test_export.py::test_dates - AssertionError: 2 != 3');
    // Prose more than two silent steps back no longer says what the work is doing.
    const silent = run('Fix the export.', [
      ['Let me look at the writer.', 'cat export.py', 'def write(rows): ...'],
      ['', 'ls tests', 'test_export.py'],
      ['', 'cat tests/test_export.py', 'def test_dates(): ...'],
      ['', 'wc -l export.py', '120 export.py'],
    ]);
    const block = blockOf(silent).block;
    expect(block).toContain('Left off:\n- Ran: wc -l export.py — `120 export.py`');
    expect(block).not.toContain('Left off: Let me look at the writer.');
  });

  it('says how much a view through a pipeline showed, never a code line ending on a colon as its outcome', () => {
    const chat = run('Fix the totals.', [['Let me read the total function.', "cat -n billing/totals.py | sed -n '40,44p'", '40\tdef total(rows):\n41\t    out = 0\n42\t    for row in rows:\n43\t        out += row.price\n44\t    return out']]);
    const ran = blockOf(chat).block.split('\n').find((l) => l.startsWith('- Ran:')) ?? '';
    expect(ran).toBe("- Ran: cat -n billing/totals.py | sed -n '40,44p' — showed 5 lines, defining `total`");
  });

  it('says how much a view showed even when a line of it names the task, that line kept as output', () => {
    const chat = run('Fix the totals: total_price ignores discounts.', [['Let me read the function.', "sed -n '40,43p' billing/totals.py", 'def total_price(rows):\n    out = 0\n    # total_price ignores discounts for now\n    return out']]);
    const lines = blockOf(chat).block.split('\n');
    expect(lines.find((l) => l.startsWith('- Ran:'))).toBe("- Ran: sed -n '40,43p' billing/totals.py — showed 4 lines, defining `total_price`");
  });

  it('shows a script written and run in one command as both, with the outcome of the run', () => {
    const chat = run('Fix the export.', [['Reproducing.', "cat > repro.py << 'EOF'\nfrom export import write\nwrite([{'date': ''}])\nEOF\npython repro.py", 'KeyError: \'date\'\n<returncode>1</returncode>']]);
    expect(blockOf(chat).block).toContain("- Ran: cat > repro.py … python repro.py — failed with return code 1: KeyError: 'date'");
  });

  it('takes no run of a script named for changing code as a check, and says what it printed last', () => {
    const chat = run('Fix the totals.', [
      ['Let me run the tests.', 'python -m pytest tests/test_total.py', 'FAILED tests/test_total.py::test_cents - AssertionError: 10.01 != 10.0\n<returncode>1</returncode>'],
      ['Let me apply the fix.', 'python fix_total.py', 'Found total() at line 12\nWrote billing/total.py.new\nPatched total() in the copy\n]'],
    ]);
    const { block, state } = blockOf(chat);
    expect(state?.checked?.command).toBe('python -m pytest tests/test_total.py');
    expect(block).toContain('- Ran: python fix_total.py — `Patched total() in the copy`');
  });

  it('counts a qualified exception line as a failed run, whatever the return code, and a run whose runner is missing as no check', () => {
    const chat = run('Fix the export.', [
      ['Running the tests.', 'python -m pytest tests/test_export.py 2>&1', '/usr/bin/python: No module named pytest\n<returncode>0</returncode>'],
      ['Now with the project runner.', 'python -m app.tests 2>&1', 'app.errors.SettingsMissing: Requested setting DB, but settings are not configured.\n<returncode>0</returncode>'],
    ]);
    const { state } = blockOf(chat);
    expect(state?.checked).toMatchObject({ passed: false, outcome: 'failed: app.errors.SettingsMissing: Requested setting DB, but settings are not configured.' });
    const first = blockOf(chat.slice(0, 3).concat([{ id: 'u-last', createdAt: 0, role: 'user', content: 'Go on.' }]));
    // (It checked nothing: the step failed, and no check stands.)
    expect(first.state?.checked).toBeNull();
    expect(first.state?.lastAction?.outcome).toBe('failed: /usr/bin/python: No module named pytest');
  });

  it('checks a run by the line that mattered: the bug it printed, the assertion rather than the tally, never a heading', () => {
    const checked = (output: string): string | undefined => blockOf(run('Fix the totals.', [['Reproducing.', 'python repro.py', output]])).state?.checked?.outcome;
    // A reproduction that exits 0 and prints the bug among other lines, then "Done": the bug line.
    expect(checked('Lines: 2\n❌ BUG: total is 30, discount lost\nDiscount: 0\nDone')).toBe('ran without error, printed: ❌ BUG: total is 30, discount lost');
    // Nor is it "passed" for saying it finished successfully.
    expect(checked('✗ total ignores the discount\nScript finished successfully')).toBe('ran without error, printed: ✗ total ignores the discount');
    // A check that passes says so in its own words.
    expect(checked('case 1\n✓ discount applied on two lines\ncase 2')).toBe('ran without error, printed: ✓ discount applied on two lines');
    // No verdict: its last line that says something, not a heading ending on a colon.
    expect(checked('Total with discount: 27\nDiscount rows:')).toBe('ran without error, printed: Total with discount: 27');
    // An error the script caught and printed ("Error: …") is its failure, whatever came after it.
    expect(checked('Error: Requested setting DB, but settings are not configured.\nEmail field: email')).toBe('failed: Error: Requested setting DB, but settings are not configured.');
    // A unittest failure: the assertion, not "FAILED (failures=1)".
    expect(checked('F\nFAIL: test_two_lines (tests.TestTotals)\nAssertionError: 30 != 27\nRan 1 test in 0.001s\nFAILED (failures=1)\n<returncode>1</returncode>')).toBe('failed with return code 1: AssertionError: 30 != 27');
    // A harness's note about long output is no output of the run.
    expect(checked('<warning>\nThe output of your last command was too long.\n</warning><output_head>\nok 1\n</output_head>\n<elided_chars>\n900 characters elided\n</elided_chars>\n<output_tail>\n12 passed in 0.41s\n</output_tail>')).toBe('passed: 12 passed in 0.41s');
  });

  it('lists no bare file name the agent said in passing as a reference, only paths it can open', () => {
    const chat = run('Fix the totals. A regression test could go in tests/test_totals.py.', [
      ['There is no setup.py here, and settings.py is not used. Let me look at the totals.', 'cat billing/totals.py', 'def total(rows):\n    return sum(rows)'],
      ['Now the discounts.', 'cat billing/discounts.py', 'def apply_discount(total, rate):\n    return total'],
    ]);
    const refs = blockOf(chat).block.split('\n').find((l) => l.startsWith('References:')) ?? '';
    expect(refs).toContain('tests/test_totals.py');
    expect(refs).not.toMatch(/setup\.py|settings\.py/);
  });

  it('says a search that found nothing found nothing, not that it failed', () => {
    const chat = run('Fix the totals.', [['Looking for callers.', 'grep -rn "apply_discount" billing/', '<returncode>1</returncode>\n<output>\n</output>']]);
    expect(blockOf(chat).block).toContain('- Ran: grep -rn "apply_discount" billing/ — no matches');
    expect(blockOf(chat).block).not.toContain('failed');
  });

  it('shows a next step only when it was announced after the last action', () => {
    const acting = run('Fix the export.', [['Next, I will check the date column.', 'grep -n date export.py', '12: date = row[3]']]);
    expect(blockOf(acting).block).not.toContain('Next step:');
    const chat = run('Fix the export.', [
      ['Let me look at the writer.', 'cat export.py', `def write(rows):\n${'    out.append(format_row(row))\n'.repeat(40)}`],
      ['And at its tests.', 'cat tests/test_export.py', `def test_dates():\n${'    assert write([row]) == expected\n'.repeat(40)}`],
    ]);
    chat.splice(chat.length - 1, 0, { id: 'a-end', createdAt: 0, role: 'assistant', content: 'The writer skips empty dates. Next, I will add a regression test for empty dates.' });
    expect(blockOf(chat).block).toContain('Next step: Next, I will add a regression test for empty dates.');
  });

  it('shows an inline script as one command, with what its first comment says it does', () => {
    const chat = run('Check the encoder.', [['Testing it.', 'python -c "\nimport sys\n# Encode a memoryview through the response\nprint(bytes(memoryview(b\'x\')))\n"', "b'x'"]]);
    expect(blockOf(chat).block).toContain('- Ran: python -c "…" # Encode a memoryview through the response — ran without error, printed: b\'x\'');
    // Code commented out says nothing of what the script does: the comment after it does.
    const commented = run('Check the encoder.', [['Testing it.', 'python -c "\n# sys.path.insert(0, \'.\')\n# Encode a memoryview through the response\nprint(bytes(memoryview(b\'x\')))\n"', "b'x'"]]);
    expect(blockOf(commented).block).toContain('- Ran: python -c "…" # Encode a memoryview through the response — ');
  });
});

describe("the plugin's own tool loop", () => {
  it('carries the question that started the loop as its goal, the notes read once, what each search returned, and where it left off', () => {
    const chat = run('Which of my garden notes mention compost, and when should it be turned?', [
      ['Let me search your vault for compost.', { name: 'search_vault', args: { query: 'compost' } }, 'Garden/Soil.md\n  …turn the compost every two weeks…\nGarden/Log.md\n  …compost bin moved…'],
      ['I will read the soil note.', { name: 'read_note', args: { path: 'Garden/Soil.md' } }, '# Soil\nTurn the compost every two weeks in summer.'],
    ]);
    const { block } = blockOf(chat);
    expect(block).toContain('Goal: Which of my garden notes mention compost, and when should it be turned?');
    expect(block).toContain('- Notes read: Garden/Soil.md');
    expect(block).toContain('- Searched "compost": Garden/Soil.md, Garden/Log.md');
    expect(block).not.toContain('Files read');
    expect(block).not.toContain('no source file edited yet');
  });

  it('leaves off at the last note tool call, after the prose said a step or two before it, with the line of the note that answers', () => {
    const log = Array.from({ length: 12 }, (_, i) => `- Compost note ${i + 1}: watered and checked the moisture.`).join('\n');
    const chat = run('When should I turn the compost bins?', [
      ['Let me search your notes for the bins.', { name: 'search_vault', args: { query: 'compost bins' } }, 'Garden/Compost.md\n  …turn the left bin…\nGarden/Log.md\n  …compost…'],
      ['', { name: 'read_note', args: { path: 'Garden/Compost.md' } }, `# Compost bins\nTurn the left bin every three weeks from April.\n\n${log}`],
    ]);
    const { block, state } = blockOf(chat);
    // (The prose was said with the search; the read after it is where the loop stands.)
    expect(block).toContain('Left off:\n- Ran: read_note Garden/Compost.md — read, 14 lines');
    expect(block).not.toContain('Let me search your notes');
    // (The line that names the rarest words of the question, not the note's heading nor its log.)
    expect(block).toContain('  Turn the left bin every three weeks from April.');
    expect(block).not.toMatch(/^\s+# Compost bins$/m);
    expect(block).not.toContain('Compost note 1');
    expect(state?.lastAction?.command).toBe('read_note Garden/Compost.md');
  });

  it('leaves off at a search by the notes it found, never by a line of its raw result', () => {
    const json = JSON.stringify({ results: [{ path: 'Garden/Soil.md', line: 3, snippet: 'compost' }] });
    const chat = run('What do my notes say about compost?', [['Searching the vault.', { name: 'search_vault', args: { query: 'compost' } }, json]]);
    const { block } = blockOf(chat);
    expect(block).toContain('- Ran: search_vault "compost" — found Garden/Soil.md');
    expect(block).not.toContain('"results"');
    const none = run('What do my notes say about zucchini?', [['Searching the vault.', { name: 'search_vault', args: { query: 'zucchini' } }, 'No notes match "zucchini".']]);
    expect(blockOf(none).block).toContain('- Ran: search_vault "zucchini" — no notes found');
  });

  it('says a note the plugin wrote on one line: the note, then what was appended or created', () => {
    const chat = run('Add basil seeds to my shopping list and start a seed order note.', [
      ['Adding it.', { name: 'append_to_note', args: { path: 'Shopping list.md', content: '\n- Basil seeds (Genovese)\n' } }, 'Appended 26 characters to "Shopping list.md".'],
      ['', { name: 'create_note', args: { path: 'Seed order.md', content: '# Seed order\nBasil from Kings Seeds.' } }, 'Created "Seed order.md".'],
    ]);
    const state = section(blockOf(chat).block, 'State:');
    expect(state).toContain('- Changed: Shopping list.md — appended "- Basil seeds (Genovese)"');
    expect(state).toContain('- Changed: Seed order.md — created with "Basil from Kings Seeds."');
  });

  it('carries no report of a failure that was resolved afterwards as a key fact: Errors met says its fate', () => {
    const write = (id: string): ChatMessage => ({ id, createdAt: 0, role: 'assistant', content: '', toolCalls: [{ id: `c-${id}`, name: 'append_to_note', arguments: JSON.stringify({ path: 'Garden/Log.md', text: 'Turned the compost.' }) }] });
    const chat: ChatMessage[] = [
      { id: 'u0', createdAt: 0, role: 'user', content: 'Please add to my garden log that I turned the compost today.' },
      write('a1'),
      { id: 't1', createdAt: 0, role: 'tool', toolCallId: 'c-a1', content: 'Error: append_to_note is read-only in this vault (enable "Allow edits" in the plugin settings).' },
      { id: 'a2', createdAt: 0, role: 'assistant', content: 'The edit failed: note editing is switched off in the plugin settings ("Allow edits"). You can enable it and I will retry, or add the line yourself. The garden log keeps one line per day of work in the beds.' },
      { id: 'u1', createdAt: 0, role: 'user', content: 'I enabled it. Try again.' },
      write('a3'),
      { id: 't3', createdAt: 0, role: 'tool', toolCallId: 'c-a3', content: 'OK: appended 1 line to Garden/Log.md' },
      { id: 'a4', createdAt: 0, role: 'assistant', content: 'Done: the log now says you turned the compost today.' },
      { id: 'u2', createdAt: 0, role: 'user', content: 'Thanks.' },
    ];
    const { block, errors } = blockOf(chat);
    expect(errors).toHaveLength(1);
    expect(block).toContain('append_to_note Garden/Log.md succeeded on retry');
    expect(block).not.toContain('The edit failed');
    expect(block).not.toContain('I will retry');
    // (The refused write changed nothing: one edit, the one that went through.)
    expect(section(block, 'State:')).toContain('- Changed: Garden/Log.md — appended "Turned the compost."');
    expect(block).not.toContain('edited 2 times');
    // (The message's other sentences are still facts.)
    expect(block).toContain('The garden log keeps one line per day of work in the beds.');
  });

  it('says of an output headed by a bare label the line it ended on, not the label', () => {
    const chat = run('Total my January rows per category.', [['', { name: 'python', args: { input: 'print(df.groupby("category").amount.sum())' } }, 'category\neating out     46.00\ngroceries     199.00\nrent          950.00\ntotal 1246.9']]);
    expect(blockOf(chat).state?.lastAction?.outcome).toBe('total 1246.9');
  });

  it('says of a file shown last how much it showed, not the first line of the range', () => {
    const chat = run('The parser drops empty rows. Fix it in parser.py.', [
      ['Let me look at the loop.', "sed -n '40,43p' parser.py", '    for row in rows:\n        if not row:\n            continue\n        out.append(row)'],
    ]);
    const { state } = blockOf(chat);
    expect(state?.lastAction?.outcome).toBe('showed 4 lines');
  });

  it("says of a note read last how much it read, not the note's first line", () => {
    const chat = run('What does my soil note say?', [
      ['Let me search first.', { name: 'search_vault', args: { query: 'soil' } }, 'Garden/Soil.md\n  …turn the compost…'],
      ['Reading it now.', { name: 'read_note', args: { path: 'Garden/Soil.md' } }, '# Soil\nTurn the compost every two weeks in summer.\nLime the beds in March.'],
    ]);
    const { state } = blockOf(chat);
    expect(state?.lastAction?.command).toBe('read_note Garden/Soil.md');
    expect(state?.lastAction?.outcome).toBe('read, 3 lines');
  });
});

describe('the rules a block carries', () => {
  const manyRules = `<issue>
The CSV export drops rows whose date is empty.
</issue>

<instructions>
## Boundaries
- MODIFY: source files under export/
- DO NOT MODIFY: tests or the CI configuration.
- Only change the files you need to change in export/ and nothing under tests.
- Inspect the diff to confirm it only contains your intended changes.

## Submission
When you are done you MUST submit your changes as a patch.
You MUST use this EXACT command to submit: \`echo DONE && cat patch.diff\`
Never push to the remote repository.
Do not commit your changes.
You CANNOT continue working in any way on this task after submitting.
Creating the patch and submitting it MUST be separate commands.
</instructions>`;

  it('drops a rule that repeats more binding ones and a check that is only advice', () => {
    const rules = rulesOf({ id: 'u0', createdAt: 0, role: 'user', content: manyRules }).map((r) => r.text);
    expect(rules).not.toContain('Only change the files you need to change in export/ and nothing under tests.');
    expect(rules).not.toContain('Inspect the diff to confirm it only contains your intended changes.');
    expect(rules).toContain('You MUST use this EXACT command to submit: `echo DONE && cat patch.diff`');
  });

  it('gives the rules at most their share of a small block, the most binding first, shown in their order, and the state its room', () => {
    const steps: Step[] = Array.from({ length: 12 }, (_, i): Step => [`Reading part ${i + 1} of the exporter to see where empty dates go.`, `sed -n '${i * 30 + 1},${i * 30 + 30}p' export/csv.py`, `${i * 30 + 1}:    if not row.get("date"): continue`]);
    steps.splice(6, 0, ['Now I understand the issue. The exporter skips a row when its date is empty instead of writing an empty cell.', 'python -m pytest tests/test_csv.py', 'FAILED tests/test_csv.py::test_empty_date - AssertionError\n<returncode>1</returncode>']);
    const { block } = blockOf(run(manyRules, steps), 500);
    const rules = section(block, 'Constraints and preferences:');
    expect(estimateTokens(rules, 'gpt-4o')).toBeLessThanOrEqual(0.22 * 500);
    expect(rules).toContain('EXACT command');
    const order = ['MODIFY:', 'DO NOT MODIFY:', 'EXACT command'].map((r) => rules.indexOf(r));
    expect(order.every((x) => x >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    const state = section(block, 'State (source files unchanged):');
    expect(state).toContain('- Cause: The exporter skips a row when its date is empty instead of writing an empty cell.');
    expect(state).toContain('- Checked: python -m pytest tests/test_csv.py — failed with return code 1: FAILED tests/test_csv.py::test_empty_date - AssertionError');
  });

  it('keeps the rules to their share also when the block has little else to carry: the room left is not theirs', () => {
    const rulesText = [
      'You MUST keep the public signature of export_rows unchanged for every existing caller.',
      'Never rename a column header: downstream spreadsheets match them by exact name.',
      'Do not add a dependency to requirements.txt or pyproject.toml under any circumstances.',
      'Only files under export/ may be edited; the importer belongs to another team.',
      'Do NOT reformat untouched lines: the reviewers read the diff line by line.',
      'You CANNOT run the network tests; they need credentials this sandbox does not hold.',
      'Every new function MUST carry a docstring saying what an empty date becomes.',
    ].join('\n');
    const task = `<issue>\nThe CSV export drops rows whose date is empty.\n</issue>\n\n<instructions>\n${rulesText}\n</instructions>`;
    const { block } = blockOf(run(task, [['', 'cat export/csv.py', 'def export_rows(rows): ...\n']]), 300);
    const rules = section(block, 'Constraints and preferences:');
    expect(rules).not.toBe('');
    expect(estimateTokens(rules, 'gpt-4o')).toBeLessThanOrEqual(0.22 * 300);
  });
});
