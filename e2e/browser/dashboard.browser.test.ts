import { DEMO_TOKEN_ALICE as ALICE } from '@switchyard/github-emulator';
import { ProcessStack } from '@switchyard/service-kit/testing';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from 'vitest';
import { expectNoSeriousA11yViolations, launchChromium, screenshot } from '../support/browser.ts';
import { LAUNCHER_READY_MS, type LauncherUrls, startLauncherWithEmulators } from '../support/launcher.ts';

/** The two widths every view is checked at: a laptop's 1280 px, and a 390 px phone. */
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

/** The demo's polyglot repo (acme/polyglot), whose root has a git submodule (acme-oss/errors, pinned by a commit). */
const POLYGLOT_ID = 3106;
/** The commit of acme-oss/errors the submodule pins. */
const SUBMODULE_SHA = 'd2b52ca5fa4553d5ed5f086711c78c518350b940';
/** The demo's bot, which may push to the acme-oss repositories (their releases are made as it). */
const BOT = 'demo-token-bot';

/**
 * The dashboard (apps/dashboard) in headless Chromium, served by the gateway of the one-process launcher on its
 * embedded defaults and demo data: the flows a user walks, one after another on one page (each test starts where the
 * one before left off), with a screenshot of every view in `reports/dashboard/` at 1280 px and on a 390 px phone
 * (`-390`), and at both widths an axe-core check and a check that nothing scrolls sideways.
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
  /** The API as the demo user sees it (what the dashboard asks, asked directly). */
  const apiAsAlice = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${urls.gateway}${path}`, {
      method,
      headers: { authorization: `Personal ${ALICE}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: ((await response.json().catch(() => undefined)) ?? {}) as { data?: unknown } };
  };
  /** The code host emulator's REST API (GitHub's) with `token`. */
  const codeHost = async (token: string, method: string, path: string, body?: unknown) => {
    const response = await fetch(`${urls.codeHost}${path}`, {
      method,
      headers: { authorization: `token ${token}`, accept: 'application/vnd.github+json', 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const json = (await response.json().catch(() => undefined)) as { sha?: string; object?: { sha: string }; tree?: { sha: string } };
    expect(response.status, `${method} ${path}: ${JSON.stringify(json)}`).toBeLessThan(300);
    return json;
  };
  /**
   * Fails when the page is wider than its viewport (`document.documentElement.scrollWidth > window.innerWidth`: it
   * would scroll sideways), naming the elements that stick out.
   */
  const expectNoSidewaysScroll = async (view: string) => {
    const { scrollWidth, innerWidth, outside } = await page.evaluate(() => {
      const width = window.innerWidth;
      const sticking = [...document.querySelectorAll<HTMLElement>('body *')]
        .filter((element) => element.getBoundingClientRect().right > width + 0.5)
        .slice(0, 5)
        .map(
          (element) =>
            `<${element.tagName.toLowerCase()} class="${element.className}"> to ${Math.round(element.getBoundingClientRect().right)} px`,
        );
      return { scrollWidth: document.documentElement.scrollWidth, innerWidth: width, outside: sticking };
    });
    expect(scrollWidth, `the ${view} is ${scrollWidth} px wide in a ${innerWidth} px viewport: ${outside.join('; ')}`).toBeLessThanOrEqual(
      innerWidth,
    );
  };
  /**
   * The view as it is now, at 1280 px and then on a 390 px phone: nothing scrolls sideways, a screenshot (`name`, and
   * `name-390`), no serious or critical axe violation. The page is back at 1280 px after.
   */
  const checkAtBothWidths = async (name: string, view: string) => {
    for (const [size, suffix] of [
      [DESKTOP, ''],
      [PHONE, '-390'],
    ] as const) {
      await page.setViewportSize(size);
      await expectNoSidewaysScroll(`${view} view at ${size.width} px`);
      await screenshot(page, `${name}${suffix}`);
      await expectNoSeriousA11yViolations(page, `${view} at ${size.width} px`);
    }
    await page.setViewportSize(DESKTOP);
  };

  beforeAll(async () => {
    urls = await startLauncherWithEmulators(processes, { SCHEDULER_INTERVAL_MS: '1000' });
    const browser = await launchChromium();
    processes.defer(() => browser.close());
    context = await browser.newContext({ viewport: DESKTOP });
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
    await checkAtBothWidths('01-login-refused', 'login');
  });

  it('logs in with the demo token and lists its accounts with their settings', async () => {
    await page.getByLabel('Token').fill(ALICE);
    await role('button', 'Log in').click();
    await page.waitForURL(ui('/accounts'));
    for (const login of ['alice', 'acme', 'globex']) await role('heading', new RegExp(`^${login} `)).waitFor();
    await checkAtBothWidths('02-accounts', 'accounts');
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
    await checkAtBothWidths('03a-repos', 'repos');
    await role('link', 'web-storefront').click();
    await role('heading', 'web-storefront').waitFor();
    await checkAtBothWidths('03-repo', 'repo');

    const form = page.getByRole('form', { name: 'New update config' });
    await form.getByLabel('Directory').fill('/../etc');
    await form.getByRole('button', { name: 'Create config' }).click();
    await expect.poll(() => form.locator('.field-error').first().textContent()).toContain('must not contain . or .. segments');
    // A directory that holds none of the package manager's files: the code host's answer, under the field.
    await form.getByLabel('Directory').fill('/nope');
    await form.getByRole('button', { name: 'Create config' }).click();
    await expect.poll(() => form.locator('.field-error').first().textContent()).toBe('directory /nope has no package.json on branch main');
    expect(await form.getByLabel('Directory').getAttribute('aria-invalid')).toBe('true');

    await form.getByLabel('Directory').fill('/');
    await form.getByLabel('Update schedule').selectOption('weekly');
    await form.getByRole('button', { name: 'Create config' }).click();
    const card = page.getByRole('article', { name: 'npm_and_yarn in /' });
    await card.waitFor();
    expect(await card.textContent()).toMatch(/Next run.*\d{4}/);
    configId = (await card.getAttribute('aria-labelledby'))?.replace('config-', '') ?? '';
    expect(configId).toMatch(/^\d+$/);
    await checkAtBothWidths('04-config-created', 'repo with a config');
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
    await checkAtBothWidths('05-update-run', 'update run');

    await role('link', 'All runs of this config').click();
    await role('heading', 'Update runs of npm_and_yarn in /').waitFor();
    await page.getByRole('row', { name: /manual done 6 of 6 5$/ }).waitFor();
    expect(await page.getByRole('row').count()).toBe(2);
    await checkAtBothWidths('05b-update-runs', 'update runs');
  });

  it("lists the run's pull-request job and follows the link to its pull request", async () => {
    await role('link', 'Pull-request jobs').click();
    await page.waitForURL(ui('/pull-request-jobs'));
    await page.getByLabel('Dependency name').fill('lodash');
    await role('button', 'Filter').click();
    await page.waitForURL(/dependency-name=lodash/);
    const link = page.getByRole('row', { name: /^lodash / }).getByRole('link', { name: /^#\d+$/ });
    await link.waitFor({ timeout: 60_000 });
    await checkAtBothWidths('06-pull-request-jobs', 'pull-request jobs');

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
    await checkAtBothWidths('08a-release-notification-form', 'release notification form');
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
    await checkAtBothWidths('08-release-notification', 'release notification');
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
    await checkAtBothWidths('09-account-overview', 'account overview');
  });

  it('says pr-open for an update whose pull request is still open when "bump now" runs again, linked to its job and pull request', async () => {
    await page.goto(ui(`/update-configs/${configId}/runs`));
    await role('heading', 'Update runs of npm_and_yarn in /').waitFor();
    await role('button', 'Bump now').click();
    await arrivesAt(/\/ui\/update-runs\/[\w-]+$/);
    await page.getByText(/dependencies checked\.$/).waitFor({ timeout: 60_000 });
    expect(await page.locator('.facts .status').first().textContent()).toBe('done');

    // lodash 4.17.22: the first run's job has its pull request open.
    const lodash = page.getByRole('row', { name: /^lodash / });
    const outcome = lodash.locator('.status').first();
    expect(await outcome.textContent()).toBe('pr-open');
    expect(await outcome.isVisible()).toBe(true);
    expect(await outcome.getAttribute('class'), 'drawn as an update under way, not as up-to-date').toContain('tone-info');
    expect(await lodash.textContent()).toMatch(/pull request #\d+ for 4\.17\.22 is open/);
    // Its pull request as it stands: the number linked to the code host, the job's status, a link to the job.
    const pull = lodash.getByRole('link', { name: /^#\d+$/ });
    await pull.waitFor();
    expect(await pull.getAttribute('href')).toMatch(/\/acme\/web-storefront\/pull\/\d+$/);
    expect(await lodash.locator('.status', { hasText: /^open$/ }).count()).toBe(1);
    await checkAtBothWidths('11-update-run-pr-open', 'update run with pr-open');

    await lodash.getByRole('link', { name: /^\(job \d+\)$/ }).click();
    await page.waitForURL(/\/ui\/pull-request-jobs\?dependency-name=lodash&repo-id=\d+$/);
    await page.getByText(/^Only the jobs of acme\/web-storefront\./).waitFor();
    await page
      .getByRole('row', { name: /^lodash / })
      .getByRole('link', { name: /^#\d+$/ })
      .waitFor();
  });

  it('shows a pull request a person closed unmerged as closed, with the reason: that version is ignored until it is reopened', async () => {
    const jobs = await apiAsAlice('GET', '/pull_request_jobs?dependency-name=lodash&status=open');
    const job = (jobs.body.data as { id: string; attributes: { 'pull-request-number': number } }[])[0];
    expect(job, 'the open lodash job').toBeDefined();
    const number = job?.attributes['pull-request-number'];
    await codeHost(ALICE, 'PATCH', `/repos/acme/web-storefront/pulls/${number}`, { state: 'closed' });
    // The code host's webhook reaches the gateway: the job is closed, by a person.
    await expect
      .poll(
        async () =>
          ((await apiAsAlice('GET', '/pull_request_jobs?dependency-name=lodash&status=closed')).body.data as unknown[] | undefined)
            ?.length ?? 0,
        {
          timeout: 60_000,
        },
      )
      .toBe(1);

    await page.goto(ui('/pull-request-jobs?status=closed'));
    const row = page.getByRole('row', { name: /^lodash / });
    await row.waitFor();
    expect(await row.locator('.status').first().textContent()).toBe('closed');
    expect(await row.textContent()).toMatch(/closed unmerged on the code host by alice: this version is not proposed again/);
    expect(await row.getByRole('link', { name: `#${number}` }).count()).toBe(1);
    await page.getByText('What each status means').click();
    await page.locator('.glossary .status', { hasText: /^vanished$/ }).waitFor();
    await checkAtBothWidths('12-pull-request-jobs-closed', 'pull-request jobs with a closed one');
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
    await checkAtBothWidths('10-credentials', 'registry credentials');
  });

  it('shows the commits of a submodule update as 7 characters, the whole SHA kept, and its tables still fit both widths', async () => {
    // A submodule's version is a commit: a config for acme/polyglot's root, then a new commit on the submodule's branch.
    const created = await apiAsAlice('POST', '/update_configs', {
      'repo-id': POLYGLOT_ID,
      'account-id': '2001',
      'account-type': 'org',
      'package-manager': 'submodules',
      'update-schedule': 'weekly',
      directory: '/',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const submodulesConfig = (created.body.data as { id: string }).id;
    const head = (await codeHost(BOT, 'GET', '/repos/acme-oss/errors/git/ref/heads/main')).object?.sha ?? '';
    const base = (await codeHost(BOT, 'GET', `/repos/acme-oss/errors/git/commits/${head}`)).tree?.sha ?? '';
    const tree = (
      await codeHost(BOT, 'POST', '/repos/acme-oss/errors/git/trees', {
        base_tree: base,
        tree: [{ path: 'NEWS.md', mode: '100644', type: 'blob', content: '# News\n\nA fix on main.\n' }],
      })
    ).sha;
    const commit =
      (await codeHost(BOT, 'POST', '/repos/acme-oss/errors/git/commits', { message: 'A fix', tree, parents: [head] })).sha ?? '';
    await codeHost(BOT, 'PATCH', '/repos/acme-oss/errors/git/refs/heads/main', { sha: commit });

    await page.goto(ui(`/update-configs/${submodulesConfig}/runs`));
    await role('heading', 'Update runs of submodules in /').waitFor();
    // The config reaches the service that runs updates a moment later: its runs are asked again until it knows it.
    await page.getByText('No run yet.').waitFor({ timeout: 20_000 });
    await role('button', 'Bump now').click();
    await arrivesAt(/\/ui\/update-runs\/[\w-]+$/);
    await page.getByText(/^1 of 1 dependency checked\.$/).waitFor({ timeout: 60_000 });
    const submodule = page.getByRole('row').filter({ has: page.locator(`.sha[title="${SUBMODULE_SHA}"]`) });
    expect(await submodule.locator('.status').first().textContent()).toBe('job-recorded');
    const pinned = submodule.locator(`.sha[title="${SUBMODULE_SHA}"]`).first();
    // The SHA's box (clipping it) is as wide as 7 of its 40 characters.
    const shown = await pinned.locator('span').evaluate((element) => ({
      width: element.getBoundingClientRect().width,
      whole: element.scrollWidth,
      text: element.textContent,
    }));
    expect(shown.text, 'the whole SHA stays in the page').toBe(SUBMODULE_SHA);
    expect(shown.width / shown.whole, `${shown.width} of ${shown.whole} px shown`).toBeCloseTo(7 / 40, 1);
    expect(await submodule.locator(`.sha[title="${commit}"]`).count()).toBeGreaterThan(0);
    await checkAtBothWidths('13-update-run-submodule', 'update run of a submodule');

    await page.goto(ui('/pull-request-jobs'));
    await page.locator(`tr .sha[title="${commit}"]`).first().waitFor();
    await checkAtBothWidths('14-pull-request-jobs-all', 'every pull-request job');
  });

  it('offers a retry when a view fails to load, and the retry loads it', async () => {
    // The jobs list's request fails once, as when the network drops: the error in words, and a Retry button.
    await page.route(
      (url) => url.pathname === '/pull_request_jobs',
      (route) => route.abort('failed'),
      { times: 1 },
    );
    await page.goto(ui('/pull-request-jobs'));
    const failure = page.locator('.load-error[role="alert"]');
    await failure.waitFor();
    expect(await failure.textContent()).toContain('Could not load the pull-request jobs.');
    expect(await failure.textContent()).toContain('The API could not be reached');
    await checkAtBothWidths('15-load-error', 'failed load');
    // From the keyboard: Tab reaches Retry, Enter loads again, and the focus goes to the view's heading.
    const retry = failure.getByRole('button', { name: 'Retry' });
    for (let tab = 0; tab < 20 && !(await retry.evaluate((element) => element === document.activeElement)); tab++) {
      await page.keyboard.press('Tab');
    }
    expect(await retry.evaluate((element) => element === document.activeElement), 'Retry is reached with Tab').toBe(true);
    await page.keyboard.press('Enter');
    await page
      .getByRole('row', { name: /^lodash / })
      .first()
      .waitFor();
    expect(await failure.count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('H1');

    // The overview, whose first load once showed only "Failed to fetch": an answer of 503 this time, said in words.
    await page.route(
      (url) => url.pathname === '/update_runs',
      (route) =>
        route.fulfill({
          status: 503,
          contentType: 'application/problem+json',
          body: JSON.stringify({ type: 'about:blank', title: 'Service Unavailable', status: 503, detail: 'release-svc did not answer' }),
        }),
      { times: 1 },
    );
    await page.goto(ui('/accounts/2001'));
    await failure.waitFor();
    expect(await failure.textContent()).toContain('Could not load the overview');
    expect(await failure.textContent()).toContain(
      'The service behind the gateway did not answer (HTTP 503: Service Unavailable: release-svc did not answer)',
    );
    await failure.getByRole('button', { name: 'Retry' }).click();
    await page.getByRole('figure', { name: /Update runs of the last 30 days/ }).waitFor();
    expect(await failure.count()).toBe(0);
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
