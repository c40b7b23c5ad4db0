// The built plugin (main.js) in headless Chromium, hosted by the harness page in the obsidian test
// runtime, against the harness's scripted Ollama endpoint. Every test opens a fresh page (a fresh
// app and plugin), asserts on the DOM and on what the plugin sent, and saves a screenshot of each
// state under test-artifacts/e2e/. Nothing here asserts on pixels.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { endlessReply, HARNESS_MODEL, ollamaReply } from '../../harness/replies';
import { CHAT, e2eSuite, idle, send, shot } from './helpers';

const suite = e2eSuite();
const open = suite.open;

const messages = (page: Page) => page.locator(`${CHAT} .compact-chat-message`);

const PLAN_REPLY =
  'The plan is in **[[Projects/Garden redesign]]**: raised beds first, then the pond.\n\n' +
  '- Budget: keep it under `€500`\n- Meeting: see [[会议记录]]\n\n' +
  '```ts\nnextWatering(new Date(), 2);\n```\n\n' +
  'Those are the steps we agreed on, in the order we agreed on them.';

/** A reply with decisions, links and enough words that a few of them fill a small window. */
function longReply(i: number): string {
  return (
    `Decision ${i}: we will use raised bed number ${i} for the tomatoes, as agreed in [[Projects/Garden redesign]]. ` +
    `The open task ${i} is to order soil before Friday. `.repeat(3) +
    'The beds get watered every second day, the pond pump runs at night, and the compost stays by the shed. '.repeat(4)
  );
}

/** Sends messages in a small window until the plugin compacts automatically; returns the count. */
async function compactByConversation(page: Page): Promise<number> {
  await page.evaluate(() =>
    // 3,000 tokens: the vault tools' definitions take ~480, and a compaction lands at half the
    // prompt, so a smaller window would leave no room for the block.
    window.harness?.configure({ contextWindowOverride: 3000, replyReserve: 200, triggerPercent: 60, keepExchanges: 1, keepTokens: 0, contextBudget: 400 }),
  );
  for (let i = 1; i <= 14; i++) {
    suite.e2e().harness.script('POST', '/api/chat', ollamaReply(longReply(i)));
    await send(page, `Question ${i}: what should we plant in bed ${i}? Please keep the no-pesticides rule in mind, always.`);
    await idle(page);
    const compacted = await page.evaluate(() => window.harness?.plugin.session.compactions.length ?? 0);
    if (compacted > 0) return i;
  }
  throw new Error('no automatic compaction after 14 exchanges');
}

describe('the plugin in Chromium', () => {
  it('opens the chat view in the right sidebar beside a note', async () => {
    const page = await open();
    expect(await page.locator(CHAT).count()).toBe(1);
    expect(await page.evaluate(() => window.harness?.app.workspace.getLeavesOfType('compact-chat-view')[0]?.getRoot() === window.harness?.app.workspace.rightSplit)).toBe(true);
    expect(await page.locator(`${CHAT} textarea.compact-chat-input`).isVisible()).toBe(true);
    expect(await page.locator(`${CHAT} .compact-chat-send`).textContent()).toBe('Send');
    expect(await page.locator(`${CHAT} .compact-chat-meter-label`).textContent()).toMatch(/tokens · compacts at/);
    expect(await page.locator('.mod-root .view-header-title').first().textContent()).toBe('Welcome');
    const box = await page.locator('.mod-right-split').boundingBox();
    expect(box?.x).toBeGreaterThan(600);
    await shot(page, '01-open');
  });

  it('sends a message, streams the reply in and renders it as Markdown with a clickable wikilink', async () => {
    const page = await open();
    suite.e2e().harness.script('POST', '/api/chat', ollamaReply(PLAN_REPLY, { delayMs: 25, promptEvalCount: 120 }));
    await send(page, 'Where is the garden plan?');

    // Mid-stream: the reply is on screen, marked as streaming, and the button stops it.
    const reply = messages(page).nth(1);
    await page.waitForSelector(`${CHAT} .compact-chat-message.mod-assistant.is-streaming`);
    await page.waitForFunction((chat) => (document.querySelectorAll(`${chat} .compact-chat-message`)[1]?.textContent ?? '').includes('raised beds'), CHAT);
    expect(await page.locator(`${CHAT} .compact-chat-send`).textContent()).toBe('Stop');
    await shot(page, '02-streaming');
    await idle(page);

    expect(await messages(page).count()).toBe(2);
    expect(await messages(page).nth(0).getAttribute('class')).toContain('mod-user');
    expect(await messages(page).nth(0).textContent()).toContain('Where is the garden plan?');
    expect(await reply.getAttribute('class')).not.toContain('is-streaming');
    expect(await reply.locator('strong').count()).toBe(1);
    expect(await reply.locator('li').count()).toBe(2);
    expect(await reply.locator('pre code').textContent()).toContain('nextWatering');
    const link = reply.locator('a.internal-link[data-href="Projects/Garden redesign"]');
    expect(await link.count()).toBe(1);
    expect(await reply.locator('a.internal-link[data-href="会议记录"]').count()).toBe(1);
    await shot(page, '03-reply');

    // What went over the wire: the harness model, the window, the question last.
    const body = suite.e2e().harness.chatBodies().at(-1);
    expect(body?.model).toBe(HARNESS_MODEL);
    expect(body?.options?.num_ctx).toBeGreaterThan(0);
    expect(body?.messages.at(-1)).toMatchObject({ role: 'user', content: 'Where is the garden plan?' });

    // A real click on the link opens the note in the main area.
    await link.click();
    await page.waitForFunction(() => document.querySelector('.mod-root .workspace-leaf.mod-active .view-header-title')?.textContent === 'Garden redesign');
    expect(await page.locator('.mod-root .workspace-leaf.mod-active .markdown-source-view').textContent()).toContain('Goal: replace the lawn');
    await shot(page, '04-link-opened');
  });

  it('stops a stream: the partial reply stays, marked as stopped, and the connection is closed', async () => {
    const page = await open();
    suite.e2e().harness.script('POST', '/api/chat', endlessReply('Once upon a time there was a gardener who talked for a very long time about slugs. '.repeat(3), 20));
    await send(page, 'Tell me a long story');
    await page.waitForFunction((chat) => (document.querySelectorAll(`${chat} .compact-chat-message`)[1]?.textContent ?? '').includes('gardener'), CHAT);
    const stop = page.locator(`${CHAT} .compact-chat-send`);
    expect(await stop.textContent()).toBe('Stop');
    expect(await stop.getAttribute('class')).toContain('mod-warning');
    await shot(page, '05-before-stop');
    await stop.click();
    await idle(page);

    const reply = messages(page).nth(1);
    expect(await reply.getAttribute('class')).toContain('is-stopped');
    expect(await reply.textContent()).toContain('Once upon a time');
    expect(await reply.locator('.compact-chat-message-mark').textContent()).toMatch(/stopped/i);
    const request = suite.e2e().harness.requests('/api/chat').at(-1);
    expect(await request?.closed).toBe(true);
    await shot(page, '06-stopped');
  });

  it('compacts automatically in a long conversation with a small window; the transcript stays', async () => {
    const page = await open();
    const exchanges = await compactByConversation(page);
    expect(exchanges).toBeGreaterThan(1);

    // Every message is still in the conversation and on screen: compaction changes what is sent.
    expect(await messages(page).count()).toBe(exchanges * 2);
    const notice = page.locator(`${CHAT} .compact-chat-notice.mod-compaction`).first();
    expect(await notice.count()).toBe(1);
    // Prose with the whole-prompt figures; the raw block is not shown until asked for.
    const prose = (await notice.locator('.compact-chat-notice-text').textContent()) ?? '';
    expect(prose).toMatch(/^\d+ messages summarised; [\d,]+ → [\d,]+ tokens\. Round 1, /);
    const block = notice.locator('pre.compact-chat-block');
    expect(await block.isVisible()).toBe(false);
    await notice.locator('.compact-chat-notice-details > summary').click();
    expect(await notice.locator('.compact-chat-notice-section-title').first().isVisible()).toBe(true);
    expect(await notice.locator('.compact-chat-notice-sections').textContent()).toMatch(/no-pesticides|pesticides/);
    expect(await block.isVisible()).toBe(false);
    await notice.evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await shot(page, '07-compacted');
    await notice.locator('.compact-chat-notice-block > summary').click();
    expect(await block.isVisible()).toBe(true);
    expect(await block.textContent()).toContain('<previous_context');
    // The same figures as the summary panel's round header.
    const figures = /[\d,]+ → [\d,]+ tokens/.exec(prose)?.[0];
    await notice.locator('.compact-chat-notice-open').click();
    const header = page.locator('.compact-chat-panel .compact-chat-round-summary').first();
    await header.waitFor();
    expect(await header.textContent()).toContain(figures);

    // The request after the compaction carried the block and fewer messages than the transcript.
    const body = suite.e2e().harness.chatBodies().at(-1);
    const system = body?.messages.find((m) => m.role === 'system')?.content ?? '';
    expect(system).toContain('<previous_context');
    expect(body?.messages.filter((m) => m.role !== 'system').length).toBeLessThan(exchanges * 2);
  });

  it('opens the compaction summary panel and expands the original messages of a round', async () => {
    const page = await open();
    await compactByConversation(page);
    const listHeight = async (): Promise<number> => (await page.locator(`${CHAT} .compact-chat-messages`).boundingBox())?.height ?? 0;
    const before = await listHeight();
    // The chat toolbar's button, as a user opens it (the command `compact-chat:open-compaction-panel` does the same).
    await page.locator(`${CHAT} .compact-chat-toolbar [aria-label="Open compaction panel"]`).click();
    // Beside the chat, in the main area: the chat keeps every pixel of its height.
    const round = page.locator('.mod-root .compact-chat-panel .compact-chat-round').first();
    await round.waitFor();
    expect(await page.locator(CHAT).isVisible()).toBe(true);
    expect(await listHeight()).toBe(before);
    expect(before).toBeGreaterThan(400);
    const panelBox = await page.locator('.mod-root .compact-chat-panel').boundingBox();
    expect(panelBox?.height).toBeGreaterThan(600);
    expect(await round.locator('.compact-chat-round-title').textContent()).toBe('Round 1');
    if ((await round.getAttribute('open')) === null) await round.locator('summary').first().click();
    expect(await round.locator('pre.compact-chat-block').textContent()).toContain('<previous_context');
    await shot(page, '08-panel');
    // The summary as it was sent, section by section; its first line is in the block.
    const summary = round.locator('.compact-chat-round-sections');
    const firstLine = (await summary.locator('.compact-chat-lines .compact-chat-line-text').first().textContent()) ?? 'missing';
    expect(await round.locator('pre.compact-chat-block').textContent()).toContain(firstLine);
    await summary.scrollIntoViewIfNeeded();
    await shot(page, '08b-panel-summary');

    const toggle = round.locator('.compact-chat-originals-toggle');
    const removed = Number(/\((\d+)\)/.exec((await toggle.textContent()) ?? '')?.[1] ?? 0);
    expect(removed).toBeGreaterThan(0);
    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    const originals = round.locator('.compact-chat-originals .compact-chat-original');
    await originals.first().waitFor();
    expect(await originals.count()).toBe(removed);
    expect(await originals.first().textContent()).toContain('Question 1');
    await originals.first().scrollIntoViewIfNeeded();
    await shot(page, '09-panel-originals');

    // The search box over the compacted messages: typed as a user types, results with the
    // matching words marked, and "Show in chat" brings the original into view in the chat.
    const search = page.locator('.compact-chat-panel input.compact-chat-history-search-input');
    await search.click();
    await search.pressSequentially('what to plant in bed 1');
    const hit = page.locator('.compact-chat-panel .compact-chat-history-search-result').first();
    await hit.waitFor();
    expect(await hit.locator('.compact-chat-history-search-who').textContent()).toBe('You');
    expect(await hit.locator('.compact-chat-history-search-snippet').textContent()).toContain('Question 1: what should we plant in bed 1?');
    expect(await hit.locator('mark').allTextContents()).toEqual(expect.arrayContaining(['plant', 'bed', '1']));
    await shot(page, '09c-panel-search');
    await hit.locator('button.compact-chat-history-search-open').click();
    const first = messages(page).first();
    await page.waitForFunction((chat) => document.querySelector(`${chat} .compact-chat-message.is-highlighted`)?.textContent?.includes('Question 1:') === true, CHAT);
    expect(await first.isVisible()).toBe(true);
  });

  it('types a [[ mention and picks a note from the suggestions', async () => {
    const page = await open();
    const input = page.locator(`${CHAT} textarea.compact-chat-input`);
    await input.click();
    await input.pressSequentially('What does [[garden red');
    const item = page.locator('.suggestion-container .suggestion-item').first();
    await item.waitFor();
    expect(await item.textContent()).toContain('Garden redesign');
    // Under the caret (or just above it when the window has no room below), as Obsidian's own
    // suggestions: its left edge where the caret is, one of its edges on the caret's line.
    const caret = await input.evaluate((area: HTMLTextAreaElement) => {
      const style = getComputedStyle(area);
      // The page runs the obsidian runtime, so Obsidian's DOM helpers exist there.
      const mirror = document.body.createDiv();
      const props: Record<string, string> = { position: 'absolute', 'white-space': 'pre-wrap' };
      for (const p of ['box-sizing', 'width', 'padding-top', 'padding-left', 'padding-right', 'border-top-width', 'border-left-width', 'border-right-width', 'border-style', 'font-family', 'font-size', 'line-height', 'letter-spacing']) {
        props[p] = style.getPropertyValue(p);
      }
      mirror.setCssProps(props);
      mirror.setText(area.value);
      const marker = mirror.createSpan({ text: '|' });
      const box = area.getBoundingClientRect();
      const at = { x: box.left + marker.offsetLeft, top: box.top + marker.offsetTop, bottom: box.top + marker.offsetTop + marker.offsetHeight };
      mirror.remove();
      return at;
    });
    const popover = await page.locator('.suggestion-container').boundingBox();
    if (!popover) throw new Error('no popover');
    // At the caret, or shifted left just enough to stay in the window.
    const viewportWidth = page.viewportSize()?.width ?? 0;
    const atCaret = Math.abs(popover.x - caret.x) < 24;
    const shifted = popover.x < caret.x && Math.abs(popover.x + popover.width - viewportWidth) < 16;
    expect(atCaret || shifted).toBe(true);
    expect(popover.x + popover.width).toBeLessThanOrEqual(viewportWidth);
    const under = Math.abs(popover.y - caret.bottom) < 8;
    const over = Math.abs(popover.y + popover.height - caret.top) < 8;
    expect(under || over).toBe(true);
    const look = await page.locator('.suggestion-container').evaluate((el) => ({ background: getComputedStyle(el).backgroundColor, shadow: getComputedStyle(el).boxShadow }));
    expect(look.background).not.toBe('rgba(0, 0, 0, 0)');
    expect(look.shadow).not.toBe('none');
    await shot(page, '09b-mention-picker');
    await item.click();
    expect(await input.inputValue()).toBe('What does [[Garden redesign]]');
    await input.pressSequentially(' say?');
    suite.e2e().harness.script('POST', '/api/chat', ollamaReply('It says raised beds first.'));
    await input.press('Enter');
    await idle(page);
    const system = suite.e2e().harness.chatBodies().at(-1)?.messages.find((m) => m.role === 'system')?.content ?? '';
    expect(system).toContain('<note path="Projects/Garden redesign.md">');
    expect(await messages(page).first().locator('.compact-chat-mentions a.internal-link').getAttribute('data-href')).toBe('Projects/Garden redesign.md');
  });

  it('at phone width the panel is a tab beside the chat: each keeps the full height', async () => {
    const page = await open('', { width: 360, height: 740 });
    await page.waitForFunction(() => document.body.classList.contains('is-phone'));
    await compactByConversation(page);
    const list = page.locator(`${CHAT} .compact-chat-messages`);
    const before = (await list.boundingBox())?.height ?? 0;
    expect(before).toBeGreaterThan(400);
    await page.locator(`${CHAT} .compact-chat-toolbar [aria-label="Open compaction panel"]`).click();
    const panel = page.locator('.mod-right-split .compact-chat-panel');
    await panel.locator('.compact-chat-round').first().waitFor();
    const panelBox = await panel.boundingBox();
    expect(panelBox?.width).toBe(360);
    expect(panelBox?.height).toBeGreaterThan(550);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(overflow).toBeLessThanOrEqual(360);
    await shot(page, '13-panel-phone');
    // "Show in chat" from a summary line brings the chat back at full height (less the drawer's
    // row of tab headers, now that it holds two tabs).
    await panel.locator('.compact-chat-jump').first().click();
    await page.waitForSelector(`${CHAT} .compact-chat-message.is-highlighted`);
    const after = (await list.boundingBox())?.height ?? 0;
    expect(after).toBeGreaterThan(400);
    expect(after).toBeGreaterThanOrEqual(before - 40);
    expect(await panel.isVisible()).toBe(false);
    // The drawer's tab headers switch between the two, as in Obsidian.
    expect(await page.locator('.mod-right-split .workspace-tab-header').count()).toBe(2);
    await shot(page, '14-panel-phone-chat');
  });

  it('greets a new conversation: the model, what compaction does, prompts about the open note, a model picker', async () => {
    const page = await open();
    const empty = page.locator(`${CHAT} .compact-chat-empty`);
    await page.waitForFunction((chat) => document.querySelector(`${chat} .compact-chat-empty-model`)?.textContent?.startsWith('Connected to'), CHAT);
    expect(await empty.locator('.compact-chat-empty-model').textContent()).toContain(HARNESS_MODEL);
    expect(await empty.locator('.compact-chat-empty-compaction').textContent()).toMatch(/summarised on this device, with no extra model call/);
    const prompts = empty.locator('.compact-chat-example');
    expect(await prompts.count()).toBe(3);
    expect(await prompts.first().textContent()).toContain('[[Welcome]]');
    // The header's picker holds the server's list with the model in use selected.
    const picker = page.locator(`${CHAT} select.compact-chat-model`);
    expect(await picker.inputValue()).toBe(HARNESS_MODEL);
    expect(await picker.locator('option').allTextContents()).toEqual([HARNESS_MODEL]);
    await shot(page, '00-empty-state');
    // Refresh asks the server again.
    const listed = suite.e2e().harness.requests('/api/tags').length;
    await page.locator(`${CHAT} [aria-label="Refresh the model list"]`).click();
    await expect.poll(() => suite.e2e().harness.requests('/api/tags').length).toBe(listed + 1);
    // A prompt fills the composer, to edit or send.
    const text = (await prompts.nth(1).textContent()) ?? '';
    await prompts.nth(1).click();
    expect(await page.locator(`${CHAT} textarea.compact-chat-input`).inputValue()).toBe(text);
    await send(page, text);
    await idle(page);
    expect(await empty.isVisible()).toBe(false);
  });

  it('at phone width the header, the empty state and the composer fit', async () => {
    const page = await open('', { width: 360, height: 740 });
    await page.waitForFunction(() => document.body.classList.contains('is-phone'));
    await page.locator(`${CHAT} .compact-chat-empty .compact-chat-example`).first().waitFor();
    const toolbar = await page.locator(`${CHAT} .compact-chat-toolbar`).boundingBox();
    expect(toolbar?.height).toBeLessThan(60);
    const picker = await page.locator(`${CHAT} select.compact-chat-model`).boundingBox();
    expect((picker?.x ?? 0) + (picker?.width ?? 0)).toBeLessThanOrEqual(360);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await shot(page, '00b-empty-state-phone');
  });

  it('shows the settings in sections with a roomy system prompt', async () => {
    const page = await open();
    await page.locator('.harness-settings').click();
    const tab = page.locator('.compact-chat-settings');
    await tab.waitFor();
    expect(await tab.locator('.setting-item-heading .setting-item-name').allTextContents()).toEqual(['Provider and model', 'Compaction', 'Context from notes', 'Tools', 'Storage']);
    const prompt = tab.locator('textarea.compact-chat-system-prompt');
    const box = await prompt.boundingBox();
    expect(box?.height).toBeGreaterThanOrEqual(150);
    expect(box?.width).toBeGreaterThan(400);
    await shot(page, '15-settings');
    await tab.locator('.setting-item-heading').nth(2).scrollIntoViewIfNeeded();
    await shot(page, '15b-settings-sections');
  });

  it('switches between the light and the dark theme', async () => {
    const page = await open();
    suite.e2e().harness.script('POST', '/api/chat', ollamaReply(PLAN_REPLY));
    await send(page, 'Where is the garden plan?');
    await idle(page);
    const colours = () =>
      page.evaluate((chat) => {
        const view = document.querySelector(chat);
        const send = document.querySelector(`${chat} .compact-chat-send`);
        if (!view || !send) return null;
        return { background: getComputedStyle(view).backgroundColor, text: getComputedStyle(view).color, accent: getComputedStyle(send).backgroundColor };
      }, CHAT);

    expect(await page.getAttribute('body', 'class')).toContain('theme-light');
    expect(await colours()).toEqual({ background: 'rgb(255, 255, 255)', text: 'rgb(34, 34, 34)', accent: 'rgb(138, 92, 245)' });
    await shot(page, '10-theme-light');

    expect(await page.locator('.harness-theme-toggle').textContent()).toBe('Dark theme');
    await page.locator('.harness-theme-toggle').click();
    expect(await page.locator('.harness-theme-toggle').textContent()).toBe('Light theme');
    const bodyClass = await page.getAttribute('body', 'class');
    expect(bodyClass).toContain('theme-dark');
    expect(bodyClass).not.toContain('theme-light');
    expect(await page.evaluate(() => window.harness?.app.isDarkMode())).toBe(true);
    expect(await colours()).toEqual({ background: 'rgb(30, 30, 30)', text: 'rgb(218, 218, 218)', accent: 'rgb(127, 109, 242)' });
    await shot(page, '11-theme-dark');
  });

  it('fits a phone-width viewport: the chat fills the screen, nothing overflows sideways', async () => {
    const page = await open('?theme=dark');
    suite.e2e().harness.script('POST', '/api/chat', ollamaReply(`${PLAN_REPLY}\n\nA long path: Projects/Garden redesign/Attachments/very-long-file-name-without-any-spaces-at-all.png`));
    await send(page, 'Where is the garden plan?');
    await idle(page);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForFunction(() => document.body.classList.contains('is-phone'));

    const view = await page.locator(CHAT).boundingBox();
    expect(view?.x).toBe(0);
    expect(view?.width).toBe(390);
    const composer = await page.locator(`${CHAT} .compact-chat-composer`).boundingBox();
    expect((composer?.y ?? 0) + (composer?.height ?? 0)).toBeLessThanOrEqual(844);
    const sendButton = await page.locator(`${CHAT} .compact-chat-send`).boundingBox();
    expect((sendButton?.x ?? 0) + (sendButton?.width ?? 0)).toBeLessThanOrEqual(390);
    const overflow = await page.evaluate((chat) => {
      const list = document.querySelector(`${chat} .compact-chat-messages`);
      return { page: document.documentElement.scrollWidth, list: list ? list.scrollWidth - list.clientWidth : -1 };
    }, CHAT);
    expect(overflow.page).toBeLessThanOrEqual(390);
    expect(overflow.list).toBe(0);
    await shot(page, '12-phone');
  });
});
