// @vitest-environment jsdom
// "Continue in a new chat" from the compaction panel, with the real plugin: a new conversation
// opens with the carried block and a link back to the old note, which the chat shows; the old
// note stays as it was.
import { describe, expect, it } from 'vitest';
import { closeUiAfterEach, messages, startUi, type UiHarness, until, uiActions } from './helpers';

let h: UiHarness;
const { say, openPanel, notes, noteText } = uiActions(() => h);
closeUiAfterEach(() => h);

describe('continue in a new chat', () => {
  it('the panel button starts a new chat carrying the context with a link back', async () => {
    h = await startUi({ vaultTools: false });
    await say('I want a wildlife pond. Which liner should I buy? The budget is 300 euros.', 'Use a 1 mm EPDM liner; it stays flexible in frost.');
    await h.plugin.conversations.flush();
    const [oldPath] = notes();
    const oldText = noteText(oldPath as string);
    const oldId = h.plugin.conversations.current.id;

    const panel = await openPanel('.compact-chat-continue');
    const carry = panel.find('button.compact-chat-continue') as HTMLButtonElement;
    expect(carry.getText()).toBe('Continue in a new chat');
    expect(carry.disabled).toBe(false);
    carry.click();
    await until(() => h.plugin.conversations.current.id !== oldId);
    expect(h.plugin.conversations.current.title).toMatch(/\(continued\)$/);
    const first = h.plugin.session.messages[0];
    expect(first?.role).toBe('system');
    expect(first?.content).toContain(`[[${(oldPath as string).replace(/\.md$/, '')}]]`);
    expect(first?.content).toMatch(/<previous_context>[\s\S]*wildlife pond[\s\S]*<\/previous_context>/);
    await until(() => messages(h).length === 1);
    expect(messages(h)[0]?.getText()).toContain('This conversation continues');
    await h.plugin.conversations.flush();
    expect(notes()).toHaveLength(2);
    expect(noteText(oldPath as string)).toBe(oldText);
  });
});
