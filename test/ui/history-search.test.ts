// @vitest-environment jsdom
// The compaction panel's search box over the compacted messages, with the real plugin against a
// loopback Ollama server: disabled before any compaction, then ranked results (who, when, the
// matching words marked) that open the original in the chat or its round in the panel.
import { describe, expect, it } from 'vitest';
import { pressKey, typeInto } from '../obsidian/testing';
import { startUi, type UiHarness, until, uiActions, closeUiAfterEach, MANUAL_COMPACTION } from './helpers';
import { formatDateTime } from '../../src/ui/dates';

let h: UiHarness;
const { say, openPanel } = uiActions(() => h);
closeUiAfterEach(() => h);

const BAKERY = 'For bread I went to the Bluebird bakery on Cooper Lane; their rye is the best in town.';



const box = (panel: HTMLElement): HTMLInputElement => panel.find('input.compact-chat-history-search-input') as HTMLInputElement;
const results = (panel: HTMLElement): HTMLElement[] => panel.findAll('.compact-chat-history-search-result');
const status = (panel: HTMLElement): string => panel.find('.compact-chat-history-search-status')?.getText() ?? '';

describe('searching the compacted messages from the panel', () => {
  it('is disabled until something is compacted, then finds a compacted message and links to it', async () => {
    h = await startUi(MANUAL_COMPACTION);
    const panel = await openPanel('.compact-chat-history-search-input');
    expect(box(panel).disabled).toBe(true);
    expect(box(panel).placeholder).toMatch(/no compacted messages/i);

    await say(BAKERY, 'Noted: the Bluebird bakery for rye.');
    await say('Now the garden: tomatoes along the fence, beans by the shed.', 'Tomatoes and beans, noted.');
    await say('And the trip: trains to Lyon in May.', 'Trains to Lyon in May, noted.');
    await say('What next?', 'Whatever you like.');
    (panel.find('button.compact-chat-compact-now') as HTMLButtonElement).click();
    await until(() => h.plugin.session.compactions.length === 1);
    const removed = h.plugin.session.compactions[0]?.record.removedIds ?? [];
    expect(box(panel).disabled).toBe(false);
    expect(box(panel).placeholder).toBe(`Search ${removed.length} compacted messages`);

    // An inflected, natural question: the bakery message first, its words marked.
    typeInto(box(panel), 'which bakeries did I go to');
    const [first] = results(panel);
    const bakery = h.plugin.session.messages.find((m) => m.content === BAKERY);
    expect(first?.find('.compact-chat-history-search-who')?.getText()).toBe('You');
    expect(first?.find('.compact-chat-history-search-when')?.getText()).toBe(` · ${formatDateTime(bakery?.createdAt ?? 0)}`);
    expect(first?.find('.compact-chat-history-search-snippet')?.getText()).toBe(BAKERY);
    expect(first?.findAll('mark').map((m) => m.getText())).toEqual(['bakery']);
    expect(status(panel)).toMatch(new RegExp(`^\\d+ of ${removed.length} compacted messages, best first\\.$`));
    // Only compacted messages are searched: the kept ones never come up.
    for (const el of results(panel)) expect(removed).toContain(el.find('[data-hit-id]')?.getAttr('data-hit-id'));

    // "Show in chat" reveals the original; "Round 1" opens the round that removed it.
    (first?.find('button.compact-chat-history-search-open') as HTMLButtonElement).click();
    await until(() => h.view().find(`[data-message-id="${bakery?.id}"]`)?.hasClass('is-highlighted') === true);
    const round = panel.find('details.compact-chat-round[data-round="1"]') as HTMLDetailsElement;
    round.open = false;
    (first?.find('button.compact-chat-history-search-round') as HTMLButtonElement).click();
    expect(round.open).toBe(true);
    expect(round.hasClass('is-highlighted')).toBe(true);

    // Nothing matches: it says what it searched. Escape clears the box and the results.
    typeInto(box(panel), 'zeppelin');
    expect(results(panel)).toHaveLength(0);
    expect(status(panel)).toBe(`No compacted message matches “zeppelin” (searched ${removed.length} messages).`);
    typeInto(box(panel), 'Lyon');
    expect(results(panel).length).toBeGreaterThan(0);
    pressKey('Escape', { target: box(panel) });
    expect(box(panel).value).toBe('');
    expect(results(panel)).toHaveLength(0);

    // An undo sends the messages again: nothing is left to search.
    h.plugin.session.undoLastCompaction();
    await until(() => box(panel).disabled);
    typeInto(box(panel), 'bakery');
    expect(results(panel)).toHaveLength(0);
  });

  it('renders message text as text, never as HTML', async () => {
    h = await startUi(MANUAL_COMPACTION);
    const panel = await openPanel('.compact-chat-history-search-input');
    const hostile = 'The <img src=x onerror="alert(1)"> bakery <b>bold</b> note.';
    await say(hostile, 'Seen.');
    await say('Next topic, the garden.', 'Fine.');
    await say('Go on.', 'Ok.');
    (panel.find('button.compact-chat-compact-now') as HTMLButtonElement).click();
    await until(() => h.plugin.session.compactions.length === 1);
    typeInto(box(panel), 'bakery');
    const snippet = results(panel)[0]?.find('.compact-chat-history-search-snippet');
    expect(snippet?.getText()).toBe(hostile);
    expect(snippet?.find('img')).toBeNull();
    expect(snippet?.find('b')).toBeNull();
    expect(snippet?.findAll('mark').map((m) => m.getText())).toEqual(['bakery']);
  });
});
