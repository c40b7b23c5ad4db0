// Views that show a file: FileView tracks `file` through the `{ file: path }` view state, and
// TextFileView loads it into `data`, saves on a 2-second debounce (requestSave) or when the file is
// swapped out, and reloads when the file changes on disk. MarkdownView edits it through an Editor.
import { debounce, type Debouncer } from './debounce';
import { TextEditor, type Editor } from './editor';
import type { TAbstractFile, TFile } from './files';
import { ItemView, type ViewStateResult } from './view';
import type { WorkspaceLeaf } from './workspace';

export abstract class FileView extends ItemView {
  allowNoFile = false;
  file: TFile | null = null;
  override navigation = true;

  getDisplayText(): string {
    return this.file?.basename ?? 'No file';
  }

  override onload(): void {
    this.registerEvent(
      this.app.vault.on('rename', (file: TAbstractFile) => {
        if (this.file && file === this.file) void this.onRename(this.file);
      }),
    );
    // Obsidian closes the tab of a deleted file; here the leaf goes back to an empty view. The
    // file is dropped first so that closing does not try to save into it.
    this.registerEvent(
      this.app.vault.on('delete', (file: TAbstractFile) => {
        if (file !== this.file) return;
        this.file = null;
        void this.leaf.setViewState({ type: 'empty' });
      }),
    );
  }

  override getState(): Record<string, unknown> {
    return this.file ? { file: this.file.path } : {};
  }

  override async setState(state: unknown, result: ViewStateResult): Promise<void> {
    const path = (state as { file?: unknown } | null)?.file;
    const file = typeof path === 'string' ? this.app.vault.getFileByPath(path) : null;
    if (file && file !== this.file) {
      if (this.file) await this.onUnloadFile(this.file);
      this.file = file;
      await this.onLoadFile(file);
    }
    await super.setState(state, result);
  }

  async onLoadFile(file: TFile): Promise<void> {
    void file;
  }

  async onUnloadFile(file: TFile): Promise<void> {
    void file;
  }

  async onRename(file: TFile): Promise<void> {
    void file;
    this.titleEl.setText(this.getDisplayText());
  }

  canAcceptExtension(extension: string): boolean {
    return extension === 'md';
  }

  protected override async onClose(): Promise<void> {
    if (this.file) await this.onUnloadFile(this.file);
  }
}

export abstract class EditableFileView extends FileView {}

export abstract class TextFileView extends EditableFileView {
  data = '';
  /** Saves two seconds after the last edit, like Obsidian's autosave. */
  requestSave: Debouncer<[], void> = debounce(() => void this.save(), 2000, true);
  private saved = '';

  abstract getViewData(): string;
  abstract setViewData(data: string, clear: boolean): void;
  abstract clear(): void;

  override onload(): void {
    super.onload();
    this.registerEvent(
      this.app.vault.on('modify', (file: TAbstractFile) => {
        if (this.file && file === this.file) void this.reloadIfChangedOnDisk(this.file);
      }),
    );
  }

  override async onLoadFile(file: TFile): Promise<void> {
    this.data = await this.app.vault.read(file);
    this.saved = this.data;
    this.setViewData(this.data, true);
  }

  override async onUnloadFile(file: TFile): Promise<void> {
    void file;
    await this.save(true);
  }

  /** Writes the view's data if it differs from what was last read or written. */
  async save(clear?: boolean): Promise<void> {
    this.requestSave.cancel();
    if (this.file) {
      this.data = this.getViewData();
      if (this.data !== this.saved) {
        this.saved = this.data;
        await this.app.vault.modify(this.file, this.data);
      }
    }
    if (clear) this.clear();
  }

  private async reloadIfChangedOnDisk(file: TFile): Promise<void> {
    const onDisk = await this.app.vault.read(file);
    if (onDisk === this.saved) return; // our own save
    this.saved = onDisk;
    this.data = onDisk;
    this.setViewData(onDisk, false);
  }
}

export class MarkdownView extends TextFileView {
  editor: Editor;
  private readonly sourceEl: HTMLElement;
  private readonly textEditor: TextEditor;

  constructor(leaf: WorkspaceLeaf) {
    super(leaf);
    this.sourceEl = this.contentEl.createDiv('markdown-source-view');
    this.textEditor = new TextEditor(() => this.onEditorChange());
    this.editor = this.textEditor;
  }

  getViewType(): string {
    return 'markdown';
  }

  getMode(): 'source' | 'preview' {
    return 'source';
  }

  getViewData(): string {
    return this.editor.getValue();
  }

  /** `clear` means a different file: the editor starts fresh, without undo history. */
  setViewData(data: string, clear: boolean): void {
    if (clear) this.textEditor.load(data);
    else this.editor.setValue(data);
    this.sourceEl.setText(data);
  }

  clear(): void {
    this.textEditor.load('');
    this.sourceEl.setText('');
  }

  private onEditorChange(): void {
    this.sourceEl.setText(this.editor.getValue());
    this.requestSave();
    this.app.workspace.trigger('editor-change', this.editor, this);
  }
}
