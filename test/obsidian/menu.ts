// Context menus: a `.menu` of `.menu-item`s in the body. A menu is a Component: showing loads it
// (registering the outside-click that closes it), hiding unloads it, so nothing outlives it.
import { Component } from './component';
import { setIcon } from './icons';

export class MenuItem {
  readonly dom: HTMLElement;
  private readonly iconEl: HTMLElement;
  private readonly titleEl: HTMLElement;
  private callback: ((evt: MouseEvent | KeyboardEvent) => unknown) | null = null;
  private disabled = false;

  constructor(private readonly menu: Menu) {
    this.dom = menu.dom.createDiv('menu-item');
    this.iconEl = this.dom.createDiv('menu-item-icon');
    this.titleEl = this.dom.createDiv('menu-item-title');
    this.dom.addEventListener('click', (evt) => {
      if (this.disabled) return;
      void this.callback?.(evt);
      this.menu.hide();
    });
  }

  setTitle(title: string | DocumentFragment): this {
    this.titleEl.setText(title);
    return this;
  }

  setIcon(icon: string | null): this {
    if (icon === null) this.iconEl.empty();
    else setIcon(this.iconEl, icon);
    return this;
  }

  setChecked(checked: boolean | null): this {
    this.dom.toggleClass('mod-checked', checked === true);
    return this;
  }

  setDisabled(disabled: boolean): this {
    this.disabled = disabled;
    this.dom.toggleClass('is-disabled', disabled);
    return this;
  }

  setWarning(isWarning: boolean): this {
    this.dom.toggleClass('is-warning', isWarning);
    return this;
  }

  setIsLabel(isLabel: boolean): this {
    this.dom.toggleClass('is-label', isLabel);
    return this;
  }

  onClick(callback: (evt: MouseEvent | KeyboardEvent) => unknown): this {
    this.callback = callback;
    return this;
  }

  setSection(section: string): this {
    this.dom.setAttr('data-section', section);
    return this;
  }
}

export class Menu extends Component {
  /** Obsidian's internal name for the menu element. */
  readonly dom: HTMLElement;
  readonly items: MenuItem[] = [];
  private readonly hideCallbacks: (() => unknown)[] = [];

  constructor() {
    super();
    this.dom = createDiv('menu');
  }

  setNoIcon(): this {
    this.dom.addClass('mod-no-icon');
    return this;
  }

  /** There is no native menu here; the DOM menu is always used. */
  setUseNativeMenu(useNativeMenu: boolean): this {
    void useNativeMenu;
    return this;
  }

  addItem(cb: (item: MenuItem) => unknown): this {
    const item = new MenuItem(this);
    this.items.push(item);
    cb(item);
    return this;
  }

  addSeparator(): this {
    this.dom.createDiv('menu-separator');
    return this;
  }

  showAtMouseEvent(evt: MouseEvent): this {
    return this.showAtPosition({ x: evt.clientX, y: evt.clientY });
  }

  showAtPosition(position: { x: number; y: number }, doc: Document = activeDocument): this {
    this.dom.setCssProps({ left: `${position.x}px`, top: `${position.y}px` });
    doc.body.appendChild(this.dom);
    this.load();
    this.registerDomEvent(doc, 'mousedown', (evt) => {
      if (!(evt.target instanceof Node && this.dom.contains(evt.target))) this.hide();
    });
    return this;
  }

  hide(): this {
    this.unload();
    return this;
  }

  close(): void {
    this.hide();
  }

  onHide(callback: () => unknown): void {
    this.hideCallbacks.push(callback);
  }

  override onunload(): void {
    this.dom.detach();
    for (const callback of this.hideCallbacks) void callback();
  }
}
