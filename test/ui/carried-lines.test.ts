// @vitest-environment jsdom
// The user decides what is carried, through the views of the real plugin against a loopback
// Ollama server: the pin toggle in a message's actions (marked, sent word for word after a
// compaction), and the panel's edit / remove / put back of the latest round's lines (Escape
// cancels, Enter saves), with "Undo last edit" and its command; the request bodies show each
// change, and reopening the saved conversation shows the same marks and sends the same block.
import { describe, expect, it } from 'vitest';
import { systemOf } from '../chat/helpers/harness';
import { pressKey, runCommand, shownNotices, typeInto } from '../obsidian/testing';
import { button, input, messages, startUi, type UiHarness, uiActions, until, closeUiAfterEach, MANUAL_COMPACTION } from './helpers';

let h: UiHarness;
const { bodies, say, openPanel } = uiActions(() => h);
closeUiAfterEach(() => h);


const TURNS: [string, string][] = [
  ['Help me plan the garden renovation. The budget is 3,500 euros. Never suggest removing the old apple tree.', 'Happy to help. The soil pH is 6.2, which suits vegetables and most herbs.'],
  ['We decided to put the greenhouse on the south side, next to the shed.', 'The greenhouse on the south side gets the most light in winter.'],
  ['I ordered 40 lavender plants from Hortus Nursery for the border.', 'Lavender needs full sun and well-drained soil, so the border works.'],
];



async function compactFromPanel(panel: HTMLElement): Promise<void> {
  const count = h.plugin.session.compactions.length;
  (panel.find('button.compact-chat-compact-now') as HTMLButtonElement).click();
  await until(() => h.plugin.session.compactions.length === count + 1 && panel.findAll('details.compact-chat-round').length === count + 1);
}

/** The latest round's carried lines (sent) in the panel. */
const latestRound = (panel: HTMLElement): HTMLElement => panel.find('details.compact-chat-round');
const sentLines = (panel: HTMLElement): HTMLElement[] => latestRound(panel).findAll('.compact-chat-round-sections > ul.compact-chat-lines > li.compact-chat-line');
const lineText = (li: HTMLElement): string => li.find('.compact-chat-line-text')?.getText() ?? '';
const lastSystem = (): string => systemOf(bodies()[bodies().length - 1]);

describe('pinning a message in the chat', () => {
  it('marks it, and a compaction leaves it sent word for word', async () => {
    h = await startUi(MANUAL_COMPACTION);
    for (const [text, reply] of TURNS) await say(text, reply);
    const first = messages(h)[0];
    if (!first) throw new Error('no message');
    button(first, 'Pin: always send this message word for word, never compacted').click();
    await until(() => messages(h)[0]?.hasClass('is-pinned') === true);
    const pinned = messages(h)[0] as HTMLElement;
    expect(pinned.find('.compact-chat-pinned-mark')?.getText()).toBe('Pinned: sent word for word, never compacted.');
    expect(button(pinned, 'Unpin: compaction may summarise this message again').getAttr('aria-pressed')).toBe('true');

    const panel = await openPanel();
    await compactFromPanel(panel);
    await say('What comes next?', 'Next, we prepare the beds.');
    const sent = (bodies()[bodies().length - 1]?.messages ?? []).filter((m) => m.role !== 'system').map((m) => m.content);
    expect(sent[0]).toBe(TURNS[0]?.[0]);
    expect(sent).not.toContain(TURNS[1]?.[0]);
  });
});

describe('editing the carried lines in the panel', () => {
  it('Escape cancels, Enter saves, remove and put back, undo last edit; each reaches the next request; a reopened note keeps them', async () => {
    h = await startUi(MANUAL_COMPACTION);
    for (const [text, reply] of TURNS) await say(text, reply);
    const panel = await openPanel();
    await compactFromPanel(panel);

    // Escape cancels: nothing changes.
    const target = sentLines(panel).find((li) => li.getAttr('data-section') === 'constraints');
    if (!target) throw new Error('no constraint line');
    const original = lineText(target);
    button(target, 'Edit line').click();
    const box = target.find('textarea.compact-chat-line-edit-input') as HTMLTextAreaElement;
    expect(box.value).toBe(original);
    pressKey('Escape', { target: box });
    expect(target.find('textarea')).toBeNull();
    expect(h.plugin.session.compactions[0]?.record.edits).toBeUndefined();

    // Enter saves: the line is marked as edited, with the extracted text in its tooltip.
    button(target, 'Edit line').click();
    const again = target.find('textarea.compact-chat-line-edit-input') as HTMLTextAreaElement;
    typeInto(again, 'The old apple tree stays where it is.');
    pressKey('Enter', { target: again });
    await until(() => sentLines(panel).some((li) => li.hasClass('is-edited')));
    const edited = sentLines(panel).find((li) => li.hasClass('is-edited')) as HTMLElement;
    expect(lineText(edited)).toBe('The old apple tree stays where it is.');
    expect(edited.find('.compact-chat-line-edited')?.getText()).toBe('Edited');
    // The round's notice in the chat shows the block now sent.
    await until(() => (h.view().find('.compact-chat-notice .compact-chat-block')?.getText() ?? '').includes('The old apple tree stays where it is.'));

    // Remove a fact: it moves under "Removed by you".
    const fact = sentLines(panel).find((li) => li.getAttr('data-section') === 'facts') as HTMLElement;
    const factText = lineText(fact);
    button(fact, 'Remove line: it is no longer sent').click();
    await until(() => latestRound(panel).find('details.compact-chat-removed-lines') !== null);
    expect(latestRound(panel).find('details.compact-chat-removed-lines li .compact-chat-line-text')?.getText()).toBe(factText);

    await say('What comes next?', 'Next, we prepare the beds.');
    expect(lastSystem()).toContain('The old apple tree stays where it is.');
    expect(lastSystem()).not.toContain(original);
    expect(lastSystem()).not.toContain(factText);

    // Saved with the round: reopening the note shows the same marks and sends the same block.
    const path = h.plugin.conversations.current.path;
    await h.plugin.conversations.flush();
    await h.plugin.conversations.newChat();
    await until(() => h.plugin.session.compactions.length === 0);
    expect(await h.plugin.conversations.open(path ?? '')).toBe(true);
    await until(() => sentLines(panel).some((li) => li.hasClass('is-edited')));
    await say('And after that?', 'Then we water them.');
    expect(lastSystem()).toContain('The old apple tree stays where it is.');
    expect(lastSystem()).not.toContain(factText);

    // Undo last edit (the panel button): the removed fact is back.
    const undo = panel.find('button.compact-chat-undo-edit') as HTMLButtonElement;
    expect(undo.disabled).toBe(false);
    undo.click();
    await until(() => latestRound(panel).find('details.compact-chat-removed-lines') === null);
    await say('Anything else?', 'Mulch the border.');
    expect(lastSystem()).toContain(factText);

    // Undo the rewrite with the command; then there is nothing left to undo.
    expect(runCommand(h.app, 'compact-chat:undo-last-summary-edit')).toBe(true);
    await until(() => !sentLines(panel).some((li) => li.hasClass('is-edited')));
    expect(shownNotices()).toContain('Undid the last edit of the summary.');
    expect(runCommand(h.app, 'compact-chat:undo-last-summary-edit')).toBe(false);
    expect(undo.disabled).toBe(true);
    await say('Done?', 'Done.');
    expect(lastSystem()).toContain(original);

    // Put back: a removed line comes back by its own button too.
    const again2 = sentLines(panel).find((li) => lineText(li) === factText) as HTMLElement;
    button(again2, 'Remove line: it is no longer sent').click();
    await until(() => latestRound(panel).find('details.compact-chat-removed-lines') !== null);
    button(latestRound(panel).find('details.compact-chat-removed-lines'), 'Put back: send this line again').click();
    await until(() => latestRound(panel).find('details.compact-chat-removed-lines') === null);
    expect(input(h)).not.toBeNull();
  });
});
