// @vitest-environment jsdom
// Modals, notices, suggesters, menus and key scopes.
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  AbstractInputSuggest,
  type App,
  FuzzySuggestModal,
  Keymap,
  Menu,
  Modal,
  Notice,
  Platform,
  Scope,
  SuggestModal,
} from './index';
import { createTestApp, destroyTestApp, pressKey, setPlatform, settle, shownNotices, typeInto } from './testing';

let app: App;

afterEach(async () => {
  vi.useRealTimers();
  await destroyTestApp(app);
});

class ConfirmModal extends Modal {
  log: string[] = [];

  override onOpen(): void {
    this.setTitle('Delete chat?');
    this.contentEl.createEl('p', { text: 'This cannot be undone.' });
    this.log.push('open');
  }

  override onClose(): void {
    this.contentEl.empty();
    this.log.push('close');
  }
}

describe('Modal', () => {
  it('is in the document only while open, with its title and content', () => {
    app = createTestApp();
    const modal = new ConfirmModal(app);
    expect(modal.containerEl.isConnected).toBe(false);
    modal.open();
    expect(modal.containerEl.parentElement).toBe(activeDocument.body);
    expect(modal.modalEl.find('.modal-title')?.getText()).toBe('Delete chat?');
    expect(modal.contentEl.getText()).toBe('This cannot be undone.');
    modal.close();
    expect(modal.containerEl.isConnected).toBe(false);
    expect(modal.log).toEqual(['open', 'close']);
  });

  it('closes on Escape through its scope, and on the close button', () => {
    app = createTestApp();
    const modal = new ConfirmModal(app);
    const closed = vi.fn();
    modal.setCloseCallback(closed);
    modal.open();
    const event = pressKey('Escape');
    expect(event.defaultPrevented).toBe(true);
    expect(modal.log).toEqual(['open', 'close']);
    expect(closed).toHaveBeenCalled();
    modal.open();
    modal.modalEl.find('.modal-close-button')?.click();
    expect(modal.log).toEqual(['open', 'close', 'open', 'close']);
  });

  it('sets plain content from a string or a fragment', () => {
    app = createTestApp();
    const modal = new Modal(app).setContent('<b>plain</b>');
    expect(modal.contentEl.getText()).toBe('<b>plain</b>');
    modal.setContent(createFragment((f) => f.createEl('b', { text: 'Bold' })));
    expect(modal.contentEl.innerHTML).toBe('<b>Bold</b>');
  });
});

describe('Notice', () => {
  it('shows messages in the document and records them for tests', () => {
    app = createTestApp();
    vi.useFakeTimers();
    const notice = new Notice('Saved');
    new Notice(createFragment((f) => f.createEl('strong', { text: 'Failed' })), 0);
    expect(notice.containerEl.isConnected).toBe(true);
    expect(notice.messageEl.getText()).toBe('Saved');
    expect(notice.noticeEl).toBe(notice.messageEl);
    notice.setMessage('Saved again');
    expect(shownNotices()).toEqual(['Saved again', 'Failed']);
    vi.advanceTimersByTime(5000);
    expect(notice.containerEl.isConnected).toBe(false);
    expect(shownNotices()).toHaveLength(2);
  });

  it('starts each test app with no recorded notices', () => {
    app = createTestApp();
    new Notice('Old', 0).hide();
    app = createTestApp();
    expect(shownNotices()).toEqual([]);
  });
});

class ModelModal extends SuggestModal<string> {
  chosen: string[] = [];
  models = ['llama3.1:8b', 'gpt-4o', 'claude-sonnet-4'];

  getSuggestions(query: string): string[] {
    return this.models.filter((m) => m.includes(query));
  }

  renderSuggestion(value: string, el: HTMLElement): void {
    el.setText(value);
  }

  onChooseSuggestion(item: string): void {
    this.chosen.push(item);
  }
}

class NoteModal extends FuzzySuggestModal<string> {
  chosen: string[] = [];

  getItems(): string[] {
    return ['Daily note', 'Project plan', 'Reading list'];
  }

  getItemText(item: string): string {
    return item;
  }

  onChooseItem(item: string): void {
    this.chosen.push(item);
  }
}

describe('SuggestModal and FuzzySuggestModal', () => {
  it('filters on input, moves with the arrows and chooses with Enter, closing first', async () => {
    app = createTestApp();
    const modal = new ModelModal(app);
    modal.setPlaceholder('Pick a model');
    modal.open();
    await settle();
    expect(modal.resultContainerEl.findAll('.suggestion-item')).toHaveLength(3);
    typeInto(modal.inputEl, 'g');
    await settle();
    expect(modal.resultContainerEl.findAll('.suggestion-item').map((el) => el.getText())).toEqual(['gpt-4o']);
    typeInto(modal.inputEl, '');
    await settle();
    pressKey('ArrowDown');
    expect(modal.resultContainerEl.find('.is-selected')?.getText()).toBe('gpt-4o');
    pressKey('Enter');
    expect(modal.chosen).toEqual(['gpt-4o']);
    expect(modal.containerEl.isConnected).toBe(false);
  });

  it('shows the empty state', async () => {
    app = createTestApp();
    const modal = new ModelModal(app);
    modal.emptyStateText = 'No model';
    modal.open();
    typeInto(modal.inputEl, 'zzz');
    await settle();
    expect(modal.resultContainerEl.getText()).toBe('No model');
    modal.close();
  });

  it('fuzzy-matches items, highlighting the matched characters', async () => {
    app = createTestApp();
    const modal = new NoteModal(app);
    expect(modal.getSuggestions('pp').map((m) => m.item)).toEqual(['Project plan']);
    modal.open();
    typeInto(modal.inputEl, 'rl');
    await settle();
    const item = modal.resultContainerEl.find('.suggestion-item');
    expect(item?.findAll('.suggestion-highlight').map((el) => el.getText())).toEqual(['R', 'l']);
    item?.click();
    expect(modal.chosen).toEqual(['Reading list']);
  });
});

class FolderSuggest extends AbstractInputSuggest<string> {
  protected getSuggestions(query: string): string[] {
    return ['Chats', 'Chats/Archive', 'Notes'].filter((f) => f.toLowerCase().startsWith(query.toLowerCase()));
  }

  renderSuggestion(value: string, el: HTMLElement): void {
    el.setText(value);
  }
}

describe('AbstractInputSuggest', () => {
  it('suggests for what is typed and reports the selection', async () => {
    app = createTestApp();
    const inputEl = activeDocument.body.createEl('input');
    const selected = vi.fn();
    const suggest = new FolderSuggest(app, inputEl).onSelect(selected);
    typeInto(inputEl, 'ch');
    await settle();
    const items = activeDocument.body.findAll('.suggestion-container .suggestion-item');
    expect(items.map((el) => el.getText())).toEqual(['Chats', 'Chats/Archive']);
    items[1]?.click();
    expect(selected).toHaveBeenCalledWith('Chats/Archive', expect.any(MouseEvent));
    expect(activeDocument.body.find('.suggestion-container')).toBeNull();
    suggest.setValue('Notes');
    expect(suggest.getValue()).toBe('Notes');
    inputEl.detach();
  });

  it('reads a contenteditable\'s text, and a textarea\'s text content rather than its typed value', async () => {
    app = createTestApp();
    const div = activeDocument.body.createDiv({ attr: { contenteditable: 'true' } });
    const onDiv = new FolderSuggest(app, div);
    onDiv.setValue('Notes');
    expect(div.getText()).toBe('Notes');
    const area = activeDocument.body.createEl('textarea', { text: 'Initial text' });
    const onArea = new FolderSuggest(app, area as unknown as HTMLInputElement);
    area.value = 'typed';
    expect(onArea.getValue()).toBe('Initial text');
    div.detach();
    area.detach();
  });
});

describe('Menu', () => {
  it('shows items, runs the clicked one and hides, releasing its document listener', () => {
    app = createTestApp();
    const onClick = vi.fn();
    const hidden = vi.fn();
    const menu = new Menu()
      .addItem((item) => item.setTitle('Copy').setIcon('copy').onClick(onClick))
      .addSeparator()
      .addItem((item) => item.setTitle('Delete').setWarning(true).setDisabled(true).onClick(onClick));
    menu.onHide(hidden);
    menu.showAtPosition({ x: 10, y: 20 });
    const items = activeDocument.body.findAll('.menu .menu-item');
    expect(items.map((el) => el.getText())).toEqual(['Copy', 'Delete']);
    items[1]?.click();
    expect(onClick).not.toHaveBeenCalled();
    items[0]?.click();
    expect(onClick).toHaveBeenCalledTimes(1);
    expect(hidden).toHaveBeenCalled();
    expect(menu.dom.isConnected).toBe(false);
  });

  it('closes on a mousedown outside it', () => {
    app = createTestApp();
    const menu = new Menu().addItem((item) => item.setTitle('Copy'));
    menu.showAtMouseEvent(new MouseEvent('contextmenu', { clientX: 1, clientY: 2 }));
    menu.dom.dispatchEvent(new MouseEvent('mousedown', { bubbles: true }));
    expect(menu.dom.isConnected).toBe(true);
    activeDocument.body.dispatchEvent(new MouseEvent('mousedown', { bubbles: true }));
    expect(menu.dom.isConnected).toBe(false);
  });
});

describe('Scope and Keymap', () => {
  it('matches modifiers exactly, with Mod as Ctrl (or Cmd on macOS), and falls back to the parent scope', () => {
    app = createTestApp();
    const parentHit = vi.fn();
    const childHit = vi.fn();
    const parent = new Scope();
    parent.register(null, 'k', parentHit);
    const child = new Scope(parent);
    child.register(['Mod', 'Shift'], 'S', childHit);
    app.keymap.pushScope(child);
    pressKey('s', { ctrl: true });
    expect(childHit).not.toHaveBeenCalled();
    pressKey('s', { ctrl: true, shift: true });
    expect(childHit).toHaveBeenCalledTimes(1);
    pressKey('k', { alt: true });
    expect(parentHit).toHaveBeenCalledTimes(1);
    setPlatform({ isMacOS: true, isLinux: false });
    expect(Platform.isMacOS).toBe(true);
    pressKey('s', { meta: true, shift: true });
    expect(childHit).toHaveBeenCalledTimes(2);
    app.keymap.popScope(child);
  });

  it('classifies modifier clicks as pane types', () => {
    app = createTestApp();
    expect(Keymap.isModEvent(new MouseEvent('click'))).toBe(false);
    expect(Keymap.isModEvent(new MouseEvent('click', { ctrlKey: true }))).toBe('tab');
    expect(Keymap.isModEvent(new MouseEvent('click', { ctrlKey: true, altKey: true }))).toBe('split');
    expect(Keymap.isModEvent(new MouseEvent('click', { ctrlKey: true, altKey: true, shiftKey: true }))).toBe('window');
    expect(Keymap.isModEvent(new MouseEvent('auxclick', { button: 1 }))).toBe('tab');
    expect(Keymap.isModifier(new KeyboardEvent('keydown', { shiftKey: true }), 'Shift')).toBe(true);
  });
});
