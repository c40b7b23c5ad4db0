// The threads of a compaction, in Chromium with the built plugin: a saved conversation note of four
// subjects on four days (a garden, a drip kit, a pannier bag asked about and never answered, bread)
// is written into the vault and opened; "Compact now" in the panel; the chat's notice names the
// threads carried in one line, and the summary panel lists each as a collapsible item with its
// head, days and state, which opens and closes. Screenshots (test-artifacts/e2e/): the notice
// (threads-notice), the panel's threads closed and opened (threads-panel, threads-panel-expanded),
// and at phone width in the dark theme (threads-panel-phone-dark, threads-panel-phone-dark-expanded,
// threads-notice-phone-dark).
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { serializeConversation } from '../../src/chat/conversation-format';
import type { SavedItem } from '../../src/chat/conversation-types';
import { CHAT, e2eSuite, shot } from './helpers';

const suite = e2eSuite();

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 10, 2, 9, 0);
const GARDEN = 'Can you help me plan the vegetable garden behind the shed?';
const DRIP = 'Which drip irrigation kit should I buy for the twenty balcony pots?';
const PANNIER = 'Which waterproof pannier bag should I buy for the daily commute?';

/** [day, minute, what the user wrote, the reply ('' when none came)]. */
const TURNS: [number, number, string, string][] = [
  [0, 0, `${GARDEN} The raised beds are 120 cm wide and the soil is heavy clay.`, 'Mix compost into the clay soil of the raised beds before planting, about a bucket per square metre. Put the tomatoes in the sunniest bed and the lettuce in the shaded one, since lettuce bolts in full summer sun. Keep the paths between the beds at least 60 cm wide so the wheelbarrow fits.'],
  [0, 5, 'We decided to put the greenhouse on the south side, next to the shed. The budget for the whole garden is 900 euros.', 'The greenhouse on the south side gets the most light in winter, so the seedlings can start in March. With 900 euros, the greenhouse frame takes about 400, the raised beds 250, and compost and seeds the rest. Buy the compost in bulk from the municipal depot; it is cheaper than bags.'],
  [0, 10, 'Which tomato varieties grow well in a cool, windy garden like ours?', "Choose early, compact varieties: Stupice ripens in 60 days and tolerates cold nights, Sungold gives sweet cherry tomatoes even in a poor summer, and Gardener's Delight is a reliable cordon for the greenhouse. Stake them firmly against the wind and pinch out the side shoots every week."],
  [3, 0, `${DRIP} I am away for two weeks in July.`, 'The Gardena micro drip starter kit waters twenty pots and runs from a tap timer. It costs about 60 euros and includes ten metres of supply hose, twenty drippers and the connectors. Add the Gardena Flex tap timer for 45 euros so the pots are watered at six every morning while you are away.'],
  [3, 4, 'The balcony tap is on the left wall, four metres from the pots. The pots are terracotta and dry out quickly.', 'A four metre supply hose from the tap reaches the pots, and the kit has enough hose left for a loop along the railing. Terracotta loses water through its walls, so set each dripper to four litres an hour and run it twice a day in a heat wave. Test it for three days before you leave.'],
  [3, 9, 'Do I need a pressure regulator between the tap and the drip line?', 'Yes: the Gardena kit expects about 1.5 bar and a balcony tap often gives four or more, which pops the drippers off the hose. The kit includes a pressure reducer in the tap connector, so fit that piece first and then the timer. Flush the hose once before you fit the drippers so no grit blocks them.'],
  [4, 0, `${PANNIER} My rack is rated for 25 kg and I ride 15 km each way, often in the rain.`, ''],
  [4, 3, 'The bag has to fit a laptop of 36 cm and clip onto a Tubus rack without tools.', ''],
  [6, 0, 'My sourdough bread came out flat again. What am I doing wrong with the starter?', 'Feed the starter twice a day and keep it at 25 degrees. Bake when it has doubled in four to six hours after a feeding; a starter that takes longer is not ready yet. A flat loaf usually means the starter was past its peak or the dough was underproofed before the cold proof.'],
  [6, 3, 'I bake with 70 percent hydration and a 12 hour cold proof in the fridge. The dough spreads when I turn it out.', 'At 70 percent hydration, shape with more tension before the cold proof: stretch the dough over the counter until the surface is tight. Do three sets of stretch and folds in the first two hours of bulk fermentation. Score it straight from the fridge and bake it in a preheated Dutch oven at 250 degrees.'],
  [6, 8, 'Should I switch to rye flour for the starter?', 'Rye feeds the starter well because it carries more nutrients and wild yeast. Use one part rye to four parts white flour for a week and watch whether it doubles faster. Keep the same feeding ratio of one part starter to five of flour and five of water.'],
  [8, 0, 'Can you write a packing list for the cycling trip to Utrecht next weekend?', 'Pack a rain jacket, a spare inner tube, a pump, front and rear lights, a lock, and two water bottles. Take a power bank for the phone and a paper map of the route along the Vecht.'],
];

/** The conversation as the plugin saves it (its own serializer, so the note is one it could have
 * written), a minute between a request and its reply. */
function note(): string {
  const items: SavedItem[] = [];
  let seq = 0;
  for (const [day, minute, user, reply] of TURNS) {
    const at = T0 + day * DAY + minute * 60_000;
    items.push({ kind: 'message', message: { id: `m${++seq}`, createdAt: at, role: 'user', content: user } });
    if (reply) items.push({ kind: 'message', message: { id: `m${++seq}`, createdAt: at + 60_000, role: 'assistant', content: reply }, model: 'harness-demo' });
  }
  const last = items.at(-1);
  const updated = last?.kind === 'message' ? last.message.createdAt : T0;
  return serializeConversation({ id: 'e2e-threads', title: 'Garden, balcony, bike and bread', model: 'harness-demo', created: T0, updated, items });
}

const PATH = 'Compact Chat/Garden, balcony, bike and bread.md';

/** Writes the note into the vault and opens it in the chat, as the history list does. */
async function openNote(page: Page): Promise<void> {
  const opened = await page.evaluate(
    async ([path, text]) => {
      const h = window.harness;
      if (!h) return false;
      await h.configure({ keepExchanges: 1, keepTokens: 0, messageLimit: 0 });
      if (!h.app.vault.getAbstractFileByPath('Compact Chat')) await h.app.vault.createFolder('Compact Chat');
      await h.app.vault.create(path, text);
      return h.plugin.conversations.open(path);
    },
    [PATH, note()] as const,
  );
  expect(opened).toBe(true);
  await page.locator(`${CHAT} .compact-chat-message`).filter({ hasText: 'packing list for the cycling trip' }).waitFor();
}

async function compactFromPanel(page: Page): Promise<void> {
  await page.locator(`${CHAT} .compact-chat-toolbar [aria-label="Open compaction panel"]`).click();
  await page.locator('.compact-chat-panel button.compact-chat-compact-now').click();
  await page.locator('.compact-chat-panel .compact-chat-round').first().waitFor();
}

describe('threads carried by a compaction', () => {
  it('the notice names the threads in one line; the panel lists them, collapsible, with their state', async () => {
    const page = await suite.open();
    await openNote(page);
    await compactFromPanel(page);

    // The notice in the chat: one line naming the threads carried, oldest first, with their state.
    const notice = page.locator(`${CHAT} .compact-chat-notice.mod-compaction`).last();
    const line = notice.locator('.compact-chat-notice-threads');
    await line.waitFor();
    const text = (await line.textContent()) ?? '';
    expect(text).toMatch(/^Carried 4 threads: /);
    expect(text).toContain('Can you help me plan the vegetable… (answered)');
    expect(text).toContain('Which waterproof pannier bag should I… (open)');
    expect(text).toMatch(/and 1 more\.$/);
    expect(text.indexOf('vegetable')).toBeLessThan(text.indexOf('drip'));
    expect(text.indexOf('drip')).toBeLessThan(text.indexOf('pannier'));
    // One line of text (it wraps in a narrow sidebar, but is one sentence, not a list).
    expect(await notice.locator('.compact-chat-notice-threads').count()).toBe(1);
    expect(text).not.toContain('\n');
    await line.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await shot(page, 'threads-notice');

    // The summary panel: one collapsible item per thread, its head, days and state.
    const panel = page.locator('.compact-chat-panel');
    const round = panel.locator('.compact-chat-round').first();
    if ((await round.getAttribute('open')) === null) await round.locator('summary').first().click();
    expect(await round.locator('.compact-chat-round-sections h5').allTextContents()).toContain('Key facts by thread');
    const threads = round.locator('details.compact-chat-thread');
    expect(await threads.count()).toBe(4);
    const heads = await threads.locator('.compact-chat-thread-head').allTextContents();
    expect(heads.slice(0, 3)).toEqual([GARDEN, DRIP, PANNIER]);
    const metas = await threads.locator('.compact-chat-thread-meta').allTextContents();
    expect(metas[0]).toContain('2 November 2026');
    expect(metas[0]).toContain('Answered');
    expect(metas[1]).toContain('5 November 2026');
    expect(metas[2]).toContain('Open');
    expect(await threads.nth(2).evaluate((el) => el.classList.contains('mod-open'))).toBe(true);

    await threads.first().evaluate((el) => el.closest('.compact-chat-round-section')?.scrollIntoView({ block: 'start' }));
    await shot(page, 'threads-panel');

    // Collapsed at first; a click on the head opens it and shows that thread's facts, another closes it.
    const drip = threads.nth(1);
    const dripFacts = drip.locator('.compact-chat-thread-body .compact-chat-line-text');
    expect(await drip.evaluate((el) => (el as HTMLDetailsElement).open)).toBe(false);
    expect(await dripFacts.first().isVisible()).toBe(false);
    await drip.locator('summary.compact-chat-thread-summary').click();
    expect(await drip.evaluate((el) => (el as HTMLDetailsElement).open)).toBe(true);
    await dripFacts.first().waitFor({ state: 'visible' });
    expect((await dripFacts.allTextContents()).join(' ')).toMatch(/terracotta|Gardena|pressure/i);
    expect((await dripFacts.allTextContents()).join(' ')).not.toMatch(/sourdough|greenhouse/i);
    // In the order they were said (message ids count up), as the block has them under the head.
    const said = (await drip.locator('.compact-chat-thread-body > ul.compact-chat-lines .compact-chat-jump').evaluateAll((els) => els.map((el) => el.getAttribute('data-source') ?? ''))).map((id) => Number(id.slice(1)));
    expect(said.length).toBeGreaterThan(1);
    expect(said).toEqual([...said].sort((a, b) => a - b));
    await drip.locator('summary.compact-chat-thread-summary').click();
    expect(await drip.evaluate((el) => (el as HTMLDetailsElement).open)).toBe(false);
    expect(await dripFacts.first().isVisible()).toBe(false);

    // Every thread open, for the screenshot.
    for (let i = 0; i < 4; i++) await threads.nth(i).locator('summary.compact-chat-thread-summary').click();
    await threads.first().evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await shot(page, 'threads-panel-expanded');
  });

  it('at phone width and in the dark theme the thread heads stay readable', async () => {
    const page = await suite.open('?theme=dark', { width: 390, height: 844 });
    await openNote(page);
    await compactFromPanel(page);
    const round = page.locator('.compact-chat-panel .compact-chat-round').first();
    if ((await round.getAttribute('open')) === null) await round.locator('summary').first().click();
    const threads = round.locator('details.compact-chat-thread');
    expect(await threads.count()).toBe(4);
    await threads.first().evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await shot(page, 'threads-panel-phone-dark');
    for (let i = 0; i < 4; i++) await threads.nth(i).locator('summary.compact-chat-thread-summary').click();
    // A line's jump and edit actions wrap together: never an icon alone on a line.
    const split = await round.evaluate((el) =>
      [...el.querySelectorAll('.compact-chat-thread .compact-chat-line-tools')].filter((t) => new Set([...t.querySelectorAll('button')].map((b) => Math.round(b.getBoundingClientRect().top))).size > 1).length,
    );
    expect(split).toBe(0);
    // Nothing wider than the panel: heads wrap instead of running off the screen.
    const overflow = await round.evaluate((el) => {
      const limit = el.getBoundingClientRect().right + 1;
      return [...el.querySelectorAll('.compact-chat-thread-summary, .compact-chat-thread-head, .compact-chat-line-text')]
        .filter((x) => x.getBoundingClientRect().right > limit)
        .map((x) => x.textContent);
    });
    expect(overflow).toEqual([]);
    await threads.nth(2).evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await shot(page, 'threads-panel-phone-dark-expanded');

    // Back to the chat (the drawer's first tab): the notice's thread line wraps within the screen.
    await page.locator('.mod-right-split .workspace-tab-header').first().click();
    const line = page.locator(`${CHAT} .compact-chat-notice.mod-compaction .compact-chat-notice-threads`).last();
    await line.waitFor();
    expect(await line.textContent()).toMatch(/^Carried 4 threads: .* and 1 more\.$/);
    // (Shown again, the list puts back the place it was left at a moment later: scroll to the line
    // until it stays on screen.)
    const onScreen = async (): Promise<boolean> => {
      await line.evaluate((el) => el.scrollIntoView({ block: 'center' }));
      await page.waitForTimeout(150);
      return line.evaluate((el) => el.getBoundingClientRect().top >= 0 && el.getBoundingClientRect().bottom <= window.innerHeight);
    };
    for (let tries = 0; tries < 10 && !(await onScreen()); tries++);
    expect(await line.isVisible()).toBe(true);
    const edge = await line.evaluate((el) => el.getBoundingClientRect().right);
    expect(edge).toBeLessThanOrEqual(390);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot(page, 'threads-notice-phone-dark');
  });
});
