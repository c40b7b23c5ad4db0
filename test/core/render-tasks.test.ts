import { describe, expect, it } from 'vitest';
import { BlockDraft } from '../../src/core/block-draft';
import type { ThreadLine } from '../../src/core/record';
import { type TaskInput, addLeftOff, addTaskLine, addTaskLines, currentRequest } from '../../src/core/render-tasks';
import { compact } from '../../src/core/compact';
import type { ChatMessage } from '../../src/core/messages';
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
    expect(d.lines.get('people')).toEqual(['Speakers: Tim (as user), John (as assistant)']);
    expect(d.lines.has('goal')).toBe(false);
  });

  it('writes the latest request, and no goal, for an assistant chat over many threads', () => {
    const record = blank({ kind: 'assist', goal: line('Help me plan a trip to Lisbon.'), request: line('Which laptop should I buy for video editing?') });
    const threads = [1, 2, 3, 4].map(thread);
    const many = addTaskLines(draft(), record, input({ work: false, threads, manyThreads: true }));
    expect(many.staleGoal).toBe(true);
    expect(many.goalText).toBe('');
    expect(many.requestText).toBe('Which laptop should I buy for video editing?');
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

describe('the latest request in a chat with an assistant', () => {
  const threads = [1, 2, 3, 4].map(thread);
  const record = (answered: boolean) => ({ ...blank(), kind: 'assist' as const, threads, request: { ...line('Can you suggest shade plants for the north border of my garden?'), ...(answered ? { answered } : {}) } });

  it('is shown while no answer followed it', () => {
    const d = draft(400);
    const texts = addTaskLines(d, record(false), input({ work: false, threads, manyThreads: true }));
    expect(texts.requestText).toBe('Can you suggest shade plants for the north border of my garden?');
    expect(currentRequest(record(false))?.text).toBe(texts.requestText);
  });

  it('is left to its thread once the assistant answered it', () => {
    const d = draft(400);
    expect(addTaskLines(d, record(true), input({ work: false, threads, manyThreads: true })).requestText).toBe('');
    expect(d.lines.get('request')).toBeUndefined();
    expect(currentRequest(record(true))).toBeNull();
    // Nor is the first request shown as the goal of a chat of many threads instead.
    expect(d.lines.get('goal')).toBeUndefined();
  });

  it('is read as answered when an assistant message follows it among the removed', () => {
    const at = (d: number): number => Date.UTC(2025, 0, 1 + d, 9);
    const m = (id: string, role: 'user' | 'assistant', content: string, t: number): ChatMessage => ({ id, role, content, createdAt: t });
    const messages = [
      m('a', 'user', 'Can you suggest shade plants for the north border of my garden?', at(0)),
      m('b', 'assistant', 'Hostas, ferns and astilbes all grow well in the shade of a north border.', at(0) + 1),
      m('c', 'user', 'Can you recommend a drip irrigation kit for twelve tomato plants?', at(1)),
      m('d', 'assistant', 'The Gardena Micro-Drip starter kit waters up to twenty plants from one tap.', at(1) + 1),
      m('e', 'user', 'Thanks, that helps a lot.', at(1) + 2),
      m('f', 'assistant', 'You are welcome.', at(1) + 3),
    ];
    const answered = compact(messages, { budgetTokens: 1000, cut: 4, model: 'gpt-4o' });
    if (!answered.ok) throw new Error(answered.message);
    expect(answered.record.request?.text).toContain('drip irrigation');
    expect(answered.record.request?.answered).toBe(true);
    const open = compact(messages, { budgetTokens: 1000, cut: 3, model: 'gpt-4o' });
    if (!open.ok) throw new Error(open.message);
    expect(open.record.request?.answered).toBeUndefined();
  });
});
