// Golden tests of the summary a person reads in the panel and the model reads in its system
// prompt: hand-written conversations (test/core/golden-chats.ts) with their expected sections
// written out; then properties over generated prose: every fact is a whole sentence of the message
// it cites, markup is balanced, one line carries one turn.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compact } from '../../src/core/compact';
import { sentencesOf } from '../../src/core/extract-sentences';
import type { ChatMessage } from '../../src/core/messages';
import { balancedMarkup } from '../../src/core/text';
import { estimateTokens } from '../../src/core/tokens';
import { agentRun, datedDialogue, draftChat, vaultChat } from './golden-chats';

function block(chat: ChatMessage[], cut: number, budgetTokens = 1000): { text: string; lines: string[]; facts: string[] } {
  const r = compact(chat, { budgetTokens, cut, model: 'gpt-4o', now: 1 });
  if (!r.ok) throw new Error(r.message);
  return { text: r.block, lines: r.block.split('\n').slice(1, -1), facts: r.record.facts.map((f) => f.text) };
}

describe('the summary of a vault chat', () => {
  const { text, lines, facts } = block(vaultChat(), 9);

  it('has the request as its goal, not the greeting, and the standing instruction as a constraint', () => {
    expect(lines[0]).toBe('Goal: Can you help me redesign the garden plan in [[Projects/Garden Redesign|my garden plan]]?');
    expect(text).not.toMatch(/Goal: (?:Hi|Hello)/);
    expect(lines).toContain('Constraints and preferences:');
    expect(lines).toContain('- Always answer in short bullet lists.');
  });

  it('keeps sentences whole: a link, an abbreviation or a file name never ends one, a question stays a question', () => {
    // (The block holds what the removed part's size allows; the facts pool holds every candidate.)
    expect(facts).toContain('We decided to use the Kanban layout for [[Projects/Garden Redesign]] instead of a table, right?');
    expect(facts.some((f) => f.startsWith('We decided to use the Kanban layout for') && f !== 'We decided to use the Kanban layout for [[Projects/Garden Redesign]] instead of a table, right?')).toBe(false);
    expect(text).not.toMatch(/Kanban layout for\.|^- \[\[Projects\/Garden Redesign\]\] instead/m);
    expect(text).toContain('Dr. Jansen et al. recommend raised beds for heavy clay, e.g. 30 cm high.');
    expect(text).toContain('I used the checklist from [the RHS guide](https://www.rhs.org.uk/soil) and saved it to notes.md for you.');
    // The lead-in whose list is gone is not carried; the list items are, as sentences.
    expect(text).not.toContain('Let me list the steps');
    expect(text).toContain('Order 40 m of edging from Hortus Nursery.');
    // No line but a section heading ends on a colon.
    for (const line of lines) if (!/^[A-Z][a-z]+(?: [a-z]+){0,3}:$/.test(line)) expect(line).not.toMatch(/:\s*$|:\.$/);
  });

  it('dates relative expressions against the day they were said', () => {
    expect(text).toContain('- User, 5 March 2024: I ordered the edging yesterday. (yesterday = 4 March 2024) The beds will be built by my brother Sam next weekend. (next weekend = 16–17 March 2024)');
  });

  it('says where it left off', () => {
    expect(lines[lines.length - 1]).toBe('Left off: I have updated the board with both tasks.');
  });
});

describe('the summary of a coding-agent run', () => {
  const { text, lines } = block(agentRun(), 15);

  it("has the task as its goal, and the template's rules once, as constraints", () => {
    expect(lines[0]).toBe('Goal: The CSV export drops rows with an empty date. When a row has no date, export_rows() skips it instead of writing an empty cell. Please fix it in src/export/csv.py.');
    expect(lines[0]).not.toMatch(/MUST|Do NOT edit/);
    expect(text).toContain('Constraints and preferences:\n- You MUST run the tests before you finish. Do NOT edit the tests.');
    expect(text.split('Do NOT edit the tests').length - 1).toBe(1);
  });

  it("carries what the steps found, not the assistant's narration of them", () => {
    expect(text).not.toContain("I'll start by exploring");
    expect(text).not.toContain('Let me read');
    expect(text).toContain('The dateutil package is missing, so I installed it.');
  });

  it('lists the files written by scripts, tee, cp and mv in the State section, changed apart from scratch', () => {
    const state = text.slice(text.search(/^State(?: \([^)]*\))?:$/m), text.indexOf('Done:'));
    for (const path of ['src/export/csv.py', 'notes/fix.txt', 'build/archive.csv']) expect(state).toMatch(new RegExp(`- Changed: .*${path.replace(/[./]/g, '\\$&')}`));
    expect(state).toContain('- Scratch: /tmp/csv_backup.py');
    // They are not listed again under "Files modified".
    expect(text).not.toContain('Files modified');
    // /repo/src/export/csv.py (read) is src/export/csv.py (modified): listed once.
    expect(text).not.toContain('/repo/src/export/csv.py');
  });

  it('says what fixed the error, on a line of its own, and what was done', () => {
    expect(text).toContain("Errors met:\n- ModuleNotFoundError: No module named 'dateutil'\n  - Then: The dateutil package is missing, so I installed it.");
    expect(text).toContain('Done:\n- I wrote a script that patches the exporter.');
    expect(text.split('The dateutil package is missing').length - 1).toBe(1);
  });

  it('ends where the work stood, with the command it ran', () => {
    expect(lines.slice(-2)).toEqual(['Left off: The export now writes an empty cell for a missing date, and the tests pass now.', '- Ran: python -m pytest tests/test_csv.py — passed: 3 passed']);
  });
});

describe('the summary of a dialogue with relative dates', () => {
  const { text } = block(datedDialogue(), 8);

  it('resolves what a date makes exact, and nothing else', () => {
    expect(text).toContain('- User, 14 December 2023: I went to the LGBTQ support group yesterday and it was so powerful. (yesterday = 13 December 2023)');
    expect(text).toContain('I ran my first 10 km race last Saturday in Utrecht. (last saturday = 9 December 2023)');
    // An explicit date needs no note (and a note could contradict it); "today" is the line's day.
    expect(text).toContain('- Assistant: We got engaged last month on November 12th, at the lake.\n');
    expect(text).toContain('Today I am painting the sunrise I saw over the lake.\n');
  });

  it('has no goal: greetings and small talk are no request', () => {
    expect(text).not.toContain('Goal:');
  });
});

// ── Properties over generated prose ──

/** Words and marks that make sentence splitting hard: links, emphasis, code, abbreviations. */
const word = fc.constantFrom('the', 'garden', 'plan', 'Sam', 'Delft', 'beds', '40', 'm', 'e.g.', 'Dr.', 'v1.2', 'notes.md', '[[Garden/Plan]]', '[[Note|alias]]', '**bold**', '`code`', '(aside)', 'et al.', 'and', 'but', 'which');
const end = fc.constantFrom('.', '!', '?', '', ':');
const sentence = fc.tuple(fc.constantFrom('I', 'We', 'The', 'My', 'Can you', 'Please'), fc.array(word, { minLength: 3, maxLength: 12 }), end).map(([a, ws, e]) => `${a} ${ws.join(' ')}${e}`);
// Sentences joined by a space or a line break, drawn by fast-check (so a failure replays).
const turn = fc.tuple(fc.array(sentence, { minLength: 1, maxLength: 4 }), fc.constantFrom(' ', '\n')).map(([ss, sep]) => ss.join(sep));
const chat = fc.array(turn, { minLength: 4, maxLength: 14 }).map((turns) =>
  // Each turn is marked with its own number, so no sentence of one turn is a sentence of another.
  turns.map((t, i): ChatMessage => ({ id: `p${i}`, createdAt: Date.UTC(2024, 0, 1 + (i >> 2)), role: i % 2 ? 'assistant' : 'user', content: `${t} Turn${i} ends here.` })),
);

describe('the summary of a drafting chat', () => {
  const { text, lines, facts } = block(draftChat(), 6);

  it('has the request as its goal when the message opens with an instruction, and the instruction as a constraint', () => {
    expect(lines[0]).toBe('Goal: Can you summarise [[Reading/Moths of Kent]] for the newsletter?');
  });

  it('keeps a goal that opens with its question, even when a request-like instruction follows', () => {
    const chat = draftChat();
    chat[1] = { ...chat[1]!, content: 'Question 1: what should the newsletter say about [[Reading/Moths of Kent]]? Please keep my editor\'s house style in mind, always.' };
    const r = compact(chat, { budgetTokens: 160, cut: 6, model: 'gpt-4o', now: 1 });
    if (!r.ok) throw new Error(r.message);
    expect(r.block).toMatch(/^Goal: Question 1: what should the newsletter say about \[\[Reading\/Moths of Kent\]\]\?/m);
  });

  it('says a standing instruction once, even when it opens on what looks like a label', () => {
    expect(lines).toContain('- Keep in mind: my editor wants British spelling throughout.');
    expect(text.split('my editor wants British spelling').length - 1).toBe(1);
  });

  it('carries what a step found, not the announcement of the step', () => {
    expect(facts).not.toContain('Let me read the note first.');
    expect(text).not.toContain('Let me read');
    expect(text).toContain('The note lists 41 species recorded at Dungeness in 2023, with the Sussex emerald as the rarest find.');
  });

  it("takes references from the conversation, not from the system prompt's instructions", () => {
    expect(text).toContain('[[Reading/Moths of Kent]]');
    expect(text).not.toContain('[[wikilinks]]');
  });

  it('reads a blockquote without its markers', () => {
    expect(text).toContain('Moth recorders at Dungeness logged 41 species in 2023.');
    expect(text).not.toMatch(/(?:^|: |- )> /m);
  });
});

describe('summary properties', () => {
  it('every fact is a whole sentence of the message it cites, lines are balanced, one turn per line', () => {
    fc.assert(
      fc.property(chat, fc.integer({ min: 60, max: 800 }), (messages, budgetTokens) => {
        const cut = messages.length - 2;
        const r = compact(messages, { budgetTokens, cut, model: 'gpt-4o', now: 1 });
        if (!r.ok) return;
        expect(estimateTokens(r.block, 'gpt-4o')).toBeLessThanOrEqual(budgetTokens);
        const byId = new Map(messages.map((m) => [m.id, m]));
        const shown = r.record.facts.filter((f) => f.shown === r.record.round);
        for (const f of shown) {
          const source = byId.get(f.sources[0] ?? '');
          expect(source).toBeDefined();
          expect(sentencesOf([source as ChatMessage]).map((s) => s.text)).toContain(f.text);
        }
        const lines = r.block.split('\n').slice(1, -1);
        for (const line of lines) {
          expect(balancedMarkup(line)).toBe(true);
          if (!line.startsWith('- ')) continue;
          // A fact line holds the facts of one message only.
          const turns = new Set(shown.filter((f) => line.includes(f.text)).map((f) => f.sources[0]));
          expect(turns.size).toBeLessThanOrEqual(1);
        }
        // Deterministic.
        expect(compact(messages, { budgetTokens, cut, model: 'gpt-4o', now: 1 })).toEqual(r);
      }),
      { numRuns: 200 },
    );
  });
});
