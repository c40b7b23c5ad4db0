// @vitest-environment jsdom
// Settings tabs and controls with real inputs, and SecretStorage kept apart from data.json.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type App, Plugin, PluginSettingTab, SecretComponent, SecretStorage, Setting, ToggleComponent } from './index';
import {
  closeSettings,
  createTestApp,
  destroyTestApp,
  loadPlugin,
  openSettingTab,
  pluginDataJson,
  selectOption,
  slideTo,
  typeInto,
  vaultSnapshot,
} from './testing';

let app: App;

afterEach(async () => {
  await destroyTestApp(app);
});

function input<T extends Element>(root: HTMLElement, selector: string, type: abstract new () => T): T {
  const el = root.querySelector(selector);
  if (!(el instanceof type)) throw new Error(`no ${selector}`);
  return el;
}

describe('Setting', () => {
  it('builds Obsidian\'s row structure with name, description and heading', () => {
    app = createTestApp();
    const container = createDiv();
    const setting = new Setting(container)
      .setName('Model')
      .setDesc(createFragment((f) => f.createEl('code', { text: 'Llama3' })))
      .setClass('mod-model')
      .setTooltip('Which model to call');
    expect(setting.settingEl.parentElement).toBe(container);
    expect(setting.settingEl.className).toBe('setting-item mod-model');
    expect(setting.infoEl.children[0]).toBe(setting.nameEl);
    expect(setting.nameEl.getText()).toBe('Model');
    expect(setting.descEl.innerHTML).toBe('<code>Llama3</code>');
    expect(setting.controlEl.hasClass('setting-item-control')).toBe(true);
    expect(setting.nameEl.getAttr('aria-label')).toBe('Which model to call');
    expect(new Setting(container).setName('Advanced').setHeading().settingEl.hasClass('setting-item-heading')).toBe(true);
  });

  it('fires text onChange on input, not on setValue', () => {
    app = createTestApp();
    const onChange = vi.fn();
    const setting = new Setting(createDiv()).addText((text) => text.setPlaceholder('Model ID').setValue('a').onChange(onChange));
    const el = input(setting.controlEl, 'input[type="text"]', HTMLInputElement);
    expect(el.value).toBe('a');
    expect(el.placeholder).toBe('Model ID');
    expect(onChange).not.toHaveBeenCalled();
    typeInto(el, 'gpt-4o');
    expect(onChange).toHaveBeenCalledWith('gpt-4o');
  });

  it('fires text area and search onChange, and the search clear button empties it', () => {
    app = createTestApp();
    const onArea = vi.fn();
    const onSearch = vi.fn();
    const setting = new Setting(createDiv()).addTextArea((area) => area.onChange(onArea)).addSearch((search) => search.onChange(onSearch));
    typeInto(input(setting.controlEl, 'textarea', HTMLTextAreaElement), 'Line 1\nLine 2');
    expect(onArea).toHaveBeenCalledWith('Line 1\nLine 2');
    const search = input(setting.controlEl, 'input[type="search"]', HTMLInputElement);
    typeInto(search, 'query');
    setting.controlEl.find('.search-input-clear-button')?.click();
    expect(onSearch.mock.calls).toEqual([['query'], ['']]);
    expect(search.value).toBe('');
  });

  it('toggles on click, and not while disabled', () => {
    app = createTestApp();
    const onChange = vi.fn();
    const setting = new Setting(createDiv()).addToggle((toggle) => toggle.setValue(false).onChange(onChange));
    const toggle = setting.components[0];
    if (!(toggle instanceof ToggleComponent)) throw new Error('no toggle');
    toggle.toggleEl.click();
    expect(onChange).toHaveBeenLastCalledWith(true);
    expect(toggle.getValue()).toBe(true);
    expect(toggle.toggleEl.hasClass('is-enabled')).toBe(true);
    setting.setDisabled(true);
    toggle.toggleEl.click();
    expect(onChange).toHaveBeenCalledTimes(1);
    expect(setting.settingEl.hasClass('is-disabled')).toBe(true);
  });

  it('reads and writes dropdowns and fires onChange on change', () => {
    app = createTestApp();
    const onChange = vi.fn();
    let value = '';
    const setting = new Setting(createDiv()).addDropdown((dropdown) => {
      dropdown.addOption('ollama', 'Ollama').addOptions({ openai: 'OpenAI', anthropic: 'Anthropic' }).setValue('openai').onChange(onChange);
      value = dropdown.getValue();
    });
    expect(value).toBe('openai');
    const select = input(setting.controlEl, 'select.dropdown', HTMLSelectElement);
    expect(Array.from(select.options).map((o) => o.text)).toEqual(['Ollama', 'OpenAI', 'Anthropic']);
    selectOption(select, 'anthropic');
    expect(onChange).toHaveBeenCalledWith('anthropic');
    expect(() => selectOption(select, 'nope')).toThrow('no option');
  });

  it('reports slider values on release, or while dragging with setInstant', () => {
    app = createTestApp();
    const onRelease = vi.fn();
    const onDrag = vi.fn();
    const setting = new Setting(createDiv())
      .addSlider((slider) => slider.setLimits(50, 100, 5).setValue(85).setDynamicTooltip().onChange(onRelease))
      .addSlider((slider) => slider.setInstant(true).onChange(onDrag));
    const [first, second] = setting.controlEl.findAll('input.slider') as HTMLInputElement[];
    if (!first || !second) throw new Error('no sliders');
    expect(first.getAttr('min')).toBe('50');
    expect(first.value).toBe('85');
    slideTo(first, 90);
    slideTo(second, 10);
    expect(onRelease.mock.calls).toEqual([[90]]);
    expect(onDrag.mock.calls).toEqual([[10]]);
  });

  it('styles and clicks buttons and extra buttons; disabled ones do nothing', () => {
    app = createTestApp();
    const onClick = vi.fn();
    const onExtra = vi.fn();
    const setting = new Setting(createDiv())
      .addButton((button) => button.setButtonText('Test connection').setCta().setWarning().onClick(onClick))
      .addExtraButton((extra) => extra.setIcon('reset').setTooltip('Reset').onClick(onExtra));
    const button = input(setting.controlEl, 'button', HTMLButtonElement);
    expect(button.getText()).toBe('Test connection');
    expect(button.className).toBe('mod-cta mod-warning');
    button.click();
    const extra = setting.controlEl.find('.extra-setting-button');
    extra?.click();
    expect(extra?.querySelector('.lucide-reset')).not.toBeNull();
    setting.setDisabled(true);
    button.click();
    extra?.click();
    expect(onClick).toHaveBeenCalledTimes(1);
    expect(onExtra).toHaveBeenCalledTimes(1);
    expect(setting.components).toHaveLength(2);
    expect(setting.clear().controlEl.childElementCount).toBe(0);
  });
});

describe('SecretStorage', () => {
  it('accepts lowercase alphanumeric ids with dashes and rejects anything else', () => {
    const storage = new SecretStorage();
    storage.setSecret('openai', 'sk-1');
    storage.setSecret('my-key-2', 'sk-2');
    for (const id of ['OpenAI', 'my_key', 'a b', '', '-x', 'x-', 'a--b', 'é']) {
      expect(() => storage.setSecret(id, 'v'), id).toThrow('Invalid secret ID');
    }
    expect(storage.getSecret('openai')).toBe('sk-1');
    expect(storage.getSecret('missing')).toBeNull();
    expect(storage.listSecrets()).toEqual(['openai', 'my-key-2']);
  });
});

interface KeySettings {
  apiKeySecret: string;
}

class KeyPlugin extends Plugin {
  override settings: KeySettings = { apiKeySecret: '' };

  override onload(): void {
    this.addSettingTab(new KeyTab(this.app, this));
  }
}

class KeyTab extends PluginSettingTab {
  constructor(
    app: App,
    private readonly plugin: KeyPlugin,
  ) {
    super(app, plugin);
  }

  /** None: this tab renders itself in display() (the runtime does not render definitions). */
  override getSettingDefinitions(): unknown[] {
    return [];
  }

  override display(): void {
    this.containerEl.empty();
    new Setting(this.containerEl).setName('API key').addComponent((el) =>
      new SecretComponent(this.app, el).setValue(this.plugin.settings.apiKeySecret).onChange(async (value) => {
        this.plugin.settings.apiKeySecret = value;
        await this.plugin.saveData(this.plugin.settings);
      }),
    );
  }
}

describe('settings tabs and SecretComponent', () => {
  it('displays the plugin tab in the settings window and empties it on close', async () => {
    app = createTestApp();
    await loadPlugin(KeyPlugin, { id: 'key-plugin' });
    const tabEl = openSettingTab(app, 'key-plugin');
    expect(tabEl.isConnected).toBe(true);
    expect(tabEl.find('.setting-item-name')?.getText()).toBe('API key');
    closeSettings(app);
    expect(tabEl.isConnected).toBe(false);
    expect(tabEl.childElementCount).toBe(0);
  });

  it('opens the settings window on the last tab, and closes it from the close button or the backdrop', async () => {
    app = createTestApp();
    await loadPlugin(KeyPlugin, { id: 'key-plugin' });
    app.setting.open();
    expect(app.setting.containerEl.isConnected).toBe(true);
    expect(app.setting.activeTab).toBeNull();
    app.setting.containerEl.find('.modal-close-button')?.click();
    expect(app.setting.containerEl.isConnected).toBe(false);

    const tabEl = openSettingTab(app, 'key-plugin');
    app.setting.containerEl.find('.modal-bg')?.click();
    expect(tabEl.isConnected).toBe(false);
    expect(app.setting.activeTab).toBeNull();
    app.setting.open();
    expect(app.setting.activeTab?.id).toBe('key-plugin');
    expect(tabEl.isConnected).toBe(true);
    expect(tabEl.find('.setting-item-name')?.getText()).toBe('API key');
    closeSettings(app);
  });

  it('stores the secret in SecretStorage and only its name in data.json', async () => {
    app = createTestApp({ files: { 'note.md': 'x' } });
    const plugin = await loadPlugin(KeyPlugin, { id: 'key-plugin' });
    const tabEl = openSettingTab(app, 'key-plugin');
    typeInto(input(tabEl, 'input.secret-component-name', HTMLInputElement), 'openai-key');
    const valueEl = input(tabEl, 'input.secret-component-value', HTMLInputElement);
    typeInto(valueEl, 'sk-very-secret');
    await Promise.resolve();

    expect(app.secretStorage.getSecret('openai-key')).toBe('sk-very-secret');
    expect(valueEl.value).toBe('');
    expect(plugin.settings.apiKeySecret).toBe('openai-key');
    expect(JSON.parse(pluginDataJson(app, 'key-plugin') ?? 'null')).toEqual({ apiKeySecret: 'openai-key' });
    for (const content of Object.values(vaultSnapshot(app))) expect(content).not.toContain('sk-very-secret');
  });

  it('shows an invalid secret name instead of storing the secret', async () => {
    app = createTestApp();
    await loadPlugin(KeyPlugin, { id: 'key-plugin' });
    const tabEl = openSettingTab(app, 'key-plugin');
    typeInto(input(tabEl, 'input.secret-component-name', HTMLInputElement), 'Bad Name');
    typeInto(input(tabEl, 'input.secret-component-value', HTMLInputElement), 'sk-1');
    expect(tabEl.find('.secret-component-error')?.getText()).toContain('Invalid secret ID');
    expect(app.secretStorage.listSecrets()).toEqual([]);
  });
});
