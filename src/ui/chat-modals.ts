// Small modals of the chat: approving a write by a tool (exactly what will be written, and where),
// renaming a conversation, confirming a deletion. Each resolves once, when it closes.
import { type App, Modal, Setting } from 'obsidian';
import type { WriteRequest } from '../chat/tools/vault-tools';

/** A modal that answers a question: `ask()` opens it and resolves with `answer` when it closes,
 * however it closes (a button, Escape, a click outside), so a caller never waits forever. */
abstract class AskModal<T> extends Modal {
  protected answer: T;
  private resolve: ((answer: T) => void) | null = null;

  protected constructor(app: App, unanswered: T) {
    super(app);
    this.answer = unanswered;
  }

  ask(): Promise<T> {
    return new Promise((resolve) => {
      this.resolve = resolve;
      this.open();
    });
  }

  /** Records the answer and closes. */
  protected settle(answer: T): void {
    this.answer = answer;
    this.close();
  }

  override onClose(): void {
    this.contentEl.empty();
    this.resolve?.(this.answer);
    this.resolve = null;
  }
}

/** Shows the exact path and text a write tool would write; resolves true only on "Approve". */
export class WriteApprovalModal extends AskModal<boolean> {
  constructor(
    app: App,
    private readonly request: WriteRequest,
  ) {
    super(app, false);
  }

  override onOpen(): void {
    const { contentEl, request } = this;
    const creating = request.tool === 'create_note';
    this.setTitle(creating ? 'Create a note?' : 'Append to a note?');
    contentEl.addClass('compact-chat-approval');
    contentEl.createEl('p', { text: creating ? 'The assistant wants to create this note:' : 'The assistant wants to append to this note:' });
    contentEl.createEl('code', { cls: 'compact-chat-approval-path', text: request.path });
    contentEl.createEl('p', { text: creating ? 'With exactly this text:' : 'Exactly this text, added at the end:' });
    contentEl.createEl('pre', { cls: 'compact-chat-approval-text', text: request.text });
    new Setting(contentEl)
      .addButton((b) => b.setButtonText('Decline').onClick(() => this.close()))
      .addButton((b) =>
        b
          .setButtonText(creating ? 'Create note' : 'Append')
          .setCta()
          .onClick(() => this.settle(true)),
      );
  }
}

/** Asks for a new title; resolves with it, or null when cancelled. */
export class RenameModal extends AskModal<string | null> {
  constructor(
    app: App,
    private readonly title: string,
  ) {
    super(app, null);
  }

  override onOpen(): void {
    this.setTitle('Rename conversation');
    let value = this.title;
    const submit = (): void => {
      if (value.trim()) this.settle(value.trim());
    };
    new Setting(this.contentEl).setName('Title').addText((text) => {
      text.setValue(this.title).onChange((v) => (value = v));
      text.inputEl.addClass('compact-chat-rename-input');
      text.inputEl.addEventListener('keydown', (evt) => {
        if (evt.key === 'Enter') {
          evt.preventDefault();
          submit();
        }
      });
    });
    new Setting(this.contentEl)
      .addButton((b) => b.setButtonText('Cancel').onClick(() => this.close()))
      .addButton((b) => b.setButtonText('Rename').setCta().onClick(submit));
  }
}

export type OversizedChoice = 'shorten' | 'trim' | 'send';

/** A message too big for the window even after compaction: shorten it (back to the input box),
 * send it trimmed to what fits, or send it as it is. Closing without a choice means shorten. */
export class OversizedModal extends AskModal<OversizedChoice> {
  constructor(
    app: App,
    private readonly tokens: number,
    private readonly limit: number,
  ) {
    super(app, 'shorten');
  }

  override onOpen(): void {
    this.setTitle('Message too long for the context window');
    const n = (x: number): string => x.toLocaleString('en-US');
    this.contentEl.createEl('p', {
      text: `This message is about ${n(this.tokens)} tokens; about ${n(Math.max(0, this.limit))} fit with the system prompt and room for the reply, even after compacting everything before it. Sent as it is, the server may cut it or refuse it.`,
    });
    new Setting(this.contentEl)
      .addButton((b) => b.setButtonText('Shorten it').onClick(() => this.settle('shorten')))
      .addButton((b) => b.setButtonText('Send trimmed').setCta().onClick(() => this.settle('trim')))
      .addButton((b) => b.setButtonText('Send anyway').onClick(() => this.settle('send')));
  }
}

/** A yes/no question with a destructive action; resolves true on confirm. */
export class ConfirmModal extends AskModal<boolean> {
  constructor(
    app: App,
    private readonly heading: string,
    private readonly message: string,
    private readonly action: string,
    private readonly cancel = 'Cancel',
  ) {
    super(app, false);
  }

  override onOpen(): void {
    this.setTitle(this.heading);
    this.contentEl.createEl('p', { text: this.message });
    new Setting(this.contentEl)
      .addButton((b) => b.setButtonText(this.cancel).onClick(() => this.close()))
      .addButton((b) => {
        // Styled by hand: setWarning is deprecated and setDestructive needs Obsidian 1.13.
        b.buttonEl.addClass('mod-warning');
        b.setButtonText(this.action).onClick(() => this.settle(true));
      });
  }
}
