// The scrolling list of the chat view: which entries are in the DOM, streaming renders, the
// compaction dividers, jumping to a message, and the delegated handlers for every entry's buttons
// and links. How one entry looks is entry-renderer.ts.
//
// Each entry has its own element and its own child Component for the Markdown it shows, so
// re-rendering one message (a streaming reply, at most every STREAM_RENDER_MS) never touches the
// others, and unloading the view releases every render. Only the latest PAGE entries are in the
// DOM at first; "Show earlier messages" adds older ones a page at a time.
import { type App, Component, type HoverParent, Keymap, MarkdownView, Menu, Notice } from 'obsidian';
import type { ChatEntry, CompactionState, MessageEntry } from '../chat/entries';
import type { ChatSession } from '../chat/session';
import { compactionDivider, type EntryContext, fillEntry, renderActions, type RenderedEntry, startEdit } from './entry-renderer';
import { renderSafeMarkdown } from './safe-markdown';

const PAGE = 60;
const STREAM_RENDER_MS = 60;
const HIGHLIGHT_MS = 2500;

/** What the list needs from the view and the plugin. */
export interface MessageListHost {
  /** Opens the compaction summary panel, on round `round` when given. */
  openCompactionPanel(round?: number): void;
  /** The user's choice to load remote images in replies at once (safe-markdown.ts). */
  allowRemoteImages?(): boolean;
  /** The view type, named as the source of hover previews. */
  readonly hoverSource: string;
}

export class MessageList {
  readonly el: HTMLElement;
  private readonly earlierEl: HTMLElement;
  /** Whether the list was scrolled to its end when last scrolled: late renders only follow then,
   * so showing earlier messages or jumping to a source message is never undone by a yank. */
  private stickToEnd = true;
  private readonly rendered = new Map<string, RenderedEntry>();
  /** The boundary dividers in the list, by the id of the last message their round removed. */
  private readonly dividers = new Map<string, HTMLElement>();
  private highlightTimer: number | null = null;
  private visibleCount = PAGE;
  private streamTimer: number | null = null;
  private pendingStream: MessageEntry | null = null;
  private readonly ctx: EntryContext;

  /** Builds the list in `parent`. `owner` (the view) registers the listeners and owns the
   * Markdown renders; it is also the parent of hover previews. */
  constructor(
    parent: HTMLElement,
    private readonly app: App,
    private readonly session: ChatSession,
    private readonly host: MessageListHost,
    private readonly owner: Component & HoverParent,
  ) {
    this.el = parent.createDiv('compact-chat-messages');
    this.earlierEl = this.el.createEl('button', { cls: 'compact-chat-earlier', text: 'Show earlier messages' });
    this.ctx = {
      busy: () => this.session.busy,
      canRewrite: (id) => this.session.canRewrite(id),
      canPin: (id) => this.session.pinBlocker(id) === null,
      // The Markdown lands asynchronously: scroll again once it has its final height, or the end
      // of a finished reply (and its actions) stays below the fold.
      renderBody: (item, markdown) => void this.renderMarkdown(item, markdown).then(() => this.stickToEnd && this.scrollToEnd()),
    };
    owner.registerDomEvent(this.earlierEl, 'click', () => {
      this.visibleCount += PAGE;
      this.sync(false);
    });
    // One delegated listener each for the whole list: entries come and go without listeners.
    owner.registerDomEvent(this.el, 'click', (evt) => this.onClick(evt));
    owner.registerDomEvent(this.el, 'scroll', () => {
      this.stickToEnd = this.el.scrollHeight - this.el.scrollTop - this.el.clientHeight < 48;
    });
    owner.registerDomEvent(this.el, 'keydown', (evt) => this.onKeydown(evt));
    owner.registerDomEvent(this.el, 'mouseover', (evt) => this.onLinkHover(evt));
    owner.registerDomEvent(this.el, 'contextmenu', (evt) => {
      const divider = evt.target instanceof Element ? evt.target.closest('.compact-chat-divider') : null;
      if (divider) this.onDividerMenu(evt, Number(divider.getAttr('data-round')));
    });
    owner.register(() => this.clearStreamTimer());
    owner.register(() => this.clearHighlight());
  }

  /** Releases every render (the view closes). */
  clear(): void {
    this.clearStreamTimer();
    this.clearHighlight();
    for (const item of this.rendered.values()) this.release(item);
    this.rendered.clear();
    this.dividers.clear();
  }

  /** Brings the list in line with the session's entries: adds new ones, drops removed ones. */
  sync(scroll: boolean): void {
    const entries = this.session.entries;
    const start = Math.max(0, entries.length - this.visibleCount);
    const visible = entries.slice(start);
    const keep = new Set(visible.map((e) => e.id));
    for (const [id, item] of this.rendered) {
      if (keep.has(id)) continue;
      this.release(item);
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
      // A notice is rebuilt when its round's lines were edited since (it shows what is carried).
      const stale = item?.entry.kind === 'notice' && item.entry.compaction !== undefined && item.record !== item.entry.compaction.record;
      if (!item || item.entry !== entry || stale) {
        if (item) {
          this.release(item);
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

  /** Re-renders one entry in place (its status or content changed). */
  renderEntry(entry: ChatEntry): void {
    const item = this.rendered.get(entry.id);
    if (!item) return;
    if (this.pendingStream === entry) this.clearStreamTimer();
    item.entry = entry;
    item.editing = false;
    this.fill(item);
    this.scrollToEnd();
  }

  /** Rewrite and retry buttons depend on whether a reply is streaming. */
  refreshActions(): void {
    const busy = this.session.busy;
    for (const item of this.rendered.values()) {
      if (item.entry.kind !== 'message' || item.editing) continue;
      renderActions(item, this.ctx);
      for (const retry of item.el.findAll('button.compact-chat-retry')) (retry as HTMLButtonElement).disabled = busy;
    }
  }

  /** Renders a streaming reply at most every STREAM_RENDER_MS, and only that reply. */
  scheduleStreamRender(entry: MessageEntry): void {
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

  /** Scrolls to message `id` and highlights it, rendering earlier messages first when it is not
   * among those shown. False when the conversation has no such message. */
  reveal(id: string): boolean {
    const entries = this.session.entries;
    const index = entries.findIndex((e) => e.id === id);
    if (index < 0) return false;
    const needed = entries.length - index;
    if (needed > this.visibleCount) {
      this.visibleCount = Math.ceil(needed / PAGE) * PAGE;
      this.sync(false);
    }
    const item = this.rendered.get(id);
    if (!item) return false;
    this.clearHighlight();
    item.el.addClass('is-highlighted');
    item.el.setAttr('tabindex', '-1');
    this.el.scrollTop = Math.max(0, item.el.offsetTop - this.el.offsetTop - this.el.clientHeight / 3);
    item.el.focus({ preventScroll: true });
    this.highlightTimer = window.setTimeout(() => {
      this.highlightTimer = null;
      item.el.removeClass('is-highlighted');
    }, HIGHLIGHT_MS);
    return true;
  }

  private createEntry(entry: ChatEntry): RenderedEntry {
    const el = createDiv({ cls: 'compact-chat-entry', attr: { 'data-entry-id': entry.id } });
    const item: RenderedEntry = { entry, el, bodyEl: null, component: null, version: 0, editing: false };
    this.rendered.set(entry.id, item);
    this.fill(item);
    return item;
  }

  private fill(item: RenderedEntry): void {
    this.release(item);
    fillEntry(item, this.ctx);
  }

  /** Unloads the Component holding the entry's rendered Markdown. */
  private release(item: RenderedEntry): void {
    if (item.component) this.owner.removeChild(item.component);
    item.component = null;
  }

  /** Renders Markdown off-screen, then swaps it in, unless a newer render of the entry started. */
  private async renderMarkdown(item: RenderedEntry, markdown: string): Promise<void> {
    const version = ++item.version;
    const component = this.owner.addChild(new Component());
    const target = createDiv('compact-chat-markdown');
    // Model output and quoted note text: rendered by our own safe rule (safe-markdown.ts).
    await renderSafeMarkdown(this.app, markdown, target, '', component, { allowRemoteImages: this.host.allowRemoteImages?.() ?? false });
    if (version !== item.version || !item.bodyEl || !this.rendered.has(item.entry.id)) {
      this.owner.removeChild(component);
      return;
    }
    if (item.component) this.owner.removeChild(item.component);
    item.component = component;
    item.bodyEl.empty();
    item.bodyEl.appendChild(target);
  }

  private clearStreamTimer(): void {
    if (this.streamTimer !== null) window.clearTimeout(this.streamTimer);
    this.streamTimer = null;
    this.pendingStream = null;
  }

  private clearHighlight(): void {
    if (this.highlightTimer !== null) window.clearTimeout(this.highlightTimer);
    this.highlightTimer = null;
    for (const el of this.el.findAll('.is-highlighted')) el.removeClass('is-highlighted');
  }

  /** The divider after `id`, the last message round `state` removed (kept while the round is). */
  private divider(id: string, state: CompactionState): HTMLElement {
    let el = this.dividers.get(id);
    if (el?.getAttr('data-round') === String(state.record.round)) return el;
    el?.detach();
    el = compactionDivider(state);
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

  private onClick(evt: MouseEvent): void {
    const link = linkTarget(evt);
    if (link) {
      evt.preventDefault();
      void this.app.workspace.openLinkText(link.href, '', Keymap.isModEvent(evt));
      return;
    }
    // A round's divider, or the button under its notice.
    const round = evt.target instanceof Element ? evt.target.closest('.compact-chat-divider, [data-open-round]') : null;
    if (round) {
      this.host.openCompactionPanel(Number(round.getAttr('data-round') ?? round.getAttr('data-open-round')));
      return;
    }
    const target = evt.target instanceof Element ? evt.target.closest('[data-action]') : null;
    const id = target?.closest('.compact-chat-entry')?.getAttr('data-entry-id');
    const item = id ? this.rendered.get(id) : undefined;
    if (!target || !item || item.entry.kind !== 'message') return;
    const entry = item.entry;
    switch (target.getAttr('data-action')) {
      case 'copy':
        void copy(entry.message.content);
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
        startEdit(item);
        break;
      case 'pin': {
        const outcome = this.session.setPinned(entry.id, !this.session.isPinned(entry.id));
        if (outcome.message) new Notice(outcome.message);
        break;
      }
      case 'edit-send':
        this.submitEdit(item);
        break;
      case 'edit-cancel':
        this.renderEntry(entry);
        break;
    }
  }

  private onKeydown(evt: KeyboardEvent): void {
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

  private submitEdit(item: RenderedEntry): void {
    const area = item.el.find('textarea.compact-chat-edit-input');
    if (!area?.instanceOf(HTMLTextAreaElement) || this.session.busy || !area.value.trim()) return;
    void this.session.editAndResend(item.entry.id, area.value);
  }

  private onLinkHover(evt: MouseEvent): void {
    const link = linkTarget(evt);
    if (!link) return;
    this.app.workspace.trigger('hover-link', {
      event: evt,
      source: this.host.hoverSource,
      hoverParent: this.owner,
      targetEl: link.el,
      linktext: link.href,
      sourcePath: '',
    });
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

  scrollToEnd(): void {
    this.el.scrollTop = this.el.scrollHeight;
  }
}

async function copy(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    new Notice('Copied to the clipboard.');
  } catch {
    new Notice('Could not copy to the clipboard.');
  }
}

function linkTarget(evt: MouseEvent): { el: HTMLElement; href: string } | null {
  const target = evt.target;
  const el = target instanceof Element ? target.closest('a.internal-link') : null;
  if (!(el instanceof HTMLElement)) return null;
  const href = el.getAttr('data-href') ?? el.getAttr('href');
  return href ? { el, href } : null;
}
