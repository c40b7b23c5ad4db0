// The chat sidebar. Thin: the conversation, the send loop and the meter figures live in the
// plugin's ChatSession (src/chat); this view renders them and forwards the user's actions.
//
// Rendering: each entry has its own element and its own child Component for the Markdown it shows,
// so re-rendering one message (a streaming reply, at most every STREAM_RENDER_MS) never touches
// the others, and unloading the view releases every render. Only the latest PAGE entries are in
// the DOM at first; "Show earlier messages" adds older ones a page at a time.
import { Component, debounce, ItemView, Keymap, MarkdownView, Menu, Notice, setIcon, setTooltip, type WorkspaceLeaf } from 'obsidian';
import { renderSafeMarkdown } from './safe-markdown';
import { StallIndicator } from './stall-indicator';
import type { HistoryItem } from '../chat/conversation-store';
import type { Conversations } from '../chat/conversations';
import { formatTokens } from '../chat/format';
import { describeMeter, type MeterFigures } from '../chat/meter';
import type { ChatEntry, CompactionState, MessageEntry, NoticeEntry } from '../chat/entries';
import type { ChatSession } from '../chat/session';
import { ConfirmModal, OversizedModal, RenameModal } from './chat-modals';
import { CompactNowModal } from './compact-modal';
import { MentionSuggest } from './mention-suggest';

export const VIEW_TYPE_CHAT = 'compact-chat-view';

/** What the view needs from the plugin (kept small so the view does not depend on main.ts). */
export interface ChatHost {
  readonly session: ChatSession;
  readonly conversations: Conversations;
  openSettings(): void;
  /** Opens the compaction summary panel, on round `round` when given. */
  openCompactionPanel(round?: number): void;
  /** Whether the active note is attached to every request (a setting). */
  includeActiveNote(): boolean;
  /** The user's choice to load remote images in replies at once (safe-markdown.ts). */
  allowRemoteImages?(): boolean;
  setIncludeActiveNote(on: boolean): Promise<void>;
  /** The note that would be attached as the active note, or null. */
  activeNotePath(): string | null;
}

/** `/compact` or `/compact <focus>` typed in the input box: the focus, or null for any other text. */
export function parseCompactCommand(text: string): { focus: string } | null {
  const m = /^\/compact(?:\s+([\s\S]*))?$/i.exec(text.trim());
  return m ? { focus: (m[1] ?? '').trim() } : null;
}

const PAGE = 60;
const STREAM_RENDER_MS = 60;
const HIGHLIGHT_MS = 2500;

interface Rendered {
  entry: ChatEntry;
  el: HTMLElement;
  bodyEl: HTMLElement | null;
  component: Component | null;
  /** Bumped on each render; a render that finishes after a newer one started is dropped. */
  version: number;
  editing: boolean;
}

export class ChatView extends ItemView {
  private listEl!: HTMLElement;
  /** Whether the list was scrolled to its end when last scrolled: late renders only follow then,
   * so showing earlier messages or jumping to a source message is never undone by a yank. */
  private stickToEnd = true;
  private earlierEl!: HTMLElement;
  private statusEl!: HTMLElement;
  private meterEl!: HTMLElement;
  private meterFillEl!: HTMLElement;
  private meterMarkEl!: HTMLElement;
  private meterLabelEl!: HTMLElement;
  private inputEl!: HTMLTextAreaElement;
  private sendButton!: HTMLButtonElement;
  private reasonEl!: HTMLElement;
  private compactButton!: HTMLElement;
  private chatTitleEl!: HTMLElement;
  private historyEl!: HTMLElement;
  private historySearchEl!: HTMLInputElement;
  private historyListEl!: HTMLElement;
  private historyVersion = 0;
  private activeToggleEl!: HTMLElement;
  private activeLabelEl!: HTMLElement;
  private mentions: MentionSuggest | null = null;
  private readonly rendered = new Map<string, Rendered>();
  /** The boundary dividers in the list, by the id of the last message their round removed. */
  private readonly dividers = new Map<string, HTMLElement>();
  private highlightTimer: number | null = null;
  private visibleCount = PAGE;
  private streamTimer: number | null = null;
  private pendingStream: MessageEntry | null = null;

  constructor(
    leaf: WorkspaceLeaf,
    private readonly host: ChatHost,
  ) {
    super(leaf);
    this.icon = 'messages-square';
  }

  getViewType(): string {
    return VIEW_TYPE_CHAT;
  }

  getDisplayText(): string {
    return 'Chat';
  }

  private get session(): ChatSession {
    return this.host.session;
  }

  protected override async onOpen(): Promise<void> {
    const root = this.contentEl;
    root.empty();
    root.addClass('compact-chat-view');

    const toolbar = root.createDiv('compact-chat-toolbar');
    this.chatTitleEl = toolbar.createDiv('compact-chat-title');
    this.toolbarButton(toolbar, 'history', 'Conversation history', () => this.toggleHistory());
    this.toolbarButton(toolbar, 'square-pen', 'New chat', () => void this.host.conversations.newChat());
    this.compactButton = this.toolbarButton(toolbar, 'fold-vertical', 'Compact now', () => this.compactNow());
    this.toolbarButton(toolbar, 'list-tree', 'Open compaction panel', () => this.host.openCompactionPanel());
    this.toolbarButton(toolbar, 'settings', 'Settings', () => this.host.openSettings());

    this.buildHistory(root);
    this.listEl = root.createDiv('compact-chat-messages');
    this.earlierEl = this.listEl.createEl('button', { cls: 'compact-chat-earlier', text: 'Show earlier messages' });
    this.registerDomEvent(this.earlierEl, 'click', () => {
      this.visibleCount += PAGE;
      this.syncEntries(false);
    });
    // One delegated listener each for the whole list: entries come and go without listeners.
    this.registerDomEvent(this.listEl, 'click', (evt) => this.onListClick(evt));
    this.registerDomEvent(this.listEl, 'scroll', () => {
      this.stickToEnd = this.listEl.scrollHeight - this.listEl.scrollTop - this.listEl.clientHeight < 48;
    });
    this.registerDomEvent(this.listEl, 'keydown', (evt) => this.onListKeydown(evt));
    this.registerDomEvent(this.listEl, 'mouseover', (evt) => this.onLinkHover(evt));
    this.registerDomEvent(this.listEl, 'contextmenu', (evt) => {
      const divider = evt.target instanceof Element ? evt.target.closest('.compact-chat-divider') : null;
      if (divider) this.onDividerMenu(evt, Number(divider.getAttr('data-round')));
    });

    this.statusEl = root.createDiv('compact-chat-status');
    const stallEl = root.createDiv('compact-chat-stall');
    this.buildMeter(root);
    this.buildComposer(root);

    const events = this.session.events;
    this.register(events.on('entries', () => this.syncEntries(true)));
    this.register(events.on('entry', (entry) => this.renderEntry(entry)));
    this.register(events.on('delta', ({ entry }) => this.scheduleStreamRender(entry)));
    this.register(events.on('busy', () => this.updateComposer()));
    this.register(events.on('status', (text) => this.statusEl.setText(text)));
    this.register(events.on('meter', (figures) => this.updateMeter(figures)));
    this.register(events.on('compactions', () => this.syncEntries(false)));
    // A sign of life while the server is silent (stall-indicator.ts).
    const stall = new StallIndicator(stallEl);
    this.register(events.on('busy', (busy) => stall.setRunning(busy)));
    for (const name of ['delta', 'entry', 'status'] as const) this.register(events.on(name, () => stall.activity()));
    this.registerInterval(window.setInterval(() => stall.tick(), 1000));
    this.register(() => this.clearStreamTimer());
    this.register(() => this.clearHighlight());
    const conversations = this.host.conversations;
    this.register(conversations.events.on('current', () => this.updateTitle()));
    this.register(conversations.events.on('history', () => this.refreshHistory()));
    this.registerEvent(this.app.workspace.on('active-leaf-change', () => this.updateActiveNote()));
    this.registerEvent(this.app.workspace.on('file-open', () => this.updateActiveNote()));
    this.updateTitle();
    this.updateActiveNote();

    this.syncEntries(true);
    this.updateMeter(this.session.meter());
    this.updateComposer();
  }

  protected override async onClose(): Promise<void> {
    this.clearStreamTimer();
    this.clearHighlight();
    for (const item of this.rendered.values()) if (item.component) this.removeChild(item.component);
    this.rendered.clear();
    this.dividers.clear();
    this.contentEl.empty();
  }

  // ── composer ──────────────────────────────────────────────────────────────────────────────

  private buildComposer(root: HTMLElement): void {
    const composer = root.createDiv('compact-chat-composer');
    this.reasonEl = composer.createDiv('compact-chat-disabled-reason');
    const context = composer.createDiv('compact-chat-context');
    this.activeToggleEl = context.createEl('button', { cls: 'clickable-icon compact-chat-active-toggle', attr: { 'aria-label': 'Include the active note' } });
    setIcon(this.activeToggleEl, 'paperclip');
    this.activeLabelEl = context.createDiv('compact-chat-active-note');
    this.registerDomEvent(this.activeToggleEl, 'click', () => {
      void this.host.setIncludeActiveNote(!this.host.includeActiveNote()).then(() => this.updateActiveNote());
    });
    const row = composer.createDiv('compact-chat-input-row');
    this.inputEl = row.createEl('textarea', {
      cls: 'compact-chat-input',
      attr: { rows: '3', placeholder: 'Ask about your notes. Enter to send, Shift+Enter for a new line.', 'aria-label': 'Message' },
    });
    this.sendButton = row.createEl('button', { cls: 'compact-chat-send mod-cta', text: 'Send' });
    this.mentions = new MentionSuggest(this.app, this.inputEl);
    this.register(() => this.mentions?.close());
    this.registerDomEvent(this.inputEl, 'keydown', (evt) => {
      // While the `[[` picker is open, Enter picks a note (its own key scope handles it).
      if (evt.key !== 'Enter' || evt.shiftKey || evt.isComposing || this.mentions?.isShown) return;
      evt.preventDefault();
      this.submit();
    });
    this.registerDomEvent(this.sendButton, 'click', () => {
      if (this.session.busy) this.session.stop();
      else this.submit();
    });
  }

  private submit(): void {
    if (this.session.busy || this.session.disabledReason()) return;
    const text = this.inputEl.value;
    if (!text.trim()) return;
    const command = parseCompactCommand(text);
    if (command) {
      this.inputEl.value = '';
      void this.runCompactNow(command.focus);
      return;
    }
    this.inputEl.value = '';
    void this.sendChecked(text);
  }

  /** Sends; a message too big for the window comes back to the user with a choice first. */
  private async sendChecked(text: string): Promise<void> {
    const outcome = await this.session.send(text);
    if (outcome.kind !== 'oversized') return;
    const choice = await new OversizedModal(this.app, outcome.tokens, outcome.limit).ask();
    if (choice === 'shorten') {
      this.inputEl.value = text;
      this.inputEl.focus();
      return;
    }
    await this.session.send(text, { oversized: choice });
  }

  private updateComposer(): void {
    const busy = this.session.busy;
    const reason = this.session.disabledReason();
    this.reasonEl.setText(reason ?? '');
    this.reasonEl.toggle(reason !== null);
    this.inputEl.disabled = reason !== null;
    this.sendButton.setText(busy ? 'Stop' : 'Send');
    this.sendButton.toggleClass('mod-warning', busy);
    this.sendButton.toggleClass('mod-cta', !busy);
    this.sendButton.disabled = !busy && reason !== null;
    setTooltip(this.sendButton, busy ? 'Stop the reply' : reason ?? 'Send (Enter)');
    this.updateCompactButton();
    // Rewrite buttons depend on whether a reply is streaming.
    for (const item of this.rendered.values()) {
      if (item.entry.kind !== 'message' || item.editing) continue;
      this.renderActions(item);
      for (const retry of item.el.findAll('button.compact-chat-retry')) (retry as HTMLButtonElement).disabled = busy;
    }
  }

  // ── meter ─────────────────────────────────────────────────────────────────────────────────

  private buildMeter(root: HTMLElement): void {
    this.meterEl = root.createDiv('compact-chat-meter');
    const bar = this.meterEl.createDiv('compact-chat-meter-bar');
    this.meterFillEl = bar.createDiv('compact-chat-meter-fill');
    this.meterMarkEl = bar.createDiv('compact-chat-meter-mark');
    this.meterLabelEl = this.meterEl.createDiv('compact-chat-meter-label');
  }

  private updateMeter(f: MeterFigures): void {
    this.meterEl.toggleClass('is-near', f.level === 'near');
    this.meterEl.toggleClass('is-over', f.level === 'over');
    this.meterFillEl.setCssProps({ '--compact-chat-fill': `${(f.usedRatio * 100).toFixed(1)}%` });
    this.meterMarkEl.setCssProps({ '--compact-chat-mark': `${(f.pointRatio * 100).toFixed(1)}%` });
    const limit = f.messageLimit > 0 ? ` · ${f.sentMessages}/${f.messageLimit} messages` : '';
    this.meterLabelEl.setText(`${formatTokens(f.used)} / ${formatTokens(f.window)} tokens · compacts at ${formatTokens(f.compactionPoint)}${limit}`);
    setTooltip(this.meterEl, describeMeter(f), { placement: 'top' });
    this.updateComposer();
  }

  // ── entries ───────────────────────────────────────────────────────────────────────────────

  /** Brings the list in line with the session's entries: adds new ones, drops removed ones. */
  private syncEntries(scroll: boolean): void {
    const entries = this.session.entries;
    const start = Math.max(0, entries.length - this.visibleCount);
    const visible = entries.slice(start);
    const keep = new Set(visible.map((e) => e.id));
    for (const [id, item] of this.rendered) {
      if (keep.has(id)) continue;
      if (item.component) this.removeChild(item.component);
      item.el.detach();
      this.rendered.delete(id);
    }
    this.earlierEl.toggle(start > 0);
    if (start > 0) this.earlierEl.setText(`Show ${Math.min(PAGE, start)} earlier messages`);
    const boundaries = new Map<string, CompactionState>();
    for (const state of this.session.compactions) if (state.record.removedThrough) boundaries.set(state.record.removedThrough, state);
    for (const [id, el] of this.dividers) {
      if (boundaries.has(id) && keep.has(id)) continue;
      el.detach();
      this.dividers.delete(id);
    }
    let previous: Element = this.earlierEl;
    for (const entry of visible) {
      let item = this.rendered.get(entry.id);
      if (!item || item.entry !== entry) {
        if (item) {
          if (item.component) this.removeChild(item.component);
          item.el.detach();
        }
        item = this.createEntry(entry);
      }
      if (previous.nextSibling !== item.el) previous.after(item.el);
      previous = item.el;
      const state = boundaries.get(entry.id);
      if (state) {
        const divider = this.divider(entry.id, state);
        if (previous.nextSibling !== divider) previous.after(divider);
        previous = divider;
      }
    }
    if (scroll) this.scrollToEnd();
  }

  private createEntry(entry: ChatEntry): Rendered {
    const el = createDiv({ cls: 'compact-chat-entry', attr: { 'data-entry-id': entry.id } });
    const item: Rendered = { entry, el, bodyEl: null, component: null, version: 0, editing: false };
    this.rendered.set(entry.id, item);
    this.fillEntry(item);
    return item;
  }

  /** Re-renders one entry in place (its status or content changed). */
  private renderEntry(entry: ChatEntry): void {
    const item = this.rendered.get(entry.id);
    if (!item) return;
    if (this.pendingStream === entry) this.clearStreamTimer();
    item.entry = entry;
    item.editing = false;
    this.fillEntry(item);
    this.scrollToEnd();
  }

  private fillEntry(item: Rendered): void {
    const { el, entry } = item;
    el.empty();
    if (item.component) this.removeChild(item.component);
    item.component = null;
    item.bodyEl = null;
    if (entry.kind === 'notice') {
      this.fillNotice(el, entry);
      return;
    }
    const role = entry.message.role;
    el.className = `compact-chat-entry compact-chat-message mod-${role}`;
    el.setAttr('data-message-id', entry.message.id);
    el.toggleClass('is-streaming', entry.status === 'streaming');
    el.toggleClass('is-stopped', entry.status === 'stopped');
    el.toggleClass('is-error', entry.status === 'error');
    if (entry.message.role === 'tool') {
      this.fillToolResult(el, entry);
      return;
    }
    item.bodyEl = el.createDiv('compact-chat-message-body markdown-rendered');
    const text = entry.message.content;
    // The Markdown lands asynchronously: scroll again once it has its final height, or the end of
    // a finished reply (and its actions) stays below the fold.
    if (text) void this.renderMarkdown(item, text).then(() => this.stickToEnd && this.scrollToEnd());
    if (entry.message.role === 'assistant') {
      for (const call of entry.message.toolCalls ?? []) {
        const details = el.createEl('details', { cls: 'compact-chat-tool-call' });
        details.createEl('summary', { text: `Tool call: ${call.name}${toolTarget(call.arguments)}` });
        details.createEl('pre', { cls: 'compact-chat-tool-args', text: prettyJson(call.arguments) });
      }
    }
    if (entry.mentions?.length) {
      const list = el.createDiv('compact-chat-mentions');
      list.createSpan({ text: 'Notes sent as context: ' });
      entry.mentions.forEach((path, i) => {
        if (i > 0) list.appendText(', ');
        list.createEl('a', { cls: 'internal-link', text: path.replace(/\.md$/, ''), attr: { 'data-href': path, href: path } });
      });
    }
    if (entry.status === 'stopped') el.createDiv({ cls: 'compact-chat-message-mark', text: 'Stopped: the reply is incomplete.' });
    if (entry.stopReason === 'max-tokens') el.createDiv({ cls: 'compact-chat-message-mark', text: 'The reply hit the length limit (reserve for the reply).' });
    if (entry.status === 'error' && entry.error) {
      const box = el.createDiv('compact-chat-error');
      box.createDiv({ cls: 'compact-chat-error-text', text: entry.error.message });
      if (entry.error.availableModels?.length) {
        box.createDiv({ cls: 'compact-chat-error-models', text: `Models on the server: ${entry.error.availableModels.slice(0, 12).join(', ')}` });
      }
      const retry = box.createEl('button', { cls: 'compact-chat-retry mod-cta', text: 'Retry', attr: { 'data-action': 'retry' } });
      retry.disabled = this.session.busy;
    }
    el.createDiv('compact-chat-message-actions');
    this.renderActions(item);
  }

  /** A tool result: collapsed, its first line as the summary. */
  private fillToolResult(el: HTMLElement, entry: MessageEntry): void {
    const message = entry.message;
    if (message.role !== 'tool') return;
    el.toggleClass('is-tool-error', message.isError === true);
    const details = el.createEl('details', { cls: 'compact-chat-tool-result' });
    const first = message.content.split('\n', 1)[0] ?? '';
    details.createEl('summary', { text: `${message.isError ? 'Tool failed' : 'Tool result'}${message.name ? ` · ${message.name}` : ''}: ${first.length > 80 ? `${first.slice(0, 80)}…` : first}` });
    details.createEl('pre', { cls: 'compact-chat-tool-output', text: message.content });
  }

  private fillNotice(el: HTMLElement, entry: NoticeEntry): void {
    el.className = `compact-chat-entry compact-chat-notice mod-${entry.level}`;
    el.toggleClass('is-undone', entry.undone === true);
    el.createDiv({ cls: 'compact-chat-notice-text', text: entry.text });
    const state = entry.compaction;
    if (!state) return;
    if (entry.undone) {
      el.createDiv({ cls: 'compact-chat-notice-undone', text: 'Undone: these messages are sent again.' });
      return;
    }
    const details = el.createEl('details', { cls: 'compact-chat-notice-details' });
    details.createEl('summary', { text: 'What was carried forward' });
    details.createEl('pre', { cls: 'compact-chat-block', text: state.record.block || '(Nothing fit in the budget.)' });
    if (state.restored.notes.length) {
      details.createDiv({ text: `Re-attached notes: ${state.restored.notes.map((n) => n.path + (n.truncated ? ' (start only)' : '')).join(', ')}` });
    }
  }

  private renderActions(item: Rendered): void {
    const entry = item.entry;
    if (entry.kind !== 'message') return;
    const bar = item.el.find('.compact-chat-message-actions');
    if (!bar) return;
    bar.empty();
    if (entry.status === 'streaming' || entry.status === 'error') return;
    const role = entry.message.role;
    if (role === 'tool') return;
    const text = entry.message.content;
    const canRewrite = this.session.canRewrite(entry.id);
    if (text) actionButton(bar, 'copy', 'Copy', 'copy');
    if (text && role === 'assistant') actionButton(bar, 'file-input', 'Insert into the active note', 'insert');
    if (role === 'assistant' && canRewrite) actionButton(bar, 'refresh-cw', 'Regenerate', 'regenerate');
    if (role === 'user' && canRewrite) actionButton(bar, 'pencil', 'Edit and resend', 'edit');
  }

  private startEdit(item: Rendered): void {
    const entry = item.entry;
    if (entry.kind !== 'message' || !item.bodyEl) return;
    item.editing = true;
    const body = item.bodyEl;
    body.empty();
    item.el.find('.compact-chat-message-actions')?.empty();
    const area = body.createEl('textarea', { cls: 'compact-chat-edit-input', attr: { rows: '3', 'aria-label': 'Edit message' } });
    area.value = entry.message.content;
    const buttons = body.createDiv('compact-chat-edit-buttons');
    buttons.createEl('button', { cls: 'mod-cta', text: 'Send', attr: { 'data-action': 'edit-send' } });
    buttons.createEl('button', { text: 'Cancel', attr: { 'data-action': 'edit-cancel' } });
    area.focus();
  }

  private submitEdit(item: Rendered): void {
    const area = item.el.find('textarea.compact-chat-edit-input');
    if (!area?.instanceOf(HTMLTextAreaElement) || this.session.busy || !area.value.trim()) return;
    void this.session.editAndResend(item.entry.id, area.value);
  }

  // ── streaming ─────────────────────────────────────────────────────────────────────────────

  /** Renders a streaming reply at most every STREAM_RENDER_MS, and only that reply. */
  private scheduleStreamRender(entry: MessageEntry): void {
    this.pendingStream = entry;
    if (this.streamTimer !== null) return;
    this.streamTimer = window.setTimeout(() => {
      this.streamTimer = null;
      const pending = this.pendingStream;
      this.pendingStream = null;
      const item = pending ? this.rendered.get(pending.id) : undefined;
      if (!pending || !item || pending.status !== 'streaming') return;
      void this.renderMarkdown(item, pending.message.content).then(() => this.scrollToEnd());
    }, STREAM_RENDER_MS);
  }

  private clearStreamTimer(): void {
    if (this.streamTimer !== null) window.clearTimeout(this.streamTimer);
    this.streamTimer = null;
    this.pendingStream = null;
  }

  /** Renders Markdown off-screen, then swaps it in, unless a newer render of the entry started. */
  private async renderMarkdown(item: Rendered, markdown: string): Promise<void> {
    const version = ++item.version;
    const component = this.addChild(new Component());
    const target = createDiv('compact-chat-markdown');
    // Model output and quoted note text: rendered by our own safe rule (safe-markdown.ts).
    await renderSafeMarkdown(this.app, markdown, target, '', component, { allowRemoteImages: this.host.allowRemoteImages?.() ?? false });
    if (version !== item.version || !item.bodyEl || !this.rendered.has(item.entry.id)) {
      this.removeChild(component);
      return;
    }
    if (item.component) this.removeChild(item.component);
    item.component = component;
    item.bodyEl.empty();
    item.bodyEl.appendChild(target);
  }

  // ── actions ───────────────────────────────────────────────────────────────────────────────

  /** The toolbar button: a modal asks for an optional focus; unavailable says why. */
  private compactNow(): void {
    const reason = this.session.compactNowBlocker();
    if (reason) {
      new Notice(reason);
      return;
    }
    new CompactNowModal(this.app, this.session).open();
  }

  private async runCompactNow(focus: string): Promise<void> {
    const outcome = await this.session.compactNow(focus || undefined);
    if (outcome.kind === 'skipped') new Notice(outcome.message);
  }

  /** "Compact now" stays focusable when unavailable (aria-disabled), so its reason can be read. */
  private updateCompactButton(): void {
    if (!this.compactButton) return;
    const reason = this.session.compactNowBlocker();
    this.compactButton.setAttr('aria-disabled', reason ? 'true' : 'false');
    this.compactButton.toggleClass('is-disabled', reason !== null);
    setTooltip(this.compactButton, reason ? `Compact now: unavailable. ${reason}` : 'Compact now (or type /compact <focus>)');
  }

  // ── compaction boundaries and jumping to a message ────────────────────────────────────────

  /** The divider after the last message round `state` removed; clicking it opens the round. */
  private divider(id: string, state: CompactionState): HTMLElement {
    const r = state.record;
    const label = `Compaction round ${r.round}: the messages above are summarised (${r.removedIds.length} in this round). Open it in the summary panel.`;
    let el = this.dividers.get(id);
    if (el?.getAttr('data-round') === String(r.round)) return el;
    el?.detach();
    el = createEl('button', { cls: 'compact-chat-divider', attr: { 'data-round': String(r.round), 'aria-label': label, 'data-tooltip-position': 'top' } });
    el.createSpan({ cls: 'compact-chat-divider-text', text: `Compacted · round ${r.round}` });
    this.dividers.set(id, el);
    return el;
  }

  private onDividerMenu(evt: MouseEvent, round: number): void {
    evt.preventDefault();
    const rounds = this.session.compactions;
    const latest = rounds[rounds.length - 1]?.record.round === round;
    const menu = new Menu();
    menu.addItem((item) => item.setTitle(`Open round ${round} in the summary panel`).setIcon('list-tree').onClick(() => this.host.openCompactionPanel(round)));
    if (latest) {
      menu.addItem((item) =>
        item
          .setTitle('Undo this compaction')
          .setIcon('undo-2')
          .setDisabled(this.session.undoBlocker() !== null)
          .onClick(() => void this.session.undoLastCompaction()),
      );
    }
    menu.showAtMouseEvent(evt);
  }

  /** Scrolls to message `id` and highlights it, rendering earlier messages first when it is not
   * among those shown. False when the conversation has no such message. */
  revealMessage(id: string): boolean {
    const entries = this.session.entries;
    const index = entries.findIndex((e) => e.id === id);
    if (index < 0) return false;
    const needed = entries.length - index;
    if (needed > this.visibleCount) {
      this.visibleCount = Math.ceil(needed / PAGE) * PAGE;
      this.syncEntries(false);
    }
    const item = this.rendered.get(id);
    if (!item) return false;
    this.clearHighlight();
    item.el.addClass('is-highlighted');
    item.el.setAttr('tabindex', '-1');
    this.listEl.scrollTop = Math.max(0, item.el.offsetTop - this.listEl.offsetTop - this.listEl.clientHeight / 3);
    item.el.focus({ preventScroll: true });
    this.highlightTimer = window.setTimeout(() => {
      this.highlightTimer = null;
      item.el.removeClass('is-highlighted');
    }, HIGHLIGHT_MS);
    return true;
  }

  private clearHighlight(): void {
    if (this.highlightTimer !== null) window.clearTimeout(this.highlightTimer);
    this.highlightTimer = null;
    for (const el of this.listEl?.findAll('.is-highlighted') ?? []) el.removeClass('is-highlighted');
  }

  private async copy(text: string): Promise<void> {
    try {
      await navigator.clipboard.writeText(text);
      new Notice('Copied to the clipboard.');
    } catch {
      new Notice('Could not copy to the clipboard.');
    }
  }

  /** Inserts at the cursor of the note last active in the main area (the sidebar may have focus). */
  private insert(text: string): void {
    const leaf = this.app.workspace.getMostRecentLeaf(this.app.workspace.rootSplit);
    const view = leaf?.view;
    if (!(view instanceof MarkdownView)) {
      new Notice('Open a note to insert the reply into.');
      return;
    }
    view.editor.replaceSelection(text);
    new Notice(`Inserted into ${view.file?.basename ?? 'the note'}.`);
  }

  private onListClick(evt: MouseEvent): void {
    const link = linkTarget(evt);
    if (link) {
      evt.preventDefault();
      void this.app.workspace.openLinkText(link.href, '', Keymap.isModEvent(evt));
      return;
    }
    const divider = evt.target instanceof Element ? evt.target.closest('.compact-chat-divider') : null;
    if (divider) {
      this.host.openCompactionPanel(Number(divider.getAttr('data-round')));
      return;
    }
    const target = evt.target instanceof Element ? evt.target.closest('[data-action]') : null;
    const id = target?.closest('.compact-chat-entry')?.getAttr('data-entry-id');
    const item = id ? this.rendered.get(id) : undefined;
    if (!target || !item || item.entry.kind !== 'message') return;
    const entry = item.entry;
    switch (target.getAttr('data-action')) {
      case 'copy':
        void this.copy(entry.message.content);
        break;
      case 'insert':
        this.insert(entry.message.content);
        break;
      case 'regenerate':
        void this.session.regenerate(entry.id);
        break;
      case 'retry':
        void this.session.retry(entry.id);
        break;
      case 'edit':
        this.startEdit(item);
        break;
      case 'edit-send':
        this.submitEdit(item);
        break;
      case 'edit-cancel':
        this.renderEntry(entry);
        break;
    }
  }

  private onListKeydown(evt: KeyboardEvent): void {
    const target = evt.target as Node | null;
    const area = target?.instanceOf(HTMLTextAreaElement) && target.hasClass('compact-chat-edit-input') ? target : null;
    const id = area?.closest('.compact-chat-entry')?.getAttr('data-entry-id');
    const item = id ? this.rendered.get(id) : undefined;
    if (!item) return;
    if (evt.key === 'Enter' && !evt.shiftKey && !evt.isComposing) {
      evt.preventDefault();
      this.submitEdit(item);
    } else if (evt.key === 'Escape') {
      this.renderEntry(item.entry);
    }
  }

  private onLinkHover(evt: MouseEvent): void {
    const link = linkTarget(evt);
    if (!link) return;
    this.app.workspace.trigger('hover-link', {
      event: evt,
      source: VIEW_TYPE_CHAT,
      hoverParent: this,
      targetEl: link.el,
      linktext: link.href,
      sourcePath: '',
    });
  }

  // ── title, history, active note ───────────────────────────────────────────────────────────

  private updateTitle(): void {
    const current = this.host.conversations.current;
    this.chatTitleEl.setText(current.title || 'New chat');
    this.chatTitleEl.toggleClass('is-read-only', current.problem !== null);
    setTooltip(this.chatTitleEl, current.problem ?? current.path ?? 'Not saved yet: saved after the first message.');
    this.refreshHistory();
    this.updateComposer();
  }

  private buildHistory(root: HTMLElement): void {
    this.historyEl = root.createDiv('compact-chat-history');
    this.historyEl.hide();
    const row = this.historyEl.createDiv('compact-chat-history-row');
    this.historySearchEl = row.createEl('input', { cls: 'compact-chat-history-search', attr: { type: 'search', placeholder: 'Search conversations', 'aria-label': 'Search conversations' } });
    const newChat = row.createEl('button', { cls: 'compact-chat-history-new', text: 'New chat' });
    this.registerDomEvent(newChat, 'click', () => void this.host.conversations.newChat());
    // Searching reads every conversation note: once the user pauses typing, not per keystroke.
    const searchSoon = debounce(() => this.refreshHistory(), 200, true);
    this.register(() => searchSoon.cancel());
    this.registerDomEvent(this.historySearchEl, 'input', () => searchSoon());
    this.historyListEl = this.historyEl.createDiv('compact-chat-history-list');
    this.registerDomEvent(this.historyListEl, 'click', (evt) => this.onHistoryClick(evt));
  }

  /** Shows or hides the history panel (refreshed when shown). */
  toggleHistory(show = !this.historyEl.isShown()): void {
    this.historyEl.toggle(show);
    if (show) {
      this.refreshHistory();
      this.historySearchEl.focus();
    }
  }

  private refreshHistory(): void {
    if (!this.historyEl?.isShown()) return;
    const version = ++this.historyVersion;
    void this.host.conversations.list(this.historySearchEl.value).then((items) => {
      if (version === this.historyVersion) this.renderHistory(items);
    });
  }

  private renderHistory(items: HistoryItem[]): void {
    const list = this.historyListEl;
    list.empty();
    if (!items.length) {
      list.createDiv({ cls: 'compact-chat-history-empty', text: this.historySearchEl.value.trim() ? 'No conversation matches.' : 'No saved conversations yet.' });
      return;
    }
    const current = this.host.conversations.current.id;
    for (const item of items) {
      const row = list.createDiv({ cls: 'compact-chat-history-item', attr: { 'data-conversation-id': item.id } });
      row.toggleClass('is-active', item.id === current);
      const open = row.createEl('button', { cls: 'compact-chat-history-open', attr: { 'data-action': 'open' } });
      open.createDiv({ cls: 'compact-chat-history-title', text: item.title });
      if (item.updated > 0) open.createDiv({ cls: 'compact-chat-history-date', text: formatDate(item.updated) });
      actionButton(row, 'pencil', 'Rename', 'rename');
      actionButton(row, 'trash-2', 'Delete', 'delete');
    }
  }

  private onHistoryClick(evt: MouseEvent): void {
    const target = evt.target instanceof Element ? evt.target.closest('[data-action]') : null;
    const row = target?.closest('.compact-chat-history-item');
    const id = row?.getAttr('data-conversation-id');
    if (!target || !id) return;
    const title = row?.find('.compact-chat-history-title')?.getText() ?? '';
    switch (target.getAttr('data-action')) {
      case 'open':
        void this.host.conversations.open(id).then(() => this.toggleHistory(false));
        break;
      case 'rename':
        void new RenameModal(this.app, title).ask().then((next) => (next ? this.host.conversations.rename(id, next) : undefined));
        break;
      case 'delete':
        void new ConfirmModal(this.app, 'Delete conversation', `Move "${title}" to the trash? Its note is deleted with it.`, 'Delete')
          .ask()
          .then((ok) => (ok ? this.host.conversations.delete(id) : undefined));
        break;
    }
  }

  /** The paperclip toggle and the name of the note attached (or that would be). */
  private updateActiveNote(): void {
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

  private toolbarButton(parent: HTMLElement, icon: string, label: string, onClick: () => void): HTMLElement {
    const button = parent.createEl('button', { cls: 'clickable-icon compact-chat-tool', attr: { 'aria-label': label } });
    setIcon(button, icon);
    this.registerDomEvent(button, 'click', onClick);
    return button;
  }

  private scrollToEnd(): void {
    this.listEl.scrollTop = this.listEl.scrollHeight;
  }
}

/** A per-message button; the list's delegated click handler acts on its `data-action`. */
function actionButton(parent: HTMLElement, icon: string, label: string, action: string): void {
  const button = parent.createEl('button', { cls: 'clickable-icon compact-chat-action', attr: { 'aria-label': label, 'data-action': action } });
  setIcon(button, icon);
}

/** ` · <path>` or ` · <query>` from a tool call's arguments, for its one-line summary. */
function toolTarget(args: string): string {
  try {
    const value = JSON.parse(args) as Record<string, unknown>;
    const target = value.path ?? value.query;
    return typeof target === 'string' && target ? ` · ${target}` : '';
  } catch {
    return '';
  }
}

/** Local date and time, `YYYY-MM-DD HH:mm`. */
function formatDate(ms: number): string {
  const d = new Date(ms);
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function linkTarget(evt: MouseEvent): { el: HTMLElement; href: string } | null {
  const target = evt.target;
  const el = target instanceof Element ? target.closest('a.internal-link') : null;
  if (!(el instanceof HTMLElement)) return null;
  const href = el.getAttr('data-href') ?? el.getAttr('href');
  return href ? { el, href } : null;
}
