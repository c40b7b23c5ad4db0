// How one chat entry looks: a message (its Markdown body, tool calls, marks, error box and action
// buttons), a tool result, a notice, the edit form, and the divider after a compaction round.
// Pure DOM building: what happens on a click is the message list's business (message-list.ts),
// which finds the entry by `data-entry-id` and the action by `data-action`.
import { type Component, setIcon } from 'obsidian';
import type { ChatEntry, CompactionState, MessageEntry, NoticeEntry } from '../chat/entries';
import { plural } from '../chat/format';
import { summarySections } from '../chat/compaction-sections';
import { carriedThreadsText } from '../chat/thread-notice';
import { renderDetails } from './summary-details';

/** One entry as shown: its element, and the child Component owning its rendered Markdown. */
export interface RenderedEntry {
  entry: ChatEntry;
  el: HTMLElement;
  bodyEl: HTMLElement | null;
  component: Component | null;
  /** Bumped on each render; a render that finishes after a newer one started is dropped. */
  version: number;
  editing: boolean;
  /** A compaction notice: the round's record it shows (an edit of the carried lines replaces it). */
  record?: CompactionState['record'];
}

/** What filling an entry needs from the list. */
export interface EntryContext {
  /** Whether a request is running (rewrites and retries wait). */
  busy(): boolean;
  /** Whether entry `id` may be regenerated or edited and resent. */
  canRewrite(id: string): boolean;
  /** Whether entry `id` may be pinned or unpinned now. */
  canPin(id: string): boolean;
  /** Renders `markdown` into the entry's body (asynchronously, safely). */
  renderBody(item: RenderedEntry, markdown: string): void;
}

/** (Re)builds the entry's element from its entry. The caller has released the old Component. */
export function fillEntry(item: RenderedEntry, ctx: EntryContext): void {
  const { el, entry } = item;
  el.empty();
  item.component = null;
  item.bodyEl = null;
  if (entry.kind === 'notice') {
    fillNotice(el, entry);
    if (entry.compaction) item.record = entry.compaction.record;
    return;
  }
  const role = entry.message.role;
  el.className = `compact-chat-entry compact-chat-message mod-${role}`;
  el.setAttr('data-message-id', entry.message.id);
  el.toggleClass('is-streaming', entry.status === 'streaming');
  el.toggleClass('is-stopped', entry.status === 'stopped');
  el.toggleClass('is-error', entry.status === 'error');
  el.toggleClass('is-pinned', entry.pinned === true);
  if (entry.message.role === 'tool') {
    fillToolResult(el, entry);
    return;
  }
  item.bodyEl = el.createDiv('compact-chat-message-body markdown-rendered');
  const text = entry.message.content;
  if (text) ctx.renderBody(item, text);
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
  if (entry.pinned) pinnedMark(el, entry.message.role === 'assistant' && (entry.message.toolCalls?.length ?? 0) > 0);
  if (entry.status === 'stopped') el.createDiv({ cls: 'compact-chat-message-mark', text: 'Stopped: the reply is incomplete.' });
  if (entry.stopReason === 'max-tokens') el.createDiv({ cls: 'compact-chat-message-mark', text: 'The reply hit the length limit (reserve for the reply).' });
  if (entry.status === 'error' && entry.error) {
    const box = el.createDiv('compact-chat-error');
    box.createDiv({ cls: 'compact-chat-error-text', text: entry.error.message });
    if (entry.error.availableModels?.length) {
      box.createDiv({ cls: 'compact-chat-error-models', text: `Models on the server: ${entry.error.availableModels.slice(0, 12).join(', ')}` });
    }
    const retry = box.createEl('button', { cls: 'compact-chat-retry mod-cta', text: 'Retry', attr: { 'data-action': 'retry' } });
    retry.disabled = ctx.busy();
  }
  el.createDiv('compact-chat-message-actions');
  renderActions(item, ctx);
}

/** The action buttons under a message; none while it streams or failed. */
export function renderActions(item: RenderedEntry, ctx: EntryContext): void {
  const entry = item.entry;
  if (entry.kind !== 'message') return;
  const bar = item.el.find('.compact-chat-message-actions');
  if (!bar) return;
  bar.empty();
  if (entry.status === 'streaming' || entry.status === 'error') return;
  const role = entry.message.role;
  if (role === 'tool') return;
  const text = entry.message.content;
  const canRewrite = ctx.canRewrite(entry.id);
  if (text) actionButton(bar, 'copy', 'Copy', 'copy');
  if (text && role === 'assistant') actionButton(bar, 'file-input', 'Insert into the active note', 'insert');
  if (role === 'assistant' && canRewrite) actionButton(bar, 'refresh-cw', 'Regenerate', 'regenerate');
  if (role === 'user' && canRewrite) actionButton(bar, 'pencil', 'Edit and resend', 'edit');
  if (ctx.canPin(entry.id)) {
    const pinned = entry.pinned === true;
    const button = actionButton(bar, pinned ? 'pin-off' : 'pin', pinned ? 'Unpin: compaction may summarise this message again' : 'Pin: always send this message word for word, never compacted', 'pin');
    button.setAttr('aria-pressed', String(pinned));
    button.toggleClass('is-active', pinned);
  }
}

/** The mark on a pinned message (with its tool results, for a tool call). */
function pinnedMark(el: HTMLElement, withResults: boolean): void {
  const mark = el.createDiv({ cls: 'compact-chat-message-mark compact-chat-pinned-mark' });
  setIcon(mark.createSpan('compact-chat-pinned-icon'), 'pin');
  mark.createSpan({ text: withResults ? 'Pinned: sent word for word with its tool results, never compacted.' : 'Pinned: sent word for word, never compacted.' });
}

/** Replaces a user message's body with an edit box holding its text. */
export function startEdit(item: RenderedEntry): void {
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

/** The divider after the last message round `state` removed; clicking it opens the round. */
export function compactionDivider(state: CompactionState): HTMLElement {
  const r = state.record;
  const label = `Compaction round ${r.round}: the messages above are summarised (${r.removedIds.length} in this round). Open it in the summary panel.`;
  const el = createEl('button', { cls: 'compact-chat-divider', attr: { 'data-round': String(r.round), 'aria-label': label, 'data-tooltip-position': 'top' } });
  el.createSpan({ cls: 'compact-chat-divider-text', text: `Compacted · round ${r.round}` });
  return el;
}

/** A tool result: collapsed, its first line as the summary. */
function fillToolResult(el: HTMLElement, entry: MessageEntry): void {
  const message = entry.message;
  if (message.role !== 'tool') return;
  el.toggleClass('is-tool-error', message.isError === true);
  const details = el.createEl('details', { cls: 'compact-chat-tool-result' });
  const first = message.content.split('\n', 1)[0] ?? '';
  details.createEl('summary', { text: `${message.isError ? 'Tool failed' : 'Tool result'}${message.name ? ` · ${message.name}` : ''}: ${first.length > 80 ? `${first.slice(0, 80)}…` : first}` });
  details.createEl('pre', { cls: 'compact-chat-tool-output', text: message.content });
}

/** A notice; after a compaction: the prose line, the threads it carried in one line, what was
 * carried forward in sections, and the exact block one click away (not shown raw by default). */
function fillNotice(el: HTMLElement, entry: NoticeEntry): void {
  el.className = `compact-chat-entry compact-chat-notice mod-${entry.level}`;
  if (entry.hand) {
    // The user's own lines in the note: shown as written (plain text), marked as not sent.
    el.addClass('mod-hand');
    el.createDiv({ cls: 'compact-chat-hand-label', text: 'Your note in the conversation (not sent)' });
    el.createDiv({ cls: 'compact-chat-hand-text', text: entry.text });
    return;
  }
  el.toggleClass('is-undone', entry.undone === true);
  el.createDiv({ cls: 'compact-chat-notice-text', text: entry.text });
  const state = entry.compaction;
  if (!state) return;
  el.addClass('mod-compaction');
  if (entry.undone) {
    el.createDiv({ cls: 'compact-chat-notice-undone', text: 'Undone: these messages are sent again.' });
    return;
  }
  const r = state.record;
  const threads = carriedThreadsText(r);
  if (threads) el.createDiv({ cls: 'compact-chat-notice-threads', text: threads });
  const sections = summarySections(r).filter((section) => section.sent.length > 0);
  const lines = sections.reduce((n, section) => n + section.sent.length, 0);
  const carried = el.createEl('details', { cls: 'compact-chat-notice-details' });
  carried.createEl('summary', { text: lines ? `What was carried forward (${plural(lines, 'line')})` : 'What was carried forward' });
  const body = carried.createDiv('compact-chat-notice-sections');
  if (!sections.length) body.createDiv({ cls: 'compact-chat-muted', text: 'Nothing fit in the budget.' });
  for (const section of sections) {
    body.createDiv({ cls: 'compact-chat-notice-section-title', text: section.title });
    const list = body.createEl('ul');
    for (const line of section.sent) renderDetails(list.createEl('li', { text: line.status ? `${line.status}: ${line.text}` : line.text }), line.details, false);
  }
  if (state.restored.notes.length) {
    body.createDiv({ cls: 'compact-chat-notice-notes', text: `Re-attached notes: ${state.restored.notes.map((n) => n.path + (n.truncated ? ' (start only)' : '')).join(', ')}` });
  }
  const exact = el.createEl('details', { cls: 'compact-chat-notice-block' });
  exact.createEl('summary', { text: 'Exact block sent' });
  exact.createEl('pre', { cls: 'compact-chat-block', text: r.block || '(Nothing fit in the budget.)' });
  el.createEl('button', { cls: 'compact-chat-notice-open', text: 'Open in the summary panel', attr: { 'data-open-round': String(r.round) } });
}

/** A per-message button; the list's delegated click handler acts on its `data-action`. */
function actionButton(parent: HTMLElement, icon: string, label: string, action: string): HTMLElement {
  const button = parent.createEl('button', { cls: 'clickable-icon compact-chat-action', attr: { 'aria-label': label, 'data-action': action } });
  setIcon(button, icon);
  return button;
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

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
