// The compaction summary panel: the view shell around every compaction round of the chat session
// (the rounds themselves: compaction-rounds.ts) — "Compact now" with a focus text, undo of the last
// round and of the last edit of its lines, the status line, the search box over the compacted
// messages (history-search.ts), and the delegated clicks (note links, jumps to a message, Copy,
// the original messages' toggle, the carried-line editor's actions).
//
// Thin, like the chat view: the session (owned by the plugin) holds the rounds; this view renders
// them on its `compactions` event and forwards the user's actions. Rounds are rebuilt as a whole
// (there are few); the original messages of a round are rendered only while shown, each round's
// with its own child Component of this view, so collapsing or re-rendering releases them.
import { ItemView, Keymap, Notice, setTooltip, type WorkspaceLeaf } from 'obsidian';
import { plural } from '../chat/format';
import type { ChatSession } from '../chat/session';
import { CarriedLineEditor } from './carried-line-editor';
import { RoundList } from './compaction-rounds';
import { HistorySearchBox, sessionSearchHost } from './history-search';

export const VIEW_TYPE_COMPACTIONS = 'compact-chat-compactions';

/** What the panel needs from the plugin. */
export interface CompactionPanelHost {
  readonly session: ChatSession;
  /** Shows the message in the chat view (opening the chat if needed); false when it is not there. */
  revealMessage(id: string): Promise<boolean>;
  /** Starts a new chat carrying this one's context, with a link back (continue-chat.ts). */
  continueInNewChat?(): void;
}

export class CompactionPanelView extends ItemView {
  private controlsEl!: HTMLElement;
  private statusEl!: HTMLElement;
  private focusInput!: HTMLInputElement;
  private continueButton: HTMLButtonElement | null = null;
  private compactButton!: HTMLButtonElement;
  private undoButton!: HTMLButtonElement;
  private undoEditButton!: HTMLButtonElement;
  private lineEditor!: CarriedLineEditor;
  private noteEl!: HTMLElement;
  /** The rounds, newest first (compaction-rounds.ts). */
  private rounds!: RoundList;
  /** The search box over the compacted messages (history-search.ts). */
  private historySearch: HistorySearchBox | null = null;
  private compacting = false;

  constructor(
    leaf: WorkspaceLeaf,
    private readonly host: CompactionPanelHost,
  ) {
    super(leaf);
    this.icon = 'fold-vertical';
  }

  getViewType(): string {
    return VIEW_TYPE_COMPACTIONS;
  }

  getDisplayText(): string {
    return 'Compaction summary';
  }

  private get session(): ChatSession {
    return this.host.session;
  }

  protected override async onOpen(): Promise<void> {
    const root = this.contentEl;
    root.empty();
    root.addClass('compact-chat-panel');
    this.buildControls(root);
    this.historySearch = new HistorySearchBox(root, sessionSearchHost(this.session, (id) => void this.reveal(id), (round) => this.showRound(round)), this);
    this.rounds = new RoundList(root, { app: this.app, owner: this, lineEditor: this.lineEditor });

    this.registerDomEvent(root, 'click', (evt) => this.onClick(evt));
    this.registerDomEvent(root, 'mouseover', (evt) => this.onHover(evt));
    this.registerDomEvent(root, 'keydown', (evt) => this.lineEditor.onKeydown(evt));
    const events = this.session.events;
    this.register(events.on('compactions', () => this.renderRounds()));
    this.register(events.on('busy', () => this.updateControls()));
    this.register(events.on('entries', () => this.updateControls()));
    this.renderRounds();
  }

  protected override async onClose(): Promise<void> {
    this.rounds.release();
    this.contentEl.empty();
  }

  /** Opens round `round` (expanded, scrolled to, focused). False when there is no such round. */
  showRound(round: number): boolean {
    return this.rounds.show(round);
  }

  // ── controls: compact now with a focus, undo ──────────────────────────────────────────────

  private buildControls(root: HTMLElement): void {
    this.controlsEl = root.createDiv('compact-chat-panel-controls');
    this.statusEl = this.controlsEl.createDiv({ cls: 'compact-chat-panel-status', attr: { 'aria-live': 'polite' } });
    const row = this.controlsEl.createDiv('compact-chat-panel-row');
    this.focusInput = row.createEl('input', {
      cls: 'compact-chat-focus',
      type: 'text',
      attr: { placeholder: 'Focus (optional), for example the budget', 'aria-label': 'Focus for compact now (optional)' },
    });
    this.compactButton = row.createEl('button', { cls: 'mod-cta compact-chat-compact-now', text: 'Compact now' });
    this.undoButton = row.createEl('button', { cls: 'compact-chat-undo', text: 'Undo last compaction' });
    this.lineEditor = new CarriedLineEditor(this.session);
    this.undoEditButton = row.createEl('button', { cls: 'compact-chat-undo-edit', text: 'Undo last edit' });
    this.registerDomEvent(this.undoEditButton, 'click', () => this.lineEditor.undoLast());
    const carry = this.host.continueInNewChat?.bind(this.host);
    if (carry) {
      this.continueButton = row.createEl('button', { cls: 'compact-chat-continue', text: 'Continue in a new chat' });
      setTooltip(this.continueButton, 'Start a new chat that carries what this one carried forward, with a link back');
      this.registerDomEvent(this.continueButton, 'click', () => carry());
    }
    const noteId = `compact-chat-panel-note-${Math.random().toString(36).slice(2, 8)}`;
    this.noteEl = this.controlsEl.createDiv({ cls: 'compact-chat-panel-note', attr: { id: noteId, 'aria-live': 'polite' } });
    this.compactButton.setAttr('aria-describedby', noteId);
    this.undoButton.setAttr('aria-describedby', noteId);
    this.registerDomEvent(this.compactButton, 'click', () => void this.compactNow());
    this.registerDomEvent(this.undoButton, 'click', () => this.undo());
    this.registerDomEvent(this.focusInput, 'keydown', (evt) => {
      if (evt.key !== 'Enter' || evt.isComposing) return;
      evt.preventDefault();
      void this.compactNow();
    });
  }

  private updateControls(): void {
    if (!this.compactButton) return;
    const compactReason = this.compacting ? 'Compacting…' : this.session.compactNowBlocker();
    this.compactButton.disabled = compactReason !== null;
    setTooltip(this.compactButton, compactReason ?? 'Compact the conversation now; the focus text is ranked first');
    const undoReason = this.session.undoBlocker();
    this.undoButton.disabled = undoReason !== null;
    const last = this.session.compactions[this.session.compactions.length - 1];
    setTooltip(this.undoButton, undoReason ?? `Undo round ${last?.record.round ?? ''}: its messages are sent again`);
    this.lineEditor.updateUndo(this.undoEditButton);
    if (this.continueButton) this.continueButton.disabled = this.session.messages.length === 0;
    this.noteEl.setText(compactReason && !this.compacting ? `Compact now is unavailable: ${compactReason}` : '');
    this.noteEl.toggle(this.noteEl.getText() !== '');

    const rounds = this.session.compactions;
    const sent = this.session.sentMessages().length;
    const total = this.session.messages.length;
    this.statusEl.setText(
      rounds.length
        ? `${plural(rounds.length, 'round')}. The next request sends ${sent} of ${plural(total, 'message')} and round ${last?.record.round ?? rounds.length}'s summary.`
        : `No compaction yet: the next request sends all ${plural(total, 'message')}.`,
    );
  }

  private async compactNow(): Promise<void> {
    if (this.compactButton.disabled) return;
    this.compacting = true;
    this.updateControls();
    try {
      const focus = this.focusInput.value.trim();
      const outcome = await this.session.compactNow(focus || undefined);
      if (outcome.kind === 'skipped') new Notice(outcome.message);
      else if (outcome.kind === 'compacted') {
        this.focusInput.value = '';
        this.showRound(outcome.state.record.round);
      }
    } finally {
      this.compacting = false;
      this.updateControls();
    }
  }

  private undo(): void {
    const undone = this.session.undoLastCompaction();
    if (undone) new Notice(`Undid compaction round ${undone.record.round}.`);
  }

  // ── rounds ────────────────────────────────────────────────────────────────────────────────

  private renderRounds(): void {
    this.rounds.render(this.session.compactions, this.session.messages, this.session.lineEditBlocker() === null);
    this.historySearch?.refresh();
    this.updateControls();
  }

  // ── events ────────────────────────────────────────────────────────────────────────────────

  private onClick(evt: MouseEvent): void {
    const target = evt.target instanceof Element ? evt.target : null;
    const link = target?.closest('a.internal-link');
    if (link instanceof HTMLElement) {
      evt.preventDefault();
      const href = link.getAttr('data-href');
      if (href) void this.app.workspace.openLinkText(href, '', Keymap.isModEvent(evt));
      return;
    }
    if (target && this.lineEditor.onClick(target)) return;
    const jump = target?.closest('[data-source]');
    if (jump) {
      const id = jump.getAttr('data-source');
      if (id) void this.reveal(id);
      return;
    }
    const action = target?.closest('[data-action]');
    const round = Number(action?.getAttr('data-round'));
    const state = this.session.compactions.find((s) => s.record.round === round);
    if (!action || !state) return;
    switch (action.getAttr('data-action')) {
      case 'copy-block':
        void this.copy(state.record.block);
        break;
      case 'toggle-originals':
        this.rounds.toggleOriginals(action, state, this.session.messages);
        break;
    }
  }

  private onHover(evt: MouseEvent): void {
    const target = evt.target instanceof Element ? evt.target.closest('a.internal-link') : null;
    if (!(target instanceof HTMLElement)) return;
    const href = target.getAttr('data-href');
    if (!href) return;
    this.app.workspace.trigger('hover-link', { event: evt, source: VIEW_TYPE_COMPACTIONS, hoverParent: this, targetEl: target, linktext: href, sourcePath: '' });
  }

  private async reveal(id: string): Promise<void> {
    const found = await this.host.revealMessage(id);
    if (!found) new Notice('That message is no longer in the conversation.');
  }

  private async copy(text: string): Promise<void> {
    try {
      await navigator.clipboard.writeText(text);
      new Notice('Copied the block to the clipboard.');
    } catch {
      new Notice('Could not copy to the clipboard.');
    }
  }
}
