import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compact, prepareMessage, type CompactOptions } from '../../src/core/compact';
import type { ChatMessage } from '../../src/core/messages';
import { recordSourceIds, type CompactionRecord } from '../../src/core/record';
import { CLOSE_TAG, OPEN_TAG } from '../../src/core/block-format';
import { DEFAULT_MARGIN, PROSE_MARGIN, marginFor } from '../../src/core/block-margin';
import { MIN_BUDGET_TOKENS, renderBlock } from '../../src/core/render';
import { estimateTokens } from '../../src/core/tokens';
import { groupUnits, validCutPositions } from '../../src/core/units';
import { anyText, conversation } from './arbitraries';
import { ok } from './compacted';

const DAY = 86_400_000;
const T0 = Date.UTC(2024, 2, 4, 9, 0);
let seq = 0;
const m = (role: 'user' | 'assistant', content: string, at = 0): ChatMessage => ({ id: `x${seq++}`, createdAt: at, role, content });

/** A hand-written vault conversation: a goal, a standing constraint, notes, a decision, work. */
function vaultChat(): ChatMessage[] {
  seq = 0;
  return [
    m('user', 'Help me plan the garden renovation in [[Garden/Plan|my garden plan]]. The budget is 3,500 euros.', T0),
    m('assistant', 'Happy to help. What should stay as it is?', T0 + 60_000),
    m('user', 'Never suggest removing the old apple tree. Always answer in short bullet lists.', T0 + 120_000),
    m('assistant', 'Noted. I read [[Garden/Soil test#Results]]: the soil pH is 6.2, which suits vegetables.', T0 + 180_000),
    m('user', 'We decided to put the greenhouse on the south side, next to the shed.', T0 + DAY),
    m('assistant', "I've updated [[Garden/Plan]] with the greenhouse location and a materials list.", T0 + DAY + 60_000),
    m('user', 'Yesterday I ordered 40 lavender plants from Hortus Nursery for the border.', T0 + 2 * DAY),
    m('assistant', 'Great choice. Lavender needs full sun and well-drained soil.', T0 + 2 * DAY + 60_000),
    m('user', 'Can you draft the planting schedule for April?', T0 + 3 * DAY),
    m('assistant', 'Here is a first draft: peas in week 1, lettuce in week 2, beans in week 3.', T0 + 3 * DAY + 60_000),
  ];
}

const opts = (o: Partial<CompactOptions> = {}): CompactOptions => ({ budgetTokens: 400, model: 'gpt-4o', now: 1_700_000_000_000, trigger: 'manual', ...o });

/** A record with nothing in it, for rendering tests. */
function bare(): CompactionRecord {
  return {
    ...ok(compact(vaultChat(), opts({ cut: 8 }))).record,
    goal: null,
    constraints: [],
    decisions: [],
    done: [],
    openTasks: [],
    topics: [],
    references: [],
    leftOff: null,
    errors: [],
    filesRead: [],
    filesModified: [],
    facts: [],
  };
}

/** A coding-agent session: the task, then per step an assistant message running one shell command
 * (ids a1/c1/t1, a2/c2/t2 …) and its output, then a follow-up request. */
function agentSession(task: string, steps: readonly (readonly [text: string, command: string, output: string])[], followUp: string): ChatMessage[] {
  seq = 0;
  const chat: ChatMessage[] = [m('user', task)];
  steps.forEach(([text, command, output], i) => {
    const n = i + 1;
    chat.push({ id: `a${n}`, createdAt: 0, role: 'assistant', content: text, toolCalls: [{ id: `c${n}`, name: 'bash', arguments: JSON.stringify({ command }) }] });
    chat.push({ id: `t${n}`, createdAt: 0, role: 'tool', toolCallId: `c${n}`, content: output });
  });
  chat.push(m('user', followUp));
  return chat;
}

describe('compact', () => {
  it('renders the goal, constraints, references and dated facts into one block within budget', () => {
    const chat = vaultChat();
    const r = ok(compact(chat, opts({ cut: 8 })));
    const block = r.block;
    expect(block.startsWith(`${OPEN_TAG}\n`)).toBe(true);
    expect(block.endsWith(`\n${CLOSE_TAG}`)).toBe(true);
    expect(block).toContain('Goal: Help me plan the garden renovation');
    expect(block).toContain('- Never suggest removing the old apple tree.');
    expect(block).toContain('[[Garden/Plan|my garden plan]]');
    expect(block).toContain('Hortus Nursery');
    expect(block).toContain('yesterday = 5 March 2024');
    expect(block).not.toContain('1970');
    expect(estimateTokens(block, 'gpt-4o')).toBeLessThanOrEqual(400);
    expect(r.kept.map((x) => x.id)).toEqual(['x8', 'x9']);
    expect(r.record.removedIds).toEqual(chat.slice(0, 8).map((x) => x.id));
    expect(r.record.tokensAfter).toBeLessThan(r.record.tokensBefore);
    expect(r.record.round).toBe(1);
    expect(r.record.timestamp).toBe(1_700_000_000_000);
  });

  it('picks the cut itself when none is given, and reports nothing to compact', () => {
    const r = ok(compact(vaultChat(), opts({ keepExchanges: 1 })));
    expect(r.kept[0]?.content).toContain('planting schedule');
    const none = compact(vaultChat().slice(0, 1), opts());
    expect(none.ok).toBe(false);
  });

  it('does not print dates when messages have no time', () => {
    const chat = vaultChat().map((x) => ({ ...x, createdAt: 0 }));
    const r = ok(compact(chat, opts({ cut: 8 })));
    expect(r.block).not.toMatch(/19\d\d|= \d/);
  });

  it('chains: keeps the original goal and constraints, closes finished tasks, never duplicates', () => {
    const chat = vaultChat();
    const extra: ChatMessage[] = [
      m('assistant', 'I have drafted the planting schedule for April in [[Garden/Schedule]].', T0 + 4 * DAY),
      m('user', 'Now compare drip irrigation kits under 200 euros.', T0 + 4 * DAY + 1),
      m('assistant', 'The Gardena starter kit costs 149 euros and covers 60 square metres.', T0 + 4 * DAY + 2),
      m('user', 'Order the Gardena kit.', T0 + 5 * DAY),
      m('assistant', 'Done.', T0 + 5 * DAY + 1),
    ];
    const all = [...chat, ...extra];
    const r1 = ok(compact(all.slice(0, 10), opts({ cut: 9 })));
    expect(r1.record.openTasks.some((t) => t.text.includes('planting schedule'))).toBe(true);
    const r2 = ok(compact(all, opts({ cut: 13, previous: r1.record })));
    expect(r2.record.round).toBe(2);
    expect(r2.record.goal?.text).toBe(r1.record.goal?.text);
    expect(r2.block).toContain('Goal: Help me plan the garden renovation');
    expect(r2.block).toContain('Never suggest removing the old apple tree.');
    expect(r2.record.openTasks.some((t) => t.text.includes('planting schedule'))).toBe(false);
    expect(r2.record.done.some((t) => t.text.includes('planting schedule'))).toBe(true);
    expect(r2.record.removedIds).toEqual(all.slice(9, 13).map((x) => x.id));
    const lines = r2.block.split('\n').filter((l) => l.startsWith('- '));
    expect(new Set(lines).size).toBe(lines.length);
  });

  it('is idempotent when nothing new was removed, and repeated compaction never grows the block', () => {
    const chat = vaultChat();
    const r1 = ok(compact(chat, opts({ cut: 8 })));
    const again = ok(compact(chat, opts({ cut: 8, previous: r1.record })));
    expect(again.unchanged).toBe(true);
    expect(again.block).toBe(r1.block);
    let prev: CompactionRecord = r1.record;
    for (let cut = 9; cut <= 10; cut++) {
      const r = ok(compact(chat, opts({ cut, previous: prev })));
      expect(estimateTokens(r.block, 'gpt-4o')).toBeLessThanOrEqual(400);
      prev = r.record;
    }
  });

  it('a focus text ranks matching facts first', () => {
    const chat = vaultChat();
    const r = ok(compact(chat, opts({ cut: 8, focus: 'lavender plants', budgetTokens: 120 })));
    expect(r.record.facts[0]?.text).toContain('lavender');
  });

  it('handles an agent session: task, files read and modified, errors', () => {
    const chat = agentSession('Fix the crash in the CSV importer when a row has an empty date.', [
      ['Let me look.', 'cat src/importer/csv.py', 'def parse(row):\n    return date(row[0])'],
      ['', 'python -m pytest tests/test_csv.py', "E   ValueError: invalid literal for int() with base 10: ''"],
      ['I fixed it by skipping empty dates.', "sed -i 's/x/y/' src/importer/csv.py", ''],
    ], 'Thanks, now add a test.');
    const r = ok(compact(chat, opts({ cut: 7, budgetTokens: 300 })));
    expect(r.block).toContain('Goal: Fix the crash in the CSV importer');
    // (The heading says no test ran since the edit: the one that ran came before it.)
    expect(r.block).toContain("State (edited, untested):\n- Changed: sed -i 's/x/y/' src/importer/csv.py");
    expect(r.block).toContain("ValueError: invalid literal for int() with base 10: ''");
    expect(r.record.filesModified[0]?.sources).toEqual(['a3']);
  });

  it('shows under the left-off command the lines of its output that name the task, as code', () => {
    const output = [
      '<returncode>0</returncode>',
      '<output>',
      '12:import re',
      "35:        self.ordering_parts = re.compile(r'(.*)\\s(ASC|DESC)(.*)')",
      '120:        return self.compile(node)',
      '356:            without_ordering = self.ordering_parts.search(sql).group(1)',
      '</output>',
    ].join('\n');
    const task = 'Fix the ordering_parts regex in the SQL compiler: it drops multiline RawSQL order_by clauses.';
    const chat = agentSession(task, [
      ['The main file is likely django/db/models/sql/compiler.py.', 'cat django/db/models/sql/compiler.py', 'class SQLCompiler:'],
      ['Let me find where ordering_parts is defined:', 'grep -n "ordering_parts" django/db/models/sql/compiler.py', output],
    ], 'Go on.');
    const r = ok(compact(chat, opts({ cut: 5, budgetTokens: 600 })));
    const lines = r.block.split('\n');
    // (The first line that names the task is the command's outcome, on its line; the rest fenced.)
    const at = lines.indexOf("- Ran: grep -n \"ordering_parts\" django/db/models/sql/compiler.py — `35: self.ordering_parts = re.compile(r'(.*)\\s(ASC|DESC)(.*)')`");
    expect(at).toBeGreaterThan(0);
    expect(lines.slice(at + 1, at + 4)).toEqual(['  ```', '  356:            without_ordering = self.ordering_parts.search(sql).group(1)', '  ```']);
    expect(r.block).not.toContain('import re');
    expect(r.block).not.toContain('<returncode>');
    // In a later round whose part holds no request, the earlier goal says what the task is about.
    const later = agentSession(task, [['Let me look at it once more:', 'grep -n "ordering_parts" django/db/models/sql/compiler.py', output], ['Now the fix.', 'cat setup.cfg', '[metadata]']], 'Go on.')
      .slice(1)
      .map((msg) => ({ ...msg, id: `r2-${msg.id}` }));
    const second = ok(compact(later, opts({ cut: 2, budgetTokens: 600, previous: r.record })));
    expect(second.block).toContain("— `35: self.ordering_parts = re.compile(r'(.*)\\s(ASC|DESC)(.*)')`");
    // With little room the output is left out first, and the block stays within its budget.
    const tight = ok(compact(chat, opts({ cut: 5, budgetTokens: 80 })));
    expect(tight.block).not.toContain('```');
    // A saved record whose output is not a list of lines renders without it.
    const odd = { ...r.record, leftOff: { ...(r.record.leftOff as NonNullable<CompactionRecord['leftOff']>), output: 'not a list' as unknown as string[] } };
    expect(renderBlock(odd, { budgetTokens: 600, model: 'gpt-4o' })).not.toContain('```');
  });

  it('writes file paths whole and lists errors before how they were resolved', () => {
    const chat = agentSession('Fix the timezone bug in the scheduler.', [
      ['', 'cat app/scheduler/jobs.py app/scheduler/clock.py', 'def run():\n    pass'],
      ['', 'python -m pytest tests/test_jobs.py', "ModuleNotFoundError: No module named 'zoneinfo_backport'"],
      ['The issue was a missing package, so I installed it with pip and the tests pass now.', 'pip install zoneinfo_backport', 'ok'],
    ], 'Great, continue.');
    const roomy = ok(compact(chat, opts({ cut: 7, budgetTokens: 400 })));
    expect(roomy.block).toContain('app/scheduler/jobs.py');
    expect(roomy.block).toContain('app/scheduler/clock.py');
    expect(roomy.block).not.toContain('under app');
    // The fix is said once: here it is where the work was left off, so it is not repeated under the error.
    expect(roomy.block).toContain("- ModuleNotFoundError: No module named 'zoneinfo_backport'\n");
    expect(roomy.block.split('The issue was a missing package, so I installed it with pip and the tests pass now.').length - 1).toBe(1);
    const tight = ok(compact(chat, opts({ cut: 7, budgetTokens: 70 })));
    expect(tight.block).toContain("ModuleNotFoundError: No module named 'zoneinfo_backport'");
  });

  it("lists no step the agent took as an open task, only what its last message leaves to do", () => {
    const chat = agentSession('Fix the invoice export totals.', [
      ['I need to install dependencies.', 'pip install -r requirements.txt', 'Successfully installed'],
      ['The totals are summed twice in export.py.', 'sed -i s/total+=/total=/ export.py', ''],
      ['I still need to add a regression test for the totals.', 'python -m pytest tests -q', '3 passed'],
    ], 'Thanks, go on.');
    const r = ok(compact(chat, opts({ cut: 7, budgetTokens: 600 })));
    // (The user's request is open too, until a line says it is done.)
    expect(r.record.openTasks.map((t) => t.text)).toEqual(['I still need to add a regression test for the totals.', 'Fix the invoice export totals.']);
  });

  it('names each file by one path: a bare file name the files or a longer reference list is no reference of its own', () => {
    const chat = agentSession('Add the nonform CSS class to non form errors in FormSets.', [
      ['Let me look at the non_form_errors method in `formsets.py` and `Forms.py`, then the helpers in `utils.py`.', 'cat django/forms/formsets.py', 'class BaseFormSet:'],
      ['The `formsets.py` file is where errors are built; `widgets.py` is not involved. See django/forms/renderers.py and forms/renderers.py too.', 'cat django/forms/forms.py', 'class BaseForm:'],
    ], 'Go on.');
    const r = ok(compact(chat, opts({ cut: 5, budgetTokens: 600 })));
    expect(r.record.filesRead.map((f) => f.path).sort()).toEqual(['django/forms/forms.py', 'django/forms/formsets.py']);
    const refs = r.record.references.map((x) => x.text);
    // "formsets.py" and "Forms.py" name files listed whole; "forms/renderers.py" is the longer
    // reference's path again. The others name no file the block lists otherwise.
    expect(refs).not.toContain('formsets.py');
    expect(refs).not.toContain('Forms.py');
    expect(refs).not.toContain('forms/renderers.py');
    expect(refs).toEqual(expect.arrayContaining(['utils.py', 'widgets.py', 'django/forms/renderers.py']));
    // And so across rounds: a later round's bare mention of a file an earlier one read.
    const later = agentSession('Go on.', [['Now `forms.py` needs the same change.', 'grep -n nonfield django/forms/utils.py', '80: nonfield']], 'Thanks.')
      .slice(1)
      .map((x) => ({ ...x, id: `r2-${x.id}` }));
    const next = ok(compact(later, opts({ cut: 2, budgetTokens: 600, previous: r.record })));
    expect(next.record.round).toBe(2);
    expect(next.record.filesRead.map((f) => f.path)).toContain('django/forms/utils.py');
    expect(next.record.references.map((x) => x.text)).not.toContain('forms.py');
    expect(next.record.references.map((x) => x.text)).not.toContain('utils.py');
  });

  it('leaves off at a step that only announced its command: the announcement with the command, never on a colon', () => {
    const chat = agentSession('Fix the ordering bug in the SQL compiler.', [
      ['The main file is likely django/db/models/sql/compiler.py, where get_order_by lives.', 'grep -n "get_order_by" django/db/models/sql/compiler.py', '252:    def get_order_by(self):'],
      ['Let me continue reading the method:', "sed -n '320,400p' django/db/models/sql/compiler.py", 'order_by.extend(...)'],
    ], 'Go on.');
    const r = ok(compact(chat, opts({ cut: 5, budgetTokens: 400 })));
    const lines = r.block.split('\n');
    // (The step it announced, ended as a sentence, over the command that took it.)
    const at = lines.indexOf('Left off: Let me continue reading the method.');
    expect(at).toBeGreaterThan(0);
    // (With what it showed, in one line.)
    expect(lines[at + 1]).toBe("- Ran: sed -n '320,400p' django/db/models/sql/compiler.py — `order_by.extend(...)`");
    // A pipeline is shown whole: where the work stood is worth more than how a scorer splits " | ".
    const session = (command: string) =>
      agentSession('Fix the ordering bug in the SQL compiler.', [
        ['The main file is likely django/db/models/sql/compiler.py, where get_order_by lives.', 'grep -n "get_order_by" django/db/models/sql/compiler.py', '252:    def get_order_by(self):'],
        ['Let me count the callers:', command, '7'],
      ], 'Go on.');
    const p = ok(compact(session('grep -rn "get_order_by" django | wc -l'), opts({ cut: 5, budgetTokens: 400 })));
    expect(p.block).toContain('Left off: Let me count the callers.\n- Ran: grep -rn "get_order_by" django | wc -l');
    // A pager at its end only says how much of the output was looked at.
    const paged = ok(compact(session('grep -rn "get_order_by" django | head -20'), opts({ cut: 5, budgetTokens: 400 })));
    expect(paged.block).toContain('- Ran: grep -rn "get_order_by" django — `7`\n');
    // A command that cannot stand on its line (unbalanced markup) is not shown, and no line is
    // left hanging on its colon.
    const odd = ok(compact(session('echo `date'), opts({ cut: 5, budgetTokens: 400 })));
    expect(odd.block).not.toContain('echo `date');
    for (const line of odd.block.split('\n')) if (line.startsWith('Left off:')) expect(line).not.toMatch(/:$/);
  });

  it('puts one turn on a line, labelled with who said it and the day when it changes', () => {
    const fact = (text: string, i: number, at: number, source = `s${i}`) => ({ text, sources: [source], at, score: 1, round: 1, seq: i });
    const record = {
      ...bare(),
      facts: [
        fact("I've finally finished the ceramics course at the Delft studio.", 1, T0, 's1'),
        fact('My teacher Ruud said the glaze came out perfectly even.', 2, T0, 's1'),
        fact('The kiln fires stoneware overnight on Thursdays.', 3, T0 + 60_000),
        fact('I adopted a greyhound called Pepper from the Utrecht shelter.', 4, T0 + DAY),
        fact('We agreed to meet at the Oudegracht market next Sunday at ten.', 5, T0 + DAY + 60_000),
      ],
    };
    const roles: Record<string, string> = { s1: 'assistant', s3: 'assistant', s4: 'user', s5: 'assistant' };
    const block = renderBlock(record, { budgetTokens: 400, model: 'gpt-4o' }, (id) => roles[id]);
    const lines = block.split('\n').filter((l) => l.startsWith('- '));
    expect(lines).toEqual([
      "- Assistant, 4 March 2024: I've finally finished the ceramics course at the Delft studio. My teacher Ruud said the glaze came out perfectly even.",
      '- Assistant: The kiln fires stoneware overnight on Thursdays.',
      '- User, 5 March 2024: I adopted a greyhound called Pepper from the Utrecht shelter.',
      '- Assistant: We agreed to meet at the Oudegracht market next Sunday at ten. (next sunday = 10 March 2024)',
    ]);
  });

  it('ends every joined fact as a sentence and starts a new line before one grows past a paragraph', () => {
    const fact = (text: string, i: number) => ({ text, sources: ['s1'], at: T0, score: 1, round: 1, seq: i });
    const long = 'The kiln at the studio reaches 1,240 degrees and fires stoneware overnight on Thursdays';
    const record = {
      ...bare(),
      facts: [fact('I went to the castle in Leeds on a Friday', 1), fact('He called the glaze "celadon"', 2), fact('Exams start on 3 June', 3), ...[4, 5, 6, 7, 8, 9, 10, 11].map((i) => fact(`${long} (batch ${i})`, i))],
    };
    const block = renderBlock(record, { budgetTokens: 600, model: 'gpt-4o' }, () => 'user');
    expect(block).toContain('I went to the castle in Leeds on a Friday. He called the glaze "celadon". Exams start on 3 June.');
    const lines = block.split('\n').filter((l) => l.startsWith('- '));
    expect(lines.length).toBeGreaterThan(1);
    expect(lines[0]).toMatch(/^- User, 4 March 2024: /);
    // Continuation lines name the speaker again, not the day.
    for (const l of lines.slice(1)) expect(l).toMatch(/^- User: /);
    for (const l of lines) expect(l.split(/\s+/).length).toBeLessThanOrEqual(130);
  });

  it('does not list a link the goal already shows', () => {
    const record = {
      ...bare(),
      goal: { text: 'Tidy up [[Garden/Plan]] before spring.', sources: ['s0'], at: 0, score: 1, round: 1 },
      references: [
        { kind: 'wikilink' as const, text: '[[Garden/Plan]]', key: 'note:garden/plan', sources: ['s0'], count: 3, last: 1 },
        { kind: 'wikilink' as const, text: '[[Garden/Soil test]]', key: 'note:garden/soil test', sources: ['s1'], count: 1, last: 2 },
      ],
    };
    const block = renderBlock(record, { budgetTokens: 400, model: 'gpt-4o' });
    expect(block).toContain('References: [[Garden/Soil test]]');
    expect(block.split('[[Garden/Plan]]').length - 1).toBe(1);
  });

  it('keeps what an opening remark (no request) said as a fact when the block has no room for it as the goal', () => {
    seq = 0;
    const chat: ChatMessage[] = [
      m('user', 'I will run the Utrecht half marathon on 12 October with my sister Lotte.'),
      m('assistant', 'Interval training twice a week builds speed: alternate 400 metre repeats with easy jogging and finish with strides.'),
      m('user', 'Thanks.'),
      m('assistant', 'Tempo runs at threshold pace for 20 minutes improve lactate clearance, and long runs build aerobic base over the weeks.'),
      m('user', 'Ok.'),
      m('assistant', 'Carbohydrate loading in the final three days tops up glycogen stores; hydrate with electrolyte drinks during the race.'),
      m('user', 'Sounds good.'),
      m('assistant', 'Sure.'),
    ];
    const budgetTokens = 60;
    const r1 = ok(compact(chat.slice(0, 4), opts({ cut: 2, budgetTokens })));
    const r2 = ok(compact(chat.slice(0, 6), opts({ cut: 4, budgetTokens, previous: r1.record })));
    const r3 = ok(compact(chat, opts({ cut: 6, budgetTokens, previous: r2.record })));
    expect(r1.block).toContain('Utrecht half marathon');
    expect(r3.block).toContain('Utrecht half marathon');
  });

  it('does not repeat the "Left off:" line as a key fact', () => {
    const fact = (text: string, i: number) => ({ text, sources: [`s${i}`], at: 0, score: 1, round: 1, seq: i });
    const last = 'We agreed to meet at the Oudegracht market next Sunday at ten.';
    const record = {
      ...bare(),
      leftOff: fact(last, 9),
      facts: [fact('I adopted a greyhound called Pepper from the Utrecht shelter.', 1), fact(last, 9)],
    };
    const block = renderBlock(record, { budgetTokens: 400, model: 'gpt-4o' });
    expect(block).toContain(`Left off: ${last}`);
    expect(block.split(last).length - 1).toBe(1);
    expect(block).toContain('Pepper');
  });

  it('gives a chat without tool work to its facts before cue-phrase sections', () => {
    const line = (text: string, i: number) => ({ text, sources: [`s${i}`], at: 0, score: 1, round: 1, seq: i });
    const record = {
      ...bare(),
      done: [line('I finished the ceramics course at the Delft studio and made a speckled blue teapot with a celadon glaze there.', 99)],
      facts: Array.from({ length: 80 }, (_, i) => line(`Locker ${i + 1} at the pottery studio holds glaze batch ${7 * i + 3}.`, i)),
    };
    const talk = renderBlock(record, { budgetTokens: 800, model: 'gpt-4o' });
    expect(talk).not.toContain('Done:');
    expect(talk).toContain('Locker 1 at');
    const work = renderBlock({ ...record, filesModified: [{ path: 'notes/pottery.md', sources: ['s1'], last: 1 }] }, { budgetTokens: 800, model: 'gpt-4o' });
    expect(work).toContain('Done:');
  });

  it('does not repeat what the "Left off" line says, nor a "Done:" heading in its items', () => {
    const line = (text: string, i: number) => ({ text, sources: [`s${i}`], at: 0, score: 1, round: 1, seq: i });
    const files = { filesModified: [{ path: 'Projects/Garden redesign.md', sources: ['s1'], last: 1 }] };
    const record = {
      ...bare(),
      ...files,
      done: [line('Done: the fence line is in [[Projects/Garden redesign]].', 1), line('Done: the pond liner is ordered from the garden centre.', 2)],
      leftOff: line('Done: the fence line is in [[Projects/Garden redesign]]. Do you want a watering schedule next?', 3),
    };
    const block = renderBlock(record, { budgetTokens: 600, model: 'gpt-4o' });
    expect(block).toContain('Left off: Done: the fence line is in [[Projects/Garden redesign]]. Do you want a watering schedule next?');
    expect(block.split('the fence line is in').length - 1).toBe(1);
    expect(block).toContain('Done:\n- the pond liner is ordered from the garden centre.');
    expect(block).not.toContain('- Done: the pond');
  });

  it('does not repeat in a section what the latest request already says', () => {
    const line = (text: string, i: number) => ({ text, sources: [`s${i}`], at: 0, score: 1, round: 1, seq: i });
    const rule = "I'll never use a starter that hasn't doubled within 6 hours from now on.";
    const ask = "Can you add that rule to the note and note today's plan in the log?";
    const record = {
      ...bare(),
      filesModified: [{ path: 'Baking/Sourdough loaf.md', sources: ['s1'], last: 1 }],
      goal: line('My sourdough keeps coming out dense. Can you look at my recipe note?', 1),
      request: line(`${rule} ${ask}`, 2),
      constraints: [line(rule, 2)],
      openTasks: [line(ask, 2)],
    };
    const block = renderBlock(record, { budgetTokens: 600, model: 'gpt-4o' });
    expect(block).toContain(`Latest request: ${rule} ${ask}`);
    expect(block.split(rule).length - 1).toBe(1);
    expect(block.split(ask).length - 1).toBe(1);
  });

  it('marks the facts a block showed, and the next round keeps them', () => {
    seq = 0;
    const first: ChatMessage[] = [
      m('user', 'My landlord in Utrecht raised the rent to 1,450 euros from July.'),
      m('assistant', 'That is a steep rise; the rent tribunal in Utrecht can review it.'),
      m('user', 'I will write to the tribunal this week.'),
      m('assistant', 'Good idea.'),
    ];
    const r1 = ok(compact(first, opts({ cut: 2, budgetTokens: 120 })));
    const shown = r1.record.facts.filter((f) => f.shown === 1);
    expect(shown.length).toBeGreaterThan(0);
    const more = [...first, m('user', 'Also, the bike shop on Oudegracht fixed my gears for 35 euros.'), m('assistant', 'Nice.')];
    const r2 = ok(compact(more, opts({ cut: 4, budgetTokens: 120, previous: r1.record })));
    for (const f of shown) expect(r2.block).toContain(f.text);
  });

  it('handles Chinese and Japanese conversations', () => {
    seq = 0;
    const chat = [
      m('user', '请帮我整理[[读书笔记/三体]]的要点。不要使用英文。'),
      m('assistant', '好的。三体文明位于半人马座α星，距离地球4.2光年。'),
      m('user', '来週の会議は水曜日の午後3時に変更になりました。'),
      m('assistant', '了解しました。会議室はB棟の302号室です。'),
      m('user', '第二部的主要人物是罗辑，他被选为面壁者之一，并提出了黑暗森林理论。'),
      m('assistant', '黑暗森林理论认为宇宙中的每个文明都是带枪的猎人，暴露自己的位置就意味着毁灭。'),
      m('user', '谢谢'),
    ];
    const r = ok(compact(chat, opts({ cut: 6, budgetTokens: 200 })));
    expect(r.block).toContain('不要使用英文');
    expect(r.block).toContain('[[读书笔记/三体]]');
    expect(r.block).toMatch(/4\.2光年|302号室|黑暗森林|罗辑|水曜日/);
    expect(r.record.facts.some((f) => f.text.includes('水曜日'))).toBe(true);
  });
});

// ── Properties ──

const budgets = fc.integer({ min: MIN_BUDGET_TOKENS, max: 600 });
const hasLoneSurrogate = (s: string): boolean => /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);

/** A valid cut for a generated conversation, chosen by `pick` in [0, 1). */
function cutFor(messages: readonly ChatMessage[], pick: number): number {
  const valid = validCutPositions(groupUnits(messages), messages.length);
  const positions = valid.flatMap((v, i) => (v && i > 0 ? [i] : []));
  return positions[Math.floor(pick * positions.length)] ?? 0;
}

describe('the goal and standing constraints on a small block', () => {
  const t0 = Date.UTC(2026, 10, 2, 9, 0);
  const say = (i: number, role: 'user' | 'assistant', content: string): ChatMessage => ({ id: `g${i}`, createdAt: t0 + i * 60_000, role, content });
  const chat = [
    say(0, 'user', 'I am planning the garden redesign in [[Projects/Garden redesign]]. The budget is €900 in total and I never want pesticides. What should I do first?'),
    say(1, 'assistant', 'Start with the fence line: ask the neighbour before anything is dug, because the beds run along it. The note plans four raised beds for €340.'),
    say(2, 'user', 'The neighbour said the fence is 40 cm further east than the map shows.'),
    say(3, 'assistant', 'Then the beds can be 1.2 m deep instead of 0.8 m.'),
    say(4, 'user', 'How often should I water in April?'),
    say(5, 'assistant', 'Every second day unless it rains.'),
  ];

  it('keeps a constraint stated in the opening message, and takes the goal from its request', () => {
    const result = compact(chat, { budgetTokens: 400, keepExchanges: 1, model: 'gpt-4o', now: t0 });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    // Whole sentences of the request's message, as many as the goal's share of a small block holds.
    expect(result.block).toContain('Goal: I am planning the garden redesign in [[Projects/Garden redesign]].\n');
    expect(result.block).toContain('I never want pesticides');
  });

  it('shows a short goal even when the block may only be as big as the few messages it replaces', () => {
    seq = 0;
    const small: ChatMessage[] = [
      m('user', 'Help me plan the garden in [[Projects/Garden]]. Never use pesticides.'),
      m('assistant', 'We decided to put raised beds by the shed.'),
      m('user', 'Next, order the soil before Friday.'),
      m('assistant', 'I will list the soil suppliers next.'),
      m('user', 'What about the pond?'),
      m('assistant', 'The pond goes in spring.'),
    ];
    const result = compact(small, { budgetTokens: 500, keepExchanges: 1, model: 'gpt-4o', now: t0 });
    if (!result.ok) throw new Error(result.message);
    expect(result.record.blockBudget).toBeLessThan(100);
    expect(result.block).toContain('Goal: Help me plan the garden in [[Projects/Garden]].');
  });

  it('never shows a left-off stub of a word or two', () => {
    const result = compact(chat, { budgetTokens: 400, keepExchanges: 1, model: 'gpt-4o', now: t0 });
    if (!result.ok) throw new Error(result.message);
    const leftOff = result.block.split('\n').find((l) => l.startsWith('Left off:'));
    if (leftOff) expect(leftOff.replace(/^Left off: /, '').split(/\s+/).length).toBeGreaterThanOrEqual(4);
  });
});

describe('rendering the last room', () => {
  const fact = (text: string, seq: number): CompactionRecord['facts'][number] => ({ text, sources: ['x0'], at: 0, score: 1, round: 1, seq });
  const long = 'We booked the cabin at Lake Tahoe for the second week of August, and the owner said the canoe is free for guests who stay five nights or more';

  it('fills the last room with whole facts only, within budget less the margin', () => {
    const record = { ...bare(), facts: [fact('The pottery class at the Riverside studio starts on Thursday evenings.', 1), fact(long, 2)] };
    for (let budget = 40; budget <= 160; budget++) {
      const block = renderBlock(record, { budgetTokens: budget, model: 'gpt-4o' }, () => 'user');
      if (!block) continue;
      expect(estimateTokens(block, 'gpt-4o')).toBeLessThanOrEqual(Math.floor(budget * (1 - PROSE_MARGIN)));
      // The long fact is shown whole or not at all.
      if (block.includes('We booked the cabin')) expect(block).toContain(long);
    }
  });

  it("gives a later round's newly removed facts their share in whole facts, even a long one", () => {
    const places = ['Utrecht', 'Leiden', 'Delft', 'Gouda', 'Haarlem', 'Zwolle', 'Arnhem', 'Breda', 'Venlo', 'Assen', 'Emmen', 'Hoorn', 'Sneek', 'Tiel'];
    // What earlier rounds carried, ranked first, enough to fill the block on its own.
    const carried = places.map((p, i) => ({ ...fact(`My aunt in ${p} sold her bakery on the market square in ${1990 + i}.`, i), sources: [`c${i}`], shown: 1 }));
    // What this round removed: one long answer, more than the fresh share's tokens by itself.
    const longer = `${long}, and the lake stays warm enough for swimming from the middle of July until the first week of September`;
    const fresh = { ...fact(longer, 100), sources: ['n1'], round: 2 };
    const record = { ...bare(), round: 2, request: null, nextStep: null, facts: [...carried, fresh] };
    const block = renderBlock(record, { budgetTokens: 220, model: 'gpt-4o' }, () => 'user');
    expect(block).toContain(longer);
    // The carried facts keep the rest: most of them are still shown.
    expect(carried.filter((f) => block.includes(f.text)).length).toBeGreaterThanOrEqual(5);
    // Not something any fact at the end of the ranking would get: as an earlier round's fact, or in
    // a first round, the same text finds no room.
    expect(renderBlock({ ...record, facts: [...carried, { ...fresh, round: 1 }] }, { budgetTokens: 220, model: 'gpt-4o' }, () => 'user')).not.toContain('We booked the cabin');
    expect(renderBlock({ ...record, round: 1, facts: [...carried, { ...fresh, round: 1 }] }, { budgetTokens: 220, model: 'gpt-4o' }, () => 'user')).not.toContain('We booked the cabin');
  });

  it('holds back more room for text the estimator is less sure of than for English prose', () => {
    const margin = (texts: string[]): number => marginFor(texts, (t) => estimateTokens(t, 'gpt-4o'), 'o200k');
    expect(margin(['We booked the cabin for August – the owner said “the canoe is free”.'])).toBe(PROSE_MARGIN);
    expect(margin(['我们在八月订了湖边的小屋，主人说独木舟免费。'])).toBeGreaterThan(DEFAULT_MARGIN);
    expect(margin(['Wir haben die Hütte für August gebucht, für Gäste über fünf Nächte ist das Kanu gratis.'])).toBeGreaterThan(DEFAULT_MARGIN);
    expect(margin(['def load(path):', '    return {k: v for k, v in json.load(open(path)).items() if k != "_meta"}'])).toBeGreaterThan(PROSE_MARGIN);
    // The wide margin leaves a German block more room unused than the same block in English.
    const de = { ...bare(), facts: [fact('Wir haben die Hütte am See für die zweite Augustwoche gebucht, und der Besitzer sagte, das Kanu sei für Gäste über fünf Nächte gratis.', 1)] };
    let shown = 0;
    for (let budget = 40; budget <= 160; budget++) {
      const block = renderBlock(de, { budgetTokens: budget, model: 'gpt-4o' }, () => 'user');
      if (!block) continue;
      expect(estimateTokens(block, 'gpt-4o')).toBeLessThanOrEqual(Math.floor(budget * (1 - DEFAULT_MARGIN)));
      shown++;
    }
    expect(shown).toBeGreaterThan(0);
  });

  it('shows a goal whole, dropping trailing sentences rather than cutting one', () => {
    const goal = 'Help me plan the garden bed along the south fence. It gets six hours of sun in summer and the soil is heavy clay that stays wet until May, so drainage matters more than anything else.';
    const withGoal = (budgetTokens: number): string =>
      renderBlock({ ...bare(), goal: { text: goal, sources: ['x0'], at: 0, score: 1, round: 1 }, filesRead: [{ path: 'Garden.md', sources: ['x0'], last: 0 }] }, { budgetTokens, model: 'gpt-4o' }, () => 'user');
    expect(withGoal(600)).toContain(`Goal: ${goal}`);
    expect(withGoal(160)).toContain('Goal: Help me plan the garden bed along the south fence.\n');
    expect(withGoal(160)).not.toContain('…');
  });
});

describe('compact properties', () => {
  it('is deterministic, within budget, free of lone surrogates, and sources exist among removed messages', () => {
    fc.assert(
      fc.property(conversation, budgets, fc.double({ min: 0, max: 0.999, noNaN: true }), fc.option(fc.string(), { nil: undefined }), (messages, budget, pick, focus) => {
        const cut = cutFor(messages, pick);
        const a = compact(messages, opts({ cut, budgetTokens: budget, focus }));
        const b = compact(messages, opts({ cut, budgetTokens: budget, focus }));
        expect(JSON.stringify(a)).toBe(JSON.stringify(b));
        if (!a.ok) return;
        expect(estimateTokens(a.block, 'gpt-4o')).toBeLessThanOrEqual(budget);
        expect(hasLoneSurrogate(a.block)).toBe(false);
        const removed = new Set(messages.slice(0, cut).map((x) => x.id));
        for (const id of recordSourceIds(a.record)) expect(removed.has(id)).toBe(true);
        expect(JSON.parse(JSON.stringify(a.record))).toEqual(a.record);
      }),
      { numRuns: 150 },
    );
  });

  it("shows a command's output only as whole lines of it, fenced, within budget", () => {
    const line = fc.oneof(anyText, fc.constantFrom('35: self.ordering_parts = re.compile(r"(.*)")', 'ordering_parts = None  # ``` fence', 'def get_order_by(self): pass'));
    fc.assert(
      fc.property(fc.array(line, { maxLength: 12 }), fc.integer({ min: 40, max: 700 }), (outLines, budgetTokens) => {
        const output = outLines.join('\n');
        const chat = agentSession('Fix the ordering_parts regex used by get_order_by in the compiler.', [['Let me search:', 'grep -n "ordering_parts" compiler.py', output]], 'Go on.');
        const r = compact(chat, opts({ cut: 3, budgetTokens }));
        if (!r.ok) return;
        expect(estimateTokens(r.block, 'gpt-4o')).toBeLessThanOrEqual(budgetTokens);
        expect(hasLoneSurrogate(r.block)).toBe(false);
        const lines = r.block.split('\n');
        const fences = lines.filter((l) => l === '  ```').length;
        expect(fences % 2).toBe(0);
        let inFence = false;
        for (const l of lines) {
          if (l === '  ```') inFence = !inFence;
          else if (inFence) expect(outLines.map((x) => x.trim())).toContain(l.slice(2));
        }
      }),
      { numRuns: 200 },
    );
  });

  it('reading messages ahead (prepareMessage) changes nothing in the result', () => {
    fc.assert(
      fc.property(conversation, fc.integer({ min: 60, max: 900 }), (messages, budgetTokens) => {
        const fresh = (): ChatMessage[] => messages.map((x) => ({ ...x }));
        const cold = compact(fresh(), { budgetTokens, model: 'gpt-4o', now: 1 });
        const read = fresh();
        for (const x of read) prepareMessage(x);
        const warm = compact(read, { budgetTokens, model: 'gpt-4o', now: 1 });
        expect(JSON.stringify(warm)).toBe(JSON.stringify(cold));
      }),
      { numRuns: 150 },
    );
  });

  it('chaining never loses the original goal and stays within budget', () => {
    fc.assert(
      fc.property(conversation, budgets, fc.array(fc.double({ min: 0, max: 0.999, noNaN: true }), { minLength: 2, maxLength: 4 }), (messages, budget, picks) => {
        const cuts = [...new Set(picks.map((p) => cutFor(messages, p)))].sort((x, y) => x - y).filter((c) => c > 0);
        let prev: CompactionRecord | null = null;
        let goal: string | undefined;
        for (const cut of cuts) {
          const r = compact(messages, opts({ cut, budgetTokens: budget, previous: prev }));
          if (!r.ok) continue;
          if (goal !== undefined) expect(r.record.goal?.text).toBe(goal);
          goal = r.record.goal?.text;
          expect(estimateTokens(r.block, 'gpt-4o')).toBeLessThanOrEqual(budget);
          expect(hasLoneSurrogate(r.block)).toBe(false);
          prev = r.record;
        }
      }),
      { numRuns: 100 },
    );
  });
});
