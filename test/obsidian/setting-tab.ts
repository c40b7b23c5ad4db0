// Settings tabs and the settings window that shows them (`app.setting`, Obsidian's internal name).
// Only imperative tabs (display/hide) are supported: a tab describing itself through the 1.13
// declarative getSettingDefinitions() is refused with an error rather than shown empty.
import type { App } from './app';
import type { Plugin } from './plugin';

export abstract class SettingTab {
  icon = '';
  app: App;
  containerEl: HTMLElement;
  /** Internal: the tab's id (a plugin's id) and title. */
  id = '';
  name = '';

  constructor(app: App) {
    this.app = app;
    this.containerEl = createDiv('vertical-tab-content');
  }

  getSettingDefinitions(): unknown[] {
    return [];
  }

  /** Renders the tab into containerEl; called each time the tab is opened. */
  display(): void {}

  /** Called when the tab closes; Obsidian's default empties it. */
  hide(): void {
    this.containerEl.empty();
  }
}

export abstract class PluginSettingTab extends SettingTab {
  constructor(app: App, plugin: Plugin) {
    super(app);
    this.id = plugin.manifest.id;
    this.name = plugin.manifest.name;
  }
}

export class SettingHost {
  readonly pluginTabs: SettingTab[] = [];
  activeTab: SettingTab | null = null;
  private lastTabId: string | null = null;
  readonly containerEl: HTMLElement;
  private readonly contentEl: HTMLElement;

  constructor() {
    this.containerEl = createDiv('modal-container mod-settings');
    const bg = this.containerEl.createDiv('modal-bg');
    const modalEl = this.containerEl.createDiv('modal mod-settings');
    // As in Obsidian, the window closes from its close button or a click on the backdrop (the
    // browser harness needs a way out; tests can use close() or closeSettings()).
    const closeButton = modalEl.createDiv({ cls: 'modal-close-button', attr: { 'aria-label': 'Close' } });
    this.contentEl = modalEl.createDiv('vertical-tab-content-container');
    bg.addEventListener('click', () => this.close());
    closeButton.addEventListener('click', () => this.close());
  }

  /** Opens the settings window (Obsidian's `app.setting.open()`), on the tab shown last if any. */
  open(): void {
    if (this.containerEl.isConnected) return;
    const last = this.pluginTabs.find((t) => t.id === this.lastTabId);
    if (last) this.openTabById(last.id);
    else activeDocument.body.appendChild(this.containerEl);
  }

  addSettingTab(tab: SettingTab): void {
    this.pluginTabs.push(tab);
  }

  removeSettingTab(tab: SettingTab): void {
    if (this.activeTab === tab) this.close();
    const index = this.pluginTabs.indexOf(tab);
    if (index !== -1) this.pluginTabs.splice(index, 1);
  }

  /** Opens the settings window on the tab with this id; returns it, or null if there is none. */
  openTabById(id: string): SettingTab | null {
    const tab = this.pluginTabs.find((t) => t.id === id);
    if (!tab) return null;
    if (tab.getSettingDefinitions().length > 0) {
      throw new Error(`Setting tab "${id}" uses getSettingDefinitions(), which this test runtime does not render.`);
    }
    this.close();
    activeDocument.body.appendChild(this.containerEl);
    this.contentEl.appendChild(tab.containerEl);
    this.activeTab = tab;
    this.lastTabId = tab.id;
    tab.display();
    return tab;
  }

  close(): void {
    const tab = this.activeTab;
    this.activeTab = null;
    if (tab) {
      tab.hide();
      tab.containerEl.detach();
    }
    this.containerEl.detach();
  }
}
