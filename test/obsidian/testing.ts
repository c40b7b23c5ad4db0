// Test support for the obsidian runtime — not part of Obsidian's API; tests import it by path.
// Like the rest of the runtime it uses only web APIs, so a browser harness can use it too.
import type { PluginManifest } from 'obsidian';
import repoManifest from '../../manifest.json';
import { type FailureOptions, MemoryAdapter } from './adapter';
import { App } from './app';
import { installDomHelpers } from './dom';
import { installLeakTracking, resetLeakTracking } from './leak-tracker';
import { setMarkdownHtmlMode } from './markdown-html';
import { clearNoticeHistory, noticeHistory } from './notice';
import { type PlatformFlags, resetPlatform } from './platform';
import { setAppLanguage } from './language';
import { Plugin } from './plugin';

export { installDomHelpers } from './dom';
export { liveIntervalCount, liveListenerCount } from './leak-tracker';
export { setMarkdownHtmlMode as setMarkdownHtml } from './markdown-html';

export interface TestAppOptions {
  /** Vault files by path (folders are created as needed). */
  files?: Record<string, string>;
  /** The window to build the app in; defaults to the global one (a jsdom test environment). */
  window?: Window;
  vaultName?: string;
  /** false keeps the workspace "starting up" until setLayoutReady(app), to test onLayoutReady. */
  layoutReady?: boolean;
  /** Pins the disk's case rule; by default it follows the Platform flags (macOS, Windows and iOS
   * fold case, Linux does not), so setPlatform switches it. */
  caseInsensitive?: boolean;
}

let current: App | null = null;

/**
 * Builds an App over a vault seeded with `files`, its DOM attached to the document, with one empty
 * tab in the root split. Replaces (destroys) the previous test app, and resets the notice history,
 * the Platform flags and the listener/interval counters.
 */
export function createTestApp(options: TestAppOptions = {}): App {
  const win = options.window ?? (typeof window === 'undefined' ? undefined : window);
  if (!win) throw new Error('createTestApp needs a DOM: add `// @vitest-environment jsdom` to the test file.');
  if (current) void current.destroy();
  installDomHelpers(win);
  installLeakTracking(win);
  const adapter = new MemoryAdapter(options.vaultName);
  adapter.caseInsensitive = options.caseInsensitive ?? null;
  adapter.seed({ ...options.files, '.obsidian/app.json': '{}' });
  const app = new App(win, adapter);
  win.document.body.appendChild(app.containerEl);
  if (options.layoutReady !== false) app.workspace.markLayoutReady();
  resetPlatform();
  setAppLanguage('en');
  setMarkdownHtmlMode('text');
  clearNoticeHistory();
  // jsdom's selector engine (nwsapi) adds mouseover/mouseout listeners to the document on the first
  // query, to track :hover. Warm it up before counting, so a plugin's first `find` is not a "leak".
  win.document.documentElement.querySelector('*');
  resetLeakTracking();
  current = app;
  return app;
}

/** The app made by the last createTestApp. */
export function currentTestApp(): App {
  if (!current) throw new Error('No test app: call createTestApp() first.');
  return current;
}

/** Unloads its plugins, closes its views and removes its DOM. */
export async function destroyTestApp(app: App): Promise<void> {
  if (current === app) current = null;
  await app.destroy();
}

/**
 * Constructs the plugin with the app and the repository's manifest.json (plus overrides), as
 * Obsidian would from the plugin folder, and loads it, waiting for an async onload. Works for the
 * real plugin (typed against Obsidian's declarations) and for test plugins built on this runtime.
 */
export async function loadPlugin<P extends object>(
  PluginClass: new (app: never, manifest: PluginManifest) => P,
  manifestOverrides: Partial<PluginManifest> = {},
  app: App = currentTestApp(),
): Promise<P> {
  const id = manifestOverrides.id ?? repoManifest.id;
  const dir = `${app.vault.configDir}/plugins/${id}`;
  const manifest: PluginManifest = { ...repoManifest, ...manifestOverrides, id, dir };
  await app.vault.adapter.mkdir(dir);
  await app.vault.adapter.write(`${dir}/manifest.json`, JSON.stringify({ ...manifest, dir: undefined }, null, 2));
  // The runtime App stands in for Obsidian's; plugins only see the part of it they use.
  const plugin = new PluginClass(app as never, manifest);
  if (!(plugin instanceof Plugin)) {
    throw new Error('The plugin does not extend this runtime\'s Plugin: is `obsidian` aliased to test/obsidian in the test config?');
  }
  app.plugins.plugins[id] = plugin;
  await plugin.load();
  return plugin;
}

/** Unloads the plugin as Obsidian does on disable, then lets its views finish closing. */
export async function unloadPlugin(plugin: object): Promise<void> {
  if (!(plugin instanceof Plugin)) throw new Error('Not a plugin of this runtime.');
  plugin.unload();
  delete plugin.app.plugins.plugins[plugin.manifest.id];
  await settle();
}

/** Runs a command by its full id (`<plugin-id>:<command-id>`); false when unavailable. */
export function runCommand(app: App, id: string): boolean {
  return app.commands.executeCommandById(id);
}

/** The messages of every Notice shown since createTestApp, oldest first. */
export function shownNotices(): string[] {
  return noticeHistory().map((notice) => notice.messageEl.getText());
}

/** Lets pending promise chains and zero-delay timers run. */
export async function settle(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 0));
}

/** Finishes the simulated startup: onLayoutReady callbacks run now. */
export function setLayoutReady(app: App): void {
  app.workspace.markLayoutReady();
}

/** Makes the leaf deferred, like a background tab after Obsidian 1.7.2 restores the layout: its
 * view is unloaded until revealLeaf or loadIfDeferred. */
export async function deferLeaf(leaf: { defer(): Promise<void> }): Promise<void> {
  await leaf.defer();
}

/** Back to desktop defaults, then these flags (e.g. `{ isMobile: true, isDesktop: false }`). */
export function setPlatform(flags: Partial<PlatformFlags>): void {
  resetPlatform(flags);
}

/** The app language getLanguage reports (Obsidian's language setting), until the next test app. */
export function setLanguage(code: string): void {
  setAppLanguage(code);
}

/** The plugin's data.json exactly as it would be on disk, or null if it was never saved. */
export function pluginDataJson(app: App, pluginId: string): string | null {
  return app.vault.adapter.peek(`${app.vault.configDir}/plugins/${pluginId}/data.json`);
}

/** Writes data.json behind the plugin's back (a sync), then tells it as Obsidian would. */
export async function changeDataExternally(app: App, pluginId: string, data: unknown): Promise<void> {
  await app.vault.adapter.write(`${app.vault.configDir}/plugins/${pluginId}/data.json`, JSON.stringify(data, null, 2));
  await app.plugins.getPlugin(pluginId)?.onExternalSettingsChange?.();
}

/** Every file on the simulated disk (config dir and trash included), by path. */
export function vaultSnapshot(app: App): Record<string, string> {
  return app.vault.adapter.snapshot();
}

/** The next write of exactly `path` (through the vault or the adapter) throws; see FailureOptions. */
export function failNextWrite(app: App, path: string, options?: FailureOptions): void {
  app.vault.adapter.failNext('write', path, options);
}

/** Opens the settings window on the plugin's tab and returns the tab's element. */
export function openSettingTab(app: App, pluginId: string): HTMLElement {
  const tab = app.setting.openTabById(pluginId);
  if (!tab) throw new Error(`No settings tab for "${pluginId}".`);
  return tab.containerEl;
}

export function closeSettings(app: App): void {
  app.setting.close();
}

/** Offers the active editor to the registered EditorSuggests, as a keypress would. */
export async function triggerEditorSuggest(app: App): Promise<boolean> {
  const view = app.workspace.activeEditor;
  if (!view) return false;
  for (const suggest of app.workspace.editorSuggest.suggests) {
    if (await suggest.trigger(view.editor, view.file)) return true;
  }
  return false;
}

/** Types into a text field: sets the value, then fires `input` and `change` as a user would. */
export function typeInto(el: HTMLInputElement | HTMLTextAreaElement, text: string): void {
  el.value = text;
  el.dispatchEvent(new Event('input', { bubbles: true }));
  el.dispatchEvent(new Event('change', { bubbles: true }));
}

/** Picks an option of a dropdown and fires `change`. */
export function selectOption(el: HTMLSelectElement, value: string): void {
  if (!Array.from(el.options).some((option) => option.value === value)) {
    throw new Error(`The dropdown has no option "${value}".`);
  }
  el.value = value;
  el.dispatchEvent(new Event('change', { bubbles: true }));
}

/** Drags a slider to `value` and releases it (`input`, then `change`). */
export function slideTo(el: HTMLInputElement, value: number): void {
  el.value = String(value);
  el.dispatchEvent(new Event('input', { bubbles: true }));
  el.dispatchEvent(new Event('change', { bubbles: true }));
}

export interface KeyOptions {
  target?: EventTarget;
  ctrl?: boolean;
  meta?: boolean;
  shift?: boolean;
  alt?: boolean;
}

/** Dispatches a keydown (bubbling, cancelable) on the target or the focused element; returns it. */
export function pressKey(key: string, options: KeyOptions = {}): KeyboardEvent {
  const target = options.target ?? activeDocument.activeElement ?? activeDocument.body;
  const event = new KeyboardEvent('keydown', {
    key,
    bubbles: true,
    cancelable: true,
    ctrlKey: options.ctrl ?? false,
    metaKey: options.meta ?? false,
    shiftKey: options.shift ?? false,
    altKey: options.alt ?? false,
  });
  target.dispatchEvent(event);
  return event;
}
