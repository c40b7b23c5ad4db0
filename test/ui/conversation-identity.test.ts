// @vitest-environment jsdom
// A conversation is its note (issue 31): two notes with one conversation id — a sync conflict copy —
// are two history rows, each opening, saving to and deleting its own note, in any listing order;
// reading the list never moves the open conversation to another note; a restart reopens the note
// that was open, not whichever copy is listed last.
import { describe, expect, it } from 'vitest';
import CompactChatPlugin from '../../src/main';
import { loadPlugin, pluginDataJson, unloadPlugin } from '../obsidian/testing';
import { button, closeUiAfterEach, messages, startUi, type UiHarness, uiActions, until } from './helpers';

let h: UiHarness;
const { say, notes, noteText } = uiActions(() => h);
closeUiAfterEach(() => h);

/** A repeatable random sequence for the vault's listing order. */
const seeded = (seed: number): (() => number) => () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);

const ORIGINAL = 'Compact Chat/Tomatoes.md';
const COPY = 'Compact Chat/Tomatoes (conflict 2026-11-27).md';

/** The open chat saved as "Tomatoes", and a conflict copy of its note whose reply diverged. */
async function withConflictCopy(seed: number): Promise<void> {
  h = await startUi();
  h.app.vault.shuffleListing(seeded(seed));
  await say('Tomatoes', 'Sun and water.');
  await h.plugin.conversations.flush();
  expect(notes()).toEqual([ORIGINAL]);
  await h.app.vault.create(COPY, noteText(ORIGINAL).replace('Sun and water.', 'Shade, said my phone.'));
}

const rows = (): HTMLElement[] => h.view().findAll('.compact-chat-history-item');
const rowOf = (path: string): HTMLElement => {
  const row = rows().find((r) => r.getAttr('data-path') === path);
  if (!row) throw new Error(`no row for ${path}`);
  return row;
};
const showHistory = async (): Promise<void> => {
  if (!h.view().find('.compact-chat-history')?.isShown()) button(h.view().find('.compact-chat-toolbar') ?? undefined, 'Conversation history').click();
  await until(() => rows().length === 2);
};
const confirmDelete = (): void => ([...document.querySelectorAll('.modal button')].find((b) => b.textContent === 'Delete') as HTMLElement).click();

describe('two notes with one conversation id', () => {
  for (const seed of [1, 2, 3]) {
    it(`are two rows, each acting on its own note (listing order ${seed})`, async () => {
      await withConflictCopy(seed);
      await showHistory();
      // The copy is labelled; the original is not; the open conversation is the original's row.
      expect(rowOf(COPY).find('.compact-chat-history-copy')?.getText()).toMatch(/^Copy of "Tomatoes", conflict/);
      expect(rowOf(ORIGINAL).find('.compact-chat-history-copy')).toBeNull();
      expect(rowOf(ORIGINAL).hasClass('is-active')).toBe(true);
      expect(h.plugin.conversations.current.path).toBe(ORIGINAL);

      // Reading the list did not move the chat: the next exchange goes to the original only.
      const copyText = noteText(COPY);
      await say('And in pots?', 'Bigger pots.');
      await h.plugin.conversations.flush();
      expect(noteText(ORIGINAL)).toContain('Bigger pots.');
      expect(noteText(COPY)).toBe(copyText);
      expect(notes()).toEqual([COPY, ORIGINAL].sort());

      // Opening the copy shows the copy's own messages, and saves go there.
      await showHistory();
      rowOf(COPY).find('.compact-chat-history-open')?.click();
      await until(() => h.plugin.conversations.current.path === COPY);
      expect(messages(h).map((m) => m.getText()).join('\n')).toContain('Shade, said my phone.');
      expect(messages(h).map((m) => m.getText()).join('\n')).not.toContain('Bigger pots.');
      await say('Really?', 'Yes, shade.');
      await h.plugin.conversations.flush();
      expect(noteText(COPY)).toContain('Yes, shade.');
      expect(noteText(ORIGINAL)).not.toContain('Yes, shade.');

      // Deleting the original's row trashes the original, not the open copy, and leaves the chat be.
      await showHistory();
      button(rowOf(ORIGINAL), 'Delete').click();
      confirmDelete();
      await until(() => notes().length === 1);
      expect(notes()).toEqual([COPY]);
      expect(h.plugin.conversations.current.path).toBe(COPY);
      expect(messages(h).length).toBeGreaterThan(0);
    });
  }

  it('after a restart the note that was open reopens (the older copy, not whichever is listed last)', async () => {
    await withConflictCopy(4);
    // Open the copy, then restart.
    expect(await h.plugin.conversations.open(COPY)).toBe(true);
    expect(JSON.parse(pluginDataJson(h.app, 'compact-chat') ?? '{}')).toMatchObject({ openConversationPath: COPY });
    for (const seed of [5, 6]) {
      await unloadPlugin(h.plugin);
      h.app.vault.shuffleListing(seeded(seed));
      h.plugin = await loadPlugin(CompactChatPlugin);
      await until(() => h.plugin.session.entries.length > 0);
      expect(h.plugin.conversations.current.path).toBe(COPY);
      expect(h.plugin.session.messages.map((m) => m.content)).toContain('Shade, said my phone.');
    }
  });
});
