// The Plugin base class. Everything a plugin adds through it (commands, ribbon icons, status bar
// items, settings tabs, views, post-processors, editor suggests) is registered for removal, so
// unload() takes it all away again, as in Obsidian.
import type { HoverLinkSource, PluginManifest } from 'obsidian';
import type { App } from './app';
import type { Command } from './commands';
import { Component } from './component';
import { MarkdownPreviewRenderer, type MarkdownPostProcessor, type MarkdownPostProcessorContext } from './markdown';
import type { PluginSettingTab } from './setting-tab';
import type { EditorSuggest } from './suggest';
import type { ViewCreator } from './view-registry';

export abstract class Plugin extends Component {
  app: App;
  manifest: PluginManifest;
  settings?: unknown;

  constructor(app: App, manifest: PluginManifest) {
    super();
    this.app = app;
    this.manifest = manifest;
  }

  /** Obsidian waits for a plugin's (possibly async) onload before it counts as loaded. */
  // eslint-disable-next-line @typescript-eslint/no-misused-promises -- a plugin's load is awaited by its host, as in Obsidian
  override async load(): Promise<void> {
    if (this._loaded) return;
    this._loaded = true;
    await this.onload();
    for (const child of [...this._children]) child.load();
  }

  override onload(): Promise<void> | void {}

  /** Called by Obsidian when the user enables the plugin (not on app start). */
  onUserEnable(): void {}

  /** Called when data.json changes on disk from outside (sync); see testing.changeDataExternally. */
  onExternalSettingsChange?(): unknown;

  addRibbonIcon(icon: string, title: string, callback: (evt: MouseEvent) => unknown): HTMLElement {
    const el = this.app.workspace.leftRibbon.addRibbonItemButton(`${this.manifest.id}:${title}`, icon, title, callback);
    this.register(() => el.detach());
    return el;
  }

  addStatusBarItem(): HTMLElement {
    const el = this.app.statusBarEl.createDiv(`status-bar-item plugin-${this.manifest.id.toLowerCase().replace(/[^_a-z0-9-]/g, '-')}`);
    this.register(() => el.detach());
    return el;
  }

  /** Prefixes the id with `<plugin-id>:` and the name with `<Plugin name>: `, as Obsidian does. */
  addCommand(command: Command): Command {
    command.id = `${this.manifest.id}:${command.id}`;
    command.name = `${this.manifest.name}: ${command.name}`;
    this.app.commands.addCommand(command);
    this.register(() => this.app.commands.removeCommand(command.id));
    return command;
  }

  removeCommand(commandId: string): void {
    this.app.commands.removeCommand(`${this.manifest.id}:${commandId}`);
  }

  addSettingTab(settingTab: PluginSettingTab): void {
    this.app.setting.addSettingTab(settingTab);
    this.register(() => this.app.setting.removeSettingTab(settingTab));
  }

  /**
   * On unload the type is unregistered; the workspace then closes the views of that type (onClose,
   * unload) but keeps their leaves, which show the view again if the plugin loads again — Obsidian
   * asks plugins not to detach their leaves in onunload for that reason.
   */
  registerView(type: string, viewCreator: ViewCreator): void {
    this.app.viewRegistry.registerView(type, viewCreator);
    this.register(() => this.app.viewRegistry.unregisterView(type));
  }

  /** Registers the view type as a source of `hover-link` events (for the Page preview core plugin);
   * unregistered on unload. */
  registerHoverLinkSource(id: string, info: HoverLinkSource): void {
    const sources = this.app.workspace.hoverLinkSources;
    sources[id] = info;
    this.register(() => {
      if (sources[id] === info) delete sources[id];
    });
  }

  registerMarkdownPostProcessor(postProcessor: MarkdownPostProcessor, sortOrder?: number): MarkdownPostProcessor {
    MarkdownPreviewRenderer.registerPostProcessor(postProcessor, sortOrder);
    this.register(() => MarkdownPreviewRenderer.unregisterPostProcessor(postProcessor));
    return postProcessor;
  }

  registerMarkdownCodeBlockProcessor(
    language: string,
    handler: (source: string, el: HTMLElement, ctx: MarkdownPostProcessorContext) => Promise<unknown> | void,
    sortOrder?: number,
  ): MarkdownPostProcessor {
    return this.registerMarkdownPostProcessor(MarkdownPreviewRenderer.createCodeBlockPostProcessor(language, handler), sortOrder);
  }

  registerEditorSuggest(editorSuggest: EditorSuggest<unknown>): void {
    const suggests = this.app.workspace.editorSuggest.suggests;
    suggests.push(editorSuggest);
    this.register(() => {
      editorSuggest.close();
      suggests.splice(suggests.indexOf(editorSuggest), 1);
    });
  }

  /** The parsed data.json, or null when the plugin has none yet. */
  async loadData(): Promise<unknown> {
    const adapter = this.app.vault.adapter;
    const path = this.dataPath();
    if (!(await adapter.exists(path))) return null;
    return JSON.parse(await adapter.read(path)) as unknown;
  }

  /** Writes data.json as Obsidian does: JSON with two-space indentation. */
  async saveData(data: unknown): Promise<void> {
    await this.app.vault.adapter.write(this.dataPath(), JSON.stringify(data, null, 2));
  }

  private dataPath(): string {
    return `${this.manifest.dir ?? `${this.app.vault.configDir}/plugins/${this.manifest.id}`}/data.json`;
  }
}
