// The compaction summary panel: every compaction round of the chat session, newest first — what
// triggered it, what it removed and kept, tokens before → after, the summary it carried forward
// (each line can jump to the message it came from), the references as note links, task topics,
// files read and modified, the exact `<previous_context>` block sent, and the original messages it
// replaced. Also "Compact now" with a focus text, and undo of the last round.
//
// Thin, like the chat view: the session (owned by the plugin) holds the rounds; this view renders
// them on its `compactions` event and forwards the user's actions. Rounds are rebuilt as a whole
// (there are few); the original messages of a round are rendered only while shown, each round's
// with its own child Component, so collapsing or re-rendering releases them.
import { Component, ItemView, Keymap, Notice, setIcon, setTooltip, type WorkspaceLeaf } from 'obsidian';
import { renderSafeMarkdown } from './safe-markdown';
import { formatCount, plural, promptChange } from '../chat/format';
import type { CompactionCause, CompactionState } from '../chat/entries';
import type { ChatSession } from '../chat/session';
import type { ChatMessage } from '../core/messages';
import type { CompactionRecord, ErrorLine, SourcedLine } from '../core/record';
import { groupUnits } from '../core/units';
import { pathLink, referenceLink, renderLink } from './compaction-links';
import { summarySections } from './compaction-sections';
import { CarriedLineEditor } from './carried-line-editor';
import { formatDateTime } from './dates';
import { HistorySearchBox, sessionSearchHost, speakerLabel } from './history-search';

export const VIEW_TYPE_COMPACTIONS = 'compact-chat-compactions';

/** What the panel needs from the plugin. */
export interface CompactionPanelHost {
  readonly session: ChatSession;
  /** Shows the message in the chat view (opening the chat if needed); false when it is not there. */
  revealMessage(id: string): Promise<boolean>;
}

export class CompactionPanelView extends ItemView {
  private controlsEl!: HTMLElement;
  private statusEl!: HTMLElement;
  private focusInput!: HTMLInputElement;
  private compactButton!: HTMLButtonElement;
  private undoButton!: HTMLButtonElement;
  private undoEditButton!: HTMLButtonElement;
  private lineEditor!: CarriedLineEditor;
  private noteEl!: HTMLElement;
  private listEl!: HTMLElement;
  /** The search box over the compacted messages (history-search.ts). */
  private historySearch: HistorySearchBox | null = null;
  /** Rounds whose details are open, and rounds whose original messages are shown. */
  private readonly openRounds = new Set<number>();
  private readonly originalsShown = new Set<number>();
  private readonly originals = new Map<number, Component>();
  private compacting = false;
  /** The newest round rendered last time: a newer one opens by itself. */
  private newestSeen = 0;

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
    this.listEl = root.createDiv({ cls: 'compact-chat-rounds', attr: { role: 'region', 'aria-label': 'Compaction rounds, newest first' } });

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
    for (const component of this.originals.values()) this.removeChild(component);
    this.originals.clear();
    this.contentEl.empty();
  }

  /** Opens round `round` (expanded, scrolled to, focused). False when there is no such round. */
  showRound(round: number): boolean {
    const el = this.listEl.find(`details[data-round="${round}"]`);
    if (!el?.instanceOf(HTMLDetailsElement)) return false;
    el.open = true;
    this.openRounds.add(round);
    for (const other of this.listEl.findAll('.compact-chat-round.is-highlighted')) other.removeClass('is-highlighted');
    el.addClass('is-highlighted');
    this.listEl.scrollTop = Math.max(0, el.offsetTop - this.listEl.offsetTop);
    el.find('summary')?.focus();
    return true;
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
    // Keep what the user opened or closed ('toggle' does not bubble, so it is read back here).
    for (const el of this.listEl.findAll('details.compact-chat-round')) {
      const round = Number(el.getAttr('data-round'));
      if (el.instanceOf(HTMLDetailsElement) && el.open) this.openRounds.add(round);
      else this.openRounds.delete(round);
    }
    for (const component of this.originals.values()) this.removeChild(component);
    this.originals.clear();
    this.listEl.empty();
    const rounds = this.session.compactions;
    const live = new Set(rounds.map((s) => s.record.round));
    for (const r of [...this.openRounds]) if (!live.has(r)) this.openRounds.delete(r);
    for (const r of [...this.originalsShown]) if (!live.has(r)) this.originalsShown.delete(r);
    if (!rounds.length) {
      this.listEl.createDiv({
        cls: 'compact-chat-panel-empty',
        text: 'No compaction yet in this conversation. When the conversation grows past the compaction point (or you press "Compact now"), each round appears here with what it carried forward.',
      });
    }
    const byId = new Map(this.session.messages.map((m) => [m.id, m]));
    for (let i = rounds.length - 1; i >= 0; i--) {
      const state = rounds[i];
      if (state) this.renderRound(state, byId, i === rounds.length - 1);
    }
    this.newestSeen = rounds[rounds.length - 1]?.record.round ?? 0;
    this.historySearch?.refresh();
    this.updateControls();
  }

  private renderRound(state: CompactionState, byId: ReadonlyMap<string, ChatMessage>, latest: boolean): void {
    const r = state.record;
    const details = this.listEl.createEl('details', { cls: 'compact-chat-round', attr: { 'data-round': String(r.round) } });
    details.open = this.openRounds.has(r.round) || (latest && r.round > this.newestSeen);
    if (details.open) this.openRounds.add(r.round);
    const summary = details.createEl('summary', { cls: 'compact-chat-round-summary' });
    summary.createSpan({ cls: 'compact-chat-round-title', text: `Round ${r.round}` });
    summary.createSpan({ cls: 'compact-chat-round-meta', text: ` · ${triggerText(r, state.causes)} · ${timeText(r.timestamp)}` });
    summary.createSpan({
      cls: 'compact-chat-round-meta',
      text: ` · ${plural(r.removedIds.length, 'message')} summarised · ${promptChange(state.promptBefore, state.promptAfter)}`,
    });
    const body = details.createDiv('compact-chat-round-body');

    // Figures.
    const removed = r.removedIds.map((id) => byId.get(id)).filter((m): m is ChatMessage => m !== undefined);
    const kept = r.keptIds.map((id) => byId.get(id)).filter((m): m is ChatMessage => m !== undefined);
    const facts = body.createEl('dl', { cls: 'compact-chat-round-figures' });
    const fact = (term: string, value: string, cls: string): void => {
      facts.createEl('dt', { text: term });
      facts.createEl('dd', { text: value, cls });
    };
    fact('Trigger', triggerText(r, state.causes), 'compact-chat-figure-trigger');
    fact('Time', timeText(r.timestamp), 'compact-chat-figure-time');
    fact('Removed', `${plural(r.removedIds.length, 'message')} in ${plural(groupUnits(removed).length, 'unit')}`, 'compact-chat-figure-removed');
    fact('Kept', `${plural(r.keptIds.length, 'message')} in ${plural(groupUnits(kept).length, 'unit')}`, 'compact-chat-figure-kept');
    // One pair of figures everywhere (the notice in the chat says the same): the whole prompt.
    fact('Tokens', `${promptChange(state.promptBefore, state.promptAfter)} (whole prompt, estimated)`, 'compact-chat-figure-tokens');
    fact('Summary block', `${formatCount(r.blockTokens)} tokens`, 'compact-chat-figure-block');
    if (state.microCleared.length) fact('Old tool results cleared', String(state.microCleared.length), 'compact-chat-figure-micro');
    if (state.restored.notes.length) {
      facts.createEl('dt', { text: 'Notes re-attached' });
      const dd = facts.createEl('dd', { cls: 'compact-chat-figure-restored' });
      state.restored.notes.forEach((note, i) => {
        if (i > 0) dd.appendText(', ');
        renderLink(dd, pathLink(this.app, note.path));
        if (note.truncated) dd.appendText(' (start only)');
      });
    }

    // Summary sections, as the block sent them: what the record holds beyond that is listed under
    // each section as not sent (it stays in the record for later rounds).
    const sum = this.section(body, 'Summary', 'compact-chat-round-sections');
    const sections = summarySections(r);
    const any = sections.length > 0;
    // The latest round's lines can be edited or removed: its block is the one sent.
    const editable = latest && this.session.lineEditBlocker() === null;
    for (const section of sections) {
      sum.createEl('h5', { text: section.title });
      if (section.sent.length) {
        const list = sum.createEl('ul', { cls: 'compact-chat-lines' });
        for (const line of section.sent) this.lineEditor.decorate(this.renderLine(list, line), line, editable);
      }
      if (section.notSent.length) {
        const details = sum.createEl('details', { cls: 'compact-chat-not-sent' });
        details.createEl('summary', { text: `Not sent: ${plural(section.notSent.length, 'line')} kept for later rounds` });
        const list = details.createEl('ul', { cls: 'compact-chat-lines' });
        for (const line of section.notSent) this.lineEditor.decorate(this.renderLine(list, line), line, editable);
      }
      this.lineEditor.renderRemoved(sum, section, editable);
    }
    if (!any) sum.createDiv({ cls: 'compact-chat-muted', text: 'Nothing was extracted.' });

    // References, topics, files.
    if (r.references.length) {
      const list = this.section(body, 'References', 'compact-chat-round-references').createEl('ul', { cls: 'compact-chat-links' });
      for (const ref of r.references) renderLink(list.createEl('li'), referenceLink(this.app, ref));
    }
    if (r.topics.length) {
      const list = this.section(body, 'Task topics', 'compact-chat-round-topics').createEl('ul', { cls: 'compact-chat-lines' });
      for (const topic of r.topics) this.renderLine(list, topic);
    }
    for (const [title, files, cls] of [
      ['Files read', r.filesRead, 'compact-chat-round-files-read'],
      ['Files modified', r.filesModified, 'compact-chat-round-files-modified'],
    ] as const) {
      if (!files.length) continue;
      const list = this.section(body, title, cls).createEl('ul', { cls: 'compact-chat-links' });
      for (const file of files) renderLink(list.createEl('li'), pathLink(this.app, file.path));
    }

    // The block exactly as sent.
    const blockSection = this.section(body, 'Sent as <previous_context>', 'compact-chat-round-block');
    const copy = blockSection.createEl('button', { cls: 'compact-chat-copy-block', text: 'Copy', attr: { 'data-action': 'copy-block', 'data-round': String(r.round), 'aria-label': `Copy the block of round ${r.round}` } });
    copy.disabled = !r.block;
    blockSection.createEl('pre', { cls: 'compact-chat-block', text: r.block || '(Nothing fit in the budget: no block was sent.)', attr: { tabindex: '0', 'aria-label': `The previous_context block of round ${r.round}` } });

    // The original messages.
    const originalsId = `compact-chat-originals-${r.round}-${Math.random().toString(36).slice(2, 8)}`;
    const toggle = body.createEl('button', {
      cls: 'compact-chat-originals-toggle',
      text: `Show original messages (${r.removedIds.length})`,
      attr: { 'data-action': 'toggle-originals', 'data-round': String(r.round), 'aria-expanded': 'false', 'aria-controls': originalsId },
    });
    const originalsEl = body.createDiv({ cls: 'compact-chat-originals', attr: { id: originalsId } });
    originalsEl.hide();
    if (this.originalsShown.has(r.round)) this.showOriginals(r, toggle, originalsEl, removed);
  }

  private section(parent: HTMLElement, title: string, cls: string): HTMLElement {
    const el = parent.createDiv(`compact-chat-round-section ${cls}`);
    el.createEl('h4', { text: title });
    return el;
  }

  private renderLine(list: HTMLElement, line: SourcedLine | ErrorLine): HTMLElement {
    const li = list.createEl('li', { cls: 'compact-chat-line' });
    li.createSpan({ cls: 'compact-chat-line-text', text: line.text });
    if ('resolution' in line && line.resolution) li.createSpan({ cls: 'compact-chat-line-resolution', text: ` → ${line.resolution}` });
    const source = line.sources[line.sources.length - 1];
    if (!source) return li;
    const jump = li.createEl('button', {
      cls: 'clickable-icon compact-chat-jump',
      attr: { 'data-source': source, 'aria-label': `Show the message this came from: ${truncate(line.text, 60)}` },
    });
    setIcon(jump, 'corner-down-right');
    return li;
  }

  private showOriginals(record: CompactionRecord, toggle: HTMLElement, container: HTMLElement, removed: readonly ChatMessage[]): void {
    const old = this.originals.get(record.round);
    if (old) this.removeChild(old);
    const component = this.addChild(new Component());
    this.originals.set(record.round, component);
    this.originalsShown.add(record.round);
    container.empty();
    container.show();
    toggle.setText(`Hide original messages (${record.removedIds.length})`);
    toggle.setAttr('aria-expanded', 'true');
    if (!removed.length) container.createDiv({ cls: 'compact-chat-muted', text: 'The original messages are no longer in this conversation.' });
    for (const message of removed) {
      const el = container.createDiv({ cls: `compact-chat-message compact-chat-original mod-${message.role}`, attr: { 'data-message-id': message.id } });
      el.createDiv({ cls: 'compact-chat-original-role', text: speakerLabel(message) });
      const bodyEl = el.createDiv('compact-chat-message-body markdown-rendered');
      if (message.content) void renderSafeMarkdown(this.app, message.content, bodyEl, '', component);
      if (message.role === 'assistant') {
        for (const call of message.toolCalls ?? []) el.createDiv({ cls: 'compact-chat-tool-call', text: `Tool call: ${call.name}(${call.arguments})` });
      }
      el.createEl('button', { cls: 'compact-chat-original-jump', text: 'Show in chat', attr: { 'data-source': message.id, 'aria-label': `Show this ${speakerLabel(message).toLowerCase()} message in the chat` } });
    }
  }

  private hideOriginals(round: number, toggle: HTMLElement, container: HTMLElement, count: number): void {
    const component = this.originals.get(round);
    if (component) this.removeChild(component);
    this.originals.delete(round);
    this.originalsShown.delete(round);
    container.empty();
    container.hide();
    toggle.setText(`Show original messages (${count})`);
    toggle.setAttr('aria-expanded', 'false');
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
      case 'toggle-originals': {
        const container = action.parentElement?.find('.compact-chat-originals');
        if (!action.instanceOf(HTMLElement) || !container) return;
        if (this.originalsShown.has(round)) {
          this.hideOriginals(round, action, container, state.record.removedIds.length);
        } else {
          const byId = new Map(this.session.messages.map((m) => [m.id, m]));
          const removed = state.record.removedIds.map((id) => byId.get(id)).filter((m): m is ChatMessage => m !== undefined);
          this.showOriginals(state.record, action, container, removed);
        }
        break;
      }
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

const CAUSE_TEXT: Record<CompactionCause, string> = {
  tokens: 'Token limit',
  messages: 'Message count',
  manual: 'Manual',
  overflow: 'Server said the prompt was too long',
};

function triggerText(record: CompactionRecord, causes: readonly CompactionCause[]): string {
  const words = causes.length ? causes.map((c) => CAUSE_TEXT[c]) : [record.trigger === 'unknown' ? 'Unknown' : CAUSE_TEXT[record.trigger]];
  const text = [...new Set(words)].join(' and ');
  return record.focus ? `${text}, focus “${record.focus}”` : text;
}

function timeText(ms: number): string {
  return formatDateTime(ms) || 'unknown time';
}


function truncate(text: string, n: number): string {
  return text.length <= n ? text : `${text.slice(0, n - 1)}…`;
}
