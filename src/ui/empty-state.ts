// What a new conversation shows before the first message: which model answers (or how to connect
// one), what compaction does, and a few example prompts about the active note; clicking one puts
// it in the input box, for the user to edit or send.
import { type Component } from 'obsidian';
import { formatTokens } from '../chat/format';
import { type ConnectionInfo, describeServer } from './connection';
import type { ModelListState } from './model-picker';

export interface EmptyStateFacts {
  connection: ConnectionInfo;
  models: ModelListState;
  /** The compaction point in tokens, and the window it is in. */
  compactionPoint: number;
  window: number;
  /** Link text of the active note (`[[…]]` without brackets), or null when none is open. */
  activeNote: string | null;
}

/** Three prompts about the active note, or about the vault when no note is open. */
export function examplePrompts(activeNote: string | null): string[] {
  if (activeNote) {
    const link = `[[${activeNote}]]`;
    return [`Summarise ${link} in five bullet points.`, `What questions does ${link} leave open?`, `Which other notes should ${link} link to?`];
  }
  return ['Search my notes for meetings and list what was decided.', 'What is in the folders of my vault?', 'Help me outline a new note about a project.'];
}

export class EmptyState {
  readonly el: HTMLElement;

  constructor(
    parent: HTMLElement,
    owner: Component,
    /** An example prompt was clicked. */
    private readonly onPrompt: (text: string) => void,
    private readonly onSettings: () => void,
  ) {
    this.el = parent.createDiv({ cls: 'compact-chat-empty', attr: { role: 'region', 'aria-label': 'Getting started' } });
    owner.registerDomEvent(this.el, 'click', (evt) => {
      const target = evt.target instanceof Element ? evt.target.closest('[data-prompt], [data-action="settings"]') : null;
      if (!target) return;
      const prompt = target.getAttr('data-prompt');
      if (prompt) this.onPrompt(prompt);
      else this.onSettings();
    });
  }

  render(facts: EmptyStateFacts): void {
    const el = this.el;
    el.empty();
    el.createDiv({ cls: 'compact-chat-empty-title', text: 'Chat about your notes' });
    this.renderConnection(el.createDiv('compact-chat-empty-model'), facts);
    el.createDiv({
      cls: 'compact-chat-empty-compaction',
      text:
        `Long conversations keep working: past ${formatTokens(facts.compactionPoint)} of the ${formatTokens(facts.window)} tokens the model can take, ` +
        'older messages are summarised on this device, with no extra model call, and the summary is sent in their place. Every message stays in the saved note.',
    });
    el.createDiv({ cls: 'compact-chat-empty-try', text: facts.activeNote ? 'Try, about the open note:' : 'Try:' });
    const list = el.createDiv('compact-chat-empty-prompts');
    for (const prompt of examplePrompts(facts.activeNote)) list.createEl('button', { cls: 'compact-chat-example', text: prompt, attr: { 'data-prompt': prompt } });
  }

  private renderConnection(el: HTMLElement, facts: EmptyStateFacts): void {
    const c = facts.connection;
    const server = describeServer(c);
    const settings = (): void => void el.createEl('button', { cls: 'compact-chat-empty-settings', text: 'Open settings', attr: { 'data-action': 'settings' } });
    if (facts.models.kind === 'failed') {
      el.addClass('mod-warning');
      // The provider's message names the server and the next step already: said once.
      el.createSpan({ text: facts.models.error });
      settings();
      return;
    }
    el.removeClass('mod-warning');
    if (!c.model) {
      el.appendText(
        facts.models.kind === 'loaded' && facts.models.models.length
          ? `Connected to ${server}. Choose a model in the list above to start.`
          : `No model yet. Ollama runs models on this device without a key; an OpenAI-compatible server or Anthropic needs an API key. `,
      );
      settings();
      return;
    }
    el.appendText(facts.models.kind === 'loading' ? 'Connecting to ' : 'Connected to ');
    el.createEl('strong', { text: c.model });
    el.appendText(` through ${server}.`);
    if (facts.models.kind === 'loaded' && !facts.models.models.includes(c.model)) {
      el.addClass('mod-warning');
      el.appendText(' The server does not list this model: choose another above.');
    }
  }
}
