// The workspace: a root split for notes and two side docks, each holding tab groups of leaves,
// with real DOM under `containerEl`. One leaf is active at a time; clicking or focusing inside a
// leaf activates it, as in Obsidian (so a focused sidebar view is the active leaf and
// getActiveViewOfType(MarkdownView) returns null while it is).
// Simplified: no popout windows ('window' opens a tab), no deferred views, no saved layout.
import type { HoverLinkSource } from 'obsidian';
import type { App } from './app';
import type { Editor } from './editor';
import { Events, type EventRef } from './events';
import { FileView, MarkdownView } from './file-view';
import type { TAbstractFile, TFile } from './files';
import { setIcon } from './icons';
import { normalizePath, parentPath, parseLinktext } from './path';
import type { EditorSuggest } from './suggest';
import { DeferredView, EmptyView, type View } from './view';

export interface ViewState {
  type: string;
  state?: Record<string, unknown>;
  active?: boolean;
  pinned?: boolean;
  group?: WorkspaceLeaf;
}

export interface OpenViewState {
  state?: Record<string, unknown>;
  eState?: Record<string, unknown>;
  active?: boolean;
  group?: WorkspaceLeaf;
}

export type PaneType = 'tab' | 'split' | 'window';
export type SplitDirection = 'vertical' | 'horizontal';

export abstract class WorkspaceItem extends Events {
  parent: WorkspaceParent | null;
  containerEl: HTMLElement;

  constructor(containerEl: HTMLElement, parent: WorkspaceParent | null) {
    super();
    this.containerEl = containerEl;
    this.parent = parent;
  }

  /** The split (root or side dock) this item lives in. */
  getRoot(): WorkspaceItem {
    return this.parent ? this.parent.getRoot() : this;
  }
}

export abstract class WorkspaceParent extends WorkspaceItem {
  children: WorkspaceItem[] = [];

  protected get childContainerEl(): HTMLElement {
    return this.containerEl;
  }

  /** Internal (Obsidian's name): appends a child item and its element. */
  insertChild(child: WorkspaceItem): void {
    this.children.push(child);
    child.parent = this;
    this.childContainerEl.appendChild(child.containerEl);
  }

  /** Internal (Obsidian's name): removes a child item and its element. */
  removeChild(child: WorkspaceItem): void {
    const index = this.children.indexOf(child);
    if (index !== -1) this.children.splice(index, 1);
    child.containerEl.detach();
  }
}

export class WorkspaceSplit extends WorkspaceParent {}

export class WorkspaceRoot extends WorkspaceSplit {
  get win(): Window {
    return this.containerEl.win;
  }

  get doc(): Document {
    return this.containerEl.doc;
  }
}

export class WorkspaceSidedock extends WorkspaceSplit {
  collapsed = false;

  toggle(): void {
    if (this.collapsed) this.expand();
    else this.collapse();
  }

  collapse(): void {
    this.collapsed = true;
    this.containerEl.hide();
  }

  expand(): void {
    this.collapsed = false;
    this.containerEl.show();
  }
}

/** A tab group: only the current tab's leaf is shown. Each tab has a header (its view's icon and
 * title, `aria-label` the title; `is-active` on the current one), as Obsidian draws them; a click on
 * one reveals its leaf (the workspace's delegated listener). */
export class WorkspaceTabs extends WorkspaceParent {
  currentTab = 0;
  private readonly headerEl: HTMLElement;
  private readonly tabContainerEl: HTMLElement;

  constructor(parent: WorkspaceSplit) {
    super(createDiv('workspace-tabs'), parent);
    this.headerEl = this.containerEl.createDiv('workspace-tab-header-container');
    this.tabContainerEl = this.containerEl.createDiv('workspace-tab-container');
  }

  protected override get childContainerEl(): HTMLElement {
    return this.tabContainerEl;
  }

  override insertChild(child: WorkspaceItem): void {
    super.insertChild(child);
    child.containerEl.toggle(this.children.length === 1);
    this.renderHeaders();
  }

  override removeChild(child: WorkspaceItem): void {
    super.removeChild(child);
    this.renderHeaders();
  }

  selectTab(leaf: WorkspaceLeaf): void {
    this.currentTab = Math.max(0, this.children.indexOf(leaf));
    for (const child of this.children) child.containerEl.toggle(child === leaf);
    this.renderHeaders();
  }

  /** Internal: redraws the tab headers (a tab came or went, or a leaf's view changed). */
  renderHeaders(): void {
    this.headerEl.empty();
    this.children.forEach((child, i) => {
      if (!(child instanceof WorkspaceLeaf)) return;
      const title = child.getDisplayText();
      const header = this.headerEl.createDiv({ cls: 'workspace-tab-header', attr: { 'aria-label': title, 'data-type': child.view.getViewType() } });
      header.toggleClass('is-active', i === this.currentTab);
      setIcon(header.createDiv('workspace-tab-header-inner-icon'), child.getIcon());
      header.createDiv({ cls: 'workspace-tab-header-inner-title', text: title });
      leafByHeader.set(header, child);
    });
  }
}

/** The leaf each tab header stands for. */
const leafByHeader = new WeakMap<Element, WorkspaceLeaf>();

export class WorkspaceRibbon {
  containerEl: HTMLElement;

  constructor(containerEl: HTMLElement) {
    this.containerEl = containerEl;
  }

  /** Internal (Obsidian's name): what Plugin.addRibbonIcon uses. */
  addRibbonItemButton(id: string, icon: string, title: string, callback: (evt: MouseEvent) => unknown): HTMLElement {
    const el = this.containerEl.createDiv({ cls: 'side-dock-ribbon-action clickable-icon', attr: { 'aria-label': title, 'data-ribbon-id': id } });
    setIcon(el, icon);
    el.addEventListener('click', callback);
    return el;
  }
}

let leafCounter = 0;

export class WorkspaceLeaf extends WorkspaceItem {
  declare parent: WorkspaceTabs;
  readonly app: App;
  readonly id: string;
  view: View;
  pinned = false;
  hoverPopover: null = null;
  /** Internal: when this leaf was last activated (for getMostRecentLeaf). */
  activeTime = 0;
  /** The view state to restore once its view type is registered (again). */
  private pendingState: ViewState | null = null;
  /** The view state a deferred leaf loads when shown. */
  private deferredState: ViewState | null = null;

  constructor(app: App, parent: WorkspaceTabs) {
    super(createDiv('workspace-leaf'), parent);
    this.app = app;
    this.id = `leaf-${++leafCounter}`;
    this.view = new EmptyView(this);
    void this.view.open(this.containerEl);
  }

  /** True while the leaf shows a DeferredView (see view.ts; obsidian.d.ts `isDeferred`, 1.7.2+). */
  get isDeferred(): boolean {
    return this.view instanceof DeferredView;
  }

  /** Loads the real view a deferred leaf stands for (obsidian.d.ts `loadIfDeferred`, 1.7.2+). */
  async loadIfDeferred(): Promise<void> {
    if (!this.isDeferred || !this.deferredState) return;
    await this.setViewState({ ...this.deferredState, active: false });
  }

  /** Internal (testing.deferLeaf): unloads the view and shows a DeferredView, as Obsidian does for
   * a background tab restored at startup. */
  async defer(): Promise<void> {
    const state = this.getViewState();
    await this.open(new DeferredView(this, state.type));
    this.deferredState = state;
  }

  /** Opens the file in a MarkdownView and, unless `active: false`, activates the leaf. */
  async openFile(file: TFile, openState: OpenViewState = {}): Promise<void> {
    await this.setViewState({ type: 'markdown', state: { ...openState.state, file: file.path }, active: openState.active ?? true }, openState.eState);
  }

  /** Replaces the current view: the old one is closed (onClose, unload) before the new one opens. */
  async open(view: View): Promise<View> {
    const previous = this.view;
    this.view = view;
    await previous.close();
    await view.open(this.containerEl);
    this.parent.renderHeaders();
    return view;
  }

  /**
   * Builds the view from the factory registered for `type` (reusing the current view when it is
   * already of that type), then applies `state`. An unregistered type leaves an empty view that
   * remembers the state, so the view comes back when its plugin registers the type.
   */
  async setViewState(viewState: ViewState, eState?: unknown): Promise<void> {
    const creator = this.app.viewRegistry.getViewCreatorByType(viewState.type);
    if (creator) {
      this.pendingState = null;
      // Setting a state loads a deferred leaf, as in Obsidian.
      const fresh = this.isDeferred || this.view.getViewType() !== viewState.type;
      this.deferredState = null;
      if (fresh) await this.open(creator(this));
      if (fresh || viewState.state) await this.view.setState(viewState.state ?? {}, { history: false });
    } else {
      if (!(this.view instanceof EmptyView)) await this.open(new EmptyView(this));
      this.pendingState = viewState;
    }
    if (viewState.pinned !== undefined) this.setPinned(viewState.pinned);
    if (eState !== undefined) this.view.setEphemeralState(eState);
    const workspace = this.app.workspace;
    if (viewState.active) workspace.setActiveLeaf(this, { focus: true });
    else if (workspace.activeLeaf === this) workspace.syncActiveView();
    workspace.trigger('layout-change');
  }

  getViewState(): ViewState {
    return this.pendingState ?? this.deferredState ?? { type: this.view.getViewType(), state: this.view.getState(), pinned: this.pinned };
  }

  getEphemeralState(): Record<string, unknown> {
    return this.view.getEphemeralState();
  }

  setEphemeralState(state: unknown): void {
    this.view.setEphemeralState(state);
  }

  togglePinned(): void {
    this.setPinned(!this.pinned);
  }

  setPinned(pinned: boolean): void {
    if (this.pinned === pinned) return;
    this.pinned = pinned;
    this.trigger('pinned-change', pinned);
  }

  /** Removes the leaf at once; its view then gets onClose and is unloaded (await to wait for that). */
  async detach(): Promise<void> {
    this.app.workspace.removeLeaf(this);
    await this.view.close();
  }

  getIcon(): string {
    return this.view.getIcon();
  }

  getDisplayText(): string {
    return this.view.getDisplayText();
  }

  onResize(): void {
    this.view.onResize();
  }

  /** Internal: the view's type was unregistered; close it and remember what was here. */
  async suspendView(): Promise<void> {
    const state = this.getViewState();
    await this.open(new EmptyView(this));
    this.pendingState = state;
  }

  /** Internal: the type it was waiting for is registered again. */
  async resumeView(type: string): Promise<void> {
    if (this.pendingState?.type === type) await this.setViewState({ ...this.pendingState, active: false });
  }
}

function* leavesUnder(item: WorkspaceItem): Generator<WorkspaceLeaf> {
  if (item instanceof WorkspaceLeaf) yield item;
  else if (item instanceof WorkspaceParent) for (const child of item.children) yield* leavesUnder(child);
}

export class Workspace extends Events {
  containerEl: HTMLElement;
  leftRibbon: WorkspaceRibbon;
  leftSplit: WorkspaceSidedock;
  rootSplit: WorkspaceRoot;
  rightSplit: WorkspaceSidedock;
  activeLeaf: WorkspaceLeaf | null = null;
  /** The active MarkdownView, or null while another kind of view is active. */
  activeEditor: MarkdownView | null = null;
  layoutReady = false;
  /** Obsidian's internal registry of EditorSuggests (Plugin.registerEditorSuggest adds to it). */
  readonly editorSuggest: { suggests: EditorSuggest<unknown>[] } = { suggests: [] };
  /** Obsidian's internal registry of `hover-link` sources (Plugin.registerHoverLinkSource adds to it). */
  readonly hoverLinkSources: Record<string, HoverLinkSource> = {};
  private readonly layoutReadyCallbacks: (() => unknown)[] = [];
  private readonly leafByEl = new WeakMap<Element, WorkspaceLeaf>();
  private lastOpened: { leaf: WorkspaceLeaf; file: TFile } | null = null;
  private lastActiveFile: TFile | null = null;
  private recentFiles: string[] = [];
  private activations = 0;

  constructor(private readonly app: App) {
    super();
    this.containerEl = createDiv('workspace');
    this.leftRibbon = new WorkspaceRibbon(this.containerEl.createDiv('workspace-ribbon side-dock-ribbon mod-left'));
    this.leftSplit = new WorkspaceSidedock(this.containerEl.createDiv('workspace-split mod-horizontal mod-left-split'), null);
    this.rootSplit = new WorkspaceRoot(this.containerEl.createDiv('workspace-split mod-vertical mod-root'), null);
    this.rightSplit = new WorkspaceSidedock(this.containerEl.createDiv('workspace-split mod-horizontal mod-right-split'), null);
    const first = this.newLeaf(this.newTabs(this.rootSplit));
    this.activeLeaf = first;
    first.containerEl.addClass('mod-active');

    const activateFromDom = (evt: Event): void => {
      const target = evt.target;
      const leafEl = target instanceof Element ? target.closest('.workspace-leaf') : null;
      const leaf = leafEl ? this.leafByEl.get(leafEl) : undefined;
      if (leaf && leaf !== this.activeLeaf) this.setActiveLeaf(leaf, { focus: true });
    };
    this.containerEl.addEventListener('mousedown', activateFromDom);
    this.containerEl.addEventListener('focusin', activateFromDom);
    // A click on a tab header shows its leaf.
    this.containerEl.addEventListener('click', (evt) => {
      const header = evt.target instanceof Element ? evt.target.closest('.workspace-tab-header') : null;
      const leaf = header ? leafByHeader.get(header) : undefined;
      if (leaf) void this.revealLeaf(leaf);
    });

    app.vault.on('delete', (file: TAbstractFile) => {
      if (file === this.lastActiveFile) this.lastActiveFile = null;
      this.recentFiles = this.recentFiles.filter((path) => path !== file.path);
    });
    app.viewRegistry.on('view-unregistered', (type: string) => {
      for (const leaf of this.getLeavesOfType(type)) void leaf.suspendView();
    });
    app.viewRegistry.on('view-registered', (type: string) => {
      this.iterateAllLeaves((leaf) => void leaf.resumeView(type));
    });
  }

  /** Runs now if the layout is ready, else once it is. */
  onLayoutReady(callback: () => unknown): void {
    if (this.layoutReady) callback();
    else this.layoutReadyCallbacks.push(callback);
  }

  /** Internal: what Obsidian does once the saved layout is restored at startup. */
  markLayoutReady(): void {
    if (this.layoutReady) return;
    this.layoutReady = true;
    for (const callback of this.layoutReadyCallbacks.splice(0)) callback();
  }

  /**
   * false/undefined: the most recent root leaf if it is unpinned and navigable (or empty), else a
   * new tab; true/'tab' (and 'window', as there are no popouts): a new tab next to it; 'split': a
   * new tab group in the root.
   */
  getLeaf(newLeaf?: PaneType | boolean, direction?: SplitDirection): WorkspaceLeaf {
    void direction;
    if (newLeaf === 'split') return this.newLeaf(this.newTabs(this.rootSplit));
    const recent = this.getMostRecentLeaf(this.rootSplit);
    if (newLeaf === true || newLeaf === 'tab' || newLeaf === 'window') {
      return this.newLeaf(recent?.parent ?? this.tabsIn(this.rootSplit));
    }
    if (recent && !recent.pinned && (recent.view.navigation || recent.view instanceof EmptyView)) return recent;
    return this.newLeaf(recent?.parent ?? this.tabsIn(this.rootSplit));
  }

  /** A new leaf in the left dock: in its tab group, or in a new group when `split`. */
  getLeftLeaf(split: boolean): WorkspaceLeaf | null {
    return this.newLeaf(split ? this.newTabs(this.leftSplit) : this.tabsIn(this.leftSplit));
  }

  /** A new leaf in the right dock: in its tab group, or in a new group when `split`. */
  getRightLeaf(split: boolean): WorkspaceLeaf | null {
    return this.newLeaf(split ? this.newTabs(this.rightSplit) : this.tabsIn(this.rightSplit));
  }

  /** The side leaf of this type, created when missing; revealed unless `reveal: false`. */
  async ensureSideLeaf(
    type: string,
    side: 'left' | 'right',
    options: { active?: boolean; split?: boolean; reveal?: boolean; state?: Record<string, unknown> } = {},
  ): Promise<WorkspaceLeaf> {
    const dock = side === 'left' ? this.leftSplit : this.rightSplit;
    const existing = this.getLeavesOfType(type).find((leaf) => leaf.getRoot() === dock);
    const leaf = existing ?? this.newLeaf(options.split ? this.newTabs(dock) : this.tabsIn(dock));
    await leaf.setViewState({ type, active: options.active ?? false, state: options.state });
    if (options.reveal ?? true) await this.revealLeaf(leaf);
    return leaf;
  }

  /** Shows the leaf: expands its side dock and makes it the current tab. Does not activate it. */
  async revealLeaf(leaf: WorkspaceLeaf): Promise<void> {
    const root = leaf.getRoot();
    if (root instanceof WorkspaceSidedock) root.expand();
    leaf.parent.selectTab(leaf);
    await leaf.loadIfDeferred();
  }

  setActiveLeaf(leaf: WorkspaceLeaf, params?: { focus?: boolean } | boolean, focus?: boolean): void {
    void params;
    void focus;
    if (this.activeLeaf !== leaf) {
      this.activeLeaf?.containerEl.removeClass('mod-active');
      this.activeLeaf = leaf;
      leaf.activeTime = ++this.activations;
      leaf.containerEl.addClass('mod-active');
      leaf.parent.selectTab(leaf);
      // Set before the event, so its handlers already see the new active editor.
      this.activeEditor = leaf.view instanceof MarkdownView ? leaf.view : null;
      this.trigger('active-leaf-change', leaf);
    }
    this.syncActiveView();
  }

  /** Internal: the active leaf's view or file changed; update activeEditor and fire file-open. */
  syncActiveView(): void {
    const view = this.activeLeaf?.view;
    this.activeEditor = view instanceof MarkdownView ? view : null;
    if (!this.activeLeaf || !(view instanceof FileView) || !view.file) return;
    if (this.lastOpened?.leaf === this.activeLeaf && this.lastOpened.file === view.file) return;
    this.lastOpened = { leaf: this.activeLeaf, file: view.file };
    this.lastActiveFile = view.file;
    this.recentFiles = [view.file.path, ...this.recentFiles.filter((p) => p !== view.file?.path)].slice(0, 10);
    this.trigger('file-open', view.file);
  }

  getActiveViewOfType<T extends View>(type: abstract new (...args: never[]) => T): T | null {
    const view = this.activeLeaf?.view;
    return view instanceof type ? view : null;
  }

  /** The active view's file if it is a file view, else the most recently active file. */
  getActiveFile(): TFile | null {
    const view = this.activeLeaf?.view;
    return view instanceof FileView ? view.file : this.lastActiveFile;
  }

  getLastOpenFiles(): string[] {
    return [...this.recentFiles];
  }

  getMostRecentLeaf(root: WorkspaceParent = this.rootSplit): WorkspaceLeaf | null {
    let best: WorkspaceLeaf | null = null;
    for (const leaf of leavesUnder(root)) if (!best || leaf.activeTime > best.activeTime) best = leaf;
    return best;
  }

  getLeafById(id: string): WorkspaceLeaf | null {
    let found: WorkspaceLeaf | null = null;
    this.iterateAllLeaves((leaf) => {
      if (leaf.id === id) found = leaf;
    });
    return found;
  }

  iterateRootLeaves(callback: (leaf: WorkspaceLeaf) => unknown): void {
    for (const leaf of leavesUnder(this.rootSplit)) callback(leaf);
  }

  iterateAllLeaves(callback: (leaf: WorkspaceLeaf) => unknown): void {
    for (const split of [this.rootSplit, this.leftSplit, this.rightSplit]) for (const leaf of leavesUnder(split)) callback(leaf);
  }

  getLeavesOfType(viewType: string): WorkspaceLeaf[] {
    const leaves: WorkspaceLeaf[] = [];
    this.iterateAllLeaves((leaf) => {
      if (leaf.view.getViewType() === viewType) leaves.push(leaf);
    });
    return leaves;
  }

  detachLeavesOfType(viewType: string): void {
    for (const leaf of this.getLeavesOfType(viewType)) void leaf.detach();
  }

  /**
   * Resolves the link like a click on it: to the best-matching file, or — for a link to a missing
   * note — to a new note created at that path (with its folders), then opens it.
   */
  async openLinkText(linktext: string, sourcePath: string, newLeaf?: PaneType | boolean, openViewState?: OpenViewState): Promise<void> {
    const { path } = parseLinktext(linktext);
    const vault = this.app.vault;
    let file = path === '' ? vault.getFileByPath(sourcePath) : this.app.metadataCache.getFirstLinkpathDest(path, sourcePath);
    if (!file && path !== '') {
      const target = normalizePath(path.endsWith('.md') ? path : `${path}.md`);
      const folder = parentPath(target);
      if (folder !== '/' && !vault.getAbstractFileByPath(folder)) await vault.createFolder(folder);
      file = await vault.create(target, '');
    }
    if (file) await this.getLeaf(newLeaf).openFile(file, openViewState);
  }

  /** Internal: takes a leaf out of the layout; the root always keeps at least one (empty) leaf. */
  removeLeaf(leaf: WorkspaceLeaf): void {
    const tabs = leaf.parent;
    tabs.removeChild(leaf);
    const next = tabs.children.find((child): child is WorkspaceLeaf => child instanceof WorkspaceLeaf);
    if (next) tabs.selectTab(next);
    else if (tabs.parent) tabs.parent.removeChild(tabs);
    if (!this.getMostRecentLeaf(this.rootSplit)) this.newLeaf(this.tabsIn(this.rootSplit));
    if (this.activeLeaf === leaf) {
      this.activeLeaf = null;
      const fallback = this.getMostRecentLeaf(this.rootSplit);
      if (fallback) this.setActiveLeaf(fallback, { focus: true });
    }
    this.trigger('layout-change');
  }

  override on(name: 'active-leaf-change', callback: (leaf: WorkspaceLeaf | null) => unknown, ctx?: unknown): EventRef;
  override on(name: 'file-open', callback: (file: TFile | null) => unknown, ctx?: unknown): EventRef;
  override on(name: 'layout-change' | 'css-change' | 'resize', callback: () => unknown, ctx?: unknown): EventRef;
  override on(name: 'editor-change', callback: (editor: Editor, info: MarkdownView) => unknown, ctx?: unknown): EventRef;
  override on(name: string, callback: (...data: never[]) => unknown, ctx?: unknown): EventRef;
  override on(name: string, callback: (...data: never[]) => unknown, ctx?: unknown): EventRef {
    return super.on(name, callback, ctx);
  }

  private newTabs(split: WorkspaceSplit): WorkspaceTabs {
    const tabs = new WorkspaceTabs(split);
    split.insertChild(tabs);
    return tabs;
  }

  private tabsIn(split: WorkspaceSplit): WorkspaceTabs {
    return split.children.find((child): child is WorkspaceTabs => child instanceof WorkspaceTabs) ?? this.newTabs(split);
  }

  private newLeaf(tabs: WorkspaceTabs): WorkspaceLeaf {
    const leaf = new WorkspaceLeaf(this.app, tabs);
    tabs.insertChild(leaf);
    this.leafByEl.set(leaf.containerEl, leaf);
    this.trigger('layout-change');
    return leaf;
  }
}
