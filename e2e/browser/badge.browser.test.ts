import { DEMO_TOKEN_ALICE as ALICE, DEMO_TOKEN_BOB as BOB } from '@switchyard/github-emulator';
import { ProcessStack, waitFor } from '@switchyard/service-kit/testing';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, screenshot } from '../support/browser.ts';
import { LAUNCHER_READY_MS, type LauncherUrls, startLauncherWithEmulators } from '../support/launcher.ts';

/**
 * A public repo of the demo data, initech/office-space, where bob and the service's bot may push (initech's members
 * write): the test gives it a `web/` folder with a package.json of its own.
 */
const OFFICE_SPACE = { id: 3303, fullName: 'initech/office-space', accountId: '2003' };
/** A public repo of acme with no update config. */
const ACME_CLI = 'acme/acme-cli';
/** A private repo of acme. */
const WEB_STOREFRONT = 'acme/web-storefront';

/** What a page showed of one badge: the image's natural size (0 when it did not load), and the SVG's text fetched there. */
interface Rendered {
  naturalWidth: number;
  naturalHeight: number;
  status: number;
  text: string;
}

/**
 * The status badge (`GET /badges/status`, release-svc behind the gateway) of the one-process launcher on its embedded
 * defaults and demo data, shown by headless Chromium as a README shows it: an `<img>` on a page of another origin. A
 * public repo goes from `enabled` (a config) to `up to date` (a run with nothing to do) and `1 update pending` (a
 * dependency added, a pull request opened); one without a config is `inactive`; a private repo's badge does not load.
 */
describe('the status badge, served by the launcher and drawn by Chromium', () => {
  const processes = new ProcessStack();
  let urls: LauncherUrls;
  let browser: Browser;

  const badgeUrl = (repo: string) => `${urls.gateway}/badges/status?host=github&repo=${repo}`;
  /** The badge's JSON form, as badgen.net and shields.io asked for it. */
  const badgeJson = async (repo: string) => {
    const res = await fetch(badgeUrl(repo), { headers: { accept: 'application/json' } });
    return { status: res.status, body: (await res.json()) as { status?: string; colour?: string; errors?: unknown[] } };
  };
  /** Waits until the badge of `repo` says `status` (the read model and the runs catch up a moment after the API). */
  const badgeSays = (repo: string, status: string, timeout = 30_000) =>
    waitFor(async () => (await badgeJson(repo)).body.status === status, timeout, 200);
  /** The API as `token` (alice by default) calls it. */
  const api = async (method: string, path: string, body?: unknown, token = ALICE) => {
    const res = await fetch(`${urls.gateway}${path}`, {
      method,
      headers: { authorization: `Personal ${token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json().catch(() => ({}))) as { data?: { id: string } } };
  };
  /** The code host emulator's REST API (GitHub's), as bob. */
  const codeHost = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${urls.codeHost}${path}`, {
      method,
      headers: { authorization: `token ${BOB}`, accept: 'application/vnd.github+json', 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const json = (await res.json().catch(() => ({}))) as { sha?: string; object?: { sha: string }; tree?: { sha: string } };
    expect(res.status, `${method} ${path}: ${JSON.stringify(json)}`).toBeLessThan(300);
    return json;
  };
  /** "Bump now" on the config, as bob, and waits for the run to finish `done`. */
  const bumpNow = async (configId: string) => {
    const started = await api('POST', `/update_configs/${configId}/trigger_update_job`, undefined, BOB);
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    const runId = started.body.data?.id ?? '';
    await waitFor(
      async () => {
        const run = (await api('GET', `/update_runs/${runId}`, undefined, BOB)).body as { data?: { attributes?: { status?: string } } };
        return run.data?.attributes?.status === 'done';
      },
      60_000,
      250,
    );
  };
  /**
   * Shows the badges of `repos` as `<img>`s on a page of its own origin (a fresh browser context: nothing cached), and
   * reads each image's natural size and, with the page's own `fetch` (the badge allows any origin), the SVG's text;
   * saves a screenshot as `reports/dashboard/<name>.png`.
   */
  const render = async (name: string, repos: readonly string[]): Promise<Rendered[]> => {
    const context = await browser.newContext({ viewport: { width: 640, height: 240 } });
    try {
      const page = await context.newPage();
      const images = repos.map((repo, i) => `<p><img id="b${i}" alt="Dependabot status of ${repo}" src="${badgeUrl(repo)}"></p>`);
      await page.setContent(`<!doctype html><html lang="en"><title>Badges</title><body>${images.join('')}</body></html>`);
      await page.waitForFunction(
        (count) => [...document.images].length === count && [...document.images].every((image) => image.complete),
        repos.length,
      );
      await screenshot(page, name);
      return await page.evaluate(async (sources) => {
        return Promise.all(
          sources.map(async (source, i) => {
            const image = document.getElementById(`b${i}`) as HTMLImageElement;
            const res = await fetch(source);
            return { naturalWidth: image.naturalWidth, naturalHeight: image.naturalHeight, status: res.status, text: await res.text() };
          }),
        );
      }, repos.map(badgeUrl));
    } finally {
      await context.close();
    }
  };
  /** Checks that a badge was drawn, and that its SVG says `Dependabot: <status>` and is as wide as drawn. */
  const expectDrawn = (rendered: Rendered | undefined, status: string) => {
    expect(rendered?.status).toBe(200);
    expect(rendered?.text).toContain(`aria-label="Dependabot: ${status}"`);
    expect(rendered?.naturalHeight).toBe(20);
    expect(rendered?.naturalWidth).toBeGreaterThan(0);
    expect(rendered?.naturalWidth).toBe(Number(rendered?.text.match(/^<svg [^>]*width="(\d+)"/)?.[1]));
  };

  beforeAll(async () => {
    urls = await startLauncherWithEmulators(processes);
    browser = await launchChromium();
    processes.defer(() => browser.close());
  }, LAUNCHER_READY_MS + 60_000);
  afterAll(() => processes.disposeAsync(), 60_000);

  it('serves a public repo without a config as inactive, and refuses a private one with 404', async () => {
    // Listing acme's repos makes config-svc record them, and tell release-svc (repo.created, with `private`).
    expect((await api('GET', '/repos?account-id=2001&account-type=org&installation-state=inactive')).status).toBe(200);
    await badgeSays(ACME_CLI, 'inactive');
    expect((await badgeJson(ACME_CLI)).body).toEqual({ status: 'inactive', colour: 'lightgrey' });
    const hidden = await badgeJson(WEB_STOREFRONT);
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({
      errors: [{ status: 404, title: 'Not Found', detail: `No public repo is known for repo=${WEB_STOREFRONT}` }],
    });

    const res = await fetch(badgeUrl(ACME_CLI));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    expect(res.headers.get('etag')).toMatch(/^".+"$/);

    const [inactive, refused] = await render('badge-inactive', [ACME_CLI, WEB_STOREFRONT]);
    expectDrawn(inactive, 'inactive');
    expect(refused?.status).toBe(404);
    expect(refused?.naturalWidth, 'a private repo’s badge does not load').toBe(0);
  });

  it('follows a public repo from its first config to up to date, then to an update pull request pending', async () => {
    /** Commits `web/package.json` with `dependencies` on office-space's default branch, as bob. */
    const commitManifest = async (dependencies: Record<string, string>) => {
      const head = (await codeHost('GET', '/repos/initech/office-space/git/ref/heads/main')).object?.sha ?? '';
      const base = (await codeHost('GET', `/repos/initech/office-space/git/commits/${head}`)).tree?.sha ?? '';
      const manifest = { name: 'office-space-web', version: '1.0.0', private: true, dependencies };
      const content = `${JSON.stringify(manifest, null, 2)}\n`;
      const tree = (
        await codeHost('POST', '/repos/initech/office-space/git/trees', {
          base_tree: base,
          tree: [{ path: 'web/package.json', mode: '100644', type: 'blob', content }],
        })
      ).sha;
      const commit = (await codeHost('POST', '/repos/initech/office-space/git/commits', { message: 'web', tree, parents: [head] })).sha;
      await codeHost('PATCH', '/repos/initech/office-space/git/refs/heads/main', { sha: commit });
    };

    await commitManifest({});
    const created = await api(
      'POST',
      '/update_configs',
      {
        'repo-id': OFFICE_SPACE.id,
        'account-id': OFFICE_SPACE.accountId,
        'account-type': 'org',
        'package-manager': 'npm_and_yarn',
        'update-schedule': 'weekly',
        directory: '/web',
      },
      BOB,
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const configId = created.body.data?.id ?? '';
    await badgeSays(OFFICE_SPACE.fullName, 'enabled');
    expectDrawn((await render('badge-enabled', [OFFICE_SPACE.fullName]))[0], 'enabled');

    // No dependency yet: the run has nothing to do.
    await bumpNow(configId);
    await badgeSays(OFFICE_SPACE.fullName, 'up to date');
    expectDrawn((await render('badge-up-to-date', [OFFICE_SPACE.fullName]))[0], 'up to date');

    // A dependency pinned to an old version: the next run records a job, and the bot opens its pull request.
    await commitManifest({ lodash: '4.17.15' });
    await bumpNow(configId);
    await badgeSays(OFFICE_SPACE.fullName, '1 update pending', 60_000);
    expect((await badgeJson(OFFICE_SPACE.fullName)).body).toEqual({ status: '1 update pending', colour: 'yellow' });

    const [pending, inactive] = await render('badge-pending', [OFFICE_SPACE.fullName, ACME_CLI]);
    expectDrawn(pending, '1 update pending');
    expectDrawn(inactive, 'inactive');
    expect(pending?.naturalWidth, 'the longer status makes a wider badge').toBeGreaterThan(inactive?.naturalWidth ?? 0);
  });
});
