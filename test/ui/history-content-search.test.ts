// @vitest-environment jsdom
// The history list's content search with the real plugin: saved conversations ranked by what was
// said in them, each row showing the matching line with the words marked, and opening a row opens
// that conversation scrolled to the matching message — also one far back, outside the messages the
// chat first renders.
import { describe, expect, it } from 'vitest';
import { type SavedConversation, serializeConversation } from '../../src/chat/conversation-format';
import { button, closeUiAfterEach, startUi, type UiHarness, until } from './helpers';

let h: UiHarness;
closeUiAfterEach(() => h);

const at = Date.UTC(2024, 4, 12, 9);
function note(id: string, title: string, texts: string[]): SavedConversation {
  return {
    id,
    title,
    model: 'm',
    created: at,
    updated: at,
    items: texts.map((content, i) => ({ kind: 'message', message: { id: `${id}-${i}`, createdAt: at + i * 1000, role: i % 2 ? 'assistant' : 'user', content } })),
  };
}

describe('history list: search by content', () => {
  it('ranks conversations by content, shows the matching line and opens the conversation at that message', async () => {
    const filler = Array.from({ length: 90 }, (_, i) => (i % 2 ? `Reply number ${i} about watering.` : `Question number ${i} about the garden.`));
    // The answer sits in message 3 of 94: far outside the latest messages the chat renders first.
    const garden = note('garden', 'Garden plans', ['Which pond liner?', 'Let me think.', 'Budget is tight.', 'Choose a 1 mm EPDM pond liner, it lasts twenty years.', ...filler]);
    const bread = note('bread', 'Sourdough', ['My bread is flat.', 'Feed the starter twice a day; a pond of water on top means it is hungry.']);
    h = await startUi({}, { 'Compact Chat/Garden plans.md': serializeConversation(garden), 'Compact Chat/Sourdough.md': serializeConversation(bread) });
    button(h.view().find('.compact-chat-toolbar') ?? undefined, 'Conversation history').click();
    const search = h.view().find('.compact-chat-history-search') as HTMLInputElement;
    search.value = 'EPDM pond liner';
    search.dispatchEvent(new Event('input'));
    const rows = (): HTMLElement[] => h.view().findAll('.compact-chat-history-item.mod-match');
    await until(() => rows().length > 0);
    // Garden first (it holds every word), then the other conversation that mentions a pond.
    expect(rows().map((r) => r.find('.compact-chat-history-title')?.getText())).toEqual(['Garden plans', 'Sourdough']);
    const line = rows()[0]?.find('.compact-chat-history-line');
    expect(line?.getText()).toContain('Choose a 1 mm EPDM pond liner');
    expect(line?.findAll('mark').map((m) => m.getText().toLowerCase())).toEqual(['epdm', 'pond', 'liner']);
    expect(rows()[0]?.getAttr('data-message-id')).toBe('garden-3');

    rows()[0]?.find('.compact-chat-history-open')?.click();
    await until(() => h.plugin.conversations.current.id === 'garden');
    await until(() => h.view().find('.compact-chat-message[data-message-id="garden-3"]') !== null);
    const target = h.view().find('.compact-chat-message[data-message-id="garden-3"]');
    expect(target?.hasClass('is-highlighted')).toBe(true);
    expect(target?.getText()).toContain('EPDM pond liner');
    expect(h.view().find('.compact-chat-history')?.isShown()).toBe(false);
  });
});
