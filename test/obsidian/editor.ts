// Obsidian's Editor interface over a plain string, for MarkdownView. Positions are {line, ch} with
// 0-based lines; edits map the cursor the way CodeMirror does (a caret at an insertion point stays
// before the inserted text, replaceSelection leaves it after). One selection only: setSelections
// keeps the main range. Scrolling and folding are no-ops; there is no layout.
import type {
  EditorCommandName,
  EditorPosition,
  EditorRange,
  EditorSelection,
  EditorSelectionOrCaret,
  EditorTransaction,
} from 'obsidian';

export abstract class Editor {
  getDoc(): this {
    return this;
  }
  abstract refresh(): void;
  abstract getValue(): string;
  abstract setValue(content: string): void;
  abstract getLine(line: number): string;
  setLine(n: number, text: string): void {
    this.replaceRange(text, { line: n, ch: 0 }, { line: n, ch: this.getLine(n).length });
  }
  abstract lineCount(): number;
  abstract lastLine(): number;
  abstract getSelection(): string;
  somethingSelected(): boolean {
    return this.getSelection().length > 0;
  }
  abstract getRange(from: EditorPosition, to: EditorPosition): string;
  abstract replaceSelection(replacement: string, origin?: string): void;
  abstract replaceRange(replacement: string, from: EditorPosition, to?: EditorPosition, origin?: string): void;
  abstract getCursor(side?: 'from' | 'to' | 'head' | 'anchor'): EditorPosition;
  abstract listSelections(): EditorSelection[];
  setCursor(pos: EditorPosition | number, ch?: number): void {
    const position = typeof pos === 'number' ? { line: pos, ch: ch ?? 0 } : pos;
    this.setSelection(position, position);
  }
  abstract setSelection(anchor: EditorPosition, head?: EditorPosition): void;
  abstract setSelections(ranges: EditorSelectionOrCaret[], main?: number): void;
  abstract focus(): void;
  abstract blur(): void;
  abstract hasFocus(): boolean;
  abstract getScrollInfo(): { top: number; left: number };
  abstract scrollTo(x?: number | null, y?: number | null): void;
  abstract scrollIntoView(range: EditorRange, center?: boolean): void;
  abstract undo(): void;
  abstract redo(): void;
  abstract exec(command: EditorCommandName): void;
  abstract transaction(tx: EditorTransaction, origin?: string): void;
  abstract wordAt(pos: EditorPosition): EditorRange | null;
  abstract posToOffset(pos: EditorPosition): number;
  abstract offsetToPos(offset: number): EditorPosition;
}

interface Snapshot {
  text: string;
  anchor: number;
  head: number;
}

const WORD = /[\p{L}\p{N}_]/u;

/** The concrete editor MarkdownView uses; `onChange` runs after every edit of the text. */
export class TextEditor extends Editor {
  private text = '';
  private anchor = 0;
  private head = 0;
  private focused = false;
  private readonly undoStack: Snapshot[] = [];
  private readonly redoStack: Snapshot[] = [];

  constructor(private readonly onChange: () => void) {
    super();
  }

  refresh(): void {}

  getValue(): string {
    return this.text;
  }

  setValue(content: string): void {
    this.edit(() => {
      this.text = content;
      this.anchor = this.head = 0;
    });
  }

  /** Internal: replaces the text as a fresh document (no undo history), for loading a file. */
  load(content: string): void {
    this.text = content;
    this.anchor = this.head = 0;
    this.undoStack.length = 0;
    this.redoStack.length = 0;
  }

  getLine(line: number): string {
    return this.lines()[line] ?? '';
  }

  lineCount(): number {
    return this.lines().length;
  }

  lastLine(): number {
    return this.lineCount() - 1;
  }

  getSelection(): string {
    const [from, to] = this.ordered();
    return this.text.slice(from, to);
  }

  getRange(from: EditorPosition, to: EditorPosition): string {
    const a = this.posToOffset(from);
    const b = this.posToOffset(to);
    return this.text.slice(Math.min(a, b), Math.max(a, b));
  }

  replaceSelection(replacement: string): void {
    const [from, to] = this.ordered();
    this.edit(() => {
      this.splice(from, to, replacement);
      this.anchor = this.head = from + replacement.length;
    });
  }

  replaceRange(replacement: string, from: EditorPosition, to?: EditorPosition): void {
    const a = this.posToOffset(from);
    const b = to ? this.posToOffset(to) : a;
    this.edit(() => this.splice(Math.min(a, b), Math.max(a, b), replacement));
  }

  getCursor(side: 'from' | 'to' | 'head' | 'anchor' = 'head'): EditorPosition {
    const [from, to] = this.ordered();
    const offsets = { from, to, head: this.head, anchor: this.anchor };
    return this.offsetToPos(offsets[side]);
  }

  listSelections(): EditorSelection[] {
    return [{ anchor: this.offsetToPos(this.anchor), head: this.offsetToPos(this.head) }];
  }

  setSelection(anchor: EditorPosition, head?: EditorPosition): void {
    this.anchor = this.posToOffset(anchor);
    this.head = this.posToOffset(head ?? anchor);
  }

  setSelections(ranges: EditorSelectionOrCaret[], main = 0): void {
    const range = ranges[main] ?? ranges[0];
    if (range) this.setSelection(range.anchor, range.head);
  }

  focus(): void {
    this.focused = true;
  }

  blur(): void {
    this.focused = false;
  }

  hasFocus(): boolean {
    return this.focused;
  }

  getScrollInfo(): { top: number; left: number } {
    return { top: 0, left: 0 };
  }

  scrollTo(): void {}

  scrollIntoView(): void {}

  undo(): void {
    this.travel(this.undoStack, this.redoStack);
  }

  redo(): void {
    this.travel(this.redoStack, this.undoStack);
  }

  exec(command: EditorCommandName): void {
    const cursor = this.getCursor();
    switch (command) {
      case 'goStart':
        return this.setCursor(0, 0);
      case 'goEnd':
        return this.setCursor(this.offsetToPos(this.text.length));
      case 'goLeft':
        return this.setCursor(this.offsetToPos(Math.max(0, this.head - 1)));
      case 'goRight':
        return this.setCursor(this.offsetToPos(Math.min(this.text.length, this.head + 1)));
      case 'goUp':
        return this.setCursor(this.clampPos({ line: cursor.line - 1, ch: cursor.ch }));
      case 'goDown':
        return this.setCursor(this.clampPos({ line: cursor.line + 1, ch: cursor.ch }));
      case 'newlineAndIndent':
        return this.replaceSelection(`\n${/^\s*/.exec(this.getLine(cursor.line))?.[0] ?? ''}`);
      case 'deleteLine': {
        const last = cursor.line === this.lastLine();
        const from = last && cursor.line > 0 ? { line: cursor.line - 1, ch: this.getLine(cursor.line - 1).length } : { line: cursor.line, ch: 0 };
        const to = last ? { line: cursor.line, ch: this.getLine(cursor.line).length } : { line: cursor.line + 1, ch: 0 };
        return this.replaceRange('', from, to);
      }
      case 'toggleFold':
      case 'foldAll':
      case 'unfoldAll':
        return; // nothing is ever folded in plain text
      default:
        throw new Error(`Editor.exec('${command}') is not implemented by the test runtime.`);
    }
  }

  /** Changes apply against the text as it was before the transaction, then the selection is set. */
  transaction(tx: EditorTransaction): void {
    this.edit(() => {
      const changes = (tx.changes ?? [])
        .map((c) => ({ from: this.posToOffset(c.from), to: this.posToOffset(c.to ?? c.from), text: c.text }))
        .sort((a, b) => b.from - a.from);
      for (const change of changes) this.splice(Math.min(change.from, change.to), Math.max(change.from, change.to), change.text);
      if (tx.replaceSelection !== undefined) {
        const [from, to] = this.ordered();
        this.splice(from, to, tx.replaceSelection);
        this.anchor = this.head = from + tx.replaceSelection.length;
      }
      const selection = tx.selections?.[0] ?? tx.selection;
      if (selection) this.setSelection(selection.from, selection.to ?? selection.from);
    });
  }

  wordAt(pos: EditorPosition): EditorRange | null {
    const offset = this.posToOffset(pos);
    let start = offset;
    let end = offset;
    while (start > 0 && WORD.test(this.text.charAt(start - 1))) start--;
    while (end < this.text.length && WORD.test(this.text.charAt(end))) end++;
    return start === end ? null : { from: this.offsetToPos(start), to: this.offsetToPos(end) };
  }

  posToOffset(pos: EditorPosition): number {
    const { line, ch } = this.clampPos(pos);
    let offset = 0;
    for (let i = 0; i < line; i++) offset += this.getLine(i).length + 1;
    return offset + ch;
  }

  offsetToPos(offset: number): EditorPosition {
    const clamped = Math.max(0, Math.min(offset, this.text.length));
    const before = this.text.slice(0, clamped).split('\n');
    return { line: before.length - 1, ch: before[before.length - 1]?.length ?? 0 };
  }

  private lines(): string[] {
    return this.text.split('\n');
  }

  private clampPos(pos: EditorPosition): EditorPosition {
    const line = Math.max(0, Math.min(pos.line, this.lastLine()));
    return { line, ch: Math.max(0, Math.min(pos.ch, this.getLine(line).length)) };
  }

  private ordered(): [number, number] {
    return [Math.min(this.anchor, this.head), Math.max(this.anchor, this.head)];
  }

  private splice(from: number, to: number, insert: string): void {
    const delta = insert.length - (to - from);
    const map = (p: number): number => (p <= from ? p : p >= to ? p + delta : from + insert.length);
    this.text = this.text.slice(0, from) + insert + this.text.slice(to);
    this.anchor = map(this.anchor);
    this.head = map(this.head);
  }

  /** One undo step per call, then the change notification. */
  private edit(change: () => void): void {
    this.undoStack.push(this.snapshot());
    this.redoStack.length = 0;
    change();
    this.onChange();
  }

  private snapshot(): Snapshot {
    return { text: this.text, anchor: this.anchor, head: this.head };
  }

  private travel(from: Snapshot[], to: Snapshot[]): void {
    const target = from.pop();
    if (!target) return;
    to.push(this.snapshot());
    ({ text: this.text, anchor: this.anchor, head: this.head } = target);
    this.onChange();
  }
}
