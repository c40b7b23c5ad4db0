// The user decides what is carried, in Chromium with the built plugin: a message pinned from its
// actions, a compaction from the panel, one carried line rewritten inline and another removed; the
// next request sends the pinned message word for word and the edited block. Screenshots of the
// pinned message and of the panel with the edited line go to test-artifacts/e2e/.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ollamaReply } from '../../harness/replies';
import { CHAT, e2eSuite, idle, send, shot } from './helpers';

const suite = e2eSuite();
const open = suite.open;

const TURNS: [string, string][] = [
  ['Help me plan the garden renovation. The budget is 3,500 euros. Never suggest removing the old apple tree.', 'Happy to help. The soil pH is 6.2, which suits vegetables and most herbs.'],
  ['We decided to put the greenhouse on the south side, next to the shed.', 'The greenhouse on the south side gets the most light in winter.'],
  ['I ordered 40 lavender plants from Hortus Nursery for the border. They arrive on Friday, and the border is twelve metres long.', 'Lavender needs full sun and well-drained soil, so the border works. Plant them 30 centimetres apart and water them twice in the first week.'],
  ['The pond pump should run at night only. We must keep the path to the shed clear for the wheelbarrow.', 'Running the pump at night keeps it quiet during the day. I will keep the path clear in every plan.'],
  ['Can you draft the planting schedule for April?', 'Here is a first draft: peas in week 1, lettuce in week 2, beans in week 3.'],
];

async function say(page: Page, text: string, reply: string): Promise<void> {
  suite.e2e().harness.script('POST', '/api/chat', ollamaReply(reply));
  await send(page, text);
  await idle(page);
}

describe('what is carried, decided by the user', () => {
  it('pins a message, edits and removes carried lines in the panel; the next request carries them', async () => {
    const page = await open();
    await page.evaluate(() => window.harness?.configure({ keepExchanges: 1, keepTokens: 0, messageLimit: 0 }));
    for (const [text, reply] of TURNS) await say(page, text, reply);

    const first = page.locator(`${CHAT} .compact-chat-message`).first();
    await first.hover();
    await first.locator('[data-action="pin"]').click();
    await page.locator(`${CHAT} .compact-chat-message.is-pinned`).first().waitFor();
    expect(await first.locator('.compact-chat-pinned-mark').textContent()).toContain('Pinned');
    await first.scrollIntoViewIfNeeded();
    await shot(page, '10-pinned-message');

    await page.locator(`${CHAT} .compact-chat-toolbar [aria-label="Open compaction panel"]`).click();
    const panel = page.locator('.compact-chat-panel');
    await panel.locator('button.compact-chat-compact-now').click();
    const round = panel.locator('.compact-chat-round').first();
    await round.waitFor();
    if ((await round.getAttribute('open')) === null) await round.locator('summary').first().click();

    // Rewrite the first line sent inline (Enter saves).
    const sent = round.locator('.compact-chat-round-sections > ul.compact-chat-lines > li.compact-chat-line');
    const constraint = sent.first();
    const original = (await constraint.locator('.compact-chat-line-text').textContent()) ?? '';
    await constraint.locator('[data-action="line-edit"]').click();
    const box = constraint.locator('textarea.compact-chat-line-edit-input');
    await box.fill('The old apple tree stays where it is.');
    await box.press('Enter');
    await round.locator('li.compact-chat-line.is-edited').first().waitFor();

    // Remove the first key fact sent.
    const fact = round.locator('.compact-chat-round-sections > ul.compact-chat-lines > li.compact-chat-line[data-section="facts"]:not(.is-edited)').first();
    const factText = (await fact.locator('.compact-chat-line-text').textContent()) ?? '';
    await fact.locator('[data-action="line-remove"]').click();
    await round.locator('details.compact-chat-removed-lines').waitFor();
    await round.locator('details.compact-chat-removed-lines summary').click();
    await round.locator('li.compact-chat-line.is-edited').first().evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await shot(page, '11-panel-edited-line');

    await say(page, 'What comes next?', 'Next, we prepare the beds.');
    const body = suite.e2e().harness.chatBodies().at(-1);
    const system = body?.messages.find((m) => m.role === 'system')?.content ?? '';
    expect(system).toContain('The old apple tree stays where it is.');
    expect(system).not.toContain(original);
    expect(system).not.toContain(factText);
    expect(body?.messages.filter((m) => m.role !== 'system')[0]?.content).toBe(TURNS[0]?.[0]);
  });
});
