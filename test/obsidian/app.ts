// The App: the vault, workspace, metadata cache, commands and settings a plugin reaches through
// `this.app`, plus its DOM (ribbon, splits, status bar) under `containerEl`.
import { MemoryAdapter } from './adapter';
import { Commands } from './commands';
import { installDomHelpers } from './dom';
import { FileManager } from './file-manager';
import { MarkdownView } from './file-view';
import { Keymap, Scope } from './keymap';
import { MetadataCache } from './metadata-cache';
import type { Plugin } from './plugin';
import { SecretStorage } from './secret-storage';
import { SettingHost } from './setting-tab';
import { Vault } from './vault';
import { EmptyView } from './view';
import { ViewRegistry } from './view-registry';
import { Workspace } from './workspace';

/** `app.plugins` (internal in Obsidian): the loaded plugins by id. */
export class PluginRegistry {
  readonly plugins: Record<string, Plugin> = {};

  getPlugin(id: string): Plugin | null {
    return this.plugins[id] ?? null;
  }
}

export class App {
  keymap: Keymap;
  scope: Scope;
  vault: Vault;
  metadataCache: MetadataCache;
  fileManager: FileManager;
  secretStorage: SecretStorage;
  workspace: Workspace;
  lastEvent: KeyboardEvent | MouseEvent | TouchEvent | PointerEvent | null = null;
  // Obsidian-internal parts that plugins and tests commonly reach.
  commands: Commands;
  setting: SettingHost;
  plugins = new PluginRegistry();
  viewRegistry = new ViewRegistry();
  containerEl: HTMLElement;
  statusBarEl: HTMLElement;
  private readonly localStorage = new Map<string, string>();
  private readonly onKeyDown = (evt: KeyboardEvent): void => {
    this.lastEvent = evt;
    this.keymap.onKeyDown(evt);
  };

  constructor(win: Window, adapter: MemoryAdapter = new MemoryAdapter()) {
    installDomHelpers(win);
    this.scope = new Scope();
    this.keymap = new Keymap(this.scope);
    this.vault = new Vault(adapter);
    this.metadataCache = new MetadataCache(this.vault);
    this.fileManager = new FileManager(this.vault, this.metadataCache);
    this.secretStorage = new SecretStorage();
    this.viewRegistry.registerView('empty', (leaf) => new EmptyView(leaf));
    this.viewRegistry.registerView('markdown', (leaf) => new MarkdownView(leaf));
    this.workspace = new Workspace(this);
    this.commands = new Commands(this.workspace);
    this.setting = new SettingHost();
    this.containerEl = createDiv('app-container');
    this.containerEl.createDiv('horizontal-main-container').appendChild(this.workspace.containerEl);
    this.statusBarEl = this.containerEl.createDiv('status-bar');
    win.document.addEventListener('keydown', this.onKeyDown);
  }

  isDarkMode(): boolean {
    return this.containerEl.doc.body.hasClass('theme-dark');
  }

  /** Vault-scoped localStorage; kept in memory so apps (and tests) do not share it. */
  loadLocalStorage(key: string): unknown {
    const raw = this.localStorage.get(key);
    return raw === undefined ? null : (JSON.parse(raw) as unknown);
  }

  /** Stores a JSON copy; null (or undefined) clears the key. */
  saveLocalStorage(key: string, data: unknown): void {
    if (data === null || data === undefined) this.localStorage.delete(key);
    else this.localStorage.set(key, JSON.stringify(data));
  }

  /** Internal (test support): unloads plugins, removes the app's DOM and listeners, closes every view. */
  async destroy(): Promise<void> {
    for (const [id, plugin] of Object.entries(this.plugins.plugins)) {
      plugin.unload();
      delete this.plugins.plugins[id];
    }
    this.setting.close();
    this.containerEl.doc.removeEventListener('keydown', this.onKeyDown);
    this.containerEl.detach();
    const closing: Promise<void>[] = [];
    this.workspace.iterateAllLeaves((leaf) => closing.push(leaf.view.close()));
    await Promise.all(closing);
  }
}
