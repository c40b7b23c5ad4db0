// Modals. While open, a modal's containerEl is in document.body and its scope is the active key
// scope (Escape closes it); closing removes both and calls onClose.
import type { App } from './app';
import { Scope } from './keymap';
import { renderResults, prepareFuzzySearch } from './search';
import type { SearchResult } from 'obsidian';

export interface Instruction {
  command: string;
  purpose: string;
}

export class Modal {
  app: App;
  scope: Scope;
  containerEl: HTMLElement;
  modalEl: HTMLElement;
  titleEl: HTMLElement;
  contentEl: HTMLElement;
  shouldRestoreSelection = true;
  private closeCallback: (() => unknown) | null = null;
  private isOpen = false;

  constructor(app: App) {
    this.app = app;
    this.scope = new Scope(app.scope);
    this.scope.register([], 'Escape', () => {
      this.close();
      return false;
    });
    this.containerEl = createDiv('modal-container');
    const bg = this.containerEl.createDiv('modal-bg');
    this.modalEl = this.containerEl.createDiv('modal');
    const closeButton = this.modalEl.createDiv({ cls: 'modal-close-button', attr: { 'aria-label': 'Close' } });
    this.titleEl = this.modalEl.createDiv('modal-header').createDiv('modal-title');
    this.contentEl = this.modalEl.createDiv('modal-content');
    bg.addEventListener('click', () => this.close());
    closeButton.addEventListener('click', () => this.close());
  }

  open(): void {
    if (this.isOpen) return;
    this.isOpen = true;
    activeDocument.body.appendChild(this.containerEl);
    this.app.keymap.pushScope(this.scope);
    void this.onOpen();
  }

  close(): void {
    if (!this.isOpen) return;
    this.isOpen = false;
    this.app.keymap.popScope(this.scope);
    this.containerEl.detach();
    this.onClose();
    void this.closeCallback?.();
  }

  onOpen(): Promise<void> | void {}

  onClose(): void {}

  setTitle(title: string): this {
    this.titleEl.setText(title);
    return this;
  }

  setContent(content: string | DocumentFragment): this {
    this.contentEl.setText(content);
    return this;
  }

  setCloseCallback(callback: () => unknown): this {
    this.closeCallback = callback;
    return this;
  }
}

/**
 * A modal with a query input and a result list. Suggestions refresh on every `input` event (and on
 * open); ArrowUp/ArrowDown move the selection and Enter chooses it. Choosing closes the modal
 * before onChooseSuggestion runs, as in Obsidian.
 */
export abstract class SuggestModal<T> extends Modal {
  limit = 50;
  emptyStateText = 'No results found.';
  inputEl: HTMLInputElement;
  resultContainerEl: HTMLElement;
  private readonly instructionsEl: HTMLElement;
  private values: T[] = [];
  private items: HTMLElement[] = [];
  private selected = 0;
  private query = 0;

  constructor(app: App) {
    super(app);
    this.modalEl.addClass('prompt');
    this.inputEl = this.modalEl.createEl('input', { cls: 'prompt-input', type: 'text', prepend: true });
    this.resultContainerEl = this.modalEl.createDiv('prompt-results');
    this.instructionsEl = this.modalEl.createDiv('prompt-instructions');
    this.inputEl.addEventListener('input', () => void this.updateSuggestions());
    this.scope.register([], 'ArrowDown', () => this.select(this.selected + 1));
    this.scope.register([], 'ArrowUp', () => this.select(this.selected - 1));
    this.scope.register([], 'Enter', (evt) => {
      this.selectActiveSuggestion(evt);
      return false;
    });
  }

  override open(): void {
    super.open();
    this.inputEl.focus();
    void this.updateSuggestions();
  }

  setPlaceholder(placeholder: string): void {
    this.inputEl.placeholder = placeholder;
  }

  setInstructions(instructions: Instruction[]): void {
    this.instructionsEl.empty();
    for (const { command, purpose } of instructions) {
      const row = this.instructionsEl.createDiv('prompt-instruction');
      row.createSpan({ cls: 'prompt-instruction-command', text: command });
      row.createSpan({ text: purpose });
    }
  }

  onNoSuggestion(): void {
    this.resultContainerEl.empty();
    this.resultContainerEl.createDiv({ cls: 'suggestion-empty', text: this.emptyStateText });
  }

  selectSuggestion(value: T, evt: MouseEvent | KeyboardEvent): void {
    this.close();
    this.onChooseSuggestion(value, evt);
  }

  selectActiveSuggestion(evt: MouseEvent | KeyboardEvent): void {
    const value = this.values[this.selected];
    if (value !== undefined) this.selectSuggestion(value, evt);
  }

  abstract getSuggestions(query: string): T[] | Promise<T[]>;
  abstract renderSuggestion(value: T, el: HTMLElement): void;
  abstract onChooseSuggestion(item: T, evt: MouseEvent | KeyboardEvent): void;

  /** Internal: re-runs getSuggestions for the current input; stale async results are dropped. */
  async updateSuggestions(): Promise<void> {
    const ticket = ++this.query;
    const all = await this.getSuggestions(this.inputEl.value);
    if (ticket !== this.query) return;
    this.values = this.limit > 0 ? all.slice(0, this.limit) : all;
    if (this.values.length === 0) {
      this.items = [];
      this.onNoSuggestion();
      return;
    }
    this.resultContainerEl.empty();
    this.items = this.values.map((value) => {
      const el = this.resultContainerEl.createDiv('suggestion-item');
      this.renderSuggestion(value, el);
      el.addEventListener('click', (evt) => this.selectSuggestion(value, evt));
      return el;
    });
    this.select(0);
  }

  private select(index: number): false {
    if (this.items.length > 0) {
      this.selected = (index + this.items.length) % this.items.length;
      this.items.forEach((el, i) => el.toggleClass('is-selected', i === this.selected));
    }
    return false;
  }
}

export interface FuzzyMatch<T> {
  item: T;
  match: SearchResult;
}

/** A SuggestModal over getItems(), fuzzy-matched on getItemText() and ranked by score. */
export abstract class FuzzySuggestModal<T> extends SuggestModal<FuzzyMatch<T>> {
  getSuggestions(query: string): FuzzyMatch<T>[] {
    const search = prepareFuzzySearch(query);
    const matches: FuzzyMatch<T>[] = [];
    for (const item of this.getItems()) {
      const match = search(this.getItemText(item));
      if (match) matches.push({ item, match });
    }
    return matches.sort((a, b) => b.match.score - a.match.score);
  }

  renderSuggestion(item: FuzzyMatch<T>, el: HTMLElement): void {
    renderResults(el, this.getItemText(item.item), item.match);
  }

  onChooseSuggestion(item: FuzzyMatch<T>, evt: MouseEvent | KeyboardEvent): void {
    this.onChooseItem(item.item, evt);
  }

  abstract getItems(): T[];
  abstract getItemText(item: T): string;
  abstract onChooseItem(item: T, evt: MouseEvent | KeyboardEvent): void;
}
