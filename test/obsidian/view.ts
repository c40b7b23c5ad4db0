// Views: what a workspace leaf shows. A view is a Component, loaded when its leaf opens it and
// unloaded (after onClose) when the leaf closes it, so whatever it registered is released.
import type { App } from './app';
import { Component } from './component';
import { setIcon } from './icons';
import type { Scope } from './keymap';
import type { WorkspaceLeaf } from './workspace';

export interface ViewStateResult {
  history: boolean;
}

export abstract class View extends Component {
  app: App;
  icon = '';
  /** Whether the view can be navigated (a file view); getLeaf(false) only reuses such leaves. */
  navigation = false;
  leaf: WorkspaceLeaf;
  containerEl: HTMLElement;
  scope: Scope | null = null;

  constructor(leaf: WorkspaceLeaf) {
    super();
    this.leaf = leaf;
    this.app = leaf.app;
    this.containerEl = createDiv('workspace-leaf-content');
  }

  protected async onOpen(): Promise<void> {}

  protected async onClose(): Promise<void> {}

  abstract getViewType(): string;

  abstract getDisplayText(): string;

  getState(): Record<string, unknown> {
    return {};
  }

  async setState(state: unknown, result: ViewStateResult): Promise<void> {
    void state;
    void result;
  }

  getEphemeralState(): Record<string, unknown> {
    return {};
  }

  setEphemeralState(state: unknown): void {
    void state;
  }

  getIcon(): string {
    return this.icon;
  }

  onResize(): void {}

  /** Internal (Obsidian's own name): mounts the view in its leaf, loads it, then runs onOpen. */
  async open(parentEl: HTMLElement): Promise<void> {
    this.containerEl.setAttr('data-type', this.getViewType());
    parentEl.appendChild(this.containerEl);
    this.load();
    await this.onOpen();
  }

  /** Internal (Obsidian's own name): runs onClose, then unloads and unmounts the view. */
  async close(): Promise<void> {
    await this.onClose();
    this.unload();
    this.containerEl.detach();
  }
}

/** A view with Obsidian's header (title and actions) above `contentEl`. */
export abstract class ItemView extends View {
  contentEl: HTMLElement;
  // Obsidian's internal names for the header parts.
  protected readonly headerEl: HTMLElement;
  protected readonly titleEl: HTMLElement;
  protected readonly actionsEl: HTMLElement;

  constructor(leaf: WorkspaceLeaf) {
    super(leaf);
    // containerEl.children[0] is the header and children[1] the content, as plugins expect.
    this.headerEl = this.containerEl.createDiv('view-header');
    this.titleEl = this.headerEl.createDiv('view-header-title-container').createDiv('view-header-title');
    this.actionsEl = this.headerEl.createDiv('view-actions');
    this.contentEl = this.containerEl.createDiv('view-content');
  }

  /** Adds a header button; later actions appear before earlier ones, as in Obsidian. */
  addAction(icon: string, title: string, callback: (evt: MouseEvent) => unknown): HTMLElement {
    const el = this.actionsEl.createEl('a', { cls: 'clickable-icon view-action', attr: { 'aria-label': title }, prepend: true });
    setIcon(el, icon);
    el.addEventListener('click', callback);
    return el;
  }

  override async open(parentEl: HTMLElement): Promise<void> {
    this.titleEl.setText(this.getDisplayText());
    await super.open(parentEl);
  }

  override async setState(state: unknown, result: ViewStateResult): Promise<void> {
    await super.setState(state, result);
    this.titleEl.setText(this.getDisplayText());
  }
}

/** What a new leaf shows; also stands in for a view whose type is not (or no longer) registered. */
export class EmptyView extends ItemView {
  getViewType(): string {
    return 'empty';
  }

  getDisplayText(): string {
    return 'New tab';
  }
}

/** What a deferred leaf shows until it is loaded (Obsidian 1.7.2+, "background tabs are not loaded
 * until shown": obsidian.d.ts `WorkspaceLeaf.isDeferred` / `loadIfDeferred`, and the docs page
 * "Understanding deferred views"). It reports the real view type, so getLeavesOfType finds the
 * leaf, but it is not the plugin's view class: code must load the leaf before using its view. */
export class DeferredView extends ItemView {
  constructor(
    leaf: ConstructorParameters<typeof ItemView>[0],
    private readonly viewType: string,
  ) {
    super(leaf);
  }

  getViewType(): string {
    return this.viewType;
  }

  getDisplayText(): string {
    return this.viewType;
  }
}
