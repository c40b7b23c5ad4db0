// @vitest-environment jsdom
// Plugin: data.json, commands, ribbon and status bar, views, post-processors — and that unload
// takes all of it away.
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type App,
  Component,
  type Editor,
  EditorSuggest,
  type EditorPosition,
  type EditorSuggestTriggerInfo,
  ItemView,
  MarkdownRenderer,
  MarkdownView,
  Plugin,
  TFile,
  type WorkspaceLeaf,
} from './index';
import {
  changeDataExternally,
  createTestApp,
  destroyTestApp,
  liveIntervalCount,
  liveListenerCount,
  loadPlugin,
  pluginDataJson,
  runCommand,
  triggerEditorSuggest,
  unloadPlugin,
} from './testing';

class ChatView extends ItemView {
  closed = false;

  getViewType(): string {
    return 'chat';
  }

  getDisplayText(): string {
    return 'Chat';
  }

  protected override async onClose(): Promise<void> {
    this.closed = true;
  }
}

class TagSuggest extends EditorSuggest<string> {
  chosen: string[] = [];

  onTrigger(cursor: EditorPosition, editor: Editor): EditorSuggestTriggerInfo | null {
    const before = editor.getLine(cursor.line).slice(0, cursor.ch);
    const match = /@(\w*)$/.exec(before);
    return match ? { start: { line: cursor.line, ch: cursor.ch - match[0].length }, end: cursor, query: match[1] ?? '' } : null;
  }

  getSuggestions(context: { query: string }): string[] {
    return ['alpha', 'beta'].filter((s) => s.startsWith(context.query));
  }

  renderSuggestion(value: string, el: HTMLElement): void {
    el.setText(value);
  }

  selectSuggestion(value: string): void {
    this.chosen.push(value);
    this.close();
  }
}

class TestPlugin extends Plugin {
  log: string[] = [];
  external = vi.fn();
  suggest!: TagSuggest;

  override async onload(): Promise<void> {
    await Promise.resolve();
    this.settings = (await this.loadData()) ?? { greeting: 'hi' };
    this.addCommand({ id: 'say', name: 'Say', callback: () => this.log.push('said') });
    this.addCommand({
      id: 'check',
      name: 'Check',
      checkCallback: (checking) => {
        this.log.push(`check ${String(checking)}`);
        return this.log.length < 100;
      },
    });
    this.addCommand({
      id: 'insert',
      name: 'Insert',
      editorCallback: (editor) => editor.replaceSelection('[inserted]'),
    });
    this.addRibbonIcon('message-square', 'Open chat', () => this.log.push('ribbon'));
    this.addStatusBarItem().setText('Ready');
    this.registerView('chat', (leaf: WorkspaceLeaf) => new ChatView(leaf));
    this.registerDomEvent(activeDocument, 'keydown', () => this.log.push('key'));
    this.registerInterval(window.setInterval(() => this.log.push('tick'), 60_000));
    this.registerMarkdownPostProcessor((el) => {
      el.addClass('post-processed');
    });
    this.registerMarkdownCodeBlockProcessor('chart', (source, el) => {
      el.setText(`chart of ${source}`);
    });
    this.suggest = new TagSuggest(this.app);
    this.registerEditorSuggest(this.suggest);
    this.log.push('loaded');
  }

  override onExternalSettingsChange(): void {
    this.external();
  }
}

let app: App;

afterEach(async () => {
  await destroyTestApp(app);
});

function fileAt(path: string): TFile {
  const file = app.vault.getFileByPath(path);
  if (!file) throw new Error(`no file ${path}`);
  return file;
}

describe('loading', () => {
  it('constructs the plugin with the repository manifest and waits for an async onload', async () => {
    app = createTestApp();
    const plugin = await loadPlugin(TestPlugin, { id: 'test-plugin', name: 'Test plugin' });
    expect(plugin.log).toContain('loaded');
    expect(plugin.manifest).toMatchObject({ id: 'test-plugin', name: 'Test plugin', dir: '.obsidian/plugins/test-plugin' });
    expect(plugin.manifest.version).toBeTruthy();
    expect(plugin.app).toBe(app);
    expect(app.plugins.getPlugin('test-plugin')).toBe(plugin);
    expect(await app.vault.adapter.exists('.obsidian/plugins/test-plugin/manifest.json')).toBe(true);
  });
});

describe('data.json', () => {
  it('loads null before the first save, then round-trips what was saved, as Obsidian writes it', async () => {
    app = createTestApp();
    const plugin = await loadPlugin(TestPlugin, { id: 'test-plugin' });
    expect(plugin.settings).toEqual({ greeting: 'hi' });
    expect(pluginDataJson(app, 'test-plugin')).toBeNull();
    await plugin.saveData({ greeting: 'hello', n: 1 });
    expect(pluginDataJson(app, 'test-plugin')).toBe('{\n  "greeting": "hello",\n  "n": 1\n}');
    expect(await plugin.loadData()).toEqual({ greeting: 'hello', n: 1 });
  });

  it('tells the plugin when data.json changes on disk', async () => {
    app = createTestApp();
    const plugin = await loadPlugin(TestPlugin, { id: 'test-plugin' });
    await changeDataExternally(app, 'test-plugin', { greeting: 'synced' });
    expect(plugin.external).toHaveBeenCalled();
    expect(await plugin.loadData()).toEqual({ greeting: 'synced' });
  });
});

describe('commands', () => {
  it('prefixes ids and names and runs callbacks by full id', async () => {
    app = createTestApp();
    const plugin = await loadPlugin(TestPlugin, { id: 'test-plugin', name: 'Test plugin' });
    expect(app.commands.findCommand('test-plugin:say')?.name).toBe('Test plugin: Say');
    expect(runCommand(app, 'test-plugin:say')).toBe(true);
    expect(plugin.log).toContain('said');
    expect(runCommand(app, 'test-plugin:missing')).toBe(false);
  });

  it('asks a checkCallback before running it', async () => {
    app = createTestApp();
    const plugin = await loadPlugin(TestPlugin, { id: 'test-plugin' });
    runCommand(app, 'test-plugin:check');
    expect(plugin.log.slice(-2)).toEqual(['check true', 'check false']);
  });

  it('runs editor commands only with an active Markdown editor', async () => {
    app = createTestApp({ files: { 'note.md': 'Text ' } });
    await loadPlugin(TestPlugin, { id: 'test-plugin' });
    expect(runCommand(app, 'test-plugin:insert')).toBe(false);
    await app.workspace.getLeaf(false).openFile(fileAt('note.md'));
    app.workspace.activeEditor?.editor.setCursor({ line: 0, ch: 5 });
    expect(runCommand(app, 'test-plugin:insert')).toBe(true);
    expect(app.workspace.getActiveViewOfType(MarkdownView)?.editor.getValue()).toBe('Text [inserted]');
  });
});

describe('UI contributions', () => {
  it('places ribbon icons and status bar items', async () => {
    app = createTestApp();
    const plugin = await loadPlugin(TestPlugin, { id: 'test-plugin' });
    const ribbon = app.workspace.leftRibbon.containerEl.find('[aria-label="Open chat"]');
    expect(ribbon?.querySelector('.lucide-message-square')).not.toBeNull();
    ribbon?.click();
    expect(plugin.log).toContain('ribbon');
    expect(app.statusBarEl.find('.status-bar-item.plugin-test-plugin')?.getText()).toBe('Ready');
  });

  it('runs post-processors and code block processors on rendered Markdown', async () => {
    app = createTestApp();
    await loadPlugin(TestPlugin, { id: 'test-plugin' });
    const el = createDiv();
    const renderOwner = new Component();
    await MarkdownRenderer.render(app, 'Text\n\n```chart\n1,2\n```', el, '', renderOwner);
    expect(el.hasClass('post-processed')).toBe(true);
    expect(el.find('.block-language-chart')?.getText()).toBe('chart of 1,2');
    expect(el.find('pre')).toBeNull();
  });

  it('offers the active editor to registered editor suggests', async () => {
    app = createTestApp({ files: { 'note.md': 'Ask @al' } });
    const plugin = await loadPlugin(TestPlugin, { id: 'test-plugin' });
    await app.workspace.getLeaf(false).openFile(fileAt('note.md'));
    app.workspace.activeEditor?.editor.setCursor({ line: 0, ch: 7 });
    expect(await triggerEditorSuggest(app)).toBe(true);
    expect(plugin.suggest.context?.query).toBe('al');
    const item = activeDocument.body.find('.suggestion-container .suggestion-item');
    expect(item?.getText()).toBe('alpha');
    item?.click();
    expect(plugin.suggest.chosen).toEqual(['alpha']);
  });
});

describe('hover link sources', () => {
  it('registers a view type as a hover-link source and removes it on unload', async () => {
    app = createTestApp();
    class HoverPlugin extends Plugin {
      override onload(): void {
        this.registerHoverLinkSource('chat', { display: 'Chat', defaultMod: true });
      }
    }
    const plugin = await loadPlugin(HoverPlugin, { id: 'hover-plugin' });
    expect(app.workspace.hoverLinkSources.chat).toEqual({ display: 'Chat', defaultMod: true });
    await unloadPlugin(plugin);
    expect(app.workspace.hoverLinkSources.chat).toBeUndefined();
  });
});

describe('unloading', () => {
  it('removes everything the plugin added and leaves no listener or interval running', async () => {
    app = createTestApp({ files: { 'note.md': '' } });
    const plugin = await loadPlugin(TestPlugin, { id: 'test-plugin' });
    const leaf = app.workspace.getRightLeaf(false);
    await leaf?.setViewState({ type: 'chat' });
    const view = leaf?.view;
    expect(view).toBeInstanceOf(ChatView);
    expect(liveListenerCount()).toBeGreaterThan(0);
    expect(liveIntervalCount()).toBe(1);

    await unloadPlugin(plugin);
    expect(liveListenerCount()).toBe(0);
    expect(liveIntervalCount()).toBe(0);
    expect(Object.keys(app.commands.commands)).toEqual([]);
    expect(app.workspace.leftRibbon.containerEl.childElementCount).toBe(0);
    expect(app.statusBarEl.childElementCount).toBe(0);
    expect(app.workspace.editorSuggest.suggests).toEqual([]);
    // The view is closed, but its leaf stays where the user put it…
    expect(view instanceof ChatView && view.closed).toBe(true);
    expect(leaf?.view.getViewType()).toBe('empty');
    expect(leaf?.getViewState().type).toBe('chat');
    const el = createDiv();
    const renderOwner = new Component();
    await MarkdownRenderer.render(app, 'Text', el, '', renderOwner);
    expect(el.hasClass('post-processed')).toBe(false);

    // …and shows the view again when the plugin comes back.
    await loadPlugin(TestPlugin, { id: 'test-plugin' });
    await Promise.resolve();
    expect(leaf?.view).toBeInstanceOf(ChatView);
  });

  it('catches a plugin that leaks a raw document listener', async () => {
    class LeakyPlugin extends Plugin {
      override onload(): void {
        activeDocument.addEventListener('click', () => {});
      }
    }
    app = createTestApp();
    const plugin = await loadPlugin(LeakyPlugin, { id: 'leaky' });
    await unloadPlugin(plugin);
    expect(liveListenerCount()).toBe(1);
  });
});
