// Settings controls backed by real form elements. Like Obsidian, onChange fires on user input
// (an `input` event for text, `change` for dropdowns and sliders, a click for toggles), never
// from setValue — except the toggle, whose setValue reports a change of state.
import type { TooltipOptions } from 'obsidian';
import type { App } from './app';
import { setIcon, setTooltip } from './icons';

export abstract class BaseComponent {
  disabled = false;

  /** Facilitates chaining. */
  then(cb: (component: this) => unknown): this {
    cb(this);
    return this;
  }

  setDisabled(disabled: boolean): this {
    this.disabled = disabled;
    return this;
  }
}

export abstract class ValueComponent<T> extends BaseComponent {
  /** Lets a listener map read (and, given a value, write) this component. */
  registerOptionListener(listeners: Record<string, (value?: T) => T>, key: string): this {
    listeners[key] = (value?: T) => {
      if (value !== undefined) this.setValue(value);
      return this.getValue();
    };
    return this;
  }

  abstract getValue(): T;
  abstract setValue(value: T): this;
}

export class AbstractTextComponent<T extends HTMLInputElement | HTMLTextAreaElement> extends ValueComponent<string> {
  inputEl: T;
  private changeCallback: ((value: string) => unknown) | null = null;

  constructor(inputEl: T) {
    super();
    this.inputEl = inputEl;
    this.inputEl.addEventListener('input', () => this.onChanged());
  }

  override setDisabled(disabled: boolean): this {
    super.setDisabled(disabled);
    this.inputEl.disabled = disabled;
    return this;
  }

  getValue(): string {
    return this.inputEl.value;
  }

  setValue(value: string): this {
    this.inputEl.value = value;
    return this;
  }

  setPlaceholder(placeholder: string): this {
    this.inputEl.placeholder = placeholder;
    return this;
  }

  onChanged(): void {
    this.changeCallback?.(this.getValue());
  }

  onChange(callback: (value: string) => unknown): this {
    this.changeCallback = callback;
    return this;
  }
}

export class TextComponent extends AbstractTextComponent<HTMLInputElement> {
  constructor(containerEl: HTMLElement) {
    super(containerEl.createEl('input', { type: 'text', attr: { spellcheck: 'false' } }));
  }
}

export class TextAreaComponent extends AbstractTextComponent<HTMLTextAreaElement> {
  constructor(containerEl: HTMLElement) {
    super(containerEl.createEl('textarea'));
  }
}

export class SearchComponent extends AbstractTextComponent<HTMLInputElement> {
  clearButtonEl: HTMLElement;

  constructor(containerEl: HTMLElement) {
    const wrapper = containerEl.createDiv('search-input-container');
    super(wrapper.createEl('input', { type: 'search', attr: { enterkeyhint: 'search', spellcheck: 'false' } }));
    this.clearButtonEl = wrapper.createDiv({ cls: 'search-input-clear-button', attr: { 'aria-label': 'Clear search' } });
    this.clearButtonEl.addEventListener('click', () => {
      this.setValue('');
      this.onChanged();
      this.inputEl.focus();
    });
  }

  override onChanged(): void {
    this.clearButtonEl.toggle(this.getValue() !== '');
    super.onChanged();
  }
}

export class ToggleComponent extends ValueComponent<boolean> {
  toggleEl: HTMLElement;
  private on = false;
  private changeCallback: ((value: boolean) => unknown) | null = null;

  constructor(containerEl: HTMLElement) {
    super();
    this.toggleEl = containerEl.createDiv('checkbox-container');
    this.toggleEl.createEl('input', { type: 'checkbox', attr: { tabindex: 0 } });
    this.toggleEl.addEventListener('click', () => this.onClick());
  }

  override setDisabled(disabled: boolean): this {
    super.setDisabled(disabled);
    this.toggleEl.toggleClass('is-disabled', disabled);
    return this;
  }

  getValue(): boolean {
    return this.on;
  }

  /** Reports the new state to onChange when it differs from the current one. */
  setValue(on: boolean): this {
    const changed = on !== this.on;
    this.on = on;
    this.toggleEl.toggleClass('is-enabled', on);
    const checkbox = this.toggleEl.querySelector('input');
    if (checkbox) checkbox.checked = on;
    if (changed) this.changeCallback?.(on);
    return this;
  }

  setTooltip(tooltip: string, options?: TooltipOptions): this {
    setTooltip(this.toggleEl, tooltip, options);
    return this;
  }

  onClick(): void {
    if (!this.disabled) this.setValue(!this.on);
  }

  onChange(callback: (value: boolean) => unknown): this {
    this.changeCallback = callback;
    return this;
  }
}

export class DropdownComponent extends ValueComponent<string> {
  selectEl: HTMLSelectElement;
  private changeCallback: ((value: string) => unknown) | null = null;

  constructor(containerEl: HTMLElement) {
    super();
    this.selectEl = containerEl.createEl('select', 'dropdown');
    this.selectEl.addEventListener('change', () => void this.changeCallback?.(this.getValue()));
  }

  override setDisabled(disabled: boolean): this {
    super.setDisabled(disabled);
    this.selectEl.disabled = disabled;
    return this;
  }

  addOption(value: string, display: string): this {
    this.selectEl.createEl('option', { value, text: display });
    return this;
  }

  addOptions(options: Record<string, string>): this {
    for (const [value, display] of Object.entries(options)) this.addOption(value, display);
    return this;
  }

  getValue(): string {
    return this.selectEl.value;
  }

  setValue(value: string): this {
    this.selectEl.value = value;
    return this;
  }

  onChange(callback: (value: string) => unknown): this {
    this.changeCallback = callback;
    return this;
  }
}

export class SliderComponent extends ValueComponent<number> {
  sliderEl: HTMLInputElement;
  private instant = false;
  private format: (value: number) => string = (value) => String(value);
  private changeCallback: ((value: number) => unknown) | null = null;

  constructor(containerEl: HTMLElement) {
    super();
    this.sliderEl = containerEl.createEl('input', { cls: 'slider', type: 'range', attr: { min: 0, max: 100, step: 1 } });
    // With setInstant(true) onChange follows the drag (`input`); otherwise it fires on release (`change`).
    const report = (instant: boolean) => () => {
      if (instant === this.instant) void this.changeCallback?.(this.getValue());
    };
    this.sliderEl.addEventListener('input', report(true));
    this.sliderEl.addEventListener('change', report(false));
  }

  override setDisabled(disabled: boolean): this {
    super.setDisabled(disabled);
    this.sliderEl.disabled = disabled;
    return this;
  }

  setInstant(instant: boolean): this {
    this.instant = instant;
    return this;
  }

  setLimits(min: number | null, max: number | null, step: number | 'any'): this {
    this.sliderEl.setAttrs({ min, max, step });
    return this;
  }

  getValue(): number {
    return Number(this.sliderEl.value);
  }

  setValue(value: number): this {
    this.sliderEl.value = String(value);
    return this;
  }

  getValuePretty(): string {
    return this.format(this.getValue());
  }

  setDisplayFormat(format: (value: number) => string): this {
    this.format = format;
    return this;
  }

  /** Obsidian now always shows the value next to the slider; kept for older plugins. */
  setDynamicTooltip(): this {
    return this;
  }

  onChange(callback: (value: number) => unknown): this {
    this.changeCallback = callback;
    return this;
  }
}

export class ButtonComponent extends BaseComponent {
  buttonEl: HTMLButtonElement;
  private clickCallback: ((evt: MouseEvent) => unknown) | null = null;

  constructor(containerEl: HTMLElement) {
    super();
    this.buttonEl = containerEl.createEl('button');
    this.buttonEl.addEventListener('click', (evt) => void this.clickCallback?.(evt));
  }

  override setDisabled(disabled: boolean): this {
    super.setDisabled(disabled);
    this.buttonEl.disabled = disabled;
    return this;
  }

  setCta(): this {
    this.buttonEl.addClass('mod-cta');
    return this;
  }

  removeCta(): this {
    this.buttonEl.removeClass('mod-cta');
    return this;
  }

  setWarning(): this {
    this.buttonEl.addClass('mod-warning');
    return this;
  }

  setDestructive(): this {
    this.buttonEl.addClass('mod-destructive');
    return this;
  }

  removeDestructive(): this {
    this.buttonEl.removeClass('mod-destructive');
    return this;
  }

  setTooltip(tooltip: string, options?: TooltipOptions): this {
    setTooltip(this.buttonEl, tooltip, options);
    return this;
  }

  setButtonText(name: string): this {
    this.buttonEl.setText(name);
    return this;
  }

  setIcon(icon: string): this {
    setIcon(this.buttonEl, icon);
    return this;
  }

  setClass(cls: string): this {
    this.buttonEl.addClass(cls);
    return this;
  }

  onClick(callback: (evt: MouseEvent) => unknown): this {
    this.clickCallback = callback;
    return this;
  }
}

export class ExtraButtonComponent extends BaseComponent {
  extraSettingsEl: HTMLElement;
  private clickCallback: (() => unknown) | null = null;

  constructor(containerEl: HTMLElement) {
    super();
    this.extraSettingsEl = containerEl.createDiv('clickable-icon extra-setting-button');
    setIcon(this.extraSettingsEl, 'gear');
    this.extraSettingsEl.addEventListener('click', () => {
      if (!this.disabled) void this.clickCallback?.();
    });
  }

  override setDisabled(disabled: boolean): this {
    super.setDisabled(disabled);
    this.extraSettingsEl.toggleClass('is-disabled', disabled);
    return this;
  }

  setTooltip(tooltip: string, options?: TooltipOptions): this {
    setTooltip(this.extraSettingsEl, tooltip, options);
    return this;
  }

  setIcon(icon: string): this {
    setIcon(this.extraSettingsEl, icon);
    return this;
  }

  onClick(callback: () => unknown): this {
    this.clickCallback = callback;
    return this;
  }
}

/**
 * Obsidian's SecretComponent picks a secret from the app's keychain by name; its value (what
 * setValue/onChange carry and what a plugin saves in data.json) is the secret's *name*. Simplified
 * here to two fields: the name (`input.secret-component-name`), and a password field
 * (`input.secret-component-value`) that stores its text in `app.secretStorage` under that name and
 * then clears itself — the secret itself never reaches the plugin's onChange.
 */
export class SecretComponent extends BaseComponent {
  private readonly nameEl: HTMLInputElement;
  private readonly valueEl: HTMLInputElement;
  private readonly errorEl: HTMLElement;
  private changeCallback: ((value: string) => unknown) | null = null;

  constructor(app: App, containerEl: HTMLElement) {
    super();
    const el = containerEl.createDiv('secret-component');
    this.nameEl = el.createEl('input', { cls: 'secret-component-name', type: 'text', placeholder: 'Secret name' });
    this.valueEl = el.createEl('input', { cls: 'secret-component-value', type: 'password', placeholder: 'Secret value' });
    this.errorEl = el.createDiv('secret-component-error');
    this.nameEl.addEventListener('change', () => void this.changeCallback?.(this.nameEl.value));
    this.valueEl.addEventListener('change', () => {
      try {
        app.secretStorage.setSecret(this.nameEl.value, this.valueEl.value);
        this.errorEl.setText('');
      } catch (error) {
        this.errorEl.setText(error instanceof Error ? error.message : String(error));
      }
      this.valueEl.value = '';
    });
  }

  override setDisabled(disabled: boolean): this {
    super.setDisabled(disabled);
    this.nameEl.disabled = disabled;
    this.valueEl.disabled = disabled;
    return this;
  }

  /** The selected secret's name. */
  setValue(value: string): this {
    this.nameEl.value = value;
    return this;
  }

  onChange(cb: (value: string) => unknown): this {
    this.changeCallback = cb;
    return this;
  }
}
