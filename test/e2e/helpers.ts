// Shared set-up for the e2e suite: one harness server and one Chromium for the file, a fresh page
// (a fresh app and plugin) per test, screenshots under test-artifacts/e2e/, and a check that the
// page saw no uncaught error.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
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

/** A suite's set-up, registered as its hooks: one harness and browser for the file; `open` gives a
 * fresh page, closed after its test, which fails if the page saw an uncaught error. `e2e()` is the
 * running harness (to script replies and read what was sent). */
export function e2eSuite(): { e2e: () => E2e; open: (query?: string, viewport?: { width: number; height: number }) => Promise<Page> } {
  let e2e: E2e | undefined;
  let current: TestPage | null = null;
  beforeAll(async () => {
    e2e = await startE2e();
  });
  afterAll(async () => {
    await stopE2e(e2e);
  });
  afterEach(async () => {
    if (!current) return;
    const errors = await current.errors();
    await current.page.close();
    current = null;
    expect(errors, 'uncaught errors in the page').toEqual([]);
  });
  const running = (): E2e => {
    if (!e2e) throw new Error('The e2e harness is not running (use it inside a test).');
    return e2e;
  };
  return {
    e2e: running,
    open: async (query = '', viewport) => {
      current = await newPage(running(), query, viewport);
      return current.page;
    },
  };
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
