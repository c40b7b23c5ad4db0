// @vitest-environment jsdom
// The real plugin in Obsidian's start-up order and with deferred views (1.7.2+): layout ready after
// the plugins loaded restores the open conversation; a deferred chat or panel leaf is revealed
// and loaded before the plugin uses its view.
import { describe, expect, it } from 'vitest';
import CompactChatPlugin from '../../src/main';
import { ChatView, VIEW_TYPE_CHAT } from '../../src/ui/chat-view';
import { CompactionPanelView, VIEW_TYPE_COMPACTIONS } from '../../src/ui/compaction-panel';
import { ollamaReply } from '../chat/helpers/harness';
import { createTestApp, deferLeaf, destroyTestApp, loadPlugin, runCommand, setLayoutReady, settle, vaultSnapshot } from '../obsidian/testing';
import { messages, startUi, type UiHarness, until, uiActions, closeUiAfterEach } from './helpers';

let h: UiHarness;
const { send, idle } = uiActions(() => h);
closeUiAfterEach(() => h);

describe('start-up order', () => {
  it('restores the open conversation when the layout becomes ready after the plugin loaded', async () => {
    h = await startUi();
    h.server.on('POST', '/api/chat', ollamaReply('Sun and water.'));
    send('How do tomatoes grow?');
    await idle();
    await h.plugin.conversations.flush();
    const { id, path } = h.plugin.conversations.current;
    const files = vaultSnapshot(h.app);

    // Restart the app: Obsidian loads plugins first, then marks the layout ready.
    await destroyTestApp(h.app);
    const app = createTestApp({ files, layoutReady: false });
    const plugin = await loadPlugin(CompactChatPlugin);
    const view = (): HTMLElement => app.workspace.getLeavesOfType(VIEW_TYPE_CHAT)[0]?.view.containerEl ?? createDiv();
    h = { ...h, app, plugin, view };
    await settle();
    expect(plugin.session.entries).toHaveLength(0);
    setLayoutReady(app);
    await until(() => plugin.session.entries.length > 0);
    expect(plugin.conversations.current).toMatchObject({ id, path });
    runCommand(app, 'compact-chat:open-chat');
    await until(() => messages(h).some((m) => m.getText().includes('Sun and water.')));
  });
});

describe('deferred views', () => {
  it('a deferred chat leaf is revealed, loaded and used', async () => {
    h = await startUi();
    const leaf = h.app.workspace.getLeavesOfType(VIEW_TYPE_CHAT)[0];
    if (!leaf) throw new Error('no chat leaf');
    await deferLeaf(leaf);
    expect(leaf.isDeferred).toBe(true);
    expect(leaf.view).not.toBeInstanceOf(ChatView);
    runCommand(h.app, 'compact-chat:open-chat');
    await until(() => !leaf.isDeferred);
    expect(leaf.view).toBeInstanceOf(ChatView);
    expect(h.app.workspace.getLeavesOfType(VIEW_TYPE_CHAT)).toEqual([leaf]);
    await until(() => h.view().find('.compact-chat-input') !== null);
    h.server.on('POST', '/api/chat', ollamaReply('Sun and water.'));
    send('How do tomatoes grow?');
    await idle();
    expect(messages(h).at(-1)?.getText()).toContain('Sun and water.');
  });

  it('a deferred compaction panel leaf is loaded before it is shown', async () => {
    h = await startUi();
    await h.plugin.openCompactionPanel();
    const leaf = h.app.workspace.getLeavesOfType(VIEW_TYPE_COMPACTIONS)[0];
    if (!leaf) throw new Error('no panel leaf');
    await deferLeaf(leaf);
    await h.plugin.openCompactionPanel();
    expect(leaf.isDeferred).toBe(false);
    expect(leaf.view).toBeInstanceOf(CompactionPanelView);
    expect(h.app.workspace.getLeavesOfType(VIEW_TYPE_COMPACTIONS)).toEqual([leaf]);
  });
});
