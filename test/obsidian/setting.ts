// One row of a settings tab: name and description on the left, controls on the right, in
// Obsidian's DOM structure (.setting-item > .setting-item-info + .setting-item-control).
import type { TooltipOptions } from 'obsidian';
import {
  type BaseComponent,
  ButtonComponent,
  DropdownComponent,
  ExtraButtonComponent,
  SearchComponent,
  SliderComponent,
  TextAreaComponent,
  TextComponent,
  ToggleComponent,
} from './components';
import { setTooltip } from './icons';

export class Setting {
  settingEl: HTMLElement;
  infoEl: HTMLElement;
  nameEl: HTMLElement;
  descEl: HTMLElement;
  controlEl: HTMLElement;
  components: BaseComponent[] = [];

  constructor(containerEl: HTMLElement) {
    this.settingEl = containerEl.createDiv('setting-item');
    this.infoEl = this.settingEl.createDiv('setting-item-info');
    this.nameEl = this.infoEl.createDiv('setting-item-name');
    this.descEl = this.infoEl.createDiv('setting-item-description');
    this.controlEl = this.settingEl.createDiv('setting-item-control');
  }

  setName(name: string | DocumentFragment): this {
    this.nameEl.setText(name);
    return this;
  }

  setDesc(desc: string | DocumentFragment): this {
    this.descEl.setText(desc);
    return this;
  }

  setClass(cls: string): this {
    this.settingEl.addClass(cls);
    return this;
  }

  setTooltip(tooltip: string, options?: TooltipOptions): this {
    setTooltip(this.nameEl, tooltip, options);
    return this;
  }

  setHeading(): this {
    this.settingEl.addClass('setting-item-heading');
    return this;
  }

  setDisabled(disabled: boolean): this {
    this.settingEl.toggleClass('is-disabled', disabled);
    for (const component of this.components) component.setDisabled(disabled);
    return this;
  }

  addButton(cb: (component: ButtonComponent) => unknown): this {
    return this.add(new ButtonComponent(this.controlEl), cb);
  }

  addExtraButton(cb: (component: ExtraButtonComponent) => unknown): this {
    return this.add(new ExtraButtonComponent(this.controlEl), cb);
  }

  addToggle(cb: (component: ToggleComponent) => unknown): this {
    return this.add(new ToggleComponent(this.controlEl), cb);
  }

  addText(cb: (component: TextComponent) => unknown): this {
    return this.add(new TextComponent(this.controlEl), cb);
  }

  addSearch(cb: (component: SearchComponent) => unknown): this {
    return this.add(new SearchComponent(this.controlEl), cb);
  }

  addTextArea(cb: (component: TextAreaComponent) => unknown): this {
    return this.add(new TextAreaComponent(this.controlEl), cb);
  }

  addDropdown(cb: (component: DropdownComponent) => unknown): this {
    return this.add(new DropdownComponent(this.controlEl), cb);
  }

  addSlider(cb: (component: SliderComponent) => unknown): this {
    return this.add(new SliderComponent(this.controlEl), cb);
  }

  /** For components the caller builds itself in the control area (e.g. SecretComponent). */
  addComponent<T extends BaseComponent>(cb: (el: HTMLElement) => T): this {
    this.components.push(cb(this.controlEl));
    return this;
  }

  /** Facilitates chaining. */
  then(cb: (setting: this) => unknown): this {
    cb(this);
    return this;
  }

  clear(): this {
    this.controlEl.empty();
    this.components = [];
    return this;
  }

  private add<T extends BaseComponent>(component: T, cb: (component: T) => unknown): this {
    this.components.push(component);
    cb(component);
    return this;
  }
}
