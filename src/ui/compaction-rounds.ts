// The rounds of the compaction summary panel, newest first, each a `<details>`: what triggered
// it, what it removed and kept, tokens before → after, the summary sections as the block sent
// them (the user's requests marked open or done among them; the key facts by thread, each thread a
// collapsible item with its head, span and state, when the block was laid out by threads; each
// line can jump to the message it came from; the latest round's lines carry the carried-line
// editor's actions), the speakers when the text names them, the references as
// note links, files read and modified, the exact `<previous_context>` block with Copy, and the
// original messages it replaced, rendered on demand.
//
// Ownership: this module owns the list element's content and what the user opened in it (the open
// rounds, the rounds showing their original messages, the child Components those are rendered
// in); only it changes them. The panel view (compaction-panel.ts) calls `render` on the session's
// `compactions` event and forwards the clicks it delegates. DOM only: text through createEl and
// setText, message text through the safe Markdown renderer.
import { type App, Component, setIcon } from 'obsidian';
import type { CompactionCause, CompactionState } from '../chat/entries';
import { formatCount, plural, promptChange } from '../chat/format';
import type { ChatMessage } from '../core/messages';
import type { CompactionRecord } from '../core/record';
import { groupUnits } from '../core/units';
import type { CarriedLineEditor } from './carried-line-editor';
import { pathLink, referenceLink, renderLink } from './compaction-links';
import { summarySections, type SummaryLine } from '../chat/compaction-sections';
import { groupFactsByThread, type ThreadGroup } from '../chat/thread-groups';
import { speakersLine } from '../core/speakers';
import { renderDetails } from './summary-details';
import { formatDateTime } from './dates';
import { speakerLabel } from './history-search';
import { renderSafeMarkdown } from './safe-markdown';

/** What the round list needs from the panel. */
export interface RoundListHost {
  readonly app: App;
  /** The view: the original messages' Components are its children, released with it. */
  readonly owner: Component;
  readonly lineEditor: CarriedLineEditor;
}

export class RoundList {
  readonly el: HTMLElement;
  /** Rounds whose details are open, and rounds whose original messages are shown. */
  private readonly openRounds = new Set<number>();
  private readonly originalsShown = new Set<number>();
  private readonly originals = new Map<number, Component>();
  /** The newest round rendered last time: a newer one opens by itself. */
  private newestSeen = 0;

  constructor(
    parent: HTMLElement,
    private readonly host: RoundListHost,
  ) {
    this.el = parent.createDiv({ cls: 'compact-chat-rounds', attr: { role: 'region', 'aria-label': 'Compaction rounds, newest first' } });
  }

  /** Renders every round again (there are few), keeping what the user opened; `editable`: the
   * latest round's lines can be edited now. */
  render(rounds: readonly CompactionState[], messages: readonly ChatMessage[], editable: boolean): void {
    // Keep what the user opened or closed ('toggle' does not bubble, so it is read back here).
    for (const el of this.el.findAll('details.compact-chat-round')) {
      const round = Number(el.getAttr('data-round'));
      if (el.instanceOf(HTMLDetailsElement) && el.open) this.openRounds.add(round);
      else this.openRounds.delete(round);
    }
    this.release();
    this.el.empty();
    const live = new Set(rounds.map((s) => s.record.round));
    for (const r of [...this.openRounds]) if (!live.has(r)) this.openRounds.delete(r);
    for (const r of [...this.originalsShown]) if (!live.has(r)) this.originalsShown.delete(r);
    if (!rounds.length) {
      this.el.createDiv({
        cls: 'compact-chat-panel-empty',
        text: 'No compaction yet in this conversation. When the conversation grows past the compaction point (or you press "Compact now"), each round appears here with what it carried forward.',
      });
    }
    const byId = new Map(messages.map((m) => [m.id, m]));
    for (let i = rounds.length - 1; i >= 0; i--) {
      const state = rounds[i];
      const latest = i === rounds.length - 1;
      if (state) this.renderRound(state, byId, latest, latest && editable);
    }
    this.newestSeen = rounds[rounds.length - 1]?.record.round ?? 0;
  }

  /** Opens round `round` (expanded, scrolled to, focused). False when there is no such round. */
  show(round: number): boolean {
    const el = this.el.find(`details[data-round="${round}"]`);
    if (!el?.instanceOf(HTMLDetailsElement)) return false;
    el.open = true;
    this.openRounds.add(round);
    for (const other of this.el.findAll('.compact-chat-round.is-highlighted')) other.removeClass('is-highlighted');
    el.addClass('is-highlighted');
    this.el.scrollTop = Math.max(0, el.offsetTop - this.el.offsetTop);
    el.find('summary')?.focus();
    return true;
  }

  /** The "Show / Hide original messages" button `action` of round `state` was pressed. */
  toggleOriginals(action: Element, state: CompactionState, messages: readonly ChatMessage[]): void {
    const container = action.parentElement?.find('.compact-chat-originals');
    if (!action.instanceOf(HTMLElement) || !container) return;
    const round = state.record.round;
    if (this.originalsShown.has(round)) {
      this.hideOriginals(round, action, container, state.record.removedIds.length);
    } else {
      const byId = new Map(messages.map((m) => [m.id, m]));
      const removed = state.record.removedIds.map((id) => byId.get(id)).filter((m): m is ChatMessage => m !== undefined);
      this.showOriginals(state.record, action, container, removed);
    }
  }

  /** Releases the Components of the original messages shown (a re-render, the panel closing). */
  release(): void {
    for (const component of this.originals.values()) this.host.owner.removeChild(component);
    this.originals.clear();
  }

  private renderRound(state: CompactionState, byId: ReadonlyMap<string, ChatMessage>, latest: boolean, editable: boolean): void {
    const r = state.record;
    const details = this.el.createEl('details', { cls: 'compact-chat-round', attr: { 'data-round': String(r.round) } });
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
    const removed = r.removedIds.map((id) => byId.get(id)).filter((m): m is ChatMessage => m !== undefined);
    const kept = r.keptIds.map((id) => byId.get(id)).filter((m): m is ChatMessage => m !== undefined);
    this.renderFigures(body, state, removed, kept);
    this.renderSummary(body, r, editable);
    this.renderLinks(body, r);

    // The block exactly as sent.
    const blockSection = section(body, 'Sent as <previous_context>', 'compact-chat-round-block');
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

  private renderFigures(body: HTMLElement, state: CompactionState, removed: readonly ChatMessage[], kept: readonly ChatMessage[]): void {
    const r = state.record;
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
    // Between two people the text may name them: the panel says who is who, as the block does.
    const people = speakersLine(r.kind === 'talk' ? r.speakers : undefined).replace(/^Speakers: /, '');
    if (people) fact('Speakers', people, 'compact-chat-figure-speakers');
    if (state.microCleared.length) fact('Old tool results cleared', String(state.microCleared.length), 'compact-chat-figure-micro');
    if (state.restored.notes.length) {
      facts.createEl('dt', { text: 'Notes re-attached' });
      const dd = facts.createEl('dd', { cls: 'compact-chat-figure-restored' });
      state.restored.notes.forEach((note, i) => {
        if (i > 0) dd.appendText(', ');
        renderLink(dd, pathLink(this.host.app, note.path));
        if (note.truncated) dd.appendText(' (start only)');
      });
    }
  }

  /** Summary sections, as the block sent them: what the record holds beyond that is listed under
   * each section as not sent (it stays in the record for later rounds). */
  private renderSummary(body: HTMLElement, r: CompactionRecord, editable: boolean): void {
    const editor = this.host.lineEditor;
    const sum = section(body, 'Summary', 'compact-chat-round-sections');
    const sections = summarySections(r);
    for (const s of sections) {
      const grouped = s.section === 'facts' ? groupFactsByThread(s, r.threads) : null;
      // (Grouped, the facts are no longer one ranked list: the title says how they are laid out.)
      sum.createEl('h5', { text: grouped ? 'Key facts by thread' : s.title });
      if (grouped) {
        this.renderLines(sum, grouped.loose.sent, grouped.loose.notSent, editable);
        this.renderThreads(sum, grouped.threads, editable);
      } else this.renderLines(sum, s.sent, s.notSent, editable);
      editor.renderRemoved(sum, s, editable);
    }
    if (!sections.length) sum.createDiv({ cls: 'compact-chat-muted', text: 'Nothing was extracted.' });
  }

  /** Lines as the block sent them, then those it had no room for behind their own click. */
  private renderLines(parent: HTMLElement, sent: readonly SummaryLine[], notSent: readonly SummaryLine[], editable: boolean): void {
    if (sent.length) {
      const list = parent.createEl('ul', { cls: 'compact-chat-lines' });
      for (const line of sent) this.renderSummaryLine(list, line, editable);
    }
    if (notSent.length) {
      const details = parent.createEl('details', { cls: 'compact-chat-not-sent' });
      details.createEl('summary', { text: `Not sent: ${plural(notSent.length, 'line')} kept for later rounds` });
      const list = details.createEl('ul', { cls: 'compact-chat-lines' });
      for (const line of notSent) this.renderSummaryLine(list, line, editable);
    }
  }

  /** The key facts by thread: one collapsible item per thread, its head, span and state in the
   * summary, its facts inside (closed by default: the heads are the overview). */
  private renderThreads(parent: HTMLElement, groups: readonly ThreadGroup[], editable: boolean): void {
    if (!groups.length) return;
    const list = parent.createEl('ul', { cls: 'compact-chat-threads', attr: { 'aria-label': 'Threads' } });
    for (const g of groups) {
      const details = list.createEl('li').createEl('details', { cls: 'compact-chat-thread', attr: { 'data-thread': String(g.thread.id) } });
      if (g.thread.state) details.addClass(`mod-${g.thread.state}`);
      const summary = details.createEl('summary', { cls: 'compact-chat-thread-summary' });
      summary.createSpan({ cls: 'compact-chat-thread-head', text: g.head });
      // Days, state and size on a line of their own under the head (styles.css), so a narrow
      // panel wraps the head and never splits a date; the space keeps them apart when read aloud.
      summary.appendText(' ');
      const info = summary.createSpan({ cls: 'compact-chat-thread-info' });
      if (g.meta) info.createSpan({ cls: 'compact-chat-thread-meta', text: g.meta });
      const facts = plural(g.sent.length + g.notSent.length, 'fact');
      info.createSpan({ cls: 'compact-chat-thread-count', text: g.meta ? ` · ${facts}` : facts });
      this.renderLines(details.createDiv('compact-chat-thread-body'), g.sent, g.notSent, editable);
    }
  }

  /** A summary line with its edit actions, then what the block wrote under it. */
  private renderSummaryLine(list: HTMLElement, line: SummaryLine, editable: boolean): void {
    const li = renderLine(list, line);
    this.host.lineEditor.decorate(li, line, editable);
    renderDetails(li, line.details, true);
  }

  /** References, files read and modified (the user's requests are a summary section). */
  private renderLinks(body: HTMLElement, r: CompactionRecord): void {
    const app = this.host.app;
    if (r.references.length) {
      const list = section(body, 'References', 'compact-chat-round-references').createEl('ul', { cls: 'compact-chat-links' });
      for (const ref of r.references) renderLink(list.createEl('li'), referenceLink(app, ref));
    }
    for (const [title, files, cls] of [
      ['Files read', r.filesRead, 'compact-chat-round-files-read'],
      ['Files modified', r.filesModified, 'compact-chat-round-files-modified'],
    ] as const) {
      if (!files.length) continue;
      const list = section(body, title, cls).createEl('ul', { cls: 'compact-chat-links' });
      for (const file of files) renderLink(list.createEl('li'), pathLink(app, file.path));
    }
  }

  private showOriginals(record: CompactionRecord, toggle: HTMLElement, container: HTMLElement, removed: readonly ChatMessage[]): void {
    const old = this.originals.get(record.round);
    if (old) this.host.owner.removeChild(old);
    const component = this.host.owner.addChild(new Component());
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
      if (message.content) void renderSafeMarkdown(this.host.app, message.content, bodyEl, '', component);
      if (message.role === 'assistant') {
        for (const call of message.toolCalls ?? []) el.createDiv({ cls: 'compact-chat-tool-call', text: `Tool call: ${call.name}(${call.arguments})` });
      }
      el.createEl('button', { cls: 'compact-chat-original-jump', text: 'Show in chat', attr: { 'data-source': message.id, 'aria-label': `Show this ${speakerLabel(message).toLowerCase()} message in the chat` } });
    }
  }

  private hideOriginals(round: number, toggle: HTMLElement, container: HTMLElement, count: number): void {
    const component = this.originals.get(round);
    if (component) this.host.owner.removeChild(component);
    this.originals.delete(round);
    this.originalsShown.delete(round);
    container.empty();
    container.hide();
    toggle.setText(`Show original messages (${count})`);
    toggle.setAttr('aria-expanded', 'false');
  }
}

function section(parent: HTMLElement, title: string, cls: string): HTMLElement {
  const el = parent.createDiv(`compact-chat-round-section ${cls}`);
  el.createEl('h4', { text: title });
  return el;
}

/** A summary line with its jump to the message it came from. The jump (and the edit actions the
 * line editor adds beside it) sit in one unbreakable group, so a wrapped line never leaves an icon
 * alone on a line of its own. */
function renderLine(list: HTMLElement, line: SummaryLine): HTMLElement {
  const li = list.createEl('li', { cls: 'compact-chat-line' });
  if (line.status) li.createSpan({ cls: `compact-chat-line-status mod-${line.status.toLowerCase()}`, text: `${line.status}: ` });
  li.createSpan({ cls: 'compact-chat-line-text', text: line.text });
  const source = line.sources[line.sources.length - 1];
  if (source) {
    const jump = li.createSpan('compact-chat-line-tools').createEl('button', {
      cls: 'clickable-icon compact-chat-jump',
      attr: { 'data-source': source, 'aria-label': `Show the message this came from: ${truncate(line.text, 60)}` },
    });
    setIcon(jump, 'corner-down-right');
  }
  return li;
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
