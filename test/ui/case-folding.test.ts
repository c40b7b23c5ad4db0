// @vitest-environment jsdom
// The real plugin on a case-insensitive disk (macOS, Windows, iOS): a conversation folder setting
// that differs only in case from an existing folder keeps saving into that folder and lists its
// history; the create-note tool writes under an existing folder spelt in another case.
import { describe, expect, it } from 'vitest';
import { ollamaReply, ollamaToolCalls } from '../chat/helpers/harness';
import { setPlatform, shownNotices } from '../obsidian/testing';
import { startUi, type UiHarness, until, uiActions, closeUiAfterEach } from './helpers';

let h: UiHarness;
const { send, idle, notes } = uiActions(() => h);
closeUiAfterEach(() => h);

describe('a case-insensitive disk', () => {
  it('saves into the existing folder when the setting differs only in case, and lists its history', async () => {
    h = await startUi();
    h.server.on('POST', '/api/chat', ollamaReply('Sun and water.'), ollamaReply('Every other day.'));
    send('How do tomatoes grow?');
    await idle();
    await h.plugin.conversations.flush();
    expect(notes()).toHaveLength(1);

    setPlatform({ isLinux: false, isMacOS: true });
    h.plugin.settings.conversationFolder = 'compact chat';
    await h.plugin.saveSettings();
    await h.plugin.conversations.newChat();
    send('How often should I water them?');
    await idle();
    await h.plugin.conversations.flush();
    expect(h.plugin.conversations.current.path).toMatch(/^Compact Chat\//);
    expect(notes()).toHaveLength(2);
    expect(h.app.vault.getFolderByPath('compact chat')).toBeNull();
    expect(shownNotices().filter((n) => /fail|could not|error/i.test(n))).toEqual([]);
    expect((await h.plugin.conversations.list()).map((c) => c.path).sort()).toEqual(notes());
  });

  it('the create-note tool writes under an existing folder spelt in another case', async () => {
    h = await startUi({}, { 'Garden/Beds.md': 'Two beds.' });
    setPlatform({ isLinux: false, isWin: true });
    h.server.on('POST', '/api/chat', ollamaToolCalls({ name: 'create_note', arguments: { path: 'garden/Seeds.md', content: 'Tomatoes.' } }), ollamaReply('Created.'));
    send('Make a seeds note in my garden folder');
    await until(() => document.querySelector('.compact-chat-approval') !== null);
    ([...document.querySelectorAll('.modal button')].find((b) => b.textContent === 'Create note') as HTMLElement).click();
    await idle();
    expect(h.app.vault.adapter.peek('Garden/Seeds.md')).toBe('Tomatoes.');
    expect(h.app.vault.getFolderByPath('garden')).toBeNull();
  });
});
