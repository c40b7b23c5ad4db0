// @vitest-environment jsdom
// Hand edits of the open conversation's note, with the real plugin: loaded into the chat when it is
// idle with everything saved, never in a loop on the plugin's own saves, read-only when the edit
// does not parse; while a reply streams the edit is left alone and the chat goes on in a new note.
import { describe, expect, it, vi } from 'vitest';
import { endlessReply, ollamaReply } from '../chat/helpers/harness';
import { settle, shownNotices } from '../obsidian/testing';
import { input, messages, startUi, type UiHarness, until, uiActions, closeUiAfterEach } from './helpers';

let h: UiHarness;
const { send, idle, bodies, notes, noteText } = uiActions(() => h);
closeUiAfterEach(() => h);

const texts = (): string[] => messages(h).map((m) => m.getText());

/** Edits the note as the user would in Obsidian's editor (not through the plugin). */
async function editByHand(path: string, edit: (text: string) => string): Promise<string> {
  const file = h.app.vault.getFileByPath(path);
  if (!file) throw new Error(`no note at ${path}`);
  const next = edit(noteText(path));
  await h.app.vault.modify(file, next);
  return next;
}

/** One saved exchange; returns the note's path. */
async function savedExchange(): Promise<string> {
  h.server.on('POST', '/api/chat', ollamaReply('Sun and water.'));
  send('How do tomatoes grow?');
  await idle();
  await h.plugin.conversations.flush();
  const path = h.plugin.conversations.current.path;
  if (!path) throw new Error('not saved');
  return path;
}

describe('hand edits of the open conversation note', () => {
  it('are loaded into the chat when it is idle, and the conversation goes on in the same note', async () => {
    h = await startUi();
    const path = await savedExchange();
    const { id } = h.plugin.conversations.current;
    const edited = await editByHand(path, (text) => text.replace('Sun and water.', 'Sun, water and patience.'));
    await until(() => texts().some((t) => t.includes('Sun, water and patience.')));
    expect(h.plugin.conversations.current).toMatchObject({ id, path, problem: null });
    expect(shownNotices().filter((n) => n.includes('changed'))).toEqual([]);
    // Loading it is no change of the chat's own: the note is not written back.
    await h.plugin.conversations.flush();
    expect(noteText(path)).toBe(edited);

    h.server.on('POST', '/api/chat', ollamaReply('Every other day.'));
    send('How often should I water them?');
    await idle();
    await h.plugin.conversations.flush();
    // The request carried the edited reply, and the save kept the edit: no conflict, no new note.
    expect(JSON.stringify(bodies().at(-1)?.messages)).toContain('Sun, water and patience.');
    expect(noteText(path)).toContain('Sun, water and patience.');
    expect(noteText(path)).toContain('Every other day.');
    expect(notes()).toEqual([path]);
  });

  it('the plugin\'s own saves (temporary file, then vault.process) are not taken for edits: no reload loop', async () => {
    h = await startUi();
    let modified = 0;
    h.app.vault.on('modify', () => modified++);
    const load = vi.spyOn(h.plugin.session, 'load');
    const path = await savedExchange();
    h.server.on('POST', '/api/chat', ollamaReply('Every other day.'));
    send('How often should I water them?');
    await idle();
    await h.plugin.conversations.flush();
    await settle();
    // The second exchange replaced the note in place (a modify event) and nothing was reloaded.
    expect(modified).toBeGreaterThan(0);
    expect(load).not.toHaveBeenCalled();

    await editByHand(path, (text) => text.replace('Every other day.', 'Every day in summer.'));
    await until(() => load.mock.calls.length === 1);
    const settled = modified;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(modified).toBe(settled);
    expect(load).toHaveBeenCalledTimes(1);
    expect(texts().at(-1)).toContain('Every day in summer.');
  });

  it('that do not parse open the conversation read-only without writing; fixing the note makes it writable again', async () => {
    h = await startUi();
    const path = await savedExchange();
    const good = noteText(path);
    // The reply's start line no longer holds JSON.
    const broken = await editByHand(path, (text) => text.replace('<!-- compact-chat assistant {"id":', '<!-- compact-chat assistant {id:'));
    await until(() => h.plugin.conversations.current.problem !== null);
    expect(h.plugin.conversations.current.path).toBe(path);
    expect(input(h).disabled).toBe(true);
    expect(texts()).toEqual([expect.stringContaining('How do tomatoes grow?')]);
    await h.plugin.conversations.flush();
    expect(noteText(path)).toBe(broken);

    await editByHand(path, () => good.replace('Sun and water.', 'Sun and water, fixed.'));
    await until(() => h.plugin.conversations.current.problem === null);
    expect(input(h).disabled).toBe(false);
    expect(texts().at(-1)).toContain('Sun and water, fixed.');
    h.server.on('POST', '/api/chat', ollamaReply('Yes.'));
    send('Thanks');
    await idle();
    await h.plugin.conversations.flush();
    expect(noteText(path)).toContain('Sun and water, fixed.');
    expect(noteText(path)).toContain('Thanks');
    expect(notes()).toEqual([path]);
  });

  it('made while a reply streams are left as they are: the chat goes on in a new note and says so', async () => {
    h = await startUi();
    const path = await savedExchange();
    h.server.on('POST', '/api/chat', endlessReply('Peppers like '));
    send('And peppers?');
    await until(() => h.plugin.session.busy && (texts().at(-1) ?? '').includes('Peppers like'));
    const edited = await editByHand(path, (text) => text.replace('Sun and water.', 'Sun and water, by hand.'));
    await until(() => shownNotices().some((n) => n.includes('while a reply was being written')));
    expect(shownNotices().find((n) => n.includes('while a reply was being written'))).toMatch(/^"Compact Chat\/How do tomatoes grow\.md" was changed outside the chat .*continues in a new note\.$/);
    h.plugin.session.stop();
    await idle();
    await h.plugin.conversations.flush();

    // The edit is untouched; the chat kept its own version and saved it to a new note.
    expect(noteText(path)).toBe(edited);
    const current = h.plugin.conversations.current;
    expect(current.path).not.toBe(path);
    expect(current.title).toBe('How do tomatoes grow? (continued)');
    expect(texts()[1]).toContain('Sun and water.');
    expect(texts()[1]).not.toContain('by hand');
    expect(noteText(current.path ?? '')).toContain('Peppers like');
    expect(notes()).toEqual([path, current.path].sort());
    // One notice for the one edit (the save after the fork is no second conflict).
    expect(shownNotices().filter((n) => n.includes('changed'))).toHaveLength(1);
  });
});
