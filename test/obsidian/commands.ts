// The command registry (`app.commands`, internal in Obsidian but stable and widely used).
// Executing a command follows the palette/hotkey rules: editor commands need an active Markdown
// editor, and a checkCallback is asked (checking = true) before it runs.
import type { Hotkey } from 'obsidian';
import type { Editor } from './editor';
import type { MarkdownView } from './file-view';
import type { Workspace } from './workspace';

export interface Command {
  id: string;
  name: string;
  icon?: string;
  mobileOnly?: boolean;
  repeatable?: boolean;
  callback?: () => unknown;
  checkCallback?: (checking: boolean) => boolean | void;
  editorCallback?: (editor: Editor, ctx: MarkdownView) => unknown;
  editorCheckCallback?: (checking: boolean, editor: Editor, ctx: MarkdownView) => boolean | void;
  hotkeys?: Hotkey[];
}

export class Commands {
  readonly commands: Record<string, Command> = {};

  constructor(private readonly workspace: Workspace) {}

  addCommand(command: Command): void {
    this.commands[command.id] = command;
  }

  removeCommand(id: string): void {
    delete this.commands[id];
  }

  findCommand(id: string): Command | undefined {
    return this.commands[id];
  }

  listCommands(): Command[] {
    return Object.values(this.commands);
  }

  /** Runs the command if it is available right now; returns whether it ran. */
  executeCommandById(id: string): boolean {
    const command = this.commands[id];
    return command ? this.executeCommand(command) : false;
  }

  executeCommand(command: Command): boolean {
    const view = this.workspace.activeEditor;
    if (command.editorCheckCallback) {
      if (!view || !command.editorCheckCallback(true, view.editor, view)) return false;
      command.editorCheckCallback(false, view.editor, view);
      return true;
    }
    if (command.editorCallback) {
      if (!view) return false;
      void command.editorCallback(view.editor, view);
      return true;
    }
    if (command.checkCallback) {
      if (!command.checkCallback(true)) return false;
      command.checkCallback(false);
      return true;
    }
    if (command.callback) {
      void command.callback();
      return true;
    }
    return false;
  }
}
