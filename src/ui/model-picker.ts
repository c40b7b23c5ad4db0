// The model picker in the chat header: the models the server lists (Ollama `/api/tags`, OpenAI
// `/models`, Anthropic `/v1/models`, through the provider's listModels), the one in use selected,
// and a refresh button. Picking one saves it as the model setting. The list is loaded when the
// view opens and whenever the server changes; what it learnt (a list, or why it failed) is also
// what the empty state says about the connection.
import { type Component, setIcon, setTooltip } from 'obsidian';
import type { ConnectionInfo } from './connection';

export interface ModelPickerHost {
  connection(): ConnectionInfo;
  /** The server's models for the current settings; rejects with a readable error. */
  listModels(): Promise<string[]>;
  setModel(model: string): Promise<void>;
}

export type ModelListState = { kind: 'loading' } | { kind: 'loaded'; models: string[] } | { kind: 'failed'; error: string };

export class ModelPicker {
  readonly el: HTMLElement;
  private readonly select: HTMLSelectElement;
  private readonly refreshButton: HTMLElement;
  private list: ModelListState = { kind: 'loading' };
  /** The server the list came from: another provider or address loads it again. */
  private listedFor = '';
  /** Bumped per load: a list that lands after a newer load started is dropped. */
  private version = 0;

  constructor(
    parent: HTMLElement,
    private readonly host: ModelPickerHost,
    owner: Component,
    /** Called when the list or the model changed (the empty state re-renders). */
    private readonly changed: () => void,
  ) {
    this.el = parent.createDiv('compact-chat-model-picker');
    this.select = this.el.createEl('select', { cls: 'dropdown compact-chat-model', attr: { 'aria-label': 'Model' } });
    this.refreshButton = this.el.createEl('button', { cls: 'clickable-icon compact-chat-model-refresh', attr: { 'aria-label': 'Refresh the model list' } });
    setIcon(this.refreshButton, 'refresh-cw');
    owner.registerDomEvent(this.select, 'change', () => void this.pick(this.select.value));
    owner.registerDomEvent(this.refreshButton, 'click', () => void this.refresh());
  }

  get state(): ModelListState {
    return this.list;
  }

  /** Loads the server's list again. */
  async refresh(): Promise<void> {
    const version = ++this.version;
    const c = this.host.connection();
    this.listedFor = `${c.provider} ${c.baseUrl}`;
    this.list = { kind: 'loading' };
    this.el.addClass('is-loading');
    this.render();
    let next: ModelListState;
    try {
      next = { kind: 'loaded', models: await this.host.listModels() };
    } catch (error) {
      next = { kind: 'failed', error: error instanceof Error ? error.message : String(error) };
    }
    if (version !== this.version) return;
    this.list = next;
    this.el.removeClass('is-loading');
    this.render();
  }

  /** The settings changed: shows the model in use, and lists again when the server changed. */
  update(): void {
    const c = this.host.connection();
    if (`${c.provider} ${c.baseUrl}` !== this.listedFor) void this.refresh();
    else this.render();
  }

  private async pick(model: string): Promise<void> {
    if (!model || model === this.host.connection().model) return;
    await this.host.setModel(model);
    this.render();
  }

  private render(): void {
    const current = this.host.connection().model;
    const models = this.list.kind === 'loaded' ? this.list.models : [];
    this.select.empty();
    if (!current) this.select.createEl('option', { text: models.length ? 'Choose a model' : 'No model', value: '' });
    else if (!models.includes(current)) this.select.createEl('option', { text: current, value: current });
    for (const model of models) this.select.createEl('option', { text: model, value: model });
    this.select.value = current;
    const tip =
      this.list.kind === 'loading'
        ? 'Loading the models from the server…'
        : this.list.kind === 'failed'
          ? `Could not load the models: ${this.list.error}`
          : current && !models.includes(current)
            ? `${current} is not on the server's list`
            : `${current || 'none chosen'} (${models.length} on the server)`;
    // The tooltip is also the accessible name (setTooltip sets aria-label): it starts with "Model".
    setTooltip(this.select, `Model: ${tip}`);
    this.select.toggleClass('is-unlisted', this.list.kind === 'loaded' && current !== '' && !models.includes(current));
    this.changed();
  }
}
