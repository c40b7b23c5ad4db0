// @vitest-environment jsdom
// The open conversation follows its note (issue 31): renamed or moved — while idle, while a reply
// streams, while a save is being written — it stays the same conversation saving to the new path,
// and stays in history wherever it is filed; deleted while open, the chat says so and offers to
// restore it or close it, and never writes it again without a word.
import { describe, expect, it } from 'vitest';
import { parseConversation } from '../../src/chat/conversation-format';
import { ollamaReply } from '../chat/helpers/harness';
import { shownNotices } from '../obsidian/testing';
import { button, closeUiAfterEach, messages, startUi, type UiHarness, uiActions, until } from './helpers';

let h: UiHarness;
const { say, send, idle, noteText } = uiActions(() => h);
closeUiAfterEach(() => h);

const PATH = 'Compact Chat/Tomatoes.md';

/** Every conversation note in the vault, sorted. */
const allNotes = (): string[] =>
  h.app.vault
    .getMarkdownFiles()
    .map((f) => f.path)
    .sort();

/** The note parses whole (no torn end) and holds exactly these message texts, in order. */
function expectNote(path: string, texts: string[]): void {
  const parsed = parseConversation(noteText(path));
  if (!parsed.ok) throw new Error(`${path}: line ${parsed.line}: ${parsed.error}`);
  expect(parsed.tail).toBeUndefined();
  expect(parsed.conversation.items.flatMap((i) => (i.kind === 'message' ? [i.message.content] : []))).toEqual(texts);
}

async function renameTo(from: string, to: string): Promise<void> {
  const file = h.app.vault.getFileByPath(from);
  if (!file) throw new Error(`no note ${from}`);
  const folder = to.slice(0, to.lastIndexOf('/'));
  if (folder && !h.app.vault.getFolderByPath(folder)) await h.app.vault.createFolder(folder);
  await h.app.fileManager.renameFile(file, to);
}

const historyRows = (): HTMLElement[] => h.view().findAll('.compact-chat-history-item');
const showHistory = async (count: number): Promise<void> => {
  if (!h.view().find('.compact-chat-history')?.isShown()) button(h.view().find('.compact-chat-toolbar') ?? undefined, 'Conversation history').click();
  await until(() => historyRows().length === count);
};

describe('a conversation note renamed or moved', () => {
  it('while idle: the same conversation saves to the new path; the old name is never recreated; moved to another folder it stays in history', async () => {
    h = await startUi();
    await say('Tomatoes', 'Sun and water.');
    await h.plugin.conversations.flush();
    await renameTo(PATH, 'Compact Chat/Tomato notes.md');
    expect(h.plugin.conversations.current.path).toBe('Compact Chat/Tomato notes.md');
    await say('And pots?', 'Bigger pots.');
    await h.plugin.conversations.flush();
    expect(allNotes()).toEqual(['Compact Chat/Tomato notes.md']);
    expectNote('Compact Chat/Tomato notes.md', ['Tomatoes', 'Sun and water.', 'And pots?', 'Bigger pots.']);

    // Filed away into Archive/: still the open conversation, still listed (under its folder).
    await renameTo('Compact Chat/Tomato notes.md', 'Archive/2026/Tomato notes.md');
    await say('Watering?', 'Daily.');
    await h.plugin.conversations.flush();
    expect(allNotes()).toEqual(['Archive/2026/Tomato notes.md']);
    expectNote('Archive/2026/Tomato notes.md', ['Tomatoes', 'Sun and water.', 'And pots?', 'Bigger pots.', 'Watering?', 'Daily.']);
    await h.plugin.conversations.newChat();
    await say('Peppers', 'Warmth.');
    await h.plugin.conversations.flush();
    await showHistory(2);
    expect(h.view().findAll('.compact-chat-history-folder').map((el) => el.getText())).toEqual(['Compact Chat', 'Archive/2026']);
    const archived = historyRows().find((r) => r.getAttr('data-path') === 'Archive/2026/Tomato notes.md');
    archived?.find('.compact-chat-history-open')?.click();
    await until(() => h.plugin.conversations.current.path === 'Archive/2026/Tomato notes.md');
    expect(messages(h).map((m) => m.getText()).join('\n')).toContain('Daily.');
  });

  it('while a reply streams (and while a save is being written): the whole reply lands in the renamed note, once', async () => {
    h = await startUi();
    await say('Tomatoes', 'Sun and water.');
    await h.plugin.conversations.flush();
    // Lines of five words: a reply being written is saved line by line (an open block).
    const words = Array.from({ length: 60 }, (_, i) => `word${i}${i % 5 === 4 ? '\n' : ' '}`).join('').trim();
    h.server.on('POST', '/api/chat', ollamaReply(words, { delayMs: 5 }));
    send('Tell me more');
    await until(() => h.plugin.session.messages.some((m) => m.role === 'assistant' && m.content.includes('word7 ')));
    // A save of the half reply (an open block), then a rename while the next save is being written.
    await h.plugin.conversations.flush();
    expect(noteText(PATH)).toContain('word4\n');
    const saving = h.plugin.conversations.flush();
    await renameTo(PATH, 'Compact Chat/Renamed.md');
    await saving;
    await until(() => h.plugin.session.messages.some((m) => m.content.includes('word32 ')));
    await h.plugin.conversations.flush();
    await renameTo('Compact Chat/Renamed.md', 'Archive/Renamed.md');
    await idle();
    await h.plugin.conversations.flush();
    expect(allNotes()).toEqual(['Archive/Renamed.md']);
    expectNote('Archive/Renamed.md', ['Tomatoes', 'Sun and water.', 'Tell me more', words]);
    expect(shownNotices().join('\n')).not.toMatch(/changed elsewhere|continues in a new note|Could not save/);
  });
});

describe('a conversation note deleted while open', () => {
  async function deleted(): Promise<void> {
    h = await startUi();
    await say('Tomatoes', 'Sun and water.');
    await h.plugin.conversations.flush();
    const file = h.app.vault.getFileByPath(PATH);
    if (!file) throw new Error('no note');
    await h.app.fileManager.trashFile(file);
    await until(() => h.view().find('.compact-chat-missing-note')?.isShown() === true);
    expect(h.view().find('.compact-chat-missing-note-text')?.getText()).toContain(`"${PATH}" was deleted`);
    expect(shownNotices().join('\n')).toContain('was deleted');
    // Still usable, but nothing is written: the delete is not undone behind the user's back.
    await say('Still there?', 'Yes.');
    await h.plugin.conversations.flush();
    expect(allNotes()).toEqual([]);
  }

  it('restore writes the whole conversation back where it was, and saving goes on there', async () => {
    await deleted();
    ([...h.view().findAll('.compact-chat-missing-note button')].find((b) => b.getText() === 'Restore note') as HTMLElement).click();
    await until(() => allNotes().length === 1);
    expect(allNotes()).toEqual([PATH]);
    expect(h.view().find('.compact-chat-missing-note')?.isShown()).toBe(false);
    expectNote(PATH, ['Tomatoes', 'Sun and water.', 'Still there?', 'Yes.']);
    await say('Good', 'Indeed.');
    await h.plugin.conversations.flush();
    expectNote(PATH, ['Tomatoes', 'Sun and water.', 'Still there?', 'Yes.', 'Good', 'Indeed.']);
  });

  it('close starts a new chat and leaves the note deleted', async () => {
    await deleted();
    ([...h.view().findAll('.compact-chat-missing-note button')].find((b) => b.getText() === 'Close conversation') as HTMLElement).click();
    await until(() => h.plugin.session.entries.length === 0);
    expect(h.view().find('.compact-chat-missing-note')?.isShown()).toBe(false);
    await h.plugin.conversations.flush();
    expect(allNotes()).toEqual([]);
    expect(h.plugin.conversations.current.path).toBeNull();
  });
});
