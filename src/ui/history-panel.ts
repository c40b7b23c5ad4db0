// The conversation history panel at the top of the chat view: search, open, rename, delete.
// Its own module so the view only says where it goes and when it shows. A row is a note (by path):
// two notes with one conversation id are two rows, the later one labelled as a copy.
import { type App, type Component, debounce, setIcon } from 'obsidian';
import type { HistoryItem } from '../chat/history-items';
import type { Conversations } from '../chat/conversations';
import { ConfirmModal, RenameModal } from './chat-modals';
import { formatDateTime } from './dates';
import { type ContentSearch, renderMatches } from './history-matches';

export class HistoryPanel {
  private readonly el: HTMLElement;
  private readonly searchEl: HTMLInputElement;
  private readonly listEl: HTMLElement;
  /** Bumped per refresh: a listing that lands after a newer one started is dropped. */
  private version = 0;

  /** Builds the (hidden) panel in `parent`; listeners are registered on `owner` (the view). */
  constructor(
    parent: HTMLElement,
    private readonly app: App,
    private readonly conversations: Conversations,
    owner: Component,
    /** Ranks conversations by their content (history-matches.ts); absent: titles and text filter. */
    private readonly content?: ContentSearch,
  ) {
    this.el = parent.createDiv('compact-chat-history');
    this.el.hide();
    const row = this.el.createDiv('compact-chat-history-row');
    this.searchEl = row.createEl('input', { cls: 'compact-chat-history-search', attr: { type: 'search', placeholder: 'Search conversations', 'aria-label': 'Search conversations' } });
    const newChat = row.createEl('button', { cls: 'compact-chat-history-new', text: 'New chat' });
    owner.registerDomEvent(newChat, 'click', () => void this.conversations.newChat());
    // Searching reads every conversation note: once the user pauses typing, not per keystroke.
    const searchSoon = debounce(() => this.refresh(), 200, true);
    owner.register(() => searchSoon.cancel());
    owner.registerDomEvent(this.searchEl, 'input', () => searchSoon());
    this.listEl = this.el.createDiv('compact-chat-history-list');
    owner.registerDomEvent(this.listEl, 'click', (evt) => this.onClick(evt));
  }

  get isShown(): boolean {
    return this.el.isShown();
  }

  /** Shows or hides the panel (refreshed when shown). */
  toggle(show = !this.el.isShown()): void {
    this.el.toggle(show);
    if (show) {
      this.refresh();
      this.searchEl.focus();
    }
  }

  /** Lists the conversations again (only while shown). */
  refresh(): void {
    if (!this.el.isShown()) return;
    const version = ++this.version;
    const query = this.searchEl.value.trim();
    if (query && this.content) {
      void this.content.find(query).then((hits) => {
        if (version === this.version) renderMatches(this.listEl, hits, query, this.conversations.current.path);
      });
      return;
    }
    void this.conversations.list(this.searchEl.value).then((items) => {
      if (version === this.version) this.render(items);
    });
  }

  private render(items: HistoryItem[]): void {
    const list = this.listEl;
    list.empty();
    if (!items.length) {
      list.createDiv({ cls: 'compact-chat-history-empty', text: this.searchEl.value.trim() ? 'No conversation matches.' : 'No saved conversations yet.' });
      return;
    }
    const current = this.conversations.current.path;
    const folders = new Set(items.map((i) => i.folder)).size > 1;
    let folder: string | null = null;
    for (const item of items) {
      // Notes filed elsewhere are listed under their folder (the conversation folder first).
      if (folders && item.folder !== folder) list.createDiv({ cls: 'compact-chat-history-folder', text: item.folder || 'Vault root' });
      folder = item.folder;
      const row = list.createDiv({ cls: 'compact-chat-history-item', attr: { 'data-conversation-id': item.id, 'data-path': item.path } });
      row.toggleClass('is-active', item.path === current);
      const open = row.createEl('button', { cls: 'compact-chat-history-open', attr: { 'data-action': 'open', 'aria-label': item.path } });
      open.createDiv({ cls: 'compact-chat-history-title', text: item.title });
      if (item.copyOf) open.createDiv({ cls: 'compact-chat-history-copy', text: `Copy of "${item.copyOf.title}", conflict: ${item.path.slice(item.path.lastIndexOf('/') + 1)}` });
      if (item.updated > 0) open.createDiv({ cls: 'compact-chat-history-date', text: formatDateTime(item.updated) });
      rowButton(row, 'pencil', 'Rename', 'rename');
      rowButton(row, 'trash-2', 'Delete', 'delete');
    }
  }

  private onClick(evt: MouseEvent): void {
    const target = evt.target instanceof Element ? evt.target.closest('[data-action]') : null;
    const row = target?.closest('.compact-chat-history-item');
    const path = row?.getAttr('data-path');
    if (!target || !path) return;
    const title = row?.find('.compact-chat-history-title')?.getText() ?? '';
    switch (target.getAttr('data-action')) {
      case 'open': {
        // A content match opens the conversation at the message that matched.
        const messageId = row?.getAttr('data-message-id');
        void this.conversations.open(path).then((opened) => {
          this.toggle(false);
          if (opened && messageId) this.content?.reveal(messageId);
        });
        break;
      }
      case 'rename':
        void new RenameModal(this.app, title).ask().then((next) => (next ? this.conversations.rename(path, next) : undefined));
        break;
      case 'delete':
        void new ConfirmModal(this.app, 'Delete conversation', `Move "${title}" to the trash? Its note is deleted with it.`, 'Delete')
          .ask()
          .then((ok) => (ok ? this.conversations.delete(path) : undefined));
        break;
    }
  }
}

function rowButton(parent: HTMLElement, icon: string, label: string, action: string): void {
  const button = parent.createEl('button', { cls: 'clickable-icon compact-chat-action', attr: { 'aria-label': label, 'data-action': action } });
  setIcon(button, icon);
}
