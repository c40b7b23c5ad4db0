// @vitest-environment jsdom
// Lines a person writes in a conversation note outside the message blocks — under a reply, between
// messages, at the end — are theirs (issue 31): shown in the chat as their note, never sent, kept in
// place through appends, a rewrite (a rename of the conversation) and a reload.
import { describe, expect, it } from 'vitest';
import CompactChatPlugin from '../../src/main';
import { parseConversation } from '../../src/chat/conversation-format';
import { loadPlugin, shownNotices, unloadPlugin } from '../obsidian/testing';
import { closeUiAfterEach, startUi, type UiHarness, uiActions, until } from './helpers';

let h: UiHarness;
const { say, bodies, noteText } = uiActions(() => h);
closeUiAfterEach(() => h);

const UNDER = 'Note to self: buy stakes.';
const BETWEEN = '> [!tip] Asked my neighbour too';
const END = 'Follow up in May. #garden';

/** The text right after the end line of the `n`th block of `kind` (0-based). */
function afterEndOf(text: string, kind: string, n: number): number {
  let at = -1;
  for (let i = 0; i <= n; i++) at = text.indexOf(`<!-- compact-chat ${kind} `, at + 1);
  const endLine = text.indexOf('<!-- compact-chat end', at);
  return text.indexOf('\n', endLine) + 1;
}

/** The hand lines appear in the note in this order, each once, around the given messages. */
function expectInPlace(text: string): void {
  const order = ['Tomatoes', 'Sun and water.', UNDER, 'And pots?', BETWEEN, 'Bigger pots.', END];
  const at = order.map((t) => text.indexOf(t));
  expect(at.every((i) => i >= 0)).toBe(true);
  expect([...at].sort((a, b) => a - b)).toEqual(at);
  for (const t of [UNDER, BETWEEN, END]) expect(text.split(t).length).toBe(2);
}

const handNotes = (): string[] => h.view().findAll('.compact-chat-notice.mod-hand .compact-chat-hand-text').map((el) => el.getText());

describe('hand-written lines in a conversation note', () => {
  it('under a reply, between messages and at the end: shown as the user\'s note, not sent, kept through appends, a rewrite and a reload', async () => {
    h = await startUi();
    await say('Tomatoes', 'Sun and water.');
    await say('And pots?', 'Bigger pots.');
    await h.plugin.conversations.flush();
    const path = h.plugin.conversations.current.path as string;

    // The user edits the note: a line under the first reply, one after their second message, one
    // at the very end (without a final line break, as editors leave it).
    let text = noteText(path);
    const under = afterEndOf(text, 'assistant', 0);
    text = `${text.slice(0, under)}\n${UNDER}\n${text.slice(under)}`;
    const between = afterEndOf(text, 'user', 1);
    text = `${text.slice(0, between)}${BETWEEN}\n${text.slice(between)}`;
    text = `${text}\n${END}`;
    const file = h.app.vault.getFileByPath(path);
    if (!file) throw new Error('no note');
    await h.app.vault.modify(file, text);
    await until(() => handNotes().length === 3);
    expect(handNotes()).toEqual([UNDER, BETWEEN, END]);
    // Complete lines the user wrote are not "cut off".
    expect(shownNotices().join('\n')).not.toMatch(/cut off/);

    // An exchange is appended: the lines stay where they are and are not sent to the model.
    await say('Watering?', 'Daily.');
    await h.plugin.conversations.flush();
    expectInPlace(noteText(path));
    expect(noteText(path).indexOf(END)).toBeLessThan(noteText(path).indexOf('Watering?'));
    expect(JSON.stringify(bodies().at(-1))).not.toMatch(/buy stakes|neighbour|Follow up in May/);

    // A rewrite (the conversation renamed: new title, new file name) keeps them too.
    await h.plugin.conversations.rename(path, 'Tomato care');
    const renamed = h.plugin.conversations.current.path as string;
    expect(renamed).toBe('Compact Chat/Tomato care.md');
    expect(noteText(renamed)).toContain('title: "Tomato care"');
    expectInPlace(noteText(renamed));

    // A reload: the chat shows them again, and the note is the same after another save.
    await unloadPlugin(h.plugin);
    h.plugin = await loadPlugin(CompactChatPlugin);
    await until(() => h.plugin.session.entries.length > 0);
    await until(() => handNotes().length === 3);
    const before = noteText(renamed);
    await say('Thanks', 'You are welcome.');
    await h.plugin.conversations.flush();
    expect(noteText(renamed).startsWith(before)).toBe(true);
    const parsed = parseConversation(noteText(renamed));
    expect(parsed.ok && parsed.conversation.items.filter((i) => i.kind === 'hand').map((i) => (i.kind === 'hand' ? i.text : ''))).toEqual([UNDER, BETWEEN, END]);
  });
});
