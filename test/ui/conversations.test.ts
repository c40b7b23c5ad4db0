// @vitest-environment jsdom
// Conversations that last, with the real plugin: saved as notes, restored on restart with their
// compaction state, the history panel (search by content, open, rename, delete), a corrupt note
// shown read-only, the `[[` picker, the active-note toggle, tool blocks and the write approval modal.
import { describe, expect, it } from 'vitest';
import CompactChatPlugin from '../../src/main';
import { parseConversation } from '../../src/chat/conversation-format';
import { ollamaReply, ollamaToolCalls, systemOf } from '../chat/helpers/harness';
import { loadPlugin, pluginDataJson, pressKey, settle, typeInto, unloadPlugin } from '../obsidian/testing';
import { button, input, messages, startUi, type UiHarness, until, uiActions, closeUiAfterEach } from './helpers';

let h: UiHarness;
const { send, idle, bodies, notes, noteText } = uiActions(() => h);
closeUiAfterEach(() => h);


describe('saved conversations', () => {
  it('saves the conversation as a note titled by the first message, and restores it with its compaction state on restart', async () => {
    // Without tools: their definitions would take ~480 of this 1,200-token window.
    h = await startUi({ contextWindowOverride: 1200, replyReserve: 200, triggerPercent: 60, keepExchanges: 1, keepTokens: 0, contextBudget: 250, vaultTools: false });
    const para = (t: string): string => `We discussed ${t} at length, and we will check the details of ${t} again next week. `.repeat(3);
    const topics = ['the budget', 'the launch date', 'the team', 'the risks', 'the marketing', 'the retro', 'the pricing'];
    for (const topic of topics) h.server.on('POST', '/api/chat', ollamaReply(para(topic)));
    for (const topic of topics) {
      send(`Let us talk about ${topic}. ${para(topic)}`);
      await idle();
    }
    await h.plugin.conversations.flush();
    expect(h.plugin.session.compactions.length).toBeGreaterThan(0);
    expect(notes()).toEqual(['Compact Chat/Let us talk about the budget. We discussed the budget at.md']);
    const path = notes()[0] as string;
    const parsed = parseConversation(noteText(path));
    expect(parsed.ok && parsed.conversation.items.filter((i) => i.kind === 'compaction').length).toBe(h.plugin.session.compactions.length);
    const id = h.plugin.conversations.current.id;
    expect(JSON.parse(pluginDataJson(h.app, 'compact-chat') ?? '{}')).toMatchObject({ openConversation: id });
    const sentBefore = h.plugin.session.sentMessages().map((m) => m.id);
    const promptBefore = h.plugin.session.systemPrompt();

    // Restart: unload, load again.
    await unloadPlugin(h.plugin);
    h.plugin = await loadPlugin(CompactChatPlugin);
    await until(() => h.plugin.session.entries.length > 0);
    expect(h.plugin.conversations.current).toMatchObject({ id, path });
    expect(h.plugin.session.compactions.map((c) => c.record.round)).toEqual([...Array(h.plugin.session.compactions.length).keys()].map((i) => i + 1));
    expect(h.plugin.session.sentMessages().map((m) => m.id)).toEqual(sentBefore);
    h.server.on('POST', '/api/chat', ollamaReply('Welcome back.'));
    await h.plugin.session.send('Where were we?');
    expect(systemOf(bodies().at(-1))).toContain('<previous_context>');
    expect(promptBefore).toContain('<previous_context>');
    await h.plugin.conversations.flush();
    expect(noteText(path)).toContain('Where were we?');
  });

  it('the history panel searches by content, opens, renames and deletes with confirmation', async () => {
    h = await startUi();
    h.server.on('POST', '/api/chat', ollamaReply('Sun and water.'), ollamaReply('Due Friday.'));
    send('How do tomatoes grow?');
    await idle();
    await h.plugin.conversations.flush();
    const first = h.plugin.conversations.current.id;
    button(h.view().find('.compact-chat-toolbar') ?? undefined, 'New chat').click();
    await until(() => h.plugin.session.entries.length === 0);
    send('Quarterly report');
    await idle();
    await h.plugin.conversations.flush();

    button(h.view().find('.compact-chat-toolbar') ?? undefined, 'Conversation history').click();
    const titles = (): string[] => h.view().findAll('.compact-chat-history-title').map((el) => el.getText());
    await until(() => titles().length === 2);
    typeInto(h.view().find('.compact-chat-history-search') as HTMLInputElement, 'water sun');
    await until(() => titles().join() === 'How do tomatoes grow?');

    h.view().find('.compact-chat-history-open')?.click();
    await until(() => h.plugin.conversations.current.id === first);
    expect(messages(h).map((m) => m.getText())).toEqual([expect.stringContaining('How do tomatoes grow?'), expect.stringContaining('Sun and water.')]);

    button(h.view().find('.compact-chat-toolbar') ?? undefined, 'Conversation history').click();
    typeInto(h.view().find('.compact-chat-history-search') as HTMLInputElement, '');
    await until(() => titles().length === 2);
    const row = h.view().findAll('.compact-chat-history-item').find((el) => el.getAttr('data-conversation-id') === first);
    button(row, 'Rename').click();
    const renameInput = document.querySelector('.compact-chat-rename-input') as HTMLInputElement;
    typeInto(renameInput, 'Tomatoes');
    pressKey('Enter', { target: renameInput });
    await until(() => notes().includes('Compact Chat/Tomatoes.md'));
    await until(() => titles().includes('Tomatoes'));
    expect(h.view().find('.compact-chat-title')?.getText()).toBe('Tomatoes');

    const other = h.view().findAll('.compact-chat-history-item').find((el) => el.getAttr('data-conversation-id') !== first);
    button(other, 'Delete').click();
    const cancel = [...document.querySelectorAll('.modal button')].find((b) => b.textContent === 'Cancel') as HTMLElement;
    cancel.click();
    await settle();
    expect(notes()).toHaveLength(2);
    button(other, 'Delete').click();
    ([...document.querySelectorAll('.modal button')].find((b) => b.textContent === 'Delete') as HTMLElement).click();
    await until(() => notes().length === 1);
    expect(notes()).toEqual(['Compact Chat/Tomatoes.md']);
  });

  it('opens a corrupt note read-only, reports the line, and never overwrites it', async () => {
    const corrupt = '---\nid: "broken"\ntitle: "Broken"\n---\n\n### User · 2026-01-01 10:00\n<!-- compact-chat {"id":"u1","createdAt":0} -->\n```markdown\nHello\n```\n\n### Assistant · 2026-01-01 10:00\n<!-- compact-chat {"id":"a1","createdAt":0} -->\n```markdown\nunclosed\n';
    h = await startUi({}, { 'Compact Chat/Broken.md': corrupt });
    expect(await h.plugin.conversations.open('Compact Chat/Broken.md')).toBe(true);
    expect(h.plugin.conversations.current.problem).toMatch(/line 14: .*not closed/);
    expect(input(h).disabled).toBe(true);
    expect(h.view().find('.compact-chat-disabled-reason')?.getText()).toMatch(/read-only/);
    expect(messages(h)).toHaveLength(1);
    await h.plugin.session.send('Try anyway');
    await h.plugin.conversations.flush();
    expect(noteText('Compact Chat/Broken.md')).toBe(corrupt);
  });
});

describe('notes as context in the view', () => {
  it('a mention picked with [[ is sent, listed on the message and saved', async () => {
    h = await startUi({}, { 'Projects/Garden plan.md': 'Three raised beds.', 'Work.md': 'Report.' });
    h.server.on('POST', '/api/chat', ollamaReply('Three.'));
    const area = input(h);
    typeInto(area, 'How many beds in [[gard');
    const items = (): HTMLElement[] => [...document.querySelectorAll<HTMLElement>('.suggestion-container .suggestion-item')];
    await until(() => items().length > 0);
    expect(items()[0]?.getText()).toContain('Garden plan');
    items()[0]?.click();
    expect(area.value).toBe('How many beds in [[Garden plan]]');
    typeInto(area, `${area.value}?`);
    await until(() => items().length === 0 || document.querySelector('.suggestion-container') === null);
    pressKey('Enter', { target: area });
    await idle();
    expect(systemOf(bodies()[0])).toContain('Three raised beds.');
    expect(messages(h)[0]?.find('.compact-chat-mentions a.internal-link')?.getAttr('data-href')).toBe('Projects/Garden plan.md');
    await h.plugin.conversations.flush();
    const saved = parseConversation(noteText(h.plugin.conversations.current.path ?? ''));
    expect(saved.ok && saved.conversation.items[0]).toMatchObject({ mentions: ['Projects/Garden plan.md'] });
  });

  it('the active-note toggle shows the note and sends its current text', async () => {
    h = await startUi({ includeActiveNote: false }, { 'Today.md': 'Draft one.' });
    await h.app.workspace.getLeaf(false).openFile(h.app.vault.getFileByPath('Today.md') as never);
    const toggle = h.view().find('.compact-chat-active-toggle');
    expect(h.view().find('.compact-chat-active-note')?.getText()).toMatch(/not included/);
    toggle?.click();
    await until(() => h.plugin.settings.includeActiveNote);
    await until(() => h.view().find('.compact-chat-active-note')?.getText() === 'Attached: Today');
    await h.app.vault.modify(h.app.vault.getFileByPath('Today.md') as never, 'Draft two.');
    h.server.on('POST', '/api/chat', ollamaReply('Ok.'));
    send('Summarise');
    await idle();
    expect(systemOf(bodies()[0])).toContain('<active_note path="Today.md">\nDraft two.');
  });

  it('shows tool calls and results as collapsible blocks, and a write waits for the modal', async () => {
    h = await startUi({}, { 'Inbox.md': 'Todo.' });
    h.server.on('POST', '/api/chat', ollamaToolCalls({ name: 'append_to_note', arguments: { path: 'Inbox.md', content: '\n- buy seeds' } }), ollamaReply('Added.'));
    send('Add buy seeds to my inbox');
    await until(() => document.querySelector('.compact-chat-approval') !== null);
    expect(document.querySelector('.compact-chat-approval-path')?.textContent).toBe('Inbox.md');
    expect(document.querySelector('.compact-chat-approval-text')?.textContent).toBe('\n- buy seeds');
    expect(h.app.vault.adapter.peek('Inbox.md')).toBe('Todo.');
    ([...document.querySelectorAll('.modal button')].find((b) => b.textContent === 'Append') as HTMLElement).click();
    await idle();
    expect(h.app.vault.adapter.peek('Inbox.md')).toBe('Todo.\n- buy seeds');
    expect(h.view().find('details.compact-chat-tool-call summary')?.getText()).toBe('Tool call: append_to_note · Inbox.md');
    expect(h.view().find('details.compact-chat-tool-result summary')?.getText()).toMatch(/^Tool result · append_to_note: Appended/);
    expect(messages(h).at(-1)?.getText()).toContain('Added.');
  });
});
