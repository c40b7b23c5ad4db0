// The Plugin subclass: wiring only. Logic lives in src/core (compaction) and src/chat (session);
// src/ui renders it. The plugin owns the session (so the conversation outlives a closed view) but
// keeps no reference to any view: it finds them with workspace.getLeavesOfType.
import { MarkdownView, Notice, Platform, Plugin, TFile, type WorkspaceLeaf } from 'obsidian';
import { newMessageId } from './core/messages';
import { ConversationIndex } from './chat/conversation-index';
import { continueInNewChat } from './chat/continue-chat';
import { ConversationStore } from './chat/conversation-store';
import { Conversations } from './chat/conversations';
import { ChatSession } from './chat/session';
import { type CompactChatSettings, DEFAULT_BASE_URLS, DEFAULT_SETTINGS, mergeSettings } from './chat/settings';
import { VaultTools } from './chat/tools/vault-tools';
import type { NoteSource } from './chat/vault-access';
import { ConfirmModal, WriteApprovalModal } from './ui/chat-modals';
import { conversationVault, toolVault } from './ui/obsidian-vault';
import { type ChatProvider, OllamaProvider, Transport, createProvider } from './providers';
import { ChatView, VIEW_TYPE_CHAT } from './ui/chat-view';
import { CompactNowModal } from './ui/compact-modal';
import { CompactionPanelView, VIEW_TYPE_COMPACTIONS } from './ui/compaction-panel';
import { CompactChatSettingTab } from './ui/settings-tab';

export default class CompactChatPlugin extends Plugin {
  override settings: CompactChatSettings = { ...DEFAULT_SETTINGS };
  session!: ChatSession;
  conversations!: Conversations;
  /** Every saved conversation, searchable (the model's tool and the history list's search). */
  conversationIndex!: ConversationIndex;
  /** The conversation open in the chat, kept in data.json (beside the settings) to reopen it on
   * startup: its id and its note's path (two notes may carry one id). Never anything secret. */
  private openConversationId: string | null = null;
  private openConversationPath: string | null = null;
  /** One transport for every provider, so what it learns (origins needing the fallback) is kept. */
  private readonly transport = new Transport();
  private provider: { key: string; provider: ChatProvider } | null = null;

  /** The open conversation's note (null before it is saved, and while the plugin is loading: the
   * session asks for its tools before the conversations exist). */
  private openNote(): string | null {
    return (this.conversations as Conversations | undefined)?.current.path ?? null;
  }

  /** "Continue in a new chat" (the command and the compaction panel's button). */
  private async continueInNewChat(): Promise<void> {
    await continueInNewChat(this.conversations, this.session, this.settings, Date.now(), () => newMessageId());
    new Notice(`Continued in a new chat: "${this.conversations.current.title}".`);
  }

  override async onload(): Promise<void> {
    await this.loadSettings();
    // The plugin owns the vault subscriptions (the open note's hand edits, the index's changed
    // notes), so unload removes them.
    const vault = conversationVault(this.app, this);
    const store = new ConversationStore(vault, {
      folder: () => this.settings.conversationFolder,
      warn: (message) => new Notice(message, 15_000),
    });
    this.conversationIndex = new ConversationIndex(vault, {
      folder: () => store.folder(),
      pause: () => new Promise((resolve) => window.setTimeout(resolve, 0)),
    });
    const index = this.conversationIndex;
    this.session = new ChatSession({
      settings: () => this.settings,
      provider: (settings) => this.providerFor(settings),
      apiKey: (settings) => this.apiKey(settings),
      notes: this.noteSource(),
      tools: new VaultTools(toolVault(this.app), (request) => new WriteApprovalModal(this.app, request).ask()),
      pastConversations: {
        available: () => index.othersExist(this.openNote()),
        search: (query, limit) => index.search(query, { limit, asker: 'assistant', exclude: this.openNote(), now: Date.now(), perConversation: 2 }),
      },
      later: (task) => {
        const handle = window.setTimeout(task, 20);
        this.register(() => window.clearTimeout(handle));
      },
    });
    this.register(() => this.session.dispose());
    this.conversations = new Conversations({
      session: this.session,
      store,
      settings: () => this.settings,
      setTimer: (fn, ms) => {
        const handle = window.setTimeout(fn, ms);
        return () => window.clearTimeout(handle);
      },
      notify: (message) => new Notice(message, 10_000),
      now: () => Date.now(),
      newId: () => newMessageId(),
      openChanged: (id, path) => this.rememberOpenConversation(id, path),
    });
    this.register(this.conversations.events.on('saved', ({ path, conversation }) => index.saved(path, conversation)));
    this.register(() => {
      // The last changes are written; the timer is dropped.
      void this.conversations.flush();
      this.conversations.dispose();
    });
    this.app.workspace.onLayoutReady(() => void this.restoreConversation());

    this.registerView(
      VIEW_TYPE_CHAT,
      (leaf) =>
        new ChatView(leaf, {
          session: this.session,
          conversations: this.conversations,
          openSettings: () => this.openSettings(),
          openCompactionPanel: (round) => void this.openCompactionPanel(round),
          includeActiveNote: () => this.settings.includeActiveNote,
          allowRemoteImages: () => this.settings.allowRemoteImages,
          setIncludeActiveNote: async (on) => {
            this.settings.includeActiveNote = on;
            await this.saveSettings();
          },
          activeNotePath: () => this.activeNotePath(),
          connection: () => ({ provider: this.settings.provider, baseUrl: this.settings.baseUrl || DEFAULT_BASE_URLS[this.settings.provider], model: this.settings.model.trim() }),
          listModels: () => this.providerFor(this.settings).listModels({ apiKey: this.apiKey(this.settings) }),
          setModel: async (model) => {
            this.settings.model = model;
            await this.saveSettings();
          },
          searchConversations: (query) => index.search(query, { limit: 50, asker: 'user', now: Date.now(), perConversation: 1 }),
        }),
    );
    this.registerView(
      VIEW_TYPE_COMPACTIONS,
      (leaf) => new CompactionPanelView(leaf, { session: this.session, revealMessage: (id) => this.revealMessage(id), continueInNewChat: () => void this.continueInNewChat() }),
    );
    this.registerHoverLinkSource(VIEW_TYPE_CHAT, { display: 'Compact Chat', defaultMod: true });
    this.registerHoverLinkSource(VIEW_TYPE_COMPACTIONS, { display: 'Compact Chat summary panel', defaultMod: true });
    this.addRibbonIcon('messages-square', 'Open chat', () => void this.activateView());
    this.addCommand({ id: 'open-chat', name: 'Open chat', callback: () => void this.activateView() });
    this.addCommand({ id: 'new-chat', name: 'New chat', callback: () => void this.conversations.newChat() });
    this.addCommand({
      id: 'continue-in-new-chat',
      name: 'Continue in a new chat',
      callback: () => void this.continueInNewChat(),
    });
    this.addCommand({ id: 'compact-now', name: 'Compact now', callback: () => new CompactNowModal(this.app, this.session).open() });
    this.addCommand({ id: 'open-compaction-panel', name: 'Open compaction panel', callback: () => void this.openCompactionPanel() });
    this.addCommand({
      id: 'undo-last-compaction',
      name: 'Undo last compaction',
      checkCallback: (checking) => {
        if (this.session.undoBlocker() !== null) return false;
        if (!checking) {
          const undone = this.session.undoLastCompaction();
          if (undone) new Notice(`Undid compaction round ${undone.record.round}.`);
        }
        return true;
      },
    });
    this.addCommand({
      id: 'undo-last-summary-edit',
      name: 'Undo last edit of the compaction summary',
      checkCallback: (checking) => {
        if (this.session.lineEditUndoBlocker() !== null) return false;
        if (!checking) {
          const undone = this.session.undoLineEdit();
          if (undone) new Notice(undone.removed ? 'Put the removed line back.' : 'Undid the last edit of the summary.');
        }
        return true;
      },
    });
    this.addSettingTab(
      new CompactChatSettingTab(this.app, this, {
        settings: this.settings,
        saveSettings: () => this.saveSettings(),
        listModels: () => this.providerFor(this.settings).listModels({ apiKey: this.apiKey(this.settings) }),
        modelMaximum: async () => {
          const provider = this.providerFor(this.settings);
          const model = this.settings.model.trim();
          const apiKey = this.apiKey(this.settings);
          return provider instanceof OllamaProvider && model ? provider.modelContextLength(model, apiKey ? { apiKey } : {}) : null;
        },
        folderChanged: (from, to) => void this.offerFolderMove(from, to),
      }),
    );
  }

  override onunload(): void {
    // Everything is registered through this.register*/addChild, so Obsidian cleans it up.
  }

  async loadSettings(): Promise<void> {
    const data: unknown = await this.loadData();
    this.settings = mergeSettings(data);
    const open = (data as { openConversation?: unknown } | null)?.openConversation;
    this.openConversationId = typeof open === 'string' && open ? open : null;
    const openPath = (data as { openConversationPath?: unknown } | null)?.openConversationPath;
    this.openConversationPath = typeof openPath === 'string' && openPath ? openPath : null;
  }

  /** Saves the settings (sanitised in place, so holders of the object see the same values) and
   * lets the session pick them up: changes apply without reloading the plugin. */
  async saveSettings(): Promise<void> {
    Object.assign(this.settings, mergeSettings(this.settings));
    await this.saveData(this.pluginData());
    this.session.settingsChanged();
  }

  override async onExternalSettingsChange(): Promise<void> {
    Object.assign(this.settings, mergeSettings(await this.loadData()));
    this.session.settingsChanged();
  }

  private pluginData(): Record<string, unknown> {
    return {
      ...this.settings,
      ...(this.openConversationId ? { openConversation: this.openConversationId } : {}),
      ...(this.openConversationPath ? { openConversationPath: this.openConversationPath } : {}),
    };
  }

  private rememberOpenConversation(id: string, path: string | null): void {
    if (id === this.openConversationId && path === this.openConversationPath) return;
    this.openConversationId = id;
    this.openConversationPath = path;
    void this.saveData(this.pluginData());
  }

  /** On startup: reopens the conversation that was open, with its compaction state. */
  private async restoreConversation(): Promise<void> {
    const id = this.openConversationId;
    if (!id || this.session.entries.length) return;
    await this.conversations.reopen(id, this.openConversationPath);
  }

  /** After the conversation folder changed: offers to move the conversations in the old folder to
   * the new one (renamed as the user would, so links to them follow) or to leave them there (they
   * stay in the history, which lists conversation notes wherever they are). */
  private async offerFolderMove(from: string, to: string): Promise<void> {
    const count = await this.conversations.countIn(from);
    if (count === 0) return;
    const what = count === 1 ? '1 conversation' : `${count} conversations`;
    const move = await new ConfirmModal(
      this.app,
      'Move conversations',
      `Move the ${what} in "${from || 'Compact Chat'}" to "${to || 'Compact Chat'}"? Links to them are updated. Left where they are, they stay in the history.`,
      'Move',
      'Leave them',
    ).ask();
    if (!move) return;
    const moved = await this.conversations.moveFolder(from, to);
    new Notice(`Moved ${moved === 1 ? '1 conversation' : `${moved} conversations`} to "${to || 'Compact Chat'}".`);
  }

  /** Opens (or reveals) the chat in the right sidebar. */
  async activateView(): Promise<void> {
    const { workspace } = this.app;
    let leaf: WorkspaceLeaf | null = workspace.getLeavesOfType(VIEW_TYPE_CHAT)[0] ?? null;
    if (!leaf) {
      leaf = workspace.getRightLeaf(false);
      if (!leaf) return;
      await leaf.setViewState({ type: VIEW_TYPE_CHAT, active: true });
    }
    await workspace.revealLeaf(leaf);
  }

  /** Opens (or reveals) the compaction panel on `round`, where it takes no room from the chat. */
  async openCompactionPanel(round?: number): Promise<void> {
    const { workspace } = this.app;
    let leaf: WorkspaceLeaf | null = workspace.getLeavesOfType(VIEW_TYPE_COMPACTIONS)[0] ?? null;
    if (!leaf) {
      leaf = this.newPanelLeaf();
      if (!leaf) return;
      await leaf.setViewState({ type: VIEW_TYPE_COMPACTIONS, active: true });
    }
    await workspace.revealLeaf(leaf);
    const view = leaf.view;
    if (round !== undefined && view instanceof CompactionPanelView) view.showRound(round);
  }

  /** A split of the sidebar left the chat ~150 px (~100 px on a phone). So: on a phone, a tab beside
   * the chat in its drawer (one shown at a time, each at full height; "Show in chat" switches
   * back); elsewhere, a tab in the main area, so the panel and the chat sit side by side at full
   * height and jumping from a summary line to its message keeps both in view. */
  private newPanelLeaf(): WorkspaceLeaf | null {
    const { workspace } = this.app;
    const phone = Platform.isPhone || activeDocument.body.hasClass('is-phone');
    return phone ? workspace.getRightLeaf(false) : workspace.getLeaf('tab');
  }

  /** Shows message `id` in the chat view (opened when closed). */
  private async revealMessage(id: string): Promise<boolean> {
    await this.activateView();
    const view = this.app.workspace.getLeavesOfType(VIEW_TYPE_CHAT)[0]?.view;
    return view instanceof ChatView ? view.revealMessage(id) : false;
  }

  private openSettings(): void {
    // `app.setting` is Obsidian's internal settings window; it has no public API.
    const setting = (this.app as unknown as { setting?: { open?(): void; openTabById?(id: string): unknown } }).setting;
    setting?.open?.();
    setting?.openTabById?.(this.manifest.id);
  }

  private providerFor(settings: CompactChatSettings): ChatProvider {
    this.transport.setTimeouts({ connectTimeoutMs: settings.connectTimeoutSeconds * 1000, idleTimeoutMs: settings.idleTimeoutSeconds * 1000 });
    const key = `${settings.provider} ${settings.baseUrl}`;
    if (this.provider?.key !== key) {
      this.provider = { key, provider: createProvider({ id: settings.provider, baseUrl: settings.baseUrl, transport: this.transport }) };
    }
    return this.provider.provider;
  }

  /** Read from SecretStorage at call time; never kept on the plugin or in data.json. */
  private apiKey(settings: CompactChatSettings): string | undefined {
    if (!settings.apiKeySecret) return undefined;
    return this.app.secretStorage.getSecret(settings.apiKeySecret) ?? undefined;
  }

  private noteSource(): NoteSource {
    const { vault, metadataCache } = this.app;
    return {
      readNote: async (path) => {
        const file = vault.getAbstractFileByPath(path);
        if (!(file instanceof TFile)) return null;
        try {
          return await vault.cachedRead(file);
        } catch {
          return null;
        }
      },
      resolveLink: (linktext, sourcePath) => metadataCache.getFirstLinkpathDest(linktext, sourcePath)?.path ?? null,
      activeNotePath: () => this.activeNotePath(),
    };
  }

  /** The note in the main area the user looks at (the chat sidebar may have focus). */
  private activeNotePath(): string | null {
    const { workspace } = this.app;
    const view = workspace.getMostRecentLeaf(workspace.rootSplit)?.view;
    return view instanceof MarkdownView ? (view.file?.path ?? null) : (workspace.getActiveFile()?.path ?? null);
  }
}
