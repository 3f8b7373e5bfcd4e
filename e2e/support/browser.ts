import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { type Browser, chromium, type Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * The Chromium the browser suite drives: Debian's `chromium` package (`apt-get install chromium`), or `CHROMIUM_PATH`.
 * Playwright's own browser downloads are not used.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** Where screenshots are saved (a CI artefact): `reports/dashboard/` at the repository root. */
export const SCREENSHOT_DIR = new URL('../../reports/dashboard/', import.meta.url).pathname;

/**
 * Starts headless Chromium with a fresh profile (Playwright makes and removes it) and without its background network traffic (update checks, sync,
 * QUIC probes), which a machine without the internet would refuse or stall on.
 * @throws Error naming the install command when Chromium is not at {@link CHROMIUM_PATH}
 */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`no Chromium at ${CHROMIUM_PATH}: install Debian's package (apt-get install chromium) or set CHROMIUM_PATH`);
  }
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Saves a full-page screenshot of `page` as `reports/dashboard/<name>.png`. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

/**
 * Runs axe-core (WCAG 2.0, 2.1 and 2.2, levels A and AA) on the page as it is and fails the test on any serious or
 * critical violation, listing each with the elements it found.
 */
export async function expectNoSeriousA11yViolations(page: Page, view: string): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze();
  const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  const described = serious.map(
    (violation) =>
      `${violation.id} (${violation.impact}): ${violation.help}\n  ${violation.nodes.map((node) => node.target.join(' ')).join('\n  ')}`,
  );
  expect(described, `accessibility violations on the ${view} view`).toEqual([]);
}
