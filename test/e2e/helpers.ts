// Shared set-up for the e2e suite: one harness server and one Chromium for the file, a fresh page
// (a fresh app and plugin) per test, screenshots under test-artifacts/e2e/, and a check that the
// page saw no uncaught error.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, openHarness } from '../../harness/browser';
import { type Harness, startHarness } from '../../harness/server';

export const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'e2e');

export interface E2e {
  harness: Harness;
  browser: Browser;
}

export async function startE2e(): Promise<E2e> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const harness = await startHarness();
  try {
    return { harness, browser: await launchChromium() };
  } catch (error) {
    await harness.close();
    throw error;
  }
}

export async function stopE2e(e2e: E2e | undefined): Promise<void> {
  await e2e?.browser.close();
  await e2e?.harness.close();
}

export interface TestPage {
  page: Page;
  /** Uncaught errors in the page, from Chromium and from the harness's own listeners. */
  errors(): Promise<string[]>;
}

export async function newPage(e2e: E2e, query = '', viewport = { width: 1280, height: 800 }): Promise<TestPage> {
  const page = await openHarness(e2e.browser, `${e2e.harness.url}${query}`, viewport);
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.stack ?? error.message));
  return {
    page,
    errors: async () => [...pageErrors, ...(await page.evaluate(() => window.harness?.errors ?? []))],
  };
}

export async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`) });
}

export const CHAT = '.mod-right-split .compact-chat-view';

/** Types into the composer and presses Enter, as a user does. */
export async function send(page: Page, text: string): Promise<void> {
  const input = page.locator(`${CHAT} textarea.compact-chat-input`);
  await input.click();
  await input.fill(text);
  await input.press('Enter');
}

/** Waits until no reply is streaming and the button says Send again. */
export async function idle(page: Page): Promise<void> {
  await page.waitForFunction(
    (chat) => window.harness?.plugin.session.busy === false && document.querySelector(`${chat} .compact-chat-send`)?.textContent === 'Send',
    CHAT,
  );
}
