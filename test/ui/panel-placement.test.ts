// @vitest-environment jsdom
// Where the compaction summary panel opens: never as a split that squeezes the chat. On desktop a
// tab in the main area (the chat keeps its place and its height beside it); on a phone a tab beside
// the chat in the sidebar drawer (one shown at a time, "Show in chat" switches back). And the one
// date format the views share.
import { describe, expect, it } from 'vitest';
import { VIEW_TYPE_CHAT } from '../../src/ui/chat-view';
import { VIEW_TYPE_COMPACTIONS } from '../../src/ui/compaction-panel';
import { setLanguage, setPlatform } from '../obsidian/testing';
import { ollamaReply } from '../chat/helpers/harness';
import { startUi, type UiHarness, until, uiActions, closeUiAfterEach } from './helpers';

let h: UiHarness;
const { send, idle } = uiActions(() => h);
closeUiAfterEach(() => h);

async function compactOnce(): Promise<void> {
  for (const text of ['Help me plan the garden. Never use pesticides.', 'We decided to put raised beds by the shed. What about the pond?']) {
    h.server.on('POST', '/api/chat', ollamaReply(`We decided to dig the pond in spring. ${text}`));
    send(text);
    await idle();
  }
  const outcome = await h.plugin.session.compactNow();
  expect(outcome.kind).toBe('compacted');
}

const leafOf = (type: string) => {
  const leaf = h.app.workspace.getLeavesOfType(type)[0];
  if (!leaf) throw new Error(`no ${type} leaf`);
  return leaf;
};

describe('the compaction panel placement', () => {
  it('on desktop opens as a main-area tab: the chat stays shown in the sidebar', async () => {
    h = await startUi({ keepExchanges: 1, keepTokens: 0 });
    await compactOnce();
    await h.plugin.openCompactionPanel(1);
    const panel = leafOf(VIEW_TYPE_COMPACTIONS);
    const chat = leafOf(VIEW_TYPE_CHAT);
    expect(panel.getRoot() === h.app.workspace.rootSplit).toBe(true);
    expect(chat.getRoot() === h.app.workspace.rightSplit).toBe(true);
    expect(chat.containerEl.isShown()).toBe(true);
    expect(panel.containerEl.isShown()).toBe(true);
    // The right sidebar still holds one tab group with the chat alone: nothing split it.
    expect(h.app.workspace.rightSplit.children).toHaveLength(1);
    expect(chat.parent.children.length === 1 && chat.parent.children[0] === chat).toBe(true);
    // Opening again reveals the same leaf.
    await h.plugin.openCompactionPanel();
    const panels = h.app.workspace.getLeavesOfType(VIEW_TYPE_COMPACTIONS);
    expect(panels.length === 1 && panels[0] === panel).toBe(true);
  });

  it('on a phone opens as a tab beside the chat in the drawer; a jump from a summary line switches back', async () => {
    h = await startUi({ keepExchanges: 1, keepTokens: 0 });
    // After startUi: a new test app resets the platform.
    setPlatform({ isMobile: true, isPhone: true, isDesktop: false });
    await compactOnce();
    await h.plugin.openCompactionPanel(1);
    const panel = leafOf(VIEW_TYPE_COMPACTIONS);
    const chat = leafOf(VIEW_TYPE_CHAT);
    // (Compared as booleans: a failing diff of two workspace items would print the whole app.)
    expect(panel.parent === chat.parent).toBe(true);
    expect(h.app.workspace.rightSplit.children).toHaveLength(1);
    expect(panel.containerEl.isShown()).toBe(true);
    expect(chat.containerEl.isShown()).toBe(false);
    // The drawer's tab headers name both.
    const headers = chat.parent.containerEl.findAll('.workspace-tab-header').map((el) => el.getAttr('aria-label'));
    expect(headers).toEqual(['Chat', 'Compaction summary']);

    const jump = panel.view.containerEl.find('.compact-chat-jump');
    jump?.click();
    await until(() => chat.containerEl.isShown());
    expect(panel.containerEl.isShown()).toBe(false);
    await until(() => h.view().find('.compact-chat-message.is-highlighted') !== null);
  });
});

describe('one date format', () => {
  it('the history list and the panel show times in the app language', async () => {
    h = await startUi({ keepExchanges: 1, keepTokens: 0 });
    setLanguage('de');
    await compactOnce();
    await h.plugin.conversations.flush();
    await h.plugin.openCompactionPanel(1);
    const time = leafOf(VIEW_TYPE_COMPACTIONS).view.containerEl.find('.compact-chat-figure-time')?.getText() ?? '';
    const german = /^\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}$/;
    expect(time).toMatch(german);
    h.view().find('[aria-label="Conversation history"]')?.click();
    await until(() => h.view().find('.compact-chat-history-date') !== null);
    expect(h.view().find('.compact-chat-history-date')?.getText()).toMatch(german);
  });
});
