// Launching Debian's Chromium with playwright-core (the machine has no Playwright-downloaded
// browsers): /usr/bin/chromium, headless, with the flags this closed network needs. Playwright
// gives every launch a fresh temporary --user-data-dir and removes it on close.
import { existsSync } from 'node:fs';
import { type Browser, type Page, chromium } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium; .ci/run does this), or set CHROMIUM_PATH.`);
  }
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
}

/** Opens the harness page and waits until the plugin is loaded (or the page reports an error). */
export async function openHarness(browser: Browser, url: string, viewport = { width: 1280, height: 800 }): Promise<Page> {
  const page = await browser.newPage({ viewport });
  // tsx compiles with esbuild's keepNames, which wraps named functions in `__name(...)`; functions
  // passed to page.evaluate carry that call into the page, so the page gets a no-op `__name`.
  await page.addInitScript('globalThis.__name = (fn) => fn;');
  await page.goto(url);
  await page.waitForSelector('body[data-harness="ready"], body[data-harness="error"]', { timeout: 15_000 });
  const state = await page.getAttribute('body', 'data-harness');
  if (state !== 'ready') {
    const text = await page.textContent('.harness-error');
    throw new Error(`The harness page failed: ${text ?? '(no message)'}`);
  }
  return page;
}
