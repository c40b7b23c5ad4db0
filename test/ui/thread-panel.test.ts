// @vitest-environment jsdom
// The threads in the summary panel and in the chat's notice, on a round from the core whose facts
// name two threads and whose block the core renders by thread: the panel lists each thread as a
// collapsible item (head, span, state) holding that thread's facts, each jumping to its message;
// a fact of no thread stays in the plain list; the notice names both threads in one line.
import { describe, expect, it } from 'vitest';
import { type App, Component } from 'obsidian';
import { compact } from '../../src/core/compact';
import { renderBlock } from '../../src/core/render';
import type { ChatMessage } from '../../src/core/messages';
import type { CompactionRecord, ThreadLine } from '../../src/core/record';
import type { ChatSession } from '../../src/chat/session';
import { compactionNoticeText, type CompactionState } from '../../src/chat/entries';
import { RoundList } from '../../src/ui/compaction-rounds';
import { CarriedLineEditor } from '../../src/ui/carried-line-editor';
import { fillEntry, type RenderedEntry } from '../../src/ui/entry-renderer';
import { installDomHelpers } from '../obsidian/dom';

installDomHelpers(window);

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 4, 2, 9, 0);
let seq = 0;
const m = (role: 'user' | 'assistant', content: string, at: number): ChatMessage => ({ id: `m${seq++}`, createdAt: at, role, content });

function chat(): ChatMessage[] {
  seq = 0;
  return [
    m('user', 'Can you help me plan the vegetable garden behind the shed?', T0),
    m('assistant', 'Put the tomatoes in the sunniest bed and the lettuce in the shaded one.', T0 + 60_000),
    m('user', 'The raised beds are 120 cm wide and the soil is heavy clay.', T0 + 120_000),
    m('assistant', 'Mix compost into the clay soil of the raised beds before planting the tomatoes.', T0 + 180_000),
    m('user', 'Which drip irrigation kit should I buy for the balcony pots?', T0 + 3 * DAY),
    m('assistant', 'The Gardena micro drip starter kit waters twenty pots and runs from a tap timer.', T0 + 3 * DAY + 60_000),
    m('user', 'The neighbour lends us a ladder on Sundays.', T0 + 3 * DAY + 120_000),
    m('assistant', 'Noted about the ladder.', T0 + 3 * DAY + 180_000),
    m('user', 'Thanks, what about mulch?', T0 + 3 * DAY + 240_000),
    m('assistant', 'Straw mulch keeps the pots moist.', T0 + 3 * DAY + 300_000),
  ];
}

const GARDEN = 'Can you help me plan the vegetable garden behind the shed?';
const DRIP = 'Which drip irrigation kit should I buy for the balcony pots?';

/** A real round, its facts given two threads (the garden: m0–m3, answered; the drip kit: m4–m5,
 * open; the ladder: none), and its block rendered again by the core from that (with room enough
 * for the core to lay it out by thread). */
function threadedRound(messages: ChatMessage[]): CompactionState {
  const result = compact(messages, { budgetTokens: 600, keepExchanges: 1, now: T0 + 4 * DAY, trigger: 'tokens' });
  if (!result.ok) throw new Error(result.message);
  const base = result.record;
  const at = (id: string): number => messages.find((x) => x.id === id)?.createdAt ?? 0;
  const threads: ThreadLine[] = [
    { id: 1, text: GARDEN, head: 'request', state: 'answered', from: at('m0'), to: at('m3'), sources: ['m0'], at: at('m0'), score: 5, round: 1 },
    { id: 2, text: DRIP, head: 'request', state: 'open', from: at('m4'), to: at('m5'), sources: ['m4'], at: at('m4'), score: 5, round: 1 },
  ];
  const threadOf = (id: string | undefined): number | undefined => {
    const n = Number(id?.slice(1));
    return n <= 3 ? 1 : n <= 5 ? 2 : undefined;
  };
  const facts = base.facts.map((f) => {
    const { thread: _old, about: _about, ...rest } = f;
    const t = threadOf(f.sources[0]);
    return t === undefined ? rest : { ...rest, thread: t };
  });
  const record: CompactionRecord = { ...base, kind: 'assist', threads, facts };
  const roles = new Map(messages.map((x) => [x.id, x.role]));
  record.block = renderBlock(record, { budgetTokens: 1000 }, (id) => roles.get(id));
  return { record, causes: ['tokens'], microCleared: [], restored: { notes: [], block: '', tokens: 0 }, promptBefore: 3000, promptAfter: 900 };
}

function renderPanel(state: CompactionState, messages: ChatMessage[]): HTMLElement {
  const parent = createDiv();
  const host = { app: {} as App, owner: new Component(), lineEditor: new CarriedLineEditor({} as ChatSession) };
  new RoundList(parent, host).render([state], messages, false);
  return parent;
}

describe('threads in the summary panel and the notice', () => {
  it('shows each thread of a round as a collapsible item with its head, state and facts', () => {
    const messages = chat();
    const state = threadedRound(messages);
    const block = state.record.block;
    // The core laid the block out by thread: both heads are in it.
    expect(block).toContain(`### Open, 5 May 2026: ${DRIP}`);
    expect(block).toContain(`### 2 May 2026: ${GARDEN}`);

    const panel = renderPanel(state, messages);
    const items = panel.findAll('details.compact-chat-thread');
    expect(items).toHaveLength(2);
    const [garden, drip] = items;
    if (!garden || !drip) throw new Error('missing thread');
    expect(garden.hasAttribute('open')).toBe(false);
    expect(garden.find('summary .compact-chat-thread-head')?.getText()).toBe(GARDEN);
    expect(garden.find('summary')?.getText()).toContain('2 May 2026 · Answered');
    expect(drip.find('summary .compact-chat-thread-head')?.getText()).toBe(DRIP);
    expect(drip.find('summary')?.getText()).toContain('Open');
    expect(drip.hasClass('mod-open')).toBe(true);
    // Days, state and size on their own line under the head; the facts' title says how they are laid out.
    expect(garden.find('summary .compact-chat-thread-info')?.getText()).toMatch(/^2 May 2026 · Answered · \d+ facts?$/);
    expect(garden.find('summary')?.getText().startsWith(`${GARDEN} 2 May 2026`)).toBe(true);
    expect(panel.findAll('.compact-chat-round-sections h5').map((h) => h.getText())).toContain('Key facts by thread');

    // Inside each, that thread's facts and no other's, each jumping to its own message.
    const factsOf = (el: HTMLElement): string[] => el.findAll('.compact-chat-line-text').map((t) => t.getText());
    const sourcesOf = (el: HTMLElement): string[] => el.findAll('.compact-chat-jump').map((b) => b.getAttr('data-source') ?? '');
    expect(factsOf(garden).length).toBeGreaterThan(0);
    expect(factsOf(drip).length).toBeGreaterThan(0);
    expect(factsOf(garden).join(' ')).toMatch(/raised beds|tomatoes/);
    expect(factsOf(drip).join(' ')).toContain('Gardena micro drip');
    for (const id of sourcesOf(garden)) expect(['m0', 'm1', 'm2', 'm3']).toContain(id);
    for (const id of sourcesOf(drip)) expect(['m4', 'm5']).toContain(id);
    expect(sourcesOf(drip)).toContain('m5');
    // In the order they were said, as the block writes them under the head (not by rank).
    for (const el of items) {
      const sent = el.findAll('.compact-chat-thread-body > ul.compact-chat-lines .compact-chat-line-text').map((t) => t.getText());
      const at = sent.map((text) => block.indexOf(text));
      expect(at.every((i) => i >= 0)).toBe(true);
      expect(at).toEqual([...at].sort((a, b) => a - b));
    }

    // A fact of no thread stays in the plain list of key facts, outside every thread.
    const loose = panel.findAll('.compact-chat-line-text').filter((t) => t.getText().includes('ladder'));
    expect(loose.length).toBeGreaterThan(0);
    for (const t of loose) expect(t.closest('.compact-chat-thread')).toBeNull();
  });

  it('a round of one thread keeps the plain list', () => {
    const messages = chat();
    const state = threadedRound(messages);
    const one = { ...state, record: { ...state.record, facts: state.record.facts.map((f) => ({ ...f, thread: 1 })) } };
    expect(renderPanel(one, messages).find('.compact-chat-thread')).toBeNull();
  });

  it('names the speakers between two people, as the block does', () => {
    const messages = chat();
    const state = threadedRound(messages);
    const figure = (record: CompactionRecord): string | undefined =>
      renderPanel({ ...state, record }, messages).find('.compact-chat-figure-speakers')?.getText();
    expect(figure({ ...state.record, kind: 'talk', speakers: { user: 'Sam', assistant: 'Alex' } })).toBe('Sam (as user), Alex (as assistant)');
    expect(figure({ ...state.record, kind: 'talk' })).toBeUndefined();
  });

  it('the notice after the compaction names the threads it carried in one line', () => {
    const messages = chat();
    const state = threadedRound(messages);
    const entry = { kind: 'notice' as const, id: 'n1', level: 'info' as const, text: compactionNoticeText(state, state.record.removedIds.length), compaction: state };
    const item: RenderedEntry = { entry, el: createDiv(), bodyEl: null, component: null, version: 0, editing: false };
    fillEntry(item, { busy: () => false, canRewrite: () => false, canPin: () => false, renderBody: () => undefined });
    expect(item.el.find('.compact-chat-notice-threads')?.getText()).toBe(
      'Carried 2 threads: Can you help me plan the vegetable… (answered) and Which drip irrigation kit should I buy… (open).',
    );
  });
});
