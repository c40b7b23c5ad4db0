// The bar shown above the messages when the open conversation's note was deleted (in the file
// explorer, by a sync tool …): the chat still shows every message, nothing is saved, and the user
// chooses to write the note back or close the conversation. Never recreated without a word.
import type { Component } from 'obsidian';
import type { Conversations } from '../chat/conversations';

export class MissingNoteBar {
  private readonly el: HTMLElement;
  private readonly textEl: HTMLElement;

  constructor(parent: HTMLElement, private readonly conversations: Conversations, owner: Component) {
    this.el = parent.createDiv({ cls: 'compact-chat-missing-note', attr: { role: 'alert' } });
    this.textEl = this.el.createDiv('compact-chat-missing-note-text');
    const buttons = this.el.createDiv('compact-chat-missing-note-buttons');
    const restore = buttons.createEl('button', { cls: 'mod-cta', text: 'Restore note' });
    const close = buttons.createEl('button', { text: 'Close conversation' });
    owner.registerDomEvent(restore, 'click', () => void this.conversations.restoreNote());
    owner.registerDomEvent(close, 'click', () => this.conversations.close());
    this.update();
  }

  update(): void {
    const current = this.conversations.current;
    this.el.toggle(current.missing);
    if (current.missing) this.textEl.setText(`This conversation's note "${current.path ?? ''}" was deleted. Nothing is saved until you restore it; closing leaves it deleted.`);
  }
}
