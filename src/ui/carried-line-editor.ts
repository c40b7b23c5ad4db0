// The summary panel's editing of what the latest round carries: each line gets "Edit line" (an
// inline text box: Enter or Save commits, Escape or Cancel puts it back) and "Remove line"; a
// rewritten line is marked as edited (the extracted text in its tooltip), removed lines are listed
// with "Put back"; "Undo last edit" sits with the panel's controls. The session renders the block
// again and announces the rounds, so the panel re-renders itself after each change.
//
// Thin: DOM building and the panel's delegated events only; what an edit means is the session's
// (src/chat/compaction-control.ts) and the core's (src/core/edits.ts).
import { Notice, setIcon, setTooltip } from 'obsidian';
import type { ChatSession } from '../chat/session';
import { EDITABLE_SECTIONS, type EditableSection } from '../core/edits';
import { plural } from '../chat/format';
import type { SummaryLine, SummarySection } from '../chat/compaction-sections';

const EDIT_INPUT = 'compact-chat-line-edit-input';

export class CarriedLineEditor {
  constructor(private readonly session: ChatSession) {}

  /** Marks and actions of one line (a goal shortened to fit shows the sentences the block sent,
   * but is edited whole). Only the latest round's lines are editable: its block is the one sent. */
  decorate(li: HTMLElement, line: SummaryLine, editable: boolean): void {
    li.setAttr('data-section', line.section);
    li.setAttr('data-key', line.key);
    li.setAttr('data-text', line.full);
    // (Beside the line's jump when it has one: one group that does not wrap apart.)
    const tools = li.find('.compact-chat-line-tools');
    if (line.original !== undefined) {
      li.addClass('is-edited');
      const mark = li.createSpan({ cls: 'compact-chat-line-edited', text: 'Edited' });
      if (tools) li.insertBefore(mark, tools);
      setTooltip(mark, `Extracted as: ${line.original}`);
    }
    if (!editable) return;
    const actions = (tools ?? li).createSpan('compact-chat-line-actions');
    button(actions, 'pencil', 'Edit line', 'line-edit');
    button(actions, 'x', 'Remove line: it is no longer sent', 'line-remove');
  }

  /** The lines of a section the user removed, with "Put back" on the latest round. */
  renderRemoved(parent: HTMLElement, section: SummarySection, editable: boolean): void {
    if (!section.removed.length) return;
    const details = parent.createEl('details', { cls: 'compact-chat-removed-lines' });
    details.createEl('summary', { text: `Removed by you: ${plural(section.removed.length, 'line')}` });
    const list = details.createEl('ul', { cls: 'compact-chat-lines' });
    for (const line of section.removed) {
      const li = list.createEl('li', { cls: 'compact-chat-line is-removed', attr: { 'data-section': line.section, 'data-key': line.key } });
      li.createSpan({ cls: 'compact-chat-line-text', text: line.text });
      if (editable) button(li.createSpan('compact-chat-line-actions'), 'undo-2', 'Put back: send this line again', 'line-restore');
    }
  }

  /** The panel's "Undo last edit" button, kept in step with the session. */
  updateUndo(el: HTMLButtonElement): void {
    const reason = this.session.lineEditUndoBlocker();
    el.disabled = reason !== null;
    setTooltip(el, reason ?? 'Undo the last change to the summary lines: the block sent is as before it');
  }

  undoLast(): void {
    const undone = this.session.undoLineEdit();
    if (undone) new Notice(undone.removed ? 'Put the removed line back.' : 'Undid the last edit of the summary.');
  }

  /** A click inside the panel: true when it was a line action (handled). */
  onClick(target: Element): boolean {
    const action = target.closest('[data-action]');
    const name = action?.getAttr('data-action') ?? '';
    if (!name.startsWith('line-')) return false;
    const li = action?.closest('li.compact-chat-line');
    if (!li?.instanceOf(HTMLElement)) return true;
    const section = sectionOf(li.getAttr('data-section'));
    const key = li.getAttr('data-key');
    if (!section || key === null) return true;
    switch (name) {
      case 'line-edit':
        startEdit(li);
        break;
      case 'line-remove':
        report(this.session.editCarriedLine(section, key, null));
        break;
      case 'line-restore':
        report(this.session.restoreCarriedLine(section, key));
        break;
      case 'line-save':
        this.save(li, section, key);
        break;
      case 'line-cancel':
        cancelEdit(li);
        break;
    }
    return true;
  }

  /** Enter commits the edit box, Escape cancels it: true when the key was one of those. */
  onKeydown(evt: KeyboardEvent): boolean {
    const area = evt.target instanceof HTMLTextAreaElement && evt.target.hasClass(EDIT_INPUT) ? evt.target : null;
    const li = area?.closest('li.compact-chat-line');
    if (!area || !li?.instanceOf(HTMLElement)) return false;
    if (evt.key === 'Escape') {
      evt.preventDefault();
      cancelEdit(li);
      return true;
    }
    if (evt.key !== 'Enter' || evt.shiftKey || evt.isComposing) return false;
    evt.preventDefault();
    const section = sectionOf(li.getAttr('data-section'));
    const key = li.getAttr('data-key');
    if (section && key !== null) this.save(li, section, key);
    return true;
  }

  private save(li: HTMLElement, section: EditableSection, key: string): void {
    const area = li.find(`textarea.${EDIT_INPUT}`);
    if (!area?.instanceOf(HTMLTextAreaElement)) return;
    const text = area.value.trim();
    // Saving the text unchanged is no edit.
    if (text === (li.getAttr('data-text') ?? '')) {
      cancelEdit(li);
      return;
    }
    report(this.session.editCarriedLine(section, key, text || null));
  }
}

/** Replaces the line's text with an edit box holding its whole text. */
function startEdit(li: HTMLElement): void {
  if (li.hasClass('is-editing')) return;
  li.addClass('is-editing');
  const form = li.createDiv('compact-chat-line-edit');
  const area = form.createEl('textarea', { cls: EDIT_INPUT, attr: { rows: '3', 'aria-label': 'Edit the line (an empty line is removed)' } });
  area.value = li.getAttr('data-text') ?? '';
  const buttons = form.createDiv('compact-chat-line-edit-buttons');
  buttons.createEl('button', { cls: 'mod-cta', text: 'Save', attr: { 'data-action': 'line-save' } });
  buttons.createEl('button', { text: 'Cancel', attr: { 'data-action': 'line-cancel' } });
  area.focus();
  area.select();
}

function cancelEdit(li: HTMLElement): void {
  li.removeClass('is-editing');
  li.find('.compact-chat-line-edit')?.detach();
}

function report(outcome: { ok: boolean; message: string }): void {
  if (outcome.message) new Notice(outcome.message);
}

function button(parent: HTMLElement, icon: string, label: string, action: string): void {
  const el = parent.createEl('button', { cls: 'clickable-icon compact-chat-line-action', attr: { 'aria-label': label, 'data-action': action } });
  setIcon(el, icon);
}

function sectionOf(value: string | null): EditableSection | null {
  return EDITABLE_SECTIONS.find((s) => s === value) ?? null;
}
