// The harness page (runs in the browser): builds the obsidian test runtime's App over the sample
// vault, evaluates the production main.js as Obsidian does (CommonJS, `require('obsidian')`
// answered with this same runtime), loads the plugin with its manifest, and opens the chat in the
// right sidebar. Exposes `window.harness` (see api.ts). Query parameters: see harness/README.md.
import type { PluginManifest } from 'obsidian';
import type CompactChatPlugin from '../src/main';
import * as obsidian from '../test/obsidian/index';
import { createTestApp, loadPlugin, settle } from '../test/obsidian/testing';
import type { HarnessApi, Theme } from './api';
import { drawIcons } from './icons';

const VIEW_TYPE_CHAT = 'compact-chat-view';
const HARNESS_MODEL = 'harness-demo';

type PluginClass = new (app: never, manifest: PluginManifest) => CompactChatPlugin;

const errors: string[] = [];
window.addEventListener('error', (evt) => errors.push(String(evt.error instanceof Error ? evt.error.stack ?? evt.error.message : evt.message)));
window.addEventListener('unhandledrejection', (evt) => {
  const reason: unknown = evt.reason;
  errors.push(reason instanceof Error ? (reason.stack ?? reason.message) : String(reason));
});

/** Evaluates main.js like Obsidian: a CommonJS module whose `require('obsidian')` is the runtime. */
function evaluatePlugin(code: string): PluginClass {
  const module: { exports: Record<string, unknown> } = { exports: {} };
  const require = (id: string): unknown => {
    if (id === 'obsidian') return obsidian;
    throw new Error(`main.js required "${id}", which the harness does not provide (Obsidian provides only obsidian, electron and CodeMirror).`);
  };
  // Test infrastructure, not plugin code: this is how Obsidian itself loads main.js.
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- evaluating the built plugin is the point
  const factory = new Function('require', 'module', 'exports', `${code}\n//# sourceURL=main.js`) as (r: typeof require, m: typeof module, e: Record<string, unknown>) => void;
  factory(require, module, module.exports);
  const exported = module.exports.default ?? module.exports;
  if (typeof exported !== 'function') throw new Error('main.js does not export a plugin class.');
  return exported as PluginClass;
}

async function fetchText(path: string): Promise<string> {
  const response = await fetch(path, { cache: 'no-store' });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return response.text();
}

function setTheme(theme: Theme): void {
  document.body.toggleClass('theme-dark', theme === 'dark');
  document.body.toggleClass('theme-light', theme !== 'dark');
  const toggle = document.querySelector('.harness-theme-toggle');
  if (toggle) toggle.textContent = theme === 'dark' ? 'Light theme' : 'Dark theme';
}

/** Obsidian marks phones with body classes; the page follows the viewport width. */
function followViewport(): void {
  const phone = window.matchMedia('(max-width: 640px)');
  const apply = (): void => {
    document.body.toggleClass('is-mobile', phone.matches);
    document.body.toggleClass('is-phone', phone.matches);
  };
  apply();
  phone.addEventListener('change', apply);
}

/** A top bar (harness controls) and a file list in the left sidebar, neither part of the runtime. */
function buildChrome(app: obsidian.App, files: string[], api: () => HarnessApi): void {
  const bar = createDiv({ cls: 'harness-bar' });
  document.body.prepend(bar);
  bar.createSpan({ cls: 'harness-title', text: 'Compact Chat harness' });
  const source = bar.createSpan({ cls: 'harness-source' });
  const themeButton = bar.createEl('button', { cls: 'harness-theme-toggle', text: document.body.hasClass('theme-dark') ? 'Light theme' : 'Dark theme' });
  themeButton.addEventListener('click', () => api().setTheme(document.body.hasClass('theme-dark') ? 'light' : 'dark'));
  const settingsButton = bar.createEl('button', { cls: 'harness-settings', text: 'Plugin settings' });
  settingsButton.addEventListener('click', () => {
    app.setting.open();
    app.setting.openTabById('compact-chat');
  });
  source.setText(`${api().plugin.settings.provider} · ${api().plugin.settings.baseUrl} · ${api().plugin.settings.model || 'no model'}`);

  const nav = app.workspace.leftSplit.containerEl.createDiv('harness-files nav-files-container');
  nav.createDiv({ cls: 'harness-files-title', text: 'Files' });
  for (const path of files.sort((a, b) => a.localeCompare(b))) {
    const item = nav.createDiv({ cls: 'tree-item-self nav-file-title is-clickable', attr: { 'data-path': path } });
    item.setText(path.replace(/\.md$/, ''));
    item.addEventListener('click', () => void app.workspace.openLinkText(path, '', false));
  }
}

async function until(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const start = performance.now();
  while (!check()) {
    if (performance.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => window.setTimeout(resolve, 5));
  }
}

async function start(): Promise<void> {
  const params = new URLSearchParams(location.search);
  const theme: Theme = params.get('theme') === 'dark' ? 'dark' : 'light';
  setTheme(theme);
  followViewport();
  const [vaultJson, mainJs] = await Promise.all([fetchText('/vault.json'), fetchText('/main.js')]);
  const files = JSON.parse(vaultJson) as Record<string, string>;

  const app = createTestApp({ files, window, vaultName: 'Harness vault' });
  drawIcons(document.body);
  // The plugin's data.json, as if the user had configured it: the harness's provider and model.
  const dir = `${app.vault.configDir}/plugins/compact-chat`;
  await app.vault.adapter.mkdir(dir);
  const settings = {
    provider: 'ollama',
    baseUrl: params.get('ollama') ?? `${location.origin}/ollama`,
    model: params.get('model') ?? HARNESS_MODEL,
  };
  await app.vault.adapter.write(`${dir}/data.json`, JSON.stringify(settings, null, 2));

  const plugin = await loadPlugin(evaluatePlugin(mainJs), {}, app);

  const api: HarnessApi = {
    app,
    plugin,
    obsidian,
    errors,
    setTheme,
    async configure(values) {
      Object.assign(plugin.settings, values);
      await plugin.saveSettings();
    },
    async openChat() {
      app.commands.executeCommandById('compact-chat:open-chat');
      const composer = (): HTMLElement | null => app.workspace.getLeavesOfType(VIEW_TYPE_CHAT)[0]?.view.containerEl.find('.compact-chat-input') ?? null;
      await until(() => composer() !== null, 5000, 'the chat view');
      return app.workspace.getLeavesOfType(VIEW_TYPE_CHAT)[0]?.view.containerEl ?? document.body;
    },
    closeChat() {
      app.workspace.detachLeavesOfType(VIEW_TYPE_CHAT);
    },
    runCommand: (id) => app.commands.executeCommandById(id),
  };
  window.harness = api;
  buildChrome(app, Object.keys(files), () => api);

  await app.workspace.openLinkText('Welcome', '', false);
  if (params.get('chat') !== '0') await api.openChat();
  await settle();
  document.body.dataset.harness = 'ready';
}

start().catch((error: unknown) => {
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  errors.push(message);
  document.body.dataset.harness = 'error';
  const box = document.body.createEl('pre', { cls: 'harness-error', text: `The harness failed to start:\n${message}` });
  document.body.prepend(box);
});
