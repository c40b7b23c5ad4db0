// Agent-run blocks as a stranger reads them (issue 30, third pass): the Checked line is the last test
// or reproduction run with the line that answers, whole (never one cut at "… ON…" nor a docstring
// line broken off at "… For"); what the agent found in the code is said without its narration and
// once; a plugin tool loop's searches sit under the request that started each loop. Hand-written
// runs, never benchmark data.
import { describe, expect, it } from 'vitest';
import { findingOf } from '../../src/core/agent-prose';
import { priorOf } from '../../src/core/fact-prior';
import { extractTaskLines } from '../../src/core/extract-goal';
import { brokenOff } from '../../src/core/command-output';
import { sentencesOf } from '../../src/core/extract-sentences';
import { withoutRepeats } from '../../src/core/extract-facts';
import type { ChatMessage } from '../../src/core/messages';
import { wholeLine } from '../../src/core/run-outcome';
import { searchLines } from '../../src/core/state-format';
import { compacted, run } from './agent-run';

const TASK = 'Fix the bug: a child model ignores the descending order its parent declares. Child.objects.all() runs SELECT "myapp_parent"."id", "myapp_child"."parent_ptr_id" FROM "myapp_child" INNER JOIN "myapp_parent" ON ("myapp_child"."parent_ptr_id" = "myapp_parent"."id") ORDER BY "myapp_parent"."id" ASC, where DESC is expected.';
const QUERY = 'SELECT "shop_parent"."id", "shop_child"."parent_ptr_id" FROM "shop_child" INNER JOIN "shop_parent" ON ("shop_child"."parent_ptr_id" = "shop_parent"."id") ORDER BY "shop_parent"."id" ASC';

/** The run with one more assistant message after its steps (what the agent said of the last one). */
const withRemark = (chat: ChatMessage[], remark: string): ChatMessage[] => [...chat.slice(0, -1), { id: 'a-remark', createdAt: 0, role: 'assistant', content: remark }, ...chat.slice(-1)];

describe('the Checked line', () => {
  it('gives the line the agent quoted next as what the run showed, not the last debugging line it printed', () => {
    const chat = withRemark(run(TASK, [['Reproducing.', 'python repro.py', `Query:\n${QUERY}\nChild ordering: ['-id']\nParent ordering: ['-id']`]]), 'The query shows `ORDER BY "shop_parent"."id" ASC` but the ordering is descending.');
    const { record } = compacted(chat);
    expect(record.state?.checked?.outcome).toBe(`ran without error, printed: ${QUERY}`);
    // (Of two lines each quoted once, the one quoted first; apostrophes quote nothing, and a quote
    // said twice counts once.)
    const twice = withRemark(run(TASK, [['Reproducing.', 'python repro.py', `Handling pk: descending=True\n${QUERY}`]]), "That's it: we get `ORDER BY \"shop_parent\".\"id\" ASC` though `descending=True`, and it's `descending=True` again.");
    expect(compacted(twice).record.state?.checked?.outcome).toBe(`ran without error, printed: ${QUERY}`);
  });

  it('is no pass when the script printed a problem beside its "works correctly"', () => {
    const { record } = compacted(run(TASK, [['Analysing.', 'python analyze.py', "Start: defer mode\nPROBLEM: should switch back to defer mode\nThis works correctly!"]]));
    expect(record.state?.checked).toMatchObject({ passed: false, outcome: 'ran without error, printed: PROBLEM: should switch back to defer mode' });
  });

  it('without a remark, gives the printed line that echoes what the task reported', () => {
    const { record } = compacted(run(TASK, [['Reproducing.', 'python repro.py', `${QUERY}\nChild ordering: ['-id']\nParent ordering: ['-id']`]]));
    expect(record.state?.checked?.outcome).toBe(`ran without error, printed: ${QUERY}`);
    // (A verdict the script printed still says more than any echo.)
    const verdict = compacted(run(TASK, [['Reproducing.', 'python repro.py', `${QUERY}\n❌ BUG: ascending order\nParent ordering: ['-id']`]]));
    expect(verdict.record.state?.checked?.outcome).toBe('ran without error, printed: ❌ BUG: ascending order');
  });

  it('keeps a long outcome line whole: its first sentence when that says enough, else the line up to its bound', () => {
    expect(wholeLine('Error: Requested setting DB, but settings are not configured. You must either define the environment variable APP_SETTINGS or call settings.configure() before accessing settings.')).toBe('Error: Requested setting DB, but settings are not configured.');
    expect(wholeLine(QUERY)).toBe(QUERY);
    expect(wholeLine('short line')).toBe('short line');
    const huge = `${'word '.repeat(100)}end`;
    expect(wholeLine(huge).length).toBeLessThanOrEqual(321);
    const { block } = compacted(run(TASK, [['Running it.', 'python repro.py', `Traceback (most recent call last):\n  File "repro.py", line 3, in <module>\napp.errors.SettingsMissing: Requested setting DB, but settings are not configured. You must either define the environment variable APP_SETTINGS or call settings.configure() before accessing settings.\n<returncode>1</returncode>`]]));
    expect(block).toContain('failed with return code 1: app.errors.SettingsMissing: Requested setting DB, but settings are not configured.');
    expect(block).not.toMatch(/must either define the environment variable…/);
  });

  it('takes no python -c that only imports and prints for a check: the test before it stands', () => {
    const { record } = compacted(run(TASK, [
      ['Running the tests.', 'python -m pytest tests/test_order.py', 'FAILED tests/test_order.py::test_child - AssertionError: ASC != DESC\n<returncode>1</returncode>'],
      ['Is the dependency there?', `python -c "import asgiref; print('asgiref available')" 2>/dev/null || echo "asgiref not available"`, 'asgiref not available'],
    ]));
    expect(record.state?.checked?.command).toBe('python -m pytest tests/test_order.py');
    // (A -c script that does something is a run: it printed what the agent tried.)
    const tried = compacted(run(TASK, [['Trying it.', `python -c "from shop.models import Child; print(Child.objects.all().query)"`, QUERY]]));
    expect(tried.record.state?.checked?.command).toMatch(/^python -c/);
  });

  it('says how much a view showed behind a cd, never a line of it broken off mid-sentence', () => {
    const doc = "def get_order_dir(field, default='ASC'):\n    \"\"\"\n    Return the field name and direction for an order specification. For\n    example, '-foo' is returned as ('foo', 'DESC').\n    \"\"\"";
    const { block } = compacted(run(TASK, [['Let me look at this function.', "cd /repo && sed -n '2256,2261p' shop/query.py", doc]]));
    expect(block).toContain("- Ran: sed -n '2256,2261p' shop/query.py — showed 5 lines");
    expect(block).not.toContain('order specification. For`');
    // A search's output: the broken-off line is never the one shown either.
    const grep = compacted(run(TASK, [['Where is the order direction read?', 'grep -n -A3 "def get_order_dir" shop/query.py', doc]]));
    expect(grep.block).not.toMatch(/order specification\. For\s*$/m);
  });

  it('names the code the left-off command read where the step said "this function"', () => {
    const { block } = compacted(run(TASK, [
      ['Where is the direction read?', 'grep -n "def get_order_dir" shop/query.py', '2256:def get_order_dir(field, default="ASC"):'],
      ['Let me look at this function.', "sed -n '2256,2260p' shop/query.py", 'def get_order_dir(field, default="ASC"):\n    dirn = ORDER_DIR[default]\n    if field[0] == "-":\n        return field[1:], dirn[1]\n    return field, dirn[0]'],
    ]));
    // (The step names the function the command showed, and so does what it showed.)
    expect(block).toContain("Left off: Let me look at `get_order_dir`.\n- Ran: sed -n '2256,2260p' shop/query.py — showed 5 lines, defining `get_order_dir`");
    expect(block).not.toContain('this function');
  });

  it('shows no line of code left open (ending on a comma or an opener) as what the left-off command showed', () => {
    const chat = run('Fix the check of constraints: unsupported constraints give no warning.', [['Let me examine the constraint check.', 'grep -B1 -A3 "does not support" shop/base.py', "                    checks.Warning(\n                        '%s does not support check constraints.' % connection.display_name,\n                        hint=(\n                            \"A constraint won't be created. Silence this \"\n                    warn(unsupported, constraints)"]]);
    const removed = chat.slice(0, -1);
    const output = extractTaskLines(removed, sentencesOf(removed)).leftOff?.output ?? [];
    expect(output.some((l) => l.includes("warn(unsupported, constraints)"))).toBe(true);
    expect(output.some((l) => l.includes('connection.display_name,'))).toBe(false);
    // (A view of the file — `sed -n`, `cat` — shows none of its code lines: its outcome says what it showed.)
    const view = run('Fix the check of constraints: unsupported constraints give no warning.', [['Let me examine the constraint check.', "sed -n '1893,1893p' shop/base.py", 'warn(unsupported, constraints)\nwarn(unsupported, constraints, hint)']]).slice(0, -1);
    expect(extractTaskLines(view, sentencesOf(view)).leftOff?.output).toBeUndefined();
  });

  it('tells a prose line broken off from a whole one and from code', () => {
    expect(brokenOff('Return the field name and direction for an order specification. For', "example, '-foo' is returned")).toBe(true);
    expect(brokenOff('The default param is used to indicate which way no prefix', 'should sort.')).toBe(true);
    expect(brokenOff('Return the field name and direction.', 'more text')).toBe(false);
    expect(brokenOff("dirn = ORDER_DIR[default]", 'if field[0]')).toBe(false);
    expect(brokenOff('ok then', 'next')).toBe(false);
  });

  it('shows no output line under the left-off command that its outcome already gives', () => {
    const { block } = compacted(run(TASK, [['Reproducing.', 'python repro.py', `${QUERY}\nChild ordering in shop_child: descending requested\nParent ordering in shop_parent: descending requested`]]));
    const ran = block.split('\n').find((l) => l.startsWith('- Ran: python repro.py')) ?? '';
    expect(ran).toContain(QUERY);
    expect(block.split('\n').filter((l) => l.includes('INNER JOIN'))).toHaveLength(1);
  });
});

describe("the agent's findings", () => {
  it('are said without how the agent came to see them', () => {
    expect(findingOf('Looking at the code, I can see that `check_rows` only checks the header.')).toBe('`check_rows` only checks the header.');
    expect(findingOf('Great! `Decimal` has a `quantize()` method.')).toBe('`Decimal` has a `quantize()` method.');
    expect(findingOf('Good, so the writer is at line 282.')).toBe('The writer is at line 282.');
    expect(findingOf('Line 505 shows that `get_distinct()` is only called without a combinator.')).toBe('`get_distinct()` is only called without a combinator.');
    expect(findingOf('Notice that `distinct` is not in the list of checked operations.')).toBe('`distinct` is not in the list of checked operations.');
    // ("It" is the code the narration named; another pointer keeps the narration that names it.)
    expect(findingOf('Looking at the `create_rows` function, I see that it skips empty rows.')).toBe('`create_rows` skips empty rows.');
    expect(findingOf('Looking at the writer, I see that they skip empty rows.')).toBe('Looking at the writer, I see that they skip empty rows.');
    expect(findingOf("Looking at the migration code, it's trying to update every permission.")).toBe('The migration code is trying to update every permission.');
    expect(findingOf("Looking at the Field class's `check` method, I see it calls several `_check_*` methods.")).toBe('`check` calls several `_check_*` methods.');
    expect(findingOf("I see there's already legacy handling for the old hash.")).toBe("There's already legacy handling for the old hash.");
    expect(findingOf('Ah, there is a bug in the loop.')).toBe('There is a bug in the loop.');
    // ("I see the problem." is no finding to strip down to "The problem.")
    expect(findingOf('I see the problem now.')).toBe('I see the problem now.');
    // (A sentence with no narration is itself.)
    expect(findingOf('`total()` ignores the discount rate.')).toBe('`total()` ignores the discount rate.');
  });

  it('are key facts without their narration, and a finding said again in fewer words is not repeated', () => {
    const { record } = compacted(run('Fix the bug: constraints naming missing fields pass the checks. You must only change source files.', [
      ['Let me read the checks.', 'grep -n "def _check" shop/base.py', '1562:    def _check_unique_together(cls):\n1867:    def _check_constraints(cls):'],
      ['I can see that `_check_constraints` only checks database support, not whether the fields exist. Let me read the rest.', "sed -n '1867,1900p' shop/base.py", 'def _check_constraints(cls):\n    errors = []\n    return errors'],
      ['Looking at the code, I can see that `_check_constraints` only checks database support. Let me look at the other check.', "sed -n '1562,1580p' shop/base.py", 'def _check_unique_together(cls):\n    return cls._check_local_fields(fields)'],
    ]));
    const facts = record.facts.map((f) => f.text);
    expect(facts).toContain('`_check_constraints` only checks database support, not whether the fields exist.');
    expect(facts.some((f) => /I can see|Looking at the code/.test(f))).toBe(false);
    expect(facts).not.toContain('`_check_constraints` only checks database support.');
  });

  it("rank the task's sentences of the bug above the reporter's story", () => {
    const task: ChatMessage = { id: 'u0', createdAt: 0, role: 'user', content: 'I also deleted my venv and recreated it without an effect. I expect the rows to be sorted in descending order.' };
    const [story, bug] = sentencesOf([task]);
    if (!story || !bug) throw new Error('two sentences');
    const at = (kind: 'work' | 'assist'): [number, number] => [priorOf(story, story.text, { kind, lastMessage: 0 }), priorOf(bug, bug.text, { kind, lastMessage: 0 })];
    const [storyWork, bugWork] = at('work');
    expect(storyWork).toBeLessThan(bugWork * 0.5);
    // (With an assistant, the user telling what they did is theirs: not lowered.)
    const [storyAssist] = at('assist');
    expect(storyAssist).toBeGreaterThan(storyWork);
  });

  it('drops only a line whose every word a longer one holds', () => {
    const line = (text: string): { text: string; sources: string[]; at: number; score: number; round: number } => ({ text, sources: ['a'], at: 0, score: 1, round: 1 });
    const kept = withoutRepeats([line('`x` only checks support, not existence.'), line('`x` only checks support.'), line('`y` only checks support.')]).map((l) => l.text);
    expect(kept).toEqual(['`x` only checks support, not existence.', '`y` only checks support.']);
  });
});

describe('errors and output as the run met them', () => {
  it("says an error only the task's report shows is the reported bug, not an error the work met and left unresolved", () => {
    const task = 'Fix the crash. Running the export raises:\nTraceback (most recent call last):\n  File "manage.py", line 19, in main\nTypeError: unhashable type: \'list\'';
    const { block } = compacted(run(task, [
      ['Let me look at the export.', 'cat shop/export.py', 'def export(rows):\n    return {r: 1 for r in rows}'],
      ['Running the tests.', 'python -m pytest tests/test_export.py', 'FAILED tests/test_export.py::test_rows - KeyError: 3\n<returncode>1</returncode>'],
    ]));
    expect(block).toContain("- Reported in the task: TypeError: unhashable type: 'list'");
    expect(block).not.toContain("Unresolved: TypeError: unhashable type: 'list'");
    expect(block).toMatch(/Unresolved: KeyError: 3|KeyError: 3/);
  });

  it('resolves no error by an install that failed, nor by a probe that runs through whether the module is there or not', () => {
    const missing = "Traceback (most recent call last):\n  File \"/repo/t.py\", line 1, in <module>\nModuleNotFoundError: No module named 'asgiref'\n<returncode>1</returncode>";
    const { block } = compacted(run('Fix the export.', [
      ['Running my script.', 'python t.py', missing],
      ['Installing it.', 'pip install asgiref -q', 'ERROR: Exception:\npip._vendor.urllib3.exceptions.ReadTimeoutError: Read timed out.\n<returncode>2</returncode>'],
      ['Is it there?', `python -c "import asgiref; print('asgiref available')" 2>/dev/null || echo "asgiref not available"`, 'asgiref not available'],
    ]));
    expect(block).toMatch(/- Unresolved: ModuleNotFoundError: No module named 'asgiref'/);
    expect(block).not.toMatch(/Resolved(?: by install)?: ModuleNotFoundError/);
    // (An install that went through, then a script failing on something else, resolved it.)
    const through = compacted(run('Fix the export.', [
      ['Running my script.', 'python t.py', missing],
      ['Installing it and running again.', 'pip install asgiref -q && python t.py', "app.errors.SettingsMissing: Requested setting DB, but settings are not configured.\n<returncode>1</returncode>"],
    ]));
    const error = through.record.errors.find((e) => e.text.includes("'asgiref'"));
    expect(error?.resolution).toMatch(/^pip install asgiref/);
    expect(error?.unresolved).toBeUndefined();
  });

  it("reads one broken script's lines the shell took for commands as one error", () => {
    const { record } = compacted(run('Fix the export.', [['Writing the note.', "cat > notes.txt << EOF\nAdd the rows\nexclude empty ones\nEOF2", 'bash: line 2: Add: command not found\nbash: line 3: exclude: command not found\n<returncode>127</returncode>']]));
    expect(record.errors.map((e) => e.text)).toEqual(['bash: line 2: Add: command not found']);
  });

  it("carries no sentence reading the error aloud as a key fact: the Errors section says it", () => {
    const { record } = compacted(run('Fix the export: it crashes on lists.', [
      ['Running it.', 'python repro.py', "Traceback (most recent call last):\n  File \"repro.py\", line 3, in <module>\nTypeError: unhashable type: 'list'\n<returncode>1</returncode>"],
      ['The error message says that a list cannot be hashed when the rows are keyed. The `export()` function builds a dict keyed by each row.', 'cat shop/export.py', 'def export(rows):\n    return {r: 1 for r in rows}'],
    ]));
    const facts = record.facts.map((f) => f.text);
    expect(facts.some((f) => /The error message says/.test(f))).toBe(false);
    expect(facts).toContain('The `export()` function builds a dict keyed by each row.');
  });

  it("shows no traceback frame under the left-off command: its failure line says what happened", () => {
    const { block } = compacted(run('Fix the json_script encoder option.', [['Now let me run my script for json_script.', 'python test_json_script.py', 'Traceback (most recent call last):\n  File "/repo/test_json_script.py", line 2, in <module>\n    from shop.html import json_script\n  File "/repo/shop/html.py", line 14, in <module>\n    from asgiref.sync import json_script_helper\nModuleNotFoundError: No module named \'asgiref\'\n<returncode>1</returncode>']]));
    expect(block).toContain("- Ran: python test_json_script.py — failed with return code 1: ModuleNotFoundError: No module named 'asgiref'");
    expect(block).not.toMatch(/^\s+(?:File "|from shop\.html import json_script)/m);
  });
});

describe("the plugin's tool loops", () => {
  const search = (query: string, result: string): readonly [string, { name: string; args: Record<string, unknown> }, string] => ['', { name: 'search_vault', args: { query } }, result];

  it('list the searches of each loop under the request that started it, the latest loop first', () => {
    const first = run('Which seeds do I still need to order? Check my garden notes.', [search('seed inventory', 'Garden/Seeds.md'), search('ordered seeds', 'Daily/2026-03-02.md')], 'Thanks.');
    const second = run('When should I turn the compost bins?', [search('compost bins', 'Projects/Compost.md')], 'Go on.', 'b');
    const chat = [...first, ...second];
    const { block } = compacted(chat, 1500);
    // (The second request is no task line of this block: it is quoted.)
    expect(block).toContain(['- Searches for "When should I turn the compost bins?":', '  - "compost bins": Projects/Compost.md', '- Searches for the goal:', '  - "seed inventory": Garden/Seeds.md', '  - "ordered seeds": Daily/2026-03-02.md'].join('\n'));
    // One loop's searches are one flat list.
    expect(compacted(first, 1500).block).toContain('- Searched "seed inventory": Garden/Seeds.md\n- Searched "ordered seeds": Daily/2026-03-02.md');
  });

  it('quote a request no task line says, and never show a loop heading without a search under it', () => {
    const s = (query: string, request: string): { query: string; notes: string[]; sources: string[]; request: string } => ({ query, notes: ['A.md'], sources: ['x'], request });
    const lines = searchLines([s('one', 'Find the plan?'), s('two', 'Find the plan?'), s('three', 'What about the bins?')], { goal: 'Find the plan?' });
    expect(lines).toEqual(['- Searches for "What about the bins?":\n  - "three": A.md', '- Searches for the goal:\n  - "one": A.md', '  - "two": A.md']);
  });
});
