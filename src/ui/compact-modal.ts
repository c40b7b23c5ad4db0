// "Compact now" with an optional focus text, as a small modal (the command and the chat view's
// toolbar button open it; `/compact <focus>` in the input box skips it). When there is nothing to
// compact, the button is disabled and the reason is shown.
import { type App, Modal, Notice, Setting } from 'obsidian';
import type { ChatSession, CompactOutcome } from '../chat/session';

export class CompactNowModal extends Modal {
  private focus = '';

  constructor(
    app: App,
    private readonly session: ChatSession,
    private readonly onCompacted?: (outcome: CompactOutcome) => void,
  ) {
    super(app);
  }

  override onOpen(): void {
    const { contentEl } = this;
    contentEl.empty();
    contentEl.addClass('compact-chat-compact-modal');
    this.titleEl.setText('Compact now');
    const reason = this.session.compactNowBlocker();
    contentEl.createEl('p', {
      cls: 'compact-chat-muted',
      text: 'Older messages are summarised into the context block; every message stays in the conversation, and you can undo it.',
    });
    new Setting(contentEl)
      .setName('Focus')
      .setDesc('Optional: what the summary should rank first, for example the budget.')
      .addText((text) => {
        text.setPlaceholder('Focus (optional)').onChange((value) => (this.focus = value));
        text.inputEl.setAttr('aria-label', 'Focus (optional)');
        text.inputEl.addEventListener('keydown', (evt) => {
          if (evt.key !== 'Enter' || evt.isComposing) return;
          evt.preventDefault();
          void this.submit();
        });
        if (!reason) window.setTimeout(() => text.inputEl.focus(), 0);
      });
    if (reason) contentEl.createDiv({ cls: 'compact-chat-panel-note', text: `Compact now is unavailable: ${reason}` });
    new Setting(contentEl)
      .addButton((button) => {
        button.setButtonText('Compact now').setCta().onClick(() => void this.submit());
        if (reason) button.setDisabled(true).setTooltip(reason);
      })
      .addButton((button) => button.setButtonText('Cancel').onClick(() => this.close()));
  }

  override onClose(): void {
    this.contentEl.empty();
  }

  private async submit(): Promise<void> {
    if (this.session.compactNowBlocker()) return;
    this.close();
    const outcome = await this.session.compactNow(this.focus.trim() || undefined);
    if (outcome.kind === 'skipped') new Notice(outcome.message);
    this.onCompacted?.(outcome);
  }
}
