// The settings tab. Every change is saved at once and takes effect on the next request, without
// reloading the plugin. The API key goes through SecretComponent into Obsidian's SecretStorage;
// only the secret's name is saved in data.json.
import { type App, type Plugin, PluginSettingTab, SecretComponent, Setting } from 'obsidian';
import { type ScaledSetting, describeScaled } from '../core/policy';
import { type CompactChatSettings, DEFAULT_BASE_URLS, DEFAULT_SETTINGS, PROVIDER_IDS, budgetsFor, compactionPointFor, windowFor } from '../chat/settings';
import type { ProviderId } from '../providers/types';
import { PROVIDER_NAMES } from './connection';
import { existingFolderNote, folderNameProblem } from './folder-name';

/** What the tab needs from the plugin. */
export interface SettingsHost {
  settings: CompactChatSettings;
  saveSettings(): Promise<void>;
  /** The server's models for the current settings; rejects with a readable error. */
  listModels(): Promise<string[]>;
  /** Ollama: the chosen model's maximum context, from the server; null when it does not say. */
  modelMaximum?(): Promise<number | null>;
  /** The conversation folder was changed (told once, when the tab closes): the plugin offers to
   * move the conversations in the old one. */
  folderChanged?(from: string, to: string): void;
}

const SCALED_NAMES: Record<ScaledSetting, string> = {
  replyReserve: 'reserve for the reply',
  keepTokens: 'tokens to keep',
  blockBudget: 'previous context budget',
  restoredBudget: 'restored notes budget',
};

export class CompactChatSettingTab extends PluginSettingTab {
  private models: string[] = [];
  /** The model's maximum context as Ollama reported it (0: not known yet). */
  private modelMaximum = 0;
  private modelsError = '';
  /** The conversation folder when the tab was opened (it changes as the user types). */
  private folderShown: string | null = null;

  constructor(
    app: App,
    plugin: Plugin,
    private readonly host: SettingsHost,
  ) {
    super(app, plugin);
  }

  override display(): void {
    this.folderShown ??= this.host.settings.conversationFolder;
    this.render();
    const s = this.host.settings;
    if (s.provider === 'ollama' && s.model.trim() && !this.modelMaximum) void this.loadMaximum();
  }

  override hide(): void {
    super.hide();
    const from = this.folderShown;
    this.folderShown = null;
    const to = this.host.settings.conversationFolder;
    if (from !== null && from !== to) this.host.folderChanged?.(from, to);
  }

  /** Asks Ollama for the model's maximum context, shown beside the context size. */
  private async loadMaximum(): Promise<void> {
    const maximum = (await this.host.modelMaximum?.().catch(() => null)) ?? 0;
    if (maximum === this.modelMaximum) return;
    this.modelMaximum = maximum;
    this.render();
  }

  /** Builds the tab; called again after a change that shows or hides settings. */
  private render(): void {
    const { containerEl } = this;
    containerEl.empty();
    containerEl.addClass('compact-chat-settings');
    const s = this.host.settings;
    this.providerSection(containerEl, s);
    this.compactionSection(containerEl, s);
    this.notesSection(containerEl, s);
    this.toolsSection(containerEl, s);
    this.storageSection(containerEl, s);
  }

  private providerSection(containerEl: HTMLElement, s: CompactChatSettings): void {
    new Setting(containerEl).setName('Provider and model').setHeading();
    new Setting(containerEl)
      .setName('Provider')
      .setDesc('The kind of server that answers: Ollama on this device, any server with an OpenAI-compatible API, or Anthropic.')
      .addDropdown((dropdown) => {
        for (const id of PROVIDER_IDS) dropdown.addOption(id, PROVIDER_NAMES[id]);
        dropdown.setValue(s.provider).onChange(async (value) => {
          const previous = s.provider;
          s.provider = value as ProviderId;
          // Follow the provider's default address unless the user typed their own.
          if (!s.baseUrl || s.baseUrl === DEFAULT_BASE_URLS[previous]) s.baseUrl = DEFAULT_BASE_URLS[s.provider];
          this.models = [];
          this.modelsError = '';
          await this.save();
          this.render();
        });
      });
    new Setting(containerEl)
      .setName('Base URL')
      .setDesc('Address of the server. Leave empty for the provider\'s default.')
      .addText((text) =>
        text
          .setPlaceholder(DEFAULT_BASE_URLS[s.provider])
          .setValue(s.baseUrl)
          .onChange(async (value) => {
            s.baseUrl = value.trim();
            await this.save();
          }),
      );
    this.modelSetting(containerEl, s);
    new Setting(containerEl)
      .setName('API key')
      .setDesc('Kept in Obsidian\'s secret storage, never in the plugin\'s data. Ollama does not need one.')
      .addComponent((el) =>
        new SecretComponent(this.app, el).setValue(s.apiKeySecret).onChange(async (name) => {
          s.apiKeySecret = name.trim();
          await this.save();
        }),
      );
    const window = windowFor(s);
    if (s.provider === 'ollama') {
      const maximum = this.modelMaximum ? ` The model can take up to ${this.modelMaximum.toLocaleString('en-US')}.` : '';
      this.numberSetting(
        containerEl,
        'Context size',
        `Tokens Ollama is asked to hold (sent as num_ctx); the meter and the compaction point use it.${maximum} Ollama reserves memory for the whole size when the model loads: larger sizes need more memory and load slower.`,
        'ollamaContextSize',
      );
    }
    this.numberSetting(
      containerEl,
      'Context window override',
      `Tokens the model can take. 0 uses ${s.provider === 'ollama' ? 'the context size above' : 'the known window for the model'} (now ${window.toLocaleString('en-US')}).`,
      'contextWindowOverride',
    );
    this.numberSetting(containerEl, 'Wait for the server', 'Seconds to wait for the first answer; a local model may first have to load.', 'connectTimeoutSeconds');
    this.numberSetting(containerEl, 'Stalled reply', 'Seconds a reply may send nothing before it is stopped as stalled; the text so far is kept.', 'idleTimeoutSeconds');
    const prompt = new Setting(containerEl)
      .setName('System prompt')
      .setDesc('Sent at the start of every request, before the notes and the summary of earlier messages.')
      .addTextArea((area) => {
        area.inputEl.addClass('compact-chat-system-prompt');
        area.inputEl.rows = 8;
        area
          .setPlaceholder(DEFAULT_SETTINGS.systemPrompt)
          .setValue(s.systemPrompt)
          .onChange(async (value) => {
            s.systemPrompt = value;
            await this.save();
          });
      });
    prompt.settingEl.addClass('compact-chat-setting-wide');
  }

  private compactionSection(containerEl: HTMLElement, s: CompactChatSettings): void {
    const window = windowFor(s);
    new Setting(containerEl).setName('Compaction').setHeading();
    new Setting(containerEl)
      .setName('Compaction trigger')
      .setDesc(`Compact when the prompt passes a share of the window or a number of tokens (now at ${compactionPointFor(s, window).toLocaleString('en-US')} tokens).`)
      .addDropdown((dropdown) =>
        dropdown
          .addOption('percent', 'Percentage of the window')
          .addOption('tokens', 'Number of tokens')
          .setValue(s.triggerMode)
          .onChange(async (value) => {
            s.triggerMode = value === 'tokens' ? 'tokens' : 'percent';
            await this.save();
            this.render();
          }),
      );
    if (s.triggerMode === 'percent') this.numberSetting(containerEl, 'Trigger percentage', 'Percentage of the window (1–100).', 'triggerPercent');
    else this.numberSetting(containerEl, 'Trigger tokens', 'Prompt size in tokens.', 'triggerTokens');
    this.numberSetting(containerEl, 'Message-count limit', 'Also compact when more messages than this would be sent. 0 turns the limit off.', 'messageLimit');
    this.numberSetting(containerEl, 'Reserve for the reply', 'Tokens kept free for the reply; also the longest reply requested.', 'replyReserve');
    this.numberSetting(containerEl, 'Exchanges to keep', 'Most recent exchanges always sent word for word.', 'keepExchanges');
    this.numberSetting(containerEl, 'Tokens to keep', 'At least this many recent tokens are sent word for word.', 'keepTokens');
    this.numberSetting(containerEl, 'Previous context budget', 'Tokens for the summary of the compacted part.', 'contextBudget');
    this.numberSetting(containerEl, 'Restored notes budget', 'Tokens for the notes re-read after a compaction. 0 turns this off.', 'restoredNotesBudget');
    new Setting(containerEl)
      .setName('Micro-compaction')
      .setDesc('Before compacting, replace old bulky tool results with a short placeholder.')
      .addToggle((toggle) =>
        toggle.setValue(s.microCompaction).onChange(async (value) => {
          s.microCompaction = value;
          await this.save();
        }),
      );
    const scaled = describeScaled(budgetsFor(s, window), SCALED_NAMES);
    if (scaled) new Setting(containerEl).setName('What fits this window').setDesc(scaled);
  }

  private notesSection(containerEl: HTMLElement, s: CompactChatSettings): void {
    new Setting(containerEl).setName('Context from notes').setHeading();
    new Setting(containerEl)
      .setName('Include the active note')
      .setDesc('Attach the note you are looking at to every request.')
      .addToggle((toggle) =>
        toggle.setValue(s.includeActiveNote).onChange(async (value) => {
          s.includeActiveNote = value;
          await this.save();
        }),
      );
    this.numberSetting(containerEl, 'Active note budget', 'Tokens of the active note sent at most; a longer note is cut at a line or word end.', 'activeNoteBudget');
    this.numberSetting(containerEl, 'Mentioned notes budget', 'Tokens of the notes mentioned with [[links]] in your messages sent at most, newest mention first.', 'mentionBudget');
  }

  private toolsSection(containerEl: HTMLElement, s: CompactChatSettings): void {
    new Setting(containerEl).setName('Tools').setHeading();
    new Setting(containerEl)
      .setName('Let the model use vault tools')
      .setDesc('Read a note, search the vault, list a folder; creating or appending to a note always asks you first. Models or servers without tool support are detected and chat without them.')
      .addToggle((toggle) =>
        toggle.setValue(s.vaultTools).onChange(async (value) => {
          s.vaultTools = value;
          await this.save();
        }),
      );
    new Setting(containerEl)
      .setName('Load remote images in replies')
      .setDesc('Off: an image from another site shows as a button that loads it when clicked. A reply steered by text hidden in a note could otherwise send parts of the conversation to that site in the image address.')
      .addToggle((toggle) =>
        toggle.setValue(s.allowRemoteImages).onChange(async (value) => {
          s.allowRemoteImages = value;
          await this.save();
        }),
      );
  }

  private storageSection(containerEl: HTMLElement, s: CompactChatSettings): void {
    new Setting(containerEl).setName('Storage').setHeading();
    const folderDesc = (folder: string): string =>
      folderNameProblem(folder) ??
      `Vault folder where conversations are saved as notes.${existingFolderNote(this.app.vault, folder || DEFAULT_SETTINGS.conversationFolder)}`;
    const folderSetting = new Setting(containerEl)
      .setName('Conversation folder')
      .setDesc(folderDesc(s.conversationFolder))
      .addText((text) =>
        text
          .setPlaceholder(DEFAULT_SETTINGS.conversationFolder)
          .setValue(s.conversationFolder)
          .onChange(async (value) => {
            const folder = value.trim();
            folderSetting.setDesc(folderDesc(folder));
            // A refused name is not saved: the last good folder stays in use.
            if (folderNameProblem(folder)) return;
            s.conversationFolder = folder;
            await this.save();
          }),
      );
  }

  private modelSetting(containerEl: HTMLElement, s: CompactChatSettings): void {
    const setting = new Setting(containerEl).setName('Model');
    setting.setDesc(this.modelsError || 'Pick from the server\'s models (refresh to load them), or type the name.');
    if (this.models.length) {
      setting.addDropdown((dropdown) => {
        if (!this.models.includes(s.model)) dropdown.addOption(s.model, s.model || 'Choose a model');
        for (const model of this.models) dropdown.addOption(model, model);
        dropdown.setValue(s.model).onChange(async (value) => {
          s.model = value;
          await this.save();
          this.render();
        });
      });
    } else {
      setting.addText((text) =>
        text
          .setPlaceholder(s.provider === 'ollama' ? 'llama3.1:8b' : s.provider === 'anthropic' ? 'claude-sonnet-4-5' : 'gpt-4o')
          .setValue(s.model)
          .onChange(async (value) => {
            s.model = value.trim();
            await this.save();
          }),
      );
    }
    setting.addExtraButton((button) =>
      button
        .setIcon('refresh-cw')
        .setTooltip('Load the models from the server')
        .onClick(() => void this.refreshModels()),
    );
  }

  private async refreshModels(): Promise<void> {
    try {
      this.models = await this.host.listModels();
      this.modelMaximum = (await this.host.modelMaximum?.().catch(() => null)) ?? 0;
      this.modelsError = this.models.length ? '' : 'The server has no models.';
    } catch (error) {
      this.models = [];
      this.modelsError = error instanceof Error ? error.message : String(error);
    }
    this.render();
  }

  private numberSetting(containerEl: HTMLElement, name: string, desc: string, key: NumericKey): void {
    new Setting(containerEl)
      .setName(name)
      .setDesc(desc)
      .addText((text) => {
        text.inputEl.type = 'number';
        text.setValue(String(this.host.settings[key])).onChange(async (value) => {
          const n = Number(value);
          if (value.trim() === '' || !Number.isFinite(n) || n < 0) return;
          this.host.settings[key] = Math.round(n);
          await this.save();
        });
      });
  }

  private async save(): Promise<void> {
    await this.host.saveSettings();
  }
}

type NumericKey = {
  [K in keyof CompactChatSettings]: CompactChatSettings[K] extends number ? K : never;
}[keyof CompactChatSettings];
