import { describe, expect, it } from 'vitest';
import { BlockDraft } from '../../src/core/block-draft';
import type { ThreadLine } from '../../src/core/record';
import { type TaskInput, addLeftOff, addTaskLine, addTaskLines } from '../../src/core/render-tasks';
import { dedupeKey } from '../../src/core/text';
import { blank, line, words } from './render-records';

const draft = (target = 200) => new BlockDraft(target, words, new Set());
const input = (over: Partial<TaskInput> = {}): TaskInput => ({ work: true, threads: [], manyThreads: false, roleOf: () => undefined, speakers: undefined, ...over });
const thread = (id: number): ThreadLine => ({ ...line(`thread ${id}`), id, head: 'request', from: id, to: id });

describe('task lines', () => {
  it('keeps whole sentences, dropping the trailing ones that do not fit the line’s share', () => {
    // Goal share at work: 20 % of 100 tokens; the first sentence may take twice that.
    const d = draft(100);
    const goal = line('Rename the tag inbox to todo across the whole vault today. Then check every daily note from last year for stray tags and fix them all.');
    expect(addTaskLine(d, 'goal', goal, 'Goal:', true)).toBe('Rename the tag inbox to todo across the whole vault today.');
    expect(d.lines.get('goal')).toEqual(['Goal: Rename the tag inbox to todo across the whole vault today.']);
    expect(addTaskLine(d, 'nextStep', null, 'Next step:', true)).toBe('');
    // A line the user rewrote has the whole budget.
    expect(addTaskLine(draft(100), 'goal', { ...goal, edited: true }, 'Goal:', true)).toBe(goal.text);
  });

  it('starts at the request when only the context before it would fit', () => {
    const d = draft(60);
    const request = line('Keep in mind that the garden faces north and gets little sun in the winter months. Can you suggest shade plants for the border?');
    expect(addTaskLine(d, 'request', request, 'Latest request:', true)).toBe('Can you suggest shade plants for the border?');
  });

  it('writes no Goal between two people, who are named instead', () => {
    const d = draft();
    const record = blank({ kind: 'talk', goal: line('Nah, I have not been to the mountains yet.'), speakers: { user: 'Tim', assistant: 'John' } });
    const tasks = addTaskLines(d, record, input({ work: false, speakers: record.speakers }));
    expect(tasks.goalText).toBe('');
    expect(d.lines.get('people')).toEqual(['Speakers: Tim (user), John (assistant)']);
    expect(d.lines.has('goal')).toBe(false);
  });

  it('does not make the first request the goal of an assistant chat over many threads', () => {
    const record = blank({ kind: 'assist', goal: line('Help me plan a trip to Lisbon.'), request: line('Which laptop should I buy for video editing?') });
    const threads = [1, 2, 3, 4].map(thread);
    const many = addTaskLines(draft(), record, input({ work: false, threads, manyThreads: true }));
    expect(many.staleGoal).toBe(true);
    expect(many.goalText).not.toContain('Lisbon');
    // The current request is shown (as the goal or as the latest request).
    expect(`${many.goalText}\n${many.requestText}`).toContain('Which laptop should I buy for video editing?');
    const few = addTaskLines(draft(), record, input({ work: false, threads: threads.slice(0, 2), manyThreads: true }));
    expect(few.goalText).toBe('Help me plan a trip to Lisbon.');
    expect(few.requestText).toBe('Which laptop should I buy for video editing?');
    expect(few.goalLower).toBe('help me plan a trip to lisbon.\nwhich laptop should i buy for video editing?');
  });

  it('shows the command the work left off at under its line, with its outcome', () => {
    const d = draft();
    const leftOff = { ...line('Let me run the tests:'), command: 'pytest -q tests/test_parser.py', outcome: '2 failed, 40 passed' };
    const text = addLeftOff(d, blank({ leftOff }), '', input());
    expect(text).toBe('let me run the tests:');
    expect(d.lines.get('leftOff')).toEqual(['Left off: Let me run the tests:', '- Ran: pytest -q tests/test_parser.py — 2 failed, 40 passed']);
    expect(d.tasksLower).toBe('\nlet me run the tests:');
  });

  it('drops a line announcing a command it cannot show, and what it counted', () => {
    const d = draft();
    const leftOff = { ...line('Let me read the method:'), command: 'sed -n "1,20p `models.py' };
    addLeftOff(d, blank({ leftOff }), 'Fix the parser.', input());
    expect(d.lines.has('leftOff')).toBe(false);
    expect(d.used).toBe(0);
    expect(d.tasksLower).toBe('fix the parser.');
    // A key fact may say it again.
    expect(d.shown.has(dedupeKey('let me read the method:'))).toBe(false);
  });
});
