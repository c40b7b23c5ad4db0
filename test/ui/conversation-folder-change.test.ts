// @vitest-environment jsdom
// Changing the conversation folder (issue 31): on closing the settings, the plugin offers to move
// the conversations in the old folder (renamed as the user would, so links follow) or to leave
// them; either way the open conversation keeps saving to its note, and every conversation stays in
// the history and reopens after a restart.
import { describe, expect, it } from 'vitest';
import CompactChatPlugin from '../../src/main';
import { closeSettings, loadPlugin, openSettingTab, typeInto, unloadPlugin } from '../obsidian/testing';
import { button, closeUiAfterEach, startUi, type UiHarness, uiActions, until } from './helpers';

let h: UiHarness;
const { say, noteText } = uiActions(() => h);
closeUiAfterEach(() => h);

const allNotes = (): string[] =>
  h.app.vault
    .getMarkdownFiles()
    .map((f) => f.path)
    .sort();

/** Two saved conversations (the second open), a note linking to the first, then the folder
 * setting changed to "Chats" and the settings closed. */
async function changeFolder(): Promise<void> {
  h = await startUi({}, { 'Journal.md': 'See [[Tomatoes]].' });
  await say('Tomatoes', 'Sun and water.');
  await h.plugin.conversations.newChat();
  await say('Peppers', 'Warmth.');
  await h.plugin.conversations.flush();
  expect(allNotes()).toEqual(['Compact Chat/Peppers.md', 'Compact Chat/Tomatoes.md', 'Journal.md']);
  const tab = openSettingTab(h.app, 'compact-chat');
  const folder = tab.findAll('.setting-item').find((el) => el.find('.setting-item-name')?.getText() === 'Conversation folder');
  typeInto(folder?.find('input') as HTMLInputElement, 'Chats');
  expect(h.plugin.settings.conversationFolder).toBe('Chats');
  closeSettings(h.app);
  await until(() => document.querySelector('.modal') !== null);
  expect(document.querySelector('.modal')?.textContent).toContain('Move the 2 conversations in "Compact Chat" to "Chats"?');
}

const modalButton = (text: string): HTMLElement => [...document.querySelectorAll<HTMLElement>('.modal button')].find((b) => b.textContent === text) as HTMLElement;
const historyRows = (): HTMLElement[] => h.view().findAll('.compact-chat-history-item');

describe('changing the conversation folder', () => {
  it('move: every conversation goes to the new folder with links updated; the open one follows and saves there', async () => {
    await changeFolder();
    modalButton('Move').click();
    await until(() => allNotes().includes('Chats/Tomatoes.md') && allNotes().includes('Chats/Peppers.md'));
    expect(allNotes()).toEqual(['Chats/Peppers.md', 'Chats/Tomatoes.md', 'Journal.md']);
    expect(noteText('Journal.md')).toBe('See [[Tomatoes]].');
    expect(h.app.metadataCache.getFirstLinkpathDest('Tomatoes', 'Journal.md')?.path).toBe('Chats/Tomatoes.md');
    expect(h.plugin.conversations.current.path).toBe('Chats/Peppers.md');
    await say('Water?', 'Often.');
    await h.plugin.conversations.flush();
    expect(allNotes()).toEqual(['Chats/Peppers.md', 'Chats/Tomatoes.md', 'Journal.md']);
    expect(noteText('Chats/Peppers.md')).toContain('Often.');
  });

  it('leave: the notes stay; the open one keeps saving to its note; history lists both folders; a restart reopens it', async () => {
    await changeFolder();
    modalButton('Leave them').click();
    await until(() => document.querySelector('.modal') === null);
    expect(allNotes()).toEqual(['Compact Chat/Peppers.md', 'Compact Chat/Tomatoes.md', 'Journal.md']);
    await say('Water?', 'Often.');
    await h.plugin.conversations.flush();
    expect(noteText('Compact Chat/Peppers.md')).toContain('Often.');
    // A new chat goes to the new folder; history lists all three, the new folder first.
    await h.plugin.conversations.newChat();
    await say('Beans', 'Poles.');
    await h.plugin.conversations.flush();
    expect(allNotes()).toEqual(['Chats/Beans.md', 'Compact Chat/Peppers.md', 'Compact Chat/Tomatoes.md', 'Journal.md']);
    button(h.view().find('.compact-chat-toolbar') ?? undefined, 'Conversation history').click();
    await until(() => historyRows().length === 3);
    expect(h.view().findAll('.compact-chat-history-folder').map((el) => el.getText())).toEqual(['Chats', 'Compact Chat']);
    // Reopen the old one, restart: it comes back, from the old folder.
    historyRows()
      .find((r) => r.getAttr('data-path') === 'Compact Chat/Peppers.md')
      ?.find('.compact-chat-history-open')
      ?.click();
    await until(() => h.plugin.conversations.current.path === 'Compact Chat/Peppers.md');
    await unloadPlugin(h.plugin);
    h.plugin = await loadPlugin(CompactChatPlugin);
    await until(() => h.plugin.session.entries.length > 0);
    expect(h.plugin.conversations.current.path).toBe('Compact Chat/Peppers.md');
    expect(h.plugin.session.messages.map((m) => m.content)).toContain('Often.');
  });
});
