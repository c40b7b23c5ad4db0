// The composer at the foot of the chat view: the active-note toggle, the input box (with the `[[`
// mention picker) and Send/Stop. It turns what the user typed into a send or a `/compact`.
import { type App, type Component, setIcon, setTooltip } from 'obsidian';
import type { ChatSession } from '../chat/session';
import { OversizedModal } from './chat-modals';
import { MentionSuggest } from './mention-suggest';

/** `/compact` or `/compact <focus>` typed in the input box: the focus, or null for any other text. */
export function parseCompactCommand(text: string): { focus: string } | null {
  const m = /^\/compact(?:\s+([\s\S]*))?$/i.exec(text.trim());
  return m ? { focus: (m[1] ?? '').trim() } : null;
}

/** What the composer needs besides the session. */
export interface ComposerHost {
  /** Whether the active note is attached to every request (a setting). */
  includeActiveNote(): boolean;
  setIncludeActiveNote(on: boolean): Promise<void>;
  /** The note that would be attached as the active note, or null. */
  activeNotePath(): string | null;
  /** `/compact <focus>` was submitted. */
  compact(focus: string): void;
}

export class Composer {
  private readonly reasonEl: HTMLElement;
  private readonly activeToggleEl: HTMLElement;
  private readonly activeLabelEl: HTMLElement;
  readonly inputEl: HTMLTextAreaElement;
  private readonly sendButton: HTMLButtonElement;
  private readonly mentions: MentionSuggest;
  /** This composer sent the message being answered (the chat may be open in two views). */
  private sentHere = false;
  /** Enter was pressed while a reply was being written: the text stays, and the reason shows. */
  private heldBack = false;
  private wasBusy = false;

  /** Builds the composer in `parent`; listeners are registered on `owner` (the view). */
  constructor(
    parent: HTMLElement,
    private readonly app: App,
    private readonly session: ChatSession,
    private readonly host: ComposerHost,
    owner: Component,
  ) {
    const composer = parent.createDiv('compact-chat-composer');
    this.reasonEl = composer.createDiv('compact-chat-disabled-reason');
    const context = composer.createDiv('compact-chat-context');
    this.activeToggleEl = context.createEl('button', { cls: 'clickable-icon compact-chat-active-toggle', attr: { 'aria-label': 'Include the active note' } });
    setIcon(this.activeToggleEl, 'paperclip');
    this.activeLabelEl = context.createDiv('compact-chat-active-note');
    owner.registerDomEvent(this.activeToggleEl, 'click', () => {
      void this.host.setIncludeActiveNote(!this.host.includeActiveNote()).then(() => this.updateActiveNote());
    });
    const row = composer.createDiv('compact-chat-input-row');
    this.inputEl = row.createEl('textarea', {
      cls: 'compact-chat-input',
      attr: { rows: '3', placeholder: 'Ask about your notes. Enter to send, Shift+Enter for a new line.', 'aria-label': 'Message' },
    });
    this.sendButton = row.createEl('button', { cls: 'compact-chat-send mod-cta', text: 'Send' });
    this.mentions = new MentionSuggest(this.app, this.inputEl);
    owner.register(() => this.mentions.close());
    owner.registerDomEvent(this.inputEl, 'keydown', (evt) => {
      // While the `[[` picker is open, Enter picks a note (its own key scope handles it).
      if (evt.key !== 'Enter' || evt.shiftKey || evt.isComposing || this.mentions.isShown) return;
      evt.preventDefault();
      this.submit();
    });
    owner.registerDomEvent(this.sendButton, 'click', () => {
      if (this.session.busy) this.session.stop();
      else this.submit();
    });
  }

  /** Puts `text` in the input box (an example prompt), the caret at its end. */
  fill(text: string): void {
    if (this.inputEl.disabled) return;
    this.inputEl.value = text;
    this.inputEl.focus();
    this.inputEl.setSelectionRange(text.length, text.length);
  }

  private submit(): void {
    if (this.session.busy) {
      // Not swallowed: the text stays in the box, and the user is told why it was not sent.
      if (this.inputEl.value.trim()) this.heldBack = true;
      this.update();
      return;
    }
    if (this.session.disabledReason()) return;
    const text = this.inputEl.value;
    if (!text.trim()) return;
    const command = parseCompactCommand(text);
    this.inputEl.value = '';
    if (command) this.host.compact(command.focus);
    else void this.sendChecked(text);
  }

  /** Sends; a message too big for the window comes back to the user with a choice first. */
  private async sendChecked(text: string): Promise<void> {
    this.sentHere = true;
    const outcome = await this.session.send(text);
    if (outcome.kind !== 'oversized') return;
    this.sentHere = false;
    const choice = await new OversizedModal(this.app, outcome.tokens, outcome.limit).ask();
    if (choice === 'shorten') {
      this.inputEl.value = text;
      this.inputEl.focus();
      return;
    }
    this.sentHere = true;
    await this.session.send(text, { oversized: choice });
  }

  /** Brings the input box and Send/Stop in line with the session (busy, or unable to send and why). */
  update(): void {
    const busy = this.session.busy;
    // A reply ended: the next one may be sent from anywhere. (Updates come before a send starts too.)
    if (!busy && this.wasBusy) {
      this.sentHere = false;
      this.heldBack = false;
    }
    this.wasBusy = busy;
    const reason = this.session.disabledReason();
    // Another view of the same chat sent it (or Enter was pressed here meanwhile): say so.
    const waiting = busy && (!this.sentHere || this.heldBack) ? 'A reply is being written. What you type here stays; send it when the reply is done.' : null;
    this.reasonEl.setText(reason ?? waiting ?? '');
    this.reasonEl.toggle((reason ?? waiting) !== null);
    this.inputEl.disabled = reason !== null;
    this.sendButton.setText(busy ? 'Stop' : 'Send');
    this.sendButton.toggleClass('mod-warning', busy);
    this.sendButton.toggleClass('mod-cta', !busy);
    this.sendButton.disabled = !busy && reason !== null;
    setTooltip(this.sendButton, busy ? `Stop the reply${waiting ? ' (sending waits until it is done)' : ''}` : reason ?? 'Send (Enter)');
  }

  /** The paperclip toggle and the name of the note attached (or that would be). */
  updateActiveNote(): void {
    const on = this.host.includeActiveNote();
    const path = this.host.activeNotePath();
    this.activeToggleEl.toggleClass('is-active', on);
    this.activeToggleEl.setAttr('aria-pressed', on ? 'true' : 'false');
    setTooltip(this.activeToggleEl, on ? 'Stop including the active note' : 'Include the active note with every message');
    this.activeLabelEl.empty();
    if (!on) {
      this.activeLabelEl.setText('Active note not included');
    } else if (path) {
      this.activeLabelEl.appendText('Attached: ');
      this.activeLabelEl.createEl('a', { cls: 'internal-link', text: path.replace(/\.md$/, ''), attr: { 'data-href': path, href: path } });
    } else {
      this.activeLabelEl.setText('No note open to attach');
    }
    this.activeLabelEl.toggleClass('is-attached', on && path !== null);
  }
}
