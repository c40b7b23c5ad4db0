import { describe, expect, it } from 'vitest';
import { BlockDraft } from '../../src/core/block-draft';
import { type SectionsInput, addSections, doesWork, fillFirstShares, fillRest, fillStructured, inlineSectionsOf, listSectionsOf, ruleLine, rulesInTaskOrder } from '../../src/core/block-sections';
import type { ThreadLine } from '../../src/core/record';
import { blank, line, words } from './render-records';

const input = (over: Partial<SectionsInput> = {}): SectionsInput => ({ work: false, staleGoal: false, threads: [], manyThreads: false, leftOffText: '', goalText: '', target: 100, ...over });
const file = (path: string, last = 0) => ({ path, sources: ['m1'], last });
const thread = (id: number, from: number): ThreadLine => ({ ...line(`thread ${id}`), id, head: 'request', from, to: from });
const sections = (record = blank(), over: Partial<SectionsInput> = {}) => ({ list: listSectionsOf(record, input(over)), inline: inlineSectionsOf(record, over.goalText ?? ''), caps: new Map() });

describe('block sections', () => {
  it('writes the rules most binding first at work, the current thread’s over many threads, else as said', () => {
    const rules = [line('Use tabs.', { score: 1 }), line('Do NOT edit the tests.', { score: 5, at: 10 }), line('Keep it short.', { score: 2, at: 30 })];
    const constraints = (over: Partial<SectionsInput>) => listSectionsOf(blank({ constraints: rules }), input(over))[0]![1];
    expect(constraints({ work: true })).toEqual(['- Do NOT edit the tests.', '- Keep it short.', '- Use tabs.']);
    expect(constraints({})).toEqual(['- Use tabs.', '- Do NOT edit the tests.', '- Keep it short.']);
    // Rules without a time stay; a rule said before the latest thread began does not.
    expect(constraints({ staleGoal: true, threads: [thread(1, 5), thread(2, 20)] })).toEqual(['- Use tabs.', '- Keep it short.']);
  });

  it('shows done items without their label, and requests with their state unless threads say it', () => {
    const record = blank({ done: [line('Done: the fence line is in the note.')], topics: [line('Add a fence line to the note.'), line('Rename the old tag.')] });
    const list = new Map(listSectionsOf(record, input()));
    expect(list.get('done')).toEqual(['- the fence line is in the note.']);
    expect(list.get('topics')).toEqual(['- Done: Add a fence line to the note.', '- Open: Rename the old tag.']);
    expect(new Map(listSectionsOf(record, input({ manyThreads: true }))).get('topics')).toEqual([]);
  });

  it('lists each file once, the latest first, no folder and no link the goal shows', () => {
    const record = blank({
      filesModified: [file('a.py', 1), file('b.py', 3)],
      filesRead: [file('a.py', 0), file('c.py', 2), file('django/', 4)],
      references: [{ kind: 'url', text: 'https://example.org/x', key: 'x', sources: ['m1'], count: 2, last: 1 }, { kind: 'path', text: 'README.md', key: 'r', sources: ['m1'], count: 1, last: 2 }],
    } as never);
    const inline = new Map(inlineSectionsOf(record, 'Goal: read https://example.org/x and README.md').map(([id, items]) => [id, items]));
    expect(inline.get('modified')).toEqual(['b.py', 'a.py']);
    expect(inline.get('read')).toEqual(['c.py']);
    expect(inline.get('references')).toEqual(['README.md']);
  });

  it('gives each section its first share; in talk the cue-phrase sections wait for the facts', () => {
    const decisions = Array.from({ length: 10 }, (_, i) => line(`We decided on option number ${i}.`));
    const record = blank({ decisions });
    const talk = new BlockDraft(200, words, new Set());
    fillFirstShares(talk, sections(record), false);
    expect(talk.lines.has('decisions')).toBe(false);
    const work = new BlockDraft(200, words, new Set());
    fillFirstShares(work, sections(record, { work: true }), true);
    // 5 % of 200 tokens: the heading and one line of seven words.
    expect(work.lines.get('decisions')).toEqual(['- We decided on option number 0.']);
    fillRest(work, sections(record, { work: true }));
    expect(work.lines.get('decisions')).toHaveLength(10);
  });

  it('lets structured sections grow past their share up to the facts’ reserve', () => {
    const errors = Array.from({ length: 40 }, (_, i) => ({ ...line(`TypeError number ${i} in the parser.`) }));
    const record = blank({ errors });
    const d = new BlockDraft(200, words, new Set());
    const s = sections(record, { work: true });
    fillFirstShares(d, s, true);
    const first = d.used;
    expect(first).toBeLessThanOrEqual(40);
    fillStructured(d, s, true);
    expect(d.used).toBeGreaterThan(first);
    expect(d.used).toBeLessThanOrEqual(150);
    expect(d.used).toBeGreaterThan(140);
  });

  it('adds the lines the user rewrote first, and shows the rules taken in the task’s order', () => {
    const record = blank({ decisions: [line('Use the blue theme.'), line('Ship it on Friday.')], filesRead: [file('x.md')] });
    const d = new BlockDraft(12, words, new Set(['Ship it on Friday.']));
    addSections(d, record, input({ target: 12 }));
    expect(d.lines.get('decisions')?.[0]).toBe('- Ship it on Friday.');
    const lines = new Map([['constraints' as const, ['- b', '- a']]]);
    rulesInTaskOrder(lines, [line('a'), line('b')], true);
    expect(lines.get('constraints')).toEqual(['- a', '- b']);
    expect(doesWork(record)).toBe(true);
    expect(doesWork(blank())).toBe(false);
  });

  it('shows the command a rule announces in a code block under it, as the task wrote it', () => {
    expect(ruleLine('You MUST use this EXACT command to submit: `echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && cat patch.txt`')).toBe(
      '- You MUST use this EXACT command to submit:\n  ```\n  echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && cat patch.txt\n  ```',
    );
    expect(ruleLine('Only edit files under `src/`, never the tests.')).toBe('- Only edit files under `src/`, never the tests.');
  });
});
