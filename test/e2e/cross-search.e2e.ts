// Memory across conversations in Chromium: two chats saved, the history list's search ranks them
// by what was said, shows the matching line, and opens the conversation at that message.
// Screenshot: test-artifacts/e2e/cross-search-history.png.
import { describe, expect, it } from 'vitest';
import { ollamaReply } from '../../harness/replies';
import { CHAT, e2eSuite, idle, send, shot } from './helpers';

const suite = e2eSuite();

describe('search across conversations', () => {
  it('the history list finds the earlier chat by content and opens it at the message', async () => {
    const page = await suite.open();
    suite.e2e().harness.script('POST', '/api/chat', ollamaReply('Go for a 1 mm EPDM pond liner: it stays flexible in frost and lasts twenty years.'));
    await send(page, 'Which liner should I buy for the wildlife pond?');
    await idle(page);
    await page.evaluate(() => window.harness?.plugin.conversations.flush());
    await page.locator(`${CHAT} .compact-chat-toolbar [aria-label="New chat"]`).click();
    suite.e2e().harness.script('POST', '/api/chat', ollamaReply('Feed the starter twice a day and keep it warm.'));
    await send(page, 'My sourdough bread is flat, why?');
    await idle(page);
    await page.evaluate(() => window.harness?.plugin.conversations.flush());

    await page.locator(`${CHAT} .compact-chat-toolbar [aria-label="Conversation history"]`).click();
    await page.locator(`${CHAT} .compact-chat-history-search`).fill('EPDM liner');
    const rows = page.locator(`${CHAT} .compact-chat-history-item.mod-match`);
    await rows.first().waitFor();
    expect(await rows.count()).toBe(1);
    expect(await rows.first().locator('.compact-chat-history-title').textContent()).toBe('Which liner should I buy for the wildlife pond?');
    expect(await rows.first().locator('.compact-chat-history-line').textContent()).toContain('EPDM pond liner');
    expect(await rows.first().locator('.compact-chat-history-line mark').allTextContents()).toEqual(['EPDM', 'liner']);
    await shot(page, 'cross-search-history');

    await rows.first().locator('.compact-chat-history-open').click();
    const target = page.locator(`${CHAT} .compact-chat-message.is-highlighted`);
    await target.waitFor();
    expect(await target.textContent()).toContain('EPDM pond liner');
    await shot(page, 'cross-search-opened');
  });
});
