// Hand-written conversations for the summary's golden tests (test/core/summary-golden.test.ts):
// a vault chat with every link form and abbreviations, a coding-agent run that writes files by
// script, and a dialogue full of relative dates. Written here, not taken from any data set.
import type { ChatMessage } from '../../src/core/messages';

const T0 = Date.UTC(2024, 2, 4, 9, 0); // Monday 4 March 2024
const DAY = 86_400_000;

export function vaultChat(): ChatMessage[] {
  const at = (d: number, m: number): number => T0 + d * DAY + m * 60_000;
  return [
    { id: 'v1', role: 'user', createdAt: at(0, 0), content: 'Hi there!' },
    { id: 'v2', role: 'assistant', createdAt: at(0, 1), content: 'Hello! How can I help with your vault today?' },
    {
      id: 'v3',
      role: 'user',
      createdAt: at(0, 2),
      content:
        'Can you help me redesign the garden plan in [[Projects/Garden Redesign|my garden plan]]? The soil notes are in [[Garden/Soil test#Results]] and the photo is ![[beds.png]].',
    },
    { id: 'v4', role: 'assistant', createdAt: at(0, 3), content: 'Sure. Do you want the beds as a table or as a board?' },
    {
      id: 'v5',
      role: 'user',
      createdAt: at(0, 4),
      content: 'We decided to use the Kanban layout for [[Projects/Garden Redesign]] instead of a table, right? Always answer in short bullet lists.',
    },
    {
      id: 'v6',
      role: 'assistant',
      createdAt: at(0, 5),
      content:
        'Yes, the Kanban layout it is. Dr. Jansen et al. recommend raised beds for heavy clay, e.g. 30 cm high. I used the checklist from [the RHS guide](https://www.rhs.org.uk/soil) and saved it to notes.md for you. Let me list the steps:',
    },
    { id: 'v7', role: 'assistant', createdAt: at(0, 6), content: '- Order 40 m of edging from Hortus Nursery.\n- Build three raised beds of 1.2 m by 3 m.' },
    { id: 'v8', role: 'user', createdAt: at(1, 0), content: 'I ordered the edging yesterday. The beds will be built by my brother Sam next weekend.' },
    { id: 'v9', role: 'assistant', createdAt: at(1, 1), content: 'Great. I have updated the board with both tasks. Next, I will draft the planting schedule for April.' },
    { id: 'v10', role: 'user', createdAt: at(1, 2), content: 'Please also add [[Garden/Herbs]] to the plan.' },
    { id: 'v11', role: 'assistant', createdAt: at(1, 3), content: 'Done.' },
  ];
}

/** A coding-agent run: a task, shell calls (a heredoc script that writes a file, tee, cp, mv),
 * an error and the install that fixed it. */
export function agentRun(): ChatMessage[] {
  let n = 0;
  const out: ChatMessage[] = [
    {
      id: 'g0',
      role: 'user',
      createdAt: 0,
      content:
        '<task>\nThe CSV export drops rows with an empty date.\nWhen a row has no date, export_rows() skips it instead of writing an empty cell. Please fix it in src/export/csv.py.\n</task>\n<instructions>\nYou MUST run the tests before you finish.\nDo NOT edit the tests.\n</instructions>',
    },
  ];
  const step = (text: string, command: string, output: string): void => {
    n++;
    out.push({ id: `a${n}`, role: 'assistant', createdAt: 0, content: text, toolCalls: [{ id: `c${n}`, name: 'bash', arguments: JSON.stringify({ command }) }] });
    out.push({ id: `t${n}`, role: 'tool', createdAt: 0, toolCallId: `c${n}`, content: output });
  };
  step("I'll start by exploring the repository to locate the exporter and its tests.", 'ls /repo/src/export', 'csv.py\n__init__.py');
  step('Let me read the exporter first.', 'cat /repo/src/export/csv.py', 'def export_rows(rows):\n    for row in rows:\n        if not row.date:\n            continue');
  step('Let me run the tests:', 'cd /repo && python -m pytest tests/test_csv.py', "E   ModuleNotFoundError: No module named 'dateutil'");
  step('The dateutil package is missing, so I installed it.', 'pip install python-dateutil', 'Successfully installed python-dateutil-2.9.0');
  step(
    'I wrote a script that patches the exporter.',
    "python - <<'EOF'\nsrc = open('src/export/csv.py').read()\nopen('src/export/csv.py', 'w').write(src.replace('continue', 'row.date = \"\"'))\nEOF",
    '',
  );
  step('I saved the notes and a backup of the old file.', 'echo done | tee notes/fix.txt && cp src/export/csv.py /tmp/csv_backup.py && mv build/old.csv build/archive.csv', 'done');
  step('The export now writes an empty cell for a missing date, and the tests pass now.', 'cd /repo && python -m pytest tests/test_csv.py', '3 passed');
  out.push({ id: 'u2', role: 'user', createdAt: 0, content: 'Thanks. Now add a changelog entry.' });
  return out;
}

/** A dialogue between two friends, with relative dates to resolve against the day of each line. */
export function datedDialogue(): ChatMessage[] {
  const at = (d: number, h: number): number => Date.UTC(2023, 11, d, h, 0); // December 2023
  return [
    { id: 'd1', role: 'user', createdAt: at(14, 18), content: 'Hey Mel! Good to see you!' },
    { id: 'd2', role: 'assistant', createdAt: at(14, 18), content: 'Hi Caroline! I got back from the pottery retreat in Delft a few days ago.' },
    { id: 'd3', role: 'user', createdAt: at(14, 19), content: 'I went to the LGBTQ support group yesterday and it was so powerful.' },
    { id: 'd4', role: 'assistant', createdAt: at(14, 19), content: 'We got engaged last month on November 12th, at the lake.' },
    { id: 'd5', role: 'user', createdAt: at(14, 20), content: 'I ran my first 10 km race last Saturday in Utrecht.' },
    { id: 'd6', role: 'assistant', createdAt: at(14, 20), content: 'Amazing! My sister is visiting next week with her two kids.' },
    { id: 'd7', role: 'user', createdAt: at(14, 21), content: 'Today I am painting the sunrise I saw over the lake.' },
    { id: 'd8', role: 'assistant', createdAt: at(14, 21), content: 'Send me a photo when it is done!' },
  ];
}

/** A research chat with a system prompt that names a link form, a standing instruction opening on
 * "Keep in mind:", the assistant narrating its steps, and a draft given as a blockquote. */
export function draftChat(): ChatMessage[] {
  const at = (m: number): number => T0 + m * 60_000;
  return [
    { id: 'd0', role: 'system', createdAt: at(0), content: 'You help with notes. Cite notes as [[wikilinks]].' },
    { id: 'd1', role: 'user', createdAt: at(1), content: 'Keep in mind: my editor wants British spelling throughout. Can you summarise [[Reading/Moths of Kent]] for the newsletter?' },
    { id: 'd2', role: 'assistant', createdAt: at(2), content: 'Let me read the note first.' },
    { id: 'd3', role: 'assistant', createdAt: at(3), content: 'The note lists 41 species recorded at Dungeness in 2023, with the Sussex emerald as the rarest find.' },
    { id: 'd4', role: 'user', createdAt: at(4), content: 'Great, draft the paragraph please.' },
    {
      id: 'd5',
      role: 'assistant',
      createdAt: at(5),
      content: 'Here is the paragraph:\n\n> Moth recorders at Dungeness logged 41 species in 2023. The rarest was the Sussex emerald, a moth of shingle grassland.\n\nShall I add it to the newsletter note?',
    },
    { id: 'd6', role: 'user', createdAt: at(6), content: 'Yes, add it.' },
    { id: 'd7', role: 'assistant', createdAt: at(7), content: 'Added.' },
  ];
}
