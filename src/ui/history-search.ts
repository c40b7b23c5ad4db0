// The compaction panel's search box: the user searches the compacted messages (every round's
// removed messages and the micro-compacted tool results, by their original text) with the same
// ranking the model's search_history tool uses, and each result — who, when, a snippet with the
// matching words marked — links to the original: shown in the chat, or in its round in the panel.
//
// Its own module, with a two-line hook in the panel (build, refresh on new rounds), so the panel's
// layout can change around it. Text reaches the DOM only through createEl/setText (<mark> elements
// for the matches), never as HTML.
import type { Component } from 'obsidian';
import type { ChatMessage } from '../core/messages';
import { searchSnippet } from '../core/search-snippet';
import { plural } from '../chat/format';
import type { ChatSession } from '../chat/session';
import { formatDateTime } from './dates';

/** Results shown at most: a panel column holds about this many snippets usefully. */
export const HISTORY_SEARCH_LIMIT = 20;

/** What the search box needs from the panel. */
export interface HistorySearchHost {
  /** The compacted messages best matching `query`, best first. */
  search(query: string, limit: number): readonly ChatMessage[];
  /** How many messages are compacted (what `search` searches). */
  count(): number;
  /** The round that removed (or micro-compacted) a message, or null when none is known. */
  roundOf(id: string): number | null;
  /** Shows the message in the chat. */
  reveal(id: string): void;
  /** Opens a round in the panel. */
  showRound(round: number): void;
}

/** The host for a chat session: its compacted messages, and the round that removed (or cleared)
 * each. */
export function sessionSearchHost(session: ChatSession, reveal: (id: string) => void, showRound: (round: number) => void): HistorySearchHost {
  return {
    search: (query, limit) => session.searchCompacted(query, limit),
    count: () => session.compactedCount(),
    roundOf: (id) => session.compactions.find((s) => s.record.removedIds.includes(id) || s.microCleared.includes(id))?.record.round ?? null,
    reveal,
    showRound,
  };
}

export class HistorySearchBox {
  private readonly input: HTMLInputElement;
  private readonly statusEl: HTMLElement;
  private readonly resultsEl: HTMLElement;

  constructor(
    parent: HTMLElement,
    private readonly host: HistorySearchHost,
    owner: Component,
  ) {
    const root = parent.createDiv({ cls: 'compact-chat-history-search', attr: { role: 'search' } });
    this.input = root.createEl('input', {
      cls: 'compact-chat-history-search-input',
      type: 'search',
      attr: { placeholder: 'Search compacted messages', 'aria-label': 'Search the compacted messages' },
    });
    this.statusEl = root.createDiv({ cls: 'compact-chat-history-search-status', attr: { 'aria-live': 'polite' } });
    this.resultsEl = root.createEl('ol', { cls: 'compact-chat-history-search-results', attr: { 'aria-label': 'Compacted messages found, best first' } });
    owner.registerDomEvent(this.input, 'input', () => this.refresh());
    owner.registerDomEvent(this.input, 'keydown', (evt) => {
      if (evt.key !== 'Escape' || !this.input.value) return;
      evt.preventDefault();
      evt.stopPropagation();
      this.input.value = '';
      this.refresh();
    });
    owner.registerDomEvent(this.resultsEl, 'click', (evt) => this.onClick(evt));
    this.refresh();
  }

  /** Runs the current query again (the compacted messages changed, or the query did). */
  refresh(): void {
    const count = this.host.count();
    this.input.disabled = count === 0 && !this.input.value;
    this.input.placeholder = count ? `Search ${plural(count, 'compacted message')}` : 'No compacted messages to search yet';
    this.resultsEl.empty();
    const query = this.input.value.trim();
    if (!query) {
      this.statusEl.setText('');
      this.statusEl.hide();
      return;
    }
    this.statusEl.show();
    const found = count ? this.host.search(query, HISTORY_SEARCH_LIMIT) : [];
    if (!found.length) {
      this.statusEl.setText(`No compacted message matches “${query}” (searched ${plural(count, 'message')}).`);
      return;
    }
    this.statusEl.setText(`${found.length === HISTORY_SEARCH_LIMIT ? `The best ${found.length}` : found.length} of ${plural(count, 'compacted message')}, best first.`);
    for (const message of found) this.renderResult(message, query);
  }

  private renderResult(message: ChatMessage, query: string): void {
    const li = this.resultsEl.createEl('li', { cls: `compact-chat-history-search-result mod-${message.role}` });
    const meta = li.createDiv('compact-chat-history-search-meta');
    meta.createSpan({ cls: 'compact-chat-history-search-who', text: speakerLabel(message) });
    if (message.createdAt > 0) meta.createSpan({ cls: 'compact-chat-history-search-when', text: ` · ${formatDateTime(message.createdAt)}` });
    const snippet = searchSnippet(message.content, query);
    const text = li.createDiv('compact-chat-history-search-snippet');
    let at = 0;
    for (const [start, end] of snippet.marks) {
      if (start > at) text.appendText(snippet.text.slice(at, start));
      text.createEl('mark', { text: snippet.text.slice(start, end) });
      at = end;
    }
    if (at < snippet.text.length) text.appendText(snippet.text.slice(at));
    if (!snippet.text) text.setText('(No text)');
    const actions = li.createDiv('compact-chat-history-search-actions');
    actions.createEl('button', {
      cls: 'compact-chat-history-search-open',
      text: 'Show in chat',
      attr: { 'data-hit-id': message.id, 'aria-label': `Show this ${speakerLabel(message).toLowerCase()} message in the chat` },
    });
    const round = this.host.roundOf(message.id);
    if (round !== null) {
      actions.createEl('button', {
        cls: 'compact-chat-history-search-round',
        text: `Round ${round}`,
        attr: { 'data-hit-round': String(round), 'aria-label': `Open compaction round ${round}, which removed this message` },
      });
    }
  }

  private onClick(evt: MouseEvent): void {
    const target = evt.target instanceof Element ? evt.target : null;
    const open = target?.closest('[data-hit-id]');
    const id = open?.getAttribute('data-hit-id');
    if (id) {
      this.host.reveal(id);
      return;
    }
    const round = Number(target?.closest('[data-hit-round]')?.getAttribute('data-hit-round'));
    if (round > 0) this.host.showRound(round);
  }
}

/** Who said a message, as the panel names it (its search results and its original messages). */
export function speakerLabel(message: ChatMessage): string {
  switch (message.role) {
    case 'user':
      return 'You';
    case 'assistant':
      return 'Assistant';
    case 'tool':
      return message.name ? `Tool result · ${message.name}` : 'Tool result';
    case 'system':
      return 'System';
  }
}
