// Type-ahead popovers. A PopoverSuggest renders values into `.suggestion-container` in the body;
// clicking one (or Enter on the selected one) calls selectSuggestion. AbstractInputSuggest follows
// an input's `input` events; EditorSuggest runs when trigger() is called for an editor (the
// testing helper triggerEditorSuggest does that for the active editor — Obsidian does it per keypress).
import type { App } from './app';
import type { Editor } from './editor';
import type { TFile } from './files';
import { Scope } from './keymap';
import type { EditorPosition } from 'obsidian';
import type { Instruction } from './modal';

export abstract class PopoverSuggest<T> {
  app: App;
  scope: Scope;
  /** Obsidian's internal name for the popover element. */
  suggestEl: HTMLElement;
  private readonly suggestionsEl: HTMLElement;
  private values: T[] = [];
  private selected = 0;
  private isOpen = false;

  constructor(app: App, scope?: Scope) {
    this.app = app;
    this.scope = scope ?? new Scope(app.scope);
    this.suggestEl = createDiv('suggestion-container');
    this.suggestionsEl = this.suggestEl.createDiv('suggestion');
    this.scope.register([], 'ArrowDown', () => this.select(this.selected + 1));
    this.scope.register([], 'ArrowUp', () => this.select(this.selected - 1));
    this.scope.register([], 'Enter', (evt) => {
      const value = this.values[this.selected];
      if (value !== undefined) this.selectSuggestion(value, evt);
      return false;
    });
    this.scope.register([], 'Escape', () => {
      this.close();
      return false;
    });
  }

  open(): void {
    if (this.isOpen) return;
    this.isOpen = true;
    activeDocument.body.appendChild(this.suggestEl);
    this.app.keymap.pushScope(this.scope);
  }

  close(): void {
    if (!this.isOpen) return;
    this.isOpen = false;
    this.app.keymap.popScope(this.scope);
    this.suggestEl.detach();
  }

  abstract renderSuggestion(value: T, el: HTMLElement): void;
  abstract selectSuggestion(value: T, evt: MouseEvent | KeyboardEvent): void;

  /** Internal: shows these values (opening the popover) or closes it when there are none. */
  protected showSuggestions(values: T[]): void {
    this.values = values;
    this.suggestionsEl.empty();
    if (values.length === 0) {
      this.close();
      return;
    }
    for (const value of values) {
      const el = this.suggestionsEl.createDiv('suggestion-item');
      this.renderSuggestion(value, el);
      el.addEventListener('click', (evt) => this.selectSuggestion(value, evt));
    }
    this.select(0);
    this.open();
  }

  private select(index: number): false {
    const items = this.suggestionsEl.findAll('.suggestion-item');
    if (items.length > 0) {
      this.selected = (index + items.length) % items.length;
      items.forEach((el, i) => el.toggleClass('is-selected', i === this.selected));
    }
    return false;
  }
}

/** Suggestions for an `<input>` (or contenteditable div), refreshed on each `input` event. */
export abstract class AbstractInputSuggest<T> extends PopoverSuggest<T> {
  limit = 100;
  private readonly textInputEl: HTMLInputElement | HTMLDivElement;
  private selectCallback: ((value: T, evt: MouseEvent | KeyboardEvent) => unknown) | null = null;

  constructor(app: App, textInputEl: HTMLInputElement | HTMLDivElement) {
    super(app);
    this.textInputEl = textInputEl;
    textInputEl.addEventListener('input', () => void this.refresh());
  }

  // The API accepts an <input> or a contenteditable div (obsidian.d.ts, AbstractInputSuggest's
  // constructor: "Accepts an `<input>` text box or a contenteditable div"). Any other element is
  // treated as the contenteditable case: its text content is read and written, which for a
  // <textarea> is its initial text, not what the user typed. A subclass on a textarea must override
  // getValue and selectSuggestion (mention-suggest.ts does).
  setValue(value: string): void {
    if (this.textInputEl.instanceOf(HTMLInputElement)) this.textInputEl.value = value;
    else this.textInputEl.setText(value);
  }

  getValue(): string {
    return this.textInputEl.instanceOf(HTMLInputElement) ? this.textInputEl.value : this.textInputEl.getText();
  }

  protected abstract getSuggestions(query: string): T[] | Promise<T[]>;

  /** Calls the onSelect callback, then closes the popover. */
  selectSuggestion(value: T, evt: MouseEvent | KeyboardEvent): void {
    void this.selectCallback?.(value, evt);
    this.close();
  }

  onSelect(callback: (value: T, evt: MouseEvent | KeyboardEvent) => unknown): this {
    this.selectCallback = callback;
    return this;
  }

  private async refresh(): Promise<void> {
    const values = await this.getSuggestions(this.getValue());
    this.showSuggestions(this.limit > 0 ? values.slice(0, this.limit) : values);
  }
}

export interface EditorSuggestTriggerInfo {
  start: EditorPosition;
  end: EditorPosition;
  query: string;
}

export interface EditorSuggestContext extends EditorSuggestTriggerInfo {
  editor: Editor;
  file: TFile;
}

export abstract class EditorSuggest<T> extends PopoverSuggest<T> {
  context: EditorSuggestContext | null = null;
  limit = 100;
  private readonly instructionsEl: HTMLElement;

  constructor(app: App) {
    super(app);
    this.instructionsEl = this.suggestEl.createDiv('prompt-instructions');
  }

  setInstructions(instructions: Instruction[]): void {
    this.instructionsEl.empty();
    for (const { command, purpose } of instructions) {
      const row = this.instructionsEl.createDiv('prompt-instruction');
      row.createSpan({ cls: 'prompt-instruction-command', text: command });
      row.createSpan({ text: purpose });
    }
  }

  abstract onTrigger(cursor: EditorPosition, editor: Editor, file: TFile | null): EditorSuggestTriggerInfo | null;
  abstract getSuggestions(context: EditorSuggestContext): T[] | Promise<T[]>;

  /** Internal (Obsidian's name): asks onTrigger, and shows suggestions when it matched. */
  async trigger(editor: Editor, file: TFile | null): Promise<boolean> {
    const info = file ? this.onTrigger(editor.getCursor(), editor, file) : null;
    if (!info || !file) {
      this.context = null;
      this.close();
      return false;
    }
    const context: EditorSuggestContext = { ...info, editor, file };
    this.context = context;
    const values = await this.getSuggestions(context);
    this.showSuggestions(this.limit > 0 ? values.slice(0, this.limit) : values);
    return true;
  }

  override close(): void {
    super.close();
    this.context = null;
  }
}
