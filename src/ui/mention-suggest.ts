// The `[[` mention picker of the input box: typing `[[` and a few letters lists the vault's notes
// with Obsidian's own fuzzy search; picking one inserts `[[link]]`. The session resolves the links
// of a sent message to notes and sends them as context.
//
// AbstractInputSuggest accepts an <input> or a contenteditable div (obsidian.d.ts, its constructor);
// the composer is a <textarea> (multi-line, native undo and IME, which neither gives as simply).
// The base class only listens for `input` events on it and treats a non-<input> like a
// contenteditable, reading and writing its text content, which for a textarea is not its value.
// So both value paths are overridden: `getValue` reads the text between `[[` and the caret from
// `textarea.value`, and `selectSuggestion` replaces it; the base class never touches the value.
//
// Placement: the base class places its popover by the input box as a whole; for a multi-line box
// at the foot of the sidebar that is far from where the user types. Like Obsidian's editor
// suggestions, the popover goes under the caret (above it when there is no room below): its
// container gets our class and the caret's coordinates as CSS variables (styles.css), set when the
// first suggestion of each list is rendered, the one hook the API gives to the popover element.
import { AbstractInputSuggest, type App, type TFile, prepareFuzzySearch } from 'obsidian';
import { caretRect } from './caret-position';

const LIMIT = 20;
/** The popover's height at most (styles.css: --compact-chat-mention-max-height). */
const MAX_HEIGHT = 280;

/** The mention being typed before the caret: where its `[[` starts and the query after it. */
export function mentionQuery(text: string, caret: number): { start: number; query: string } | null {
  const before = text.slice(0, caret);
  const m = /\[\[([^[\]\n|#^]*)$/.exec(before);
  return m ? { start: m.index, query: m[1] ?? '' } : null;
}

export class MentionSuggest extends AbstractInputSuggest<TFile> {
  private shown = false;

  constructor(
    app: App,
    private readonly textarea: HTMLTextAreaElement,
  ) {
    super(app, textarea as unknown as HTMLInputElement);
    this.limit = LIMIT;
  }

  /** Whether the popover is open (the composer leaves Enter to it then). */
  get isShown(): boolean {
    return this.shown;
  }

  override open(): void {
    super.open();
    this.shown = true;
  }

  override close(): void {
    super.close();
    this.shown = false;
  }

  override getValue(): string {
    return mentionQuery(this.textarea.value, this.textarea.selectionStart ?? this.textarea.value.length)?.query ?? '';
  }

  protected getSuggestions(): TFile[] {
    const mention = mentionQuery(this.textarea.value, this.textarea.selectionStart ?? this.textarea.value.length);
    if (!mention) return [];
    const match = prepareFuzzySearch(mention.query);
    const scored: { file: TFile; score: number }[] = [];
    for (const file of this.app.vault.getMarkdownFiles()) {
      const result = match(file.path.replace(/\.md$/, ''));
      if (result) scored.push({ file, score: result.score });
    }
    scored.sort((a, b) => b.score - a.score || a.file.path.localeCompare(b.file.path));
    return scored.slice(0, LIMIT).map((s) => s.file);
  }

  renderSuggestion(file: TFile, el: HTMLElement): void {
    if (!el.previousElementSibling) this.place(el.closest('.suggestion-container'));
    el.addClass('compact-chat-mention-item');
    el.createDiv({ cls: 'suggestion-title', text: file.basename });
    if (file.parent && !file.parent.isRoot()) el.createDiv({ cls: 'suggestion-note', text: file.parent.path });
  }

  /** Puts the popover under the caret's line, or above it when the window has no room below. */
  private place(container: Element | null): void {
    if (!(container instanceof HTMLElement)) return;
    const area = this.textarea;
    const caret = caretRect(area, area.selectionStart ?? area.value.length);
    const viewport = area.win.innerHeight;
    const below = viewport - caret.bottom;
    const above = caret.top > below && below < MAX_HEIGHT;
    const width = area.win.innerWidth;
    container.addClass('compact-chat-mention-popover');
    container.toggleClass('is-above', above);
    container.setCssProps({
      '--compact-chat-mention-left': `${Math.max(0, Math.min(caret.left, width - 300))}px`,
      '--compact-chat-mention-top': `${caret.bottom + 2}px`,
      '--compact-chat-mention-bottom': `${viewport - caret.top + 2}px`,
      '--compact-chat-mention-max-height': `${Math.max(120, Math.min(MAX_HEIGHT, (above ? caret.top : below) - 8))}px`,
    });
  }

  override selectSuggestion(file: TFile): void {
    const area = this.textarea;
    const caret = area.selectionStart ?? area.value.length;
    const mention = mentionQuery(area.value, caret);
    if (mention) {
      const link = `[[${this.app.metadataCache.fileToLinktext(file, '')}]]`;
      // Skip a `]]` the user (or auto-pairing) already typed after the caret.
      const after = area.value.slice(caret).startsWith(']]') ? caret + 2 : caret;
      area.value = area.value.slice(0, mention.start) + link + area.value.slice(after);
      const position = mention.start + link.length;
      area.setSelectionRange(position, position);
    }
    this.close();
    area.focus();
  }
}
