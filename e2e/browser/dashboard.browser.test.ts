import { DEMO_TOKEN_ALICE as ALICE } from '@switchyard/github-emulator';
import { ProcessStack } from '@switchyard/service-kit/testing';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from 'vitest';
import { expectNoSeriousA11yViolations, launchChromium, screenshot } from '../support/browser.ts';
import { LAUNCHER_READY_MS, type LauncherUrls, startLauncherWithEmulators } from '../support/launcher.ts';

/**
 * The dashboard (apps/dashboard) in headless Chromium, served by the gateway of the one-process launcher on its
 * embedded defaults and demo data: the flows a user walks, one after another on one page (each test starts where the
 * one before left off), with a screenshot of every view in `reports/dashboard/` and an axe-core check of each.
 */
describe('the dashboard in a real browser, on the launcher with its demo data', () => {
  const processes = new ProcessStack();
  let urls: LauncherUrls;
  let context: BrowserContext;
  let page: Page;
  /** Every address the page's main frame went to. */
  const visited: string[] = [];
  /** The console's errors (a Content-Security-Policy refusal shows there). */
  const consoleErrors: string[] = [];
  let configId = '';

  const ui = (path = '') => `${urls.gateway}/ui${path}`;
  /**
   * Waits until the page is at `url` after a form was sent; fails at once with the dashboard's error message when it
   * shows one instead (the API refused the request).
   */
  const arrivesAt = async (url: RegExp, timeout = 30_000) => {
    const refused = page
      .locator('.error[role="alert"]')
      .first()
      .waitFor({ timeout })
      .then(async () => `the dashboard showed an error instead: ${await page.locator('.error[role="alert"]').first().textContent()}`);
    const arrived = page.waitForURL(url, { timeout }).then(() => undefined);
    const outcome = await Promise.race([arrived, refused.catch(() => undefined)]);
    expect(outcome).toBeUndefined();
  };
  /** The first element with `role` and accessible `name`, once it is there. */
  const role = (kind: Parameters<Page['getByRole']>[0], name: string | RegExp) => page.getByRole(kind, { name }).first();

  beforeAll(async () => {
    urls = await startLauncherWithEmulators(processes, { SCHEDULER_INTERVAL_MS: '1000' });
    const browser = await launchChromium();
    processes.defer(() => browser.close());
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(30_000);
    page = await context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) visited.push(frame.url());
    });
  }, LAUNCHER_READY_MS + 60_000);
  afterAll(() => processes.disposeAsync(), 60_000);
  // A failed flow leaves a picture of where it stopped.
  beforeEach((test) => {
    onTestFailed(() => screenshot(page, `failed-${test.task.name.slice(0, 40).replace(/\W+/g, '-')}`));
  });

  it('is served by the gateway with a strict Content-Security-Policy and year-long caching of its hashed files', async () => {
    const response = await fetch(ui('/'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    const html = await response.text();
    expect(html, 'no inline script').not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    const script = html.match(/<script[^>]*src="([^"]+)"/)?.[1];
    expect(script).toMatch(/^\/ui\/assets\/.+-[\w-]{8}\.js$/);
    const asset = await fetch(`${urls.gateway}${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toContain('immutable');
  });

  it("refuses a bad token with the API's own message, and keeps nothing", async () => {
    const refusal = await fetch(`${urls.gateway}/accounts`, { headers: { authorization: 'Personal not-a-real-token' } });
    const said = ((await refusal.json()) as { errors: { title: string; detail?: string }[] }).errors[0];
    expect(refusal.status).toBeGreaterThanOrEqual(400);

    await page.goto(ui('/'));
    await page.waitForURL(ui('/login'));
    await page.getByLabel('Token').fill('not-a-real-token');
    await role('button', 'Log in').click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain(said?.detail ?? said?.title);
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    await screenshot(page, '01-login-refused');
    await expectNoSeriousA11yViolations(page, 'login');
  });

  it('logs in with the demo token and lists its accounts with their settings', async () => {
    await page.getByLabel('Token').fill(ALICE);
    await role('button', 'Log in').click();
    await page.waitForURL(ui('/accounts'));
    for (const login of ['alice', 'acme', 'globex']) await role('heading', new RegExp(`^${login} `)).waitFor();
    await screenshot(page, '02-accounts');
    await expectNoSeriousA11yViolations(page, 'accounts');
  });

  it("changes an account's settings, showing the API's message under a refused field", async () => {
    const acme = page.getByRole('form', { name: 'Settings of acme' });
    await acme.getByLabel('Time zone').fill('Not/AZone');
    await acme.getByRole('button', { name: 'Save settings' }).click();
    await expect.poll(() => acme.locator('.field-error').first().textContent()).toContain('IANA time zone');
    expect(await acme.getByLabel('Time zone').getAttribute('aria-invalid')).toBe('true');
    await acme.getByLabel('Time zone').fill('Europe/Paris');
    await acme.getByRole('button', { name: 'Save settings' }).click();
    await acme.getByText('Saved.').waitFor();
  });

  it('finds an inactive repo by name and creates an update config, with the validation message of a bad one', async () => {
    await page.goto(ui('/accounts/2001/repos?state=inactive'));
    await role('heading', 'Repos of acme').waitFor();
    await page.getByLabel('Search inactive repos by name').fill('storefront');
    await role('button', 'Search').click();
    await page.waitForURL(/q=storefront/);
    await page.getByText('1 repo match “storefront”').waitFor();
    await screenshot(page, '03a-repos');
    await expectNoSeriousA11yViolations(page, 'repos');
    await role('link', 'web-storefront').click();
    await role('heading', 'web-storefront').waitFor();
    await screenshot(page, '03-repo');
    await expectNoSeriousA11yViolations(page, 'repo');

    const form = page.getByRole('form', { name: 'New update config' });
    await form.getByLabel('Directory').fill('/../etc');
    await form.getByRole('button', { name: 'Create config' }).click();
    await expect.poll(() => form.locator('.field-error').first().textContent()).toContain('must not contain . or .. segments');

    await form.getByLabel('Directory').fill('/');
    await form.getByLabel('Update schedule').selectOption('weekly');
    await form.getByRole('button', { name: 'Create config' }).click();
    const card = page.getByRole('article', { name: 'npm_and_yarn in /' });
    await card.waitFor();
    expect(await card.textContent()).toMatch(/Next run.*\d{4}/);
    configId = (await card.getAttribute('aria-labelledby'))?.replace('config-', '') ?? '';
    expect(configId).toMatch(/^\d+$/);
    await screenshot(page, '04-config-created');
    await expectNoSeriousA11yViolations(page, 'repo with a config');
  });

  it('runs "bump now" after a release is published, and shows the run progress to done with each decision', async () => {
    const published = await fetch(`${urls.registry}/admin/publish`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ packageManager: 'npm_and_yarn', name: 'lodash', version: '4.17.22' }),
    });
    expect(published.status, await published.text()).toBe(201);

    await page.getByRole('article', { name: 'npm_and_yarn in /' }).getByRole('button', { name: 'Bump now' }).click();
    await arrivesAt(/\/ui\/update-runs\/[\w-]+$/);
    await role('heading', 'Update run').waitFor();
    const progress = page.locator('#run-progress');
    await progress.waitFor();
    await page.getByText(/dependencies checked\.$/).waitFor({ timeout: 60_000 });
    expect(await page.locator('.facts .status').first().textContent()).toBe('done');
    const max = Number(await progress.getAttribute('max'));
    expect(Number(await progress.getAttribute('value'))).toBe(max);
    const lodash = page.getByRole('row', { name: /^lodash / });
    expect(await lodash.textContent()).toContain('job-recorded');
    expect(await lodash.textContent()).toContain('4.17.22');
    await screenshot(page, '05-update-run');
    await expectNoSeriousA11yViolations(page, 'update run');

    await role('link', 'All runs of this config').click();
    await role('heading', 'Update runs of npm_and_yarn in /').waitFor();
    await page.getByRole('row', { name: /manual done 6 of 6 5$/ }).waitFor();
    expect(await page.getByRole('row').count()).toBe(2);
    await screenshot(page, '05b-update-runs');
    await expectNoSeriousA11yViolations(page, 'update runs');
  });

  it("lists the run's pull-request job and follows the link to its pull request", async () => {
    await role('link', 'Pull-request jobs').click();
    await page.waitForURL(ui('/pull-request-jobs'));
    await page.getByLabel('Dependency name').fill('lodash');
    await role('button', 'Filter').click();
    await page.waitForURL(/dependency-name=lodash/);
    const link = page.getByRole('row', { name: /^lodash / }).getByRole('link', { name: /^#\d+$/ });
    await link.waitFor({ timeout: 60_000 });
    await screenshot(page, '06-pull-request-jobs');
    await expectNoSeriousA11yViolations(page, 'pull-request jobs');

    await page.getByLabel('Status').selectOption('open');
    await page.waitForURL(/status=open/);
    await link.waitFor();
    await link.click();
    await page.waitForURL(/\/acme\/web-storefront\/pull\/\d+$/);
    expect(await page.locator('h1').textContent()).toContain('Bump lodash from 4.17.15 to 4.17.22');
    await screenshot(page, '07-pull-request');
    await page.goBack();
    await role('heading', 'Pull-request jobs').waitFor();
  });

  it('sends a release notification and shows its fan-out as it happens, then its outcome', async () => {
    await role('link', 'Release notifications').click();
    await role('heading', 'Send a release notification').waitFor();
    await expectNoSeriousA11yViolations(page, 'release notification form');
    // typescript 5.4.5: the first run left it out (the account limits a config's first run to 5 jobs).
    await page.getByLabel('Package name').fill('typescript');
    await page.getByLabel('Version').fill('5.4.5');
    await page.getByLabel('Package manager').selectOption('npm_and_yarn');
    await role('button', 'Send notification').click();
    await arrivesAt(/\/ui\/release-notifications\/[\w-]+$/);
    await page.getByText(/1 config planned, 1 repo scanned, 1 job recorded, 0 skipped, 0 failed\.$/).waitFor({ timeout: 60_000 });
    expect(await page.locator('.facts .status').first().textContent()).toBe('done');
    const outcomes = page.getByRole('table', { name: 'Outcomes per repo' });
    expect(await outcomes.getByRole('row', { name: /^acme\/web-storefront / }).textContent()).toContain('job-recorded');
    await screenshot(page, '08-release-notification');
    await expectNoSeriousA11yViolations(page, 'release notification');
  });

  it("draws the account's pictures: runs over 30 days, open pull requests against the limit, dependencies behind", async () => {
    await page.goto(ui('/accounts/2001'));
    const timeline = page.getByRole('figure', { name: /Update runs of the last 30 days/ });
    await timeline.waitFor();
    await timeline.getByText('The figures as a table').click();
    expect(Number(await timeline.locator('tbody tr td').first().textContent())).toBeGreaterThanOrEqual(1);
    const open = page.getByRole('figure', { name: /Open update pull requests per repo/ });
    await open.getByText('The figures as a table').click();
    await open.getByRole('row', { name: /^web-storefront / }).waitFor();
    const behind = page.getByRole('figure', { name: /Dependencies most often behind/ });
    await behind.getByText('The figures as a table').click();
    await behind.getByRole('row', { name: /^lodash / }).waitFor();
    await screenshot(page, '09-account-overview');
    await expectNoSeriousA11yViolations(page, 'account overview');
  });

  it('registers a private registry credential whose secret is never shown again', async () => {
    await page.goto(ui('/accounts/2001/credentials'));
    await role('heading', 'Registry credentials of acme').waitFor();
    await page.getByLabel('Base URL').fill('https://npm.example.com/');
    await page.getByLabel('Token', { exact: true }).fill('s3cret-registry-token');
    await role('button', 'Register').click();
    await page.getByRole('row', { name: /^npm_and_yarn https:\/\/npm\.example\.com\// }).waitFor();
    expect(await page.getByLabel('Token', { exact: true }).inputValue()).toBe('');
    expect(await page.content()).not.toContain('s3cret-registry-token');

    await role('button', 'Replace secret').click();
    await page.getByRole('textbox', { name: 'New token' }).fill('r0tated-registry-token');
    await role('button', 'Save the new secret').click();
    await page.getByText('Secret replaced.').waitFor();
    expect(await page.content()).not.toContain('r0tated-registry-token');
    await screenshot(page, '10-credentials');
    await expectNoSeriousA11yViolations(page, 'registry credentials');
  });

  it('works from the keyboard: the skip link first, then the content', async () => {
    await page.goto(ui('/accounts'));
    await role('heading', 'Accounts').waitFor();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to the content');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('A');
  });

  it('never put the token in an address, and the policy refused nothing', async () => {
    expect(visited.length).toBeGreaterThan(5);
    expect(visited.filter((url) => url.includes(ALICE))).toEqual([]);
    expect(consoleErrors.filter((text) => /Content Security Policy|Refused to/i.test(text))).toEqual([]);
  });

  it('logs out: the token is forgotten and the login form is back', async () => {
    await role('button', 'Log out').click();
    await page.waitForURL(ui('/login'));
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    await page.goto(ui('/accounts'));
    await page.waitForURL(ui('/login'));
  });
});
