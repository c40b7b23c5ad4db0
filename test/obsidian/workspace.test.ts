// @vitest-environment jsdom
// Workspace, leaves and views: lifecycle, activation, files and links.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ItemView, MarkdownView, TFile, WorkspaceLeaf, WorkspaceSidedock, type App } from './index';
import { createTestApp, deferLeaf, destroyTestApp, liveListenerCount, settle } from './testing';

const VIEW_TYPE = 'test-view';

class TestView extends ItemView {
  events: string[] = [];
  override navigation = false;

  getViewType(): string {
    return VIEW_TYPE;
  }

  getDisplayText(): string {
    return 'Test view';
  }

  override getState(): Record<string, unknown> {
    return { count: this.events.length };
  }

  protected override async onOpen(): Promise<void> {
    this.events.push('open');
    this.contentEl.createEl('p', { text: 'Hello' });
    this.registerDomEvent(activeDocument, 'keydown', () => this.events.push('key'));
  }

  protected override async onClose(): Promise<void> {
    this.events.push(this._loaded ? 'close (loaded)' : 'close (unloaded)');
  }
}

function fileAt(app: App, path: string): TFile {
  const file = app.vault.getFileByPath(path);
  if (!file) throw new Error(`no file ${path}`);
  return file;
}

let app: App;

function withTestView(files: Record<string, string> = {}): App {
  app = createTestApp({ files });
  app.viewRegistry.registerView(VIEW_TYPE, (leaf) => new TestView(leaf));
  return app;
}

afterEach(async () => {
  await destroyTestApp(app);
});

describe('views in leaves', () => {
  it('opens a registered view in a side leaf: loaded, onOpen run, header and content in the DOM', async () => {
    withTestView();
    const leaf = app.workspace.getRightLeaf(false);
    if (!leaf) throw new Error('no leaf');
    await leaf.setViewState({ type: VIEW_TYPE, active: true });
    const view = leaf.view;
    expect(view).toBeInstanceOf(TestView);
    if (!(view instanceof TestView)) return;
    expect(view.events).toEqual(['open']);
    expect(view._loaded).toBe(true);
    expect(view.containerEl.isConnected).toBe(true);
    expect(view.containerEl.getAttr('data-type')).toBe(VIEW_TYPE);
    expect(view.containerEl.children[0]?.hasClass('view-header')).toBe(true);
    expect(view.containerEl.children[1]).toBe(view.contentEl);
    expect(view.contentEl.getText()).toBe('Hello');
    expect(view.containerEl.find('.view-header-title').getText()).toBe('Test view');
    expect(app.workspace.getLeavesOfType(VIEW_TYPE)).toEqual([leaf]);
    expect(leaf.getRoot()).toBe(app.workspace.rightSplit);
    expect(leaf.getViewState()).toMatchObject({ type: VIEW_TYPE, state: { count: 1 } });
    expect(app.workspace.getActiveViewOfType(TestView)).toBe(view);
  });

  it('detaches: the view gets onClose while loaded, then is unloaded with its listeners', async () => {
    withTestView();
    const leaf = app.workspace.getRightLeaf(false);
    await leaf?.setViewState({ type: VIEW_TYPE });
    const view = leaf?.view;
    if (!(view instanceof TestView) || !leaf) throw new Error('no view');
    expect(liveListenerCount()).toBe(1);
    await leaf.detach();
    expect(view.events).toEqual(['open', 'close (loaded)']);
    expect(view._loaded).toBe(false);
    activeDocument.dispatchEvent(new KeyboardEvent('keydown', { key: 'x' }));
    expect(view.events).not.toContain('key');
    expect(liveListenerCount()).toBe(0);
    expect(app.workspace.getLeavesOfType(VIEW_TYPE)).toEqual([]);
    expect(leaf.containerEl.isConnected).toBe(false);
  });

  it('detaches all leaves of a type', async () => {
    withTestView();
    await app.workspace.getRightLeaf(false)?.setViewState({ type: VIEW_TYPE });
    await app.workspace.getLeftLeaf(true)?.setViewState({ type: VIEW_TYPE });
    app.workspace.detachLeavesOfType(VIEW_TYPE);
    await settle();
    expect(app.workspace.getLeavesOfType(VIEW_TYPE)).toHaveLength(0);
  });

  it('reveals a leaf in a collapsed side dock', async () => {
    withTestView();
    const dock = app.workspace.rightSplit;
    const leaf = app.workspace.getRightLeaf(false);
    const other = app.workspace.getRightLeaf(false);
    if (!leaf || !other) throw new Error('no leaf');
    await leaf.setViewState({ type: VIEW_TYPE });
    dock.collapse();
    expect(leaf.containerEl.isShown()).toBe(false);
    await app.workspace.revealLeaf(other);
    await app.workspace.revealLeaf(leaf);
    expect(dock).toBeInstanceOf(WorkspaceSidedock);
    expect(dock.collapsed).toBe(false);
    expect(leaf.containerEl.isShown()).toBe(true);
    expect(other.containerEl.isShown()).toBe(false);
  });

  it('keeps a deferred leaf unloaded until it is revealed', async () => {
    withTestView();
    const leaf = app.workspace.getRightLeaf(false);
    if (!leaf) throw new Error('no leaf');
    await leaf.setViewState({ type: VIEW_TYPE });
    const loaded = leaf.view;
    await deferLeaf(leaf);
    expect(leaf.isDeferred).toBe(true);
    expect(app.workspace.getLeavesOfType(VIEW_TYPE)).toEqual([leaf]);
    expect(leaf.view).not.toBeInstanceOf(loaded.constructor);
    await app.workspace.revealLeaf(leaf);
    expect(leaf.isDeferred).toBe(false);
    expect(leaf.view).toBeInstanceOf(loaded.constructor);
    expect(leaf.view).not.toBe(loaded);
  });

  it('loads a deferred leaf with loadIfDeferred', async () => {
    withTestView();
    const leaf = app.workspace.getRightLeaf(false);
    if (!leaf) throw new Error('no leaf');
    await leaf.setViewState({ type: VIEW_TYPE });
    const ViewClass = leaf.view.constructor;
    await deferLeaf(leaf);
    expect(leaf.getViewState().type).toBe(VIEW_TYPE);
    await leaf.loadIfDeferred();
    expect(leaf.isDeferred).toBe(false);
    expect(leaf.view).toBeInstanceOf(ViewClass);
  });

  it('ensures a single side leaf of a type', async () => {
    withTestView();
    const first = await app.workspace.ensureSideLeaf(VIEW_TYPE, 'right');
    const second = await app.workspace.ensureSideLeaf(VIEW_TYPE, 'right');
    expect(second).toBe(first);
    expect(app.workspace.getLeavesOfType(VIEW_TYPE)).toHaveLength(1);
  });

  it('keeps an empty view for an unknown type, remembering the state', async () => {
    withTestView();
    const leaf = app.workspace.getLeaf(true);
    await leaf.setViewState({ type: 'not-registered', state: { a: 1 } });
    expect(leaf.view.getViewType()).toBe('empty');
    expect(leaf.getViewState()).toEqual({ type: 'not-registered', state: { a: 1 } });
  });

  it('draws a header per tab (title, current one marked); a click on one shows its leaf', async () => {
    withTestView();
    const first = app.workspace.getRightLeaf(false);
    const second = app.workspace.getRightLeaf(false);
    if (!first || !second) throw new Error('no leaf');
    await first.setViewState({ type: VIEW_TYPE });
    await second.setViewState({ type: VIEW_TYPE });
    await app.workspace.revealLeaf(second);
    const headers = (): HTMLElement[] => first.parent.containerEl.findAll('.workspace-tab-header');
    expect(headers().map((h) => h.getAttr('aria-label'))).toEqual(['Test view', 'Test view']);
    expect(headers().map((h) => h.hasClass('is-active'))).toEqual([false, true]);
    expect(first.containerEl.isShown()).toBe(false);
    headers()[0]?.click();
    await settle();
    expect(first.containerEl.isShown()).toBe(true);
    expect(second.containerEl.isShown()).toBe(false);
    expect(headers().map((h) => h.hasClass('is-active'))).toEqual([true, false]);
    await second.detach();
    expect(headers()).toHaveLength(1);
  });

  it('adds header actions', async () => {
    withTestView();
    const leaf = app.workspace.getRightLeaf(false);
    await leaf?.setViewState({ type: VIEW_TYPE });
    const view = leaf?.view;
    if (!(view instanceof TestView)) throw new Error('no view');
    const onClick = vi.fn();
    const action = view.addAction('trash', 'Clear chat', onClick);
    action.click();
    expect(onClick).toHaveBeenCalled();
    expect(action.getAttr('aria-label')).toBe('Clear chat');
    expect(action.querySelector('.lucide-trash')).not.toBeNull();
  });
});

describe('activation and files', () => {
  it('opens files in the root, making them the active file with file-open and active-leaf-change', async () => {
    withTestView({ 'a.md': 'A', 'b.md': 'B' });
    const log: string[] = [];
    app.workspace.on('file-open', (file: TFile | null) => log.push(`file-open ${file?.path ?? 'null'}`));
    app.workspace.on('active-leaf-change', (leaf: WorkspaceLeaf | null) => log.push(`leaf ${leaf?.view.getViewType() ?? 'null'}`));
    const leaf = app.workspace.getLeaf(false);
    await leaf.openFile(fileAt(app, 'a.md'));
    expect(app.workspace.getActiveFile()?.path).toBe('a.md');
    expect(app.workspace.activeLeaf).toBe(leaf);
    await app.workspace.getLeaf(true).openFile(fileAt(app, 'b.md'));
    expect(app.workspace.getActiveFile()?.path).toBe('b.md');
    expect(log).toEqual(['file-open a.md', 'leaf markdown', 'file-open b.md']);
    expect(app.workspace.getLastOpenFiles()).toEqual(['b.md', 'a.md']);
  });

  it('reuses the empty or navigable leaf for getLeaf(false) and makes new tabs for getLeaf(true)', async () => {
    withTestView({ 'a.md': '' });
    const first = app.workspace.getLeaf(false);
    expect(app.workspace.getLeaf()).toBe(first);
    await first.openFile(fileAt(app, 'a.md'));
    expect(app.workspace.getLeaf(false)).toBe(first);
    first.setPinned(true);
    expect(app.workspace.getLeaf(false)).not.toBe(first);
    expect(app.workspace.getLeaf('tab')).not.toBe(first);
    expect(app.workspace.getLeaf('split').parent).not.toBe(first.parent);
  });

  it('makes a sidebar view the active leaf when clicked, while the active file stays', async () => {
    withTestView({ 'note.md': 'Text' });
    await app.workspace.getLeaf(false).openFile(fileAt(app, 'note.md'));
    expect(app.workspace.getActiveViewOfType(MarkdownView)).not.toBeNull();
    const side = app.workspace.getRightLeaf(false);
    await side?.setViewState({ type: VIEW_TYPE });
    side?.view.containerEl.find('p')?.dispatchEvent(new MouseEvent('mousedown', { bubbles: true }));
    expect(app.workspace.activeLeaf).toBe(side);
    expect(app.workspace.getActiveViewOfType(MarkdownView)).toBeNull();
    expect(app.workspace.activeEditor).toBeNull();
    expect(app.workspace.getActiveFile()?.path).toBe('note.md');
  });

  it('falls back to another leaf when the active one is detached', async () => {
    withTestView({ 'a.md': '' });
    const main = app.workspace.getLeaf(false);
    await main.openFile(fileAt(app, 'a.md'));
    const side = app.workspace.getRightLeaf(false);
    await side?.setViewState({ type: VIEW_TYPE, active: true });
    await side?.detach();
    expect(app.workspace.activeLeaf).toBe(main);
  });

  it('runs onLayoutReady callbacks once the layout is ready, and at once afterwards', () => {
    app = createTestApp({ layoutReady: false });
    const early = vi.fn();
    app.workspace.onLayoutReady(early);
    expect(early).not.toHaveBeenCalled();
    app.workspace.markLayoutReady();
    expect(early).toHaveBeenCalledTimes(1);
    const late = vi.fn();
    app.workspace.onLayoutReady(late);
    expect(late).toHaveBeenCalledTimes(1);
  });

  it('opens link text: resolves it from the source, or creates the missing note', async () => {
    withTestView({ 'notes/Target.md': 'T', 'notes/Source.md': '' });
    await app.workspace.openLinkText('Target#Section', 'notes/Source.md');
    expect(app.workspace.getActiveFile()?.path).toBe('notes/Target.md');
    await app.workspace.openLinkText('new/Fresh note', 'notes/Source.md', true);
    expect(app.workspace.getActiveFile()?.path).toBe('new/Fresh note.md');
    expect(await app.vault.adapter.read('new/Fresh note.md')).toBe('');
  });
});

describe('MarkdownView and its editor', () => {
  async function openNote(content: string): Promise<MarkdownView> {
    withTestView({ 'note.md': content });
    await app.workspace.getLeaf(false).openFile(fileAt(app, 'note.md'));
    const view = app.workspace.getActiveViewOfType(MarkdownView);
    if (!view) throw new Error('no markdown view');
    return view;
  }

  it('loads the file into the editor, and inserting at the cursor saves back to the file', async () => {
    const view = await openNote('line one\nline two');
    const editor = view.editor;
    expect(view.file?.path).toBe('note.md');
    expect(editor.lineCount()).toBe(2);
    editor.setCursor({ line: 1, ch: 4 });
    editor.replaceSelection(' inserted');
    expect(editor.getValue()).toBe('line one\nline inserted two');
    expect(editor.getCursor()).toEqual({ line: 1, ch: 13 });
    const changes = vi.fn();
    app.workspace.on('editor-change', changes);
    editor.replaceRange('!', { line: 0, ch: 8 });
    expect(changes).toHaveBeenCalledWith(editor, view);
    await view.save();
    expect(await app.vault.read(fileAt(app, 'note.md'))).toBe('line one!\nline inserted two');
  });

  it('autosaves two seconds after the last edit', async () => {
    const view = await openNote('a');
    vi.useFakeTimers();
    try {
      view.editor.setValue('b');
      vi.advanceTimersByTime(2000);
    } finally {
      vi.useRealTimers();
    }
    await settle();
    expect(await app.vault.adapter.read('note.md')).toBe('b');
  });

  it('shows changes written to the file by someone else', async () => {
    const view = await openNote('old');
    await app.vault.process(fileAt(app, 'note.md'), (data) => `${data}\nappended`);
    await settle();
    expect(view.editor.getValue()).toBe('old\nappended');
  });

  it('exposes the active MarkdownView as activeEditor', async () => {
    const view = await openNote('x');
    expect(app.workspace.activeEditor).toBe(view);
  });

  it('returns to an empty view when its file is deleted, without saving into it', async () => {
    const view = await openNote('x');
    const leaf = view.leaf;
    view.editor.setValue('unsaved edit');
    await app.fileManager.trashFile(fileAt(app, 'note.md'));
    await settle();
    expect(leaf.view.getViewType()).toBe('empty');
    expect(view._loaded).toBe(false);
    expect(app.vault.getFileByPath('note.md')).toBeNull();
  });
});
