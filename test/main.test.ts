// @vitest-environment jsdom
// The plugin as a whole: settings (the API key never reaches data.json), settings applying without
// a reload, and unloading leaving nothing behind.
import { afterEach, describe, expect, it } from 'vitest';
import CompactChatPlugin from '../src/main';
import { type CompactChatSettings, DEFAULT_SETTINGS, mergeSettings } from '../src/chat/settings';
import { VIEW_TYPE_CHAT } from '../src/ui/chat-view';
import {
  closeSettings,
  createTestApp,
  destroyTestApp,
  liveIntervalCount,
  liveListenerCount,
  loadPlugin,
  openSettingTab,
  pluginDataJson,
  pressKey,
  runCommand,
  selectOption,
  setPlatform,
  typeInto,
  unloadPlugin,
  vaultSnapshot,
} from './obsidian/testing';
import type { App } from './obsidian/index';
import type { PlatformFlags } from './obsidian/platform';
import { ollamaReply } from './chat/helpers/harness';
import { ScriptedServer, sentJson, sse } from './providers/helpers/server';
import { input, messages, startUi, until } from './ui/helpers';

let app: App | null = null;
let server: ScriptedServer | null = null;
afterEach(async () => {
  if (app) await destroyTestApp(app);
  await server?.close();
  app = null;
  server = null;
});

const settingNamed = (tab: HTMLElement, name: string): HTMLElement => {
  const item = tab.findAll('.setting-item').find((el) => el.find('.setting-item-name')?.getText() === name);
  if (!item) throw new Error(`no setting "${name}"`);
  return item;
};

/** The plugin in a new app (`files` in its vault, the `platform` flags set), `settings` saved, and
 * its settings tab open. */
async function pluginSettings(
  settings: Partial<CompactChatSettings> = {},
  options: { files?: Record<string, string>; platform?: Partial<PlatformFlags> } = {},
): Promise<{ app: App; plugin: CompactChatPlugin; tab: HTMLElement }> {
  const opened = createTestApp(options.files ? { files: options.files } : {});
  app = opened;
  if (options.platform) setPlatform(options.platform);
  const plugin = await loadPlugin(CompactChatPlugin);
  if (Object.keys(settings).length) {
    Object.assign(plugin.settings, settings);
    await plugin.saveSettings();
  }
  return { app: opened, plugin, tab: openSettingTab(opened, 'compact-chat') };
}

describe('settings', () => {
  it('defaults to a local Ollama and sanitises a broken data.json', () => {
    expect(DEFAULT_SETTINGS.provider).toBe('ollama');
    expect(DEFAULT_SETTINGS.baseUrl).toBe('http://localhost:11434');
    const merged = mergeSettings({ provider: 'gemini', triggerPercent: 500, keepExchanges: -3, model: 42, apiKey: 'sk-live', apiKeySecret: 'Bad Name!', messageLimit: Number.NaN });
    expect(merged.provider).toBe('ollama');
    expect(merged.triggerPercent).toBe(100);
    expect(merged.keepExchanges).toBe(0);
    expect(merged.model).toBe(DEFAULT_SETTINGS.model);
    expect(merged.apiKeySecret).toBe('');
    expect(merged.messageLimit).toBe(DEFAULT_SETTINGS.messageLimit);
    expect(merged).not.toHaveProperty('apiKey');
    expect(mergeSettings(null)).toEqual(DEFAULT_SETTINGS);
    expect(mergeSettings([1, 2])).toEqual(DEFAULT_SETTINGS);
  });

  it('keeps the API key in SecretStorage only and reads it at send time', async () => {
    server = await ScriptedServer.start();
    const { app, plugin, tab } = await pluginSettings();
    expect(tab.findAll('.setting-item-heading').map((el) => el.find('.setting-item-name')?.getText())).toEqual(['Provider and model', 'Compaction', 'Context from notes', 'Tools', 'Storage']);

    selectOption(settingNamed(tab, 'Provider').find('select') as HTMLSelectElement, 'openai');
    await until(() => plugin.settings.provider === 'openai');
    expect(plugin.settings.baseUrl).toBe('https://api.openai.com/v1');
    typeInto(settingNamed(tab, 'Base URL').find('input') as HTMLInputElement, server.url);
    typeInto(settingNamed(tab, 'Model').find('input') as HTMLInputElement, 'gpt-4o');
    const secret = settingNamed(tab, 'API key');
    typeInto(secret.find('.secret-component-name') as HTMLInputElement, 'openai-key');
    typeInto(secret.find('.secret-component-value') as HTMLInputElement, 'sk-test-SECRET-1234');
    await until(() => plugin.settings.apiKeySecret === 'openai-key');
    closeSettings(app);

    const saved = pluginDataJson(app, 'compact-chat') ?? '';
    expect(JSON.parse(saved)).toMatchObject({ provider: 'openai', model: 'gpt-4o', apiKeySecret: 'openai-key', baseUrl: server.url });
    const everything = JSON.stringify(vaultSnapshot(app));
    expect(everything).not.toContain('sk-test-SECRET-1234');

    server.on('POST', '/v1/chat/completions', {
      headers: { 'content-type': 'text/event-stream' },
      chunks: sse({ data: { choices: [{ index: 0, delta: { content: 'Hi from OpenAI.' } }] } }, { data: { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] } }, '[DONE]'),
    });
    await plugin.session.send('Hello');
    expect(server.to('/v1/chat/completions')[0]?.headers.authorization).toBe('Bearer sk-test-SECRET-1234');
    expect(plugin.session.messages.map((m) => m.content)).toEqual(['Hello', 'Hi from OpenAI.']);
    await plugin.saveSettings();
    expect(JSON.stringify(vaultSnapshot(app))).not.toContain('sk-test-SECRET-1234');
  });

  it('refuses a conversation folder ending in a dot or a space, with a clear message', async () => {
    const { plugin, tab } = await pluginSettings();
    const folder = settingNamed(tab, 'Conversation folder');
    typeInto(folder.find('input') as HTMLInputElement, 'Chats.');
    expect(folder.find('.setting-item-description')?.getText()).toBe('Folder names cannot end in a dot or a space ("Chats.").');
    typeInto(folder.find('input') as HTMLInputElement, 'Work /Chats');
    expect(folder.find('.setting-item-description')?.getText()).toContain('cannot end in a dot or a space ("Work ")');
    expect(plugin.settings.conversationFolder).toBe(DEFAULT_SETTINGS.conversationFolder);
    typeInto(folder.find('input') as HTMLInputElement, 'Chats');
    expect(plugin.settings.conversationFolder).toBe('Chats');
    expect(folder.find('.setting-item-description')?.getText()).toBe('Vault folder where conversations are saved as notes.');
  });

  it('says when the conversation folder is an existing folder in another case, where the disk ignores case', async () => {
    const { tab } = await pluginSettings({}, { files: { 'Compact Chat/a.md': '' }, platform: { isLinux: false, isMacOS: true } });
    const folder = settingNamed(tab, 'Conversation folder');
    typeInto(folder.find('input') as HTMLInputElement, 'compact chat');
    expect(folder.find('.setting-item-description')?.getText()).toContain('Saving to the existing folder "Compact Chat"');
  });

  it('applies settings changes without reloading the plugin', async () => {
    const h = await startUi({ systemPrompt: 'First prompt.' });
    app = h.app;
    server = h.server;
    server.on('POST', '/api/chat', ollamaReply('One.'), ollamaReply('Two.'));
    await h.plugin.session.send('Hi');
    const tab = openSettingTab(app, 'compact-chat');
    typeInto(settingNamed(tab, 'System prompt').find('textarea') as HTMLTextAreaElement, 'Second prompt.');
    typeInto(settingNamed(tab, 'Context window override').find('input') as HTMLInputElement, '5000');
    closeSettings(app);
    await until(() => (h.view().find('.compact-chat-meter-label')?.getText() ?? '').includes('/ 5k tokens'));
    await h.plugin.session.send('Again');
    const body = sentJson(server.to('/api/chat')[1]) as { messages: { role: string; content: string }[]; options: { num_ctx: number } };
    expect(body.messages[0]).toEqual({ role: 'system', content: 'Second prompt.' });
    expect(body.options.num_ctx).toBe(5000);
  });

  it('shows Ollama\'s context size with the model maximum from /api/show, and which numbers are scaled to fit', async () => {
    server = await ScriptedServer.start();
    server.on('POST', '/api/show', { headers: { 'content-type': 'application/json' }, chunks: [JSON.stringify({ model_info: { 'llama.context_length': 131072 } })] });
    const { plugin, tab } = await pluginSettings({ baseUrl: server.url, model: 'llama3.1:8b' });
    const size = (): string => settingNamed(tab, 'Context size').find('.setting-item-description')?.getText() ?? '';
    await until(() => size().includes('up to 131,072'));
    expect(size()).toMatch(/sent as num_ctx.*more memory/);
    // Defaults in the 8,192 default context size: the keep and restored budgets do not fit.
    expect(settingNamed(tab, 'What fits this window').find('.setting-item-description')?.getText()).toMatch(/8,192-token window.*tokens to keep 2,000 → 768; restored notes budget 2,000 → 768/);
    typeInto(settingNamed(tab, 'Context size').find('input') as HTMLInputElement, '32768');
    await until(() => plugin.settings.ollamaContextSize === 32768);
  });

  it('loads the server\'s models into a dropdown on refresh', async () => {
    server = await ScriptedServer.start();
    server.on('GET', '/api/tags', { headers: { 'content-type': 'application/json' }, chunks: [JSON.stringify({ models: [{ name: 'qwen3:4b' }, { name: 'llama3.1:8b' }] })] });
    const { plugin, tab } = await pluginSettings({ baseUrl: server.url });
    settingNamed(tab, 'Model').find('.extra-setting-button')?.click();
    await until(() => settingNamed(tab, 'Model').find('select') !== null);
    const select = settingNamed(tab, 'Model').find('select') as HTMLSelectElement;
    expect(Array.from(select.options).map((o) => o.value)).toEqual(['', 'qwen3:4b', 'llama3.1:8b']);
    selectOption(select, 'qwen3:4b');
    await until(() => plugin.settings.model === 'qwen3:4b');
  });
});

describe('lifecycle', () => {
  it('opens by ribbon icon and command, and unloading removes every listener and view', async () => {
    const h = await startUi();
    app = h.app;
    server = h.server;
    server.on('POST', '/api/chat', ollamaReply('Ok.'));
    typeInto(input(h), 'Hi');
    pressKey('Enter', { target: input(h) });
    await until(() => messages(h).length === 2 && !h.plugin.session.busy);
    const ribbon = app.workspace.leftRibbon.containerEl.find('[aria-label="Open chat"]');
    ribbon?.click();
    runCommand(app, 'compact-chat:open-chat');
    await until(() => true);
    expect(app.workspace.getLeavesOfType(VIEW_TYPE_CHAT)).toHaveLength(1);
    openSettingTab(app, 'compact-chat');
    closeSettings(app);

    await unloadPlugin(h.plugin);
    expect(app.workspace.getLeavesOfType(VIEW_TYPE_CHAT)).toHaveLength(0);
    expect(liveListenerCount()).toBe(0);
    expect(liveIntervalCount()).toBe(0);
    expect(h.plugin.session.events.listenerCount()).toBe(0);
    expect(app.workspace.leftRibbon.containerEl.childElementCount).toBe(0);
    expect(Object.keys(app.commands.commands).filter((id) => id.startsWith('compact-chat:'))).toEqual([]);
    expect(app.workspace.hoverLinkSources['compact-chat-view']).toBeUndefined();
  });

  it('unloading mid-stream stops the request', async () => {
    const h = await startUi();
    app = h.app;
    server = h.server;
    server.on('POST', '/api/chat', { chunks: [`${JSON.stringify({ model: 'x', message: { role: 'assistant', content: 'Hel' }, done: false })}\n`], holdOpen: true });
    typeInto(input(h), 'Hi');
    pressKey('Enter', { target: input(h) });
    await until(() => server?.to('/api/chat').length === 1 && h.plugin.session.busy);
    await unloadPlugin(h.plugin);
    expect(await server.to('/api/chat')[0]?.closed).toBe(true);
    expect(liveListenerCount()).toBe(0);
  });
});
