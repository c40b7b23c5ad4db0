// @vitest-environment jsdom
// The real plugin, built from src/, hosted by the runtime: it loads, persists its settings and
// leaves nothing behind when disabled. Kept generic so it holds as the plugin grows.
import { afterEach, describe, expect, it } from 'vitest';
import CompactChatPlugin from '../../src/main';
import manifest from '../../manifest.json';
import type { App } from './index';
import {
  closeSettings,
  createTestApp,
  destroyTestApp,
  liveIntervalCount,
  liveListenerCount,
  loadPlugin,
  openSettingTab,
  pluginDataJson,
  unloadPlugin,
} from './testing';

let app: App;

afterEach(async () => {
  await destroyTestApp(app);
});

describe('Compact Chat under the test runtime', () => {
  it('loads with its manifest and round-trips its settings through data.json', async () => {
    app = createTestApp();
    const plugin = await loadPlugin(CompactChatPlugin);
    expect(plugin.manifest.id).toBe(manifest.id);
    expect(app.plugins.getPlugin(manifest.id)).toBe(plugin);
    await plugin.saveData(plugin.settings);
    const saved = pluginDataJson(app, manifest.id);
    expect(saved).not.toBeNull();
    expect(JSON.parse(saved ?? '')).toEqual(plugin.settings);
    expect(await plugin.loadData()).toEqual(plugin.settings);
  });

  it('leaves no listener, interval, command, view or UI behind after unload', async () => {
    app = createTestApp({ files: { 'Welcome.md': '# Welcome' } });
    const plugin = await loadPlugin(CompactChatPlugin);
    for (const tab of [...app.setting.pluginTabs]) {
      openSettingTab(app, tab.id);
      closeSettings(app);
    }

    await unloadPlugin(plugin);
    expect(liveListenerCount()).toBe(0);
    expect(liveIntervalCount()).toBe(0);
    expect(Object.keys(app.commands.commands).filter((id) => id.startsWith(`${manifest.id}:`))).toEqual([]);
    expect(app.setting.pluginTabs).toEqual([]);
    expect(app.workspace.leftRibbon.containerEl.childElementCount).toBe(0);
    expect(app.statusBarEl.childElementCount).toBe(0);
    app.workspace.iterateAllLeaves((leaf) => expect(leaf.view.getViewType()).toMatch(/^(empty|markdown)$/));
  });
});
