// The history list's content search (history-panel.ts calls it when the search box holds a query
// and the plugin gives a conversation search): conversations ranked by what was said in them
// (src/chat/conversation-index.ts), each row with its title, date and the best matching line, the
// matching words marked; opening a row opens the conversation at that message. Text reaches the
// DOM only through createEl/appendText.
import type { ConversationHit } from '../chat/conversation-index';
import { searchSnippet } from '../core/search-snippet';
import { formatDateTime } from './dates';

/** What the panel needs for the content search: the search, and showing a message once opened. */
export interface ContentSearch {
  find(query: string): Promise<ConversationHit[]>;
  /** Scrolls the chat to message `id` of the conversation just opened. */
  reveal(messageId: string): void;
}

/** Renders one row per conversation (the first hit of each: the best message), best first. */
export function renderMatches(list: HTMLElement, hits: readonly ConversationHit[], query: string, currentPath: string | null): void {
  list.empty();
  const seen = new Set<string>();
  for (const hit of hits) {
    if (seen.has(hit.path)) continue;
    seen.add(hit.path);
    const row = list.createDiv({ cls: 'compact-chat-history-item mod-match', attr: { 'data-conversation-id': hit.conversationId, 'data-path': hit.path, 'data-message-id': hit.messageId } });
    row.toggleClass('is-active', hit.path === currentPath);
    const open = row.createEl('button', { cls: 'compact-chat-history-open', attr: { 'data-action': 'open', 'aria-label': `Open "${hit.title}" at the matching message` } });
    open.createDiv({ cls: 'compact-chat-history-title', text: hit.title });
    if (hit.date > 0) open.createDiv({ cls: 'compact-chat-history-date', text: formatDateTime(hit.date) });
    const line = open.createDiv('compact-chat-history-line');
    const snippet = searchSnippet(hit.text.replace(/\s+/g, ' '), query, 120);
    let at = 0;
    for (const [start, end] of snippet.marks) {
      if (start > at) line.appendText(snippet.text.slice(at, start));
      line.createEl('mark', { text: snippet.text.slice(start, end) });
      at = end;
    }
    if (at < snippet.text.length) line.appendText(snippet.text.slice(at));
  }
  if (!seen.size) list.createDiv({ cls: 'compact-chat-history-empty', text: 'No conversation matches.' });
}
