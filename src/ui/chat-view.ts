// The chat sidebar. Thin: the conversation, the send loop and the meter figures live in the
// plugin's ChatSession (src/chat); this view lays out its parts and forwards the session's events
// to them: the history panel (history-panel.ts), the message list (message-list.ts, drawing each
// entry with entry-renderer.ts), the meter, and the composer (composer.ts).
import { type HoverParent, type HoverPopover, ItemView, Notice, setIcon, setTooltip, type WorkspaceLeaf } from 'obsidian';
import { StallIndicator } from './stall-indicator';
import type { Conversations } from '../chat/conversations';
import { formatTokens } from '../chat/format';
import { describeMeter, type MeterFigures } from '../chat/meter';
import type { ChatSession } from '../chat/session';
import { CompactNowModal } from './compact-modal';
import { Composer } from './composer';
import type { ConversationHit } from '../chat/conversation-index';
import { HistoryPanel } from './history-panel';
import { MessageList } from './message-list';
import { MissingNoteBar } from './missing-note-bar';
import type { ConnectionInfo } from './connection';
import { EmptyState } from './empty-state';
import { ModelPicker } from './model-picker';

export { parseCompactCommand } from './composer';

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
  /** Provider, address and model as the settings hold them. */
  connection(): ConnectionInfo;
  /** The server's models for the current settings; rejects with a readable error. */
  listModels(): Promise<string[]>;
  /** Saves `model` as the model setting. */
  setModel(model: string): Promise<void>;
  /** Saved conversations ranked by their content (the history list's search); absent: it filters. */
  searchConversations?(query: string): Promise<ConversationHit[]>;
}

export class ChatView extends ItemView implements HoverParent {
  /** Set by Obsidian while a hover preview from the chat is open. */
  hoverPopover: HoverPopover | null = null;
  private statusEl!: HTMLElement;
  private meterEl!: HTMLElement;
  private meterFillEl!: HTMLElement;
  private meterMarkEl!: HTMLElement;
  private meterLabelEl!: HTMLElement;
  private compactButton!: HTMLElement;
  private chatTitleEl!: HTMLElement;
  private history!: HistoryPanel;
  private missingBar!: MissingNoteBar;
  private list!: MessageList;
  private composer!: Composer;
  private picker!: ModelPicker;
  private empty!: EmptyState;

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
    // The model on a row of its own: a sidebar (or a phone) has no room for it beside the title.
    this.picker = new ModelPicker(root.createDiv('compact-chat-model-row'), this.host, this, () => this.updateEmptyState());

    const search = this.host.searchConversations?.bind(this.host);
    this.history = new HistoryPanel(root, this.app, this.host.conversations, this, search ? { find: search, reveal: (id) => void this.revealMessage(id) } : undefined);
    this.missingBar = new MissingNoteBar(root, this.host.conversations, this);
    const listHost = {
      openCompactionPanel: (round?: number) => this.host.openCompactionPanel(round),
      allowRemoteImages: () => this.host.allowRemoteImages?.() ?? false,
      hoverSource: VIEW_TYPE_CHAT,
    };
    this.list = new MessageList(root, this.app, this.session, listHost, this);
    this.empty = new EmptyState(
      this.list.el,
      this,
      (prompt) => this.composer.fill(prompt),
      () => this.host.openSettings(),
    );
    this.statusEl = root.createDiv('compact-chat-status');
    const stallEl = root.createDiv('compact-chat-stall');
    this.buildMeter(root);
    this.composer = new Composer(root, this.app, this.session, {
      includeActiveNote: () => this.host.includeActiveNote(),
      setIncludeActiveNote: (on) => this.host.setIncludeActiveNote(on),
      activeNotePath: () => this.host.activeNotePath(),
      compact: (focus) => void this.runCompactNow(focus),
    }, this);

    const events = this.session.events;
    this.register(events.on('entries', () => {
      this.list.sync(true);
      this.updateEmptyState();
    }));
    this.register(events.on('entry', (entry) => this.list.renderEntry(entry)));
    this.register(events.on('delta', ({ entry }) => this.list.scheduleStreamRender(entry)));
    this.register(events.on('busy', () => this.updateComposer()));
    this.register(events.on('status', (text) => this.statusEl.setText(text)));
    this.register(events.on('meter', (figures) => this.updateMeter(figures)));
    this.register(events.on('compactions', () => this.list.sync(false)));
    // A sign of life while the server is silent (stall-indicator.ts).
    const stall = new StallIndicator(stallEl);
    this.register(events.on('busy', (busy) => stall.setRunning(busy)));
    for (const name of ['delta', 'entry', 'status'] as const) this.register(events.on(name, () => stall.activity()));
    this.registerInterval(window.setInterval(() => stall.tick(), 1000));
    const conversations = this.host.conversations;
    this.register(conversations.events.on('current', () => this.updateTitle()));
    this.register(conversations.events.on('history', () => this.history.refresh()));
    this.registerEvent(this.app.workspace.on('active-leaf-change', () => this.activeNoteChanged()));
    this.registerEvent(this.app.workspace.on('file-open', () => this.activeNoteChanged()));
    this.updateTitle();
    this.composer.updateActiveNote();

    this.list.sync(true);
    this.updateMeter(this.session.meter());
    this.updateComposer();
  }

  protected override async onClose(): Promise<void> {
    this.list?.clear();
    this.contentEl.empty();
  }

  /** Shows or hides the history panel (refreshed when shown). */
  toggleHistory(show?: boolean): void {
    this.history.toggle(show);
  }

  /** Scrolls to message `id` and highlights it; false when the conversation has no such message. */
  revealMessage(id: string): boolean {
    return this.list.reveal(id);
  }

  private activeNoteChanged(): void {
    this.composer.updateActiveNote();
    this.updateEmptyState();
  }

  /** The empty state shows while the conversation has no entries. */
  private updateEmptyState(): void {
    if (!this.empty) return;
    const shown = this.session.entries.length === 0;
    this.empty.el.toggle(shown);
    if (!shown) return;
    const meter = this.session.meter();
    const path = this.host.activeNotePath();
    const file = path ? this.app.vault.getFileByPath(path) : null;
    this.empty.render({
      connection: this.host.connection(),
      models: this.picker.state,
      compactionPoint: meter.compactionPoint,
      window: meter.window,
      activeNote: file ? this.app.metadataCache.fileToLinktext(file, '') : null,
    });
  }

  private updateComposer(): void {
    this.composer.update();
    this.updateCompactButton();
    this.list.refreshActions();
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
    // Settings changes arrive as meter updates: the model or the server may have changed.
    this.picker.update();
  }

  // ── compaction ────────────────────────────────────────────────────────────────────────────

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

  // ── title ─────────────────────────────────────────────────────────────────────────────────

  private updateTitle(): void {
    const current = this.host.conversations.current;
    this.chatTitleEl.setText(current.title || 'New chat');
    this.chatTitleEl.toggleClass('is-read-only', current.problem !== null);
    this.missingBar.update();
    setTooltip(this.chatTitleEl, current.problem ?? current.path ?? 'Not saved yet: saved after the first message.');
    this.history.refresh();
    this.updateComposer();
  }

  private toolbarButton(parent: HTMLElement, icon: string, label: string, onClick: () => void): HTMLElement {
    const button = parent.createEl('button', { cls: 'clickable-icon compact-chat-tool', attr: { 'aria-label': label } });
    setIcon(button, icon);
    this.registerDomEvent(button, 'click', onClick);
    return button;
  }
}
