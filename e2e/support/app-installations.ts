import { ReposDocument } from '@switchyard/contracts';
import { APPS_ADMIN_PATH, REQUEST_COUNTER_PATH, type RequestCounts } from '@switchyard/github-emulator';
import { request, waitFor } from '@switchyard/service-kit/testing';
import { afterAll, expect, it } from 'vitest';

/** Where {@link appInstallationSteps} acts: the stack's gateway and its GitHub emulator (whose App test hooks it uses). */
export interface InstallationStackUrls {
  gateway: string;
  codeHost: string;
}

const SETTLE_MS = 30_000;
const ALICE = 'demo-token-alice';
const GLOBEX = '2002';
const ANALYTICS = 3201;
/** What the demo seed's installation on globex selects; a run of these steps leaves it so again. */
const SEEDED_SELECTION = ['analytics', 'website'];
/** The emulator's request counter's route of an installation token made (`POST /app/installations/{id}/access_tokens`). */
const MINT_ROUTE = 'POST /app/installations/:installation_id/access_tokens';

type Repos = ReturnType<typeof ReposDocument.parse>;
type Run = { id: string; attributes: { status: string; error?: string | null } };

/**
 * The GitHub App's installations driving the repos' `installation-state` and their runs, through a stack's gateway,
 * whose worker acts as the emulator's demo App: the installation on globex selects analytics and website, and alice
 * (who writes to analytics) gives analytics a config. Removing analytics from the selection makes it inactive and stops
 * its runs (its config kept); adding it back makes it active; uninstalling the App makes every globex repo inactive;
 * installing it again (on all repositories) brings the config back. Each step is the emulator's test hook for what an
 * owner does on github.com, and the webhook GitHub sends then. At the end the config is deleted and globex's
 * installation selects analytics and website again, as seeded, so a long-lived stack can run the steps again.
 * With `tokenTtlMs` (the emulator's `CODE_HOST_INSTALLATION_TOKEN_TTL_MS`, short), a last step shows installation tokens
 * made again across an expiry: "bump now" once before and once after a token's life both finish `done`, and the
 * emulator made tokens meanwhile. Registers its tests in the caller's `describe`; `urls` is read when they run.
 */
export function appInstallationSteps(urls: () => InstallationStackUrls, options: { tokenTtlMs?: number } = {}): void {
  const auth = { authorization: `Personal ${ALICE}` };
  let installationId = 0;
  let analyticsConfig: string | undefined;

  const admin = async (method: string, path: string, body?: unknown) => {
    const res = await request(urls().codeHost, method, `${APPS_ADMIN_PATH}${path}`, body === undefined ? {} : { body });
    expect(res.status, res.text).toBeLessThan(300);
    return res.body as { id: number };
  };
  const repos = async (state: 'active' | 'inactive'): Promise<Repos> => {
    const res = await request(urls().gateway, 'GET', `/repos?account-id=${GLOBEX}&account-type=org&installation-state=${state}`, {
      headers: auth,
    });
    expect(res.status, res.text).toBe(200);
    return ReposDocument.parse(res.body);
  };
  const ids = (page: Repos) => page.data.map((repo) => repo.attributes['github-id']).sort();
  /** Waits until the active repos of globex are `expected`. */
  const activeBecomes = (expected: number[]) =>
    waitFor(async () => {
      const active = ids(await repos('active'));
      return JSON.stringify(active) === JSON.stringify(expected) ? active : undefined;
    }, SETTLE_MS);
  /** globex's account resource as alice's `GET /accounts` shows it. */
  const globexAccount = async () => {
    const accounts = await request(urls().gateway, 'GET', '/accounts', { headers: auth });
    return (accounts.body as { data: Array<{ id: string; attributes: Record<string, unknown> }> }).data.find((a) => a.id === GLOBEX);
  };
  /** Waits until globex's recorded installation is `id`, and returns the account. */
  const installedAs = (id: number) =>
    waitFor(async () => {
      const found = await globexAccount();
      return found?.attributes['current-installation-id'] === id ? found : undefined;
    }, SETTLE_MS);
  /** "Bump now" once the config reached release-svc; then the run as it finished. */
  const bumpNowAndFinish = async (configId: string): Promise<Run> => {
    const queued = await waitFor(async () => {
      const res = await request(urls().gateway, 'POST', `/update_configs/${configId}/trigger_update_job`, { headers: auth });
      return res.status === 202 ? (res.body as { data: Run }).data : undefined;
    }, SETTLE_MS);
    return waitFor(async () => {
      const res = await request(urls().gateway, 'GET', `/update_runs?update-config-id=${configId}`, { headers: auth });
      const run = ((res.body as { data?: Run[] }).data ?? []).find((r) => r.id === queued.id);
      return run && ['done', 'failed'].includes(run.attributes.status) ? run : undefined;
    }, SETTLE_MS);
  };
  afterAll(async () => {
    if (analyticsConfig === undefined) return;
    await request(urls().gateway, 'DELETE', `/update_configs/${analyticsConfig}`, { headers: auth });
  });

  it('a repo with a config that the installation covers is active, with the account’s installation attributes', async () => {
    const res = await request(urls().gateway, 'POST', '/update_configs', {
      headers: auth,
      body: {
        'repo-id': ANALYTICS,
        'account-id': GLOBEX,
        'account-type': 'org',
        'package-manager': 'pip',
        directory: '/',
        'update-schedule': 'daily',
      },
    });
    expect(res.status, res.text).toBe(201);
    analyticsConfig = (res.body as { data: { id: string } }).data.id;
    expect(await activeBecomes([ANALYTICS])).toEqual([ANALYTICS]);
    const account = await waitFor(async () => {
      const found = await globexAccount();
      return typeof found?.attributes['current-installation-id'] === 'number' ? found : undefined;
    }, SETTLE_MS);
    expect(account.attributes['access-granted-to-all-repos']).toBe(false);
    installationId = account.attributes['current-installation-id'] as number;
  });

  it('a repo removed from the selection becomes inactive, keeps its config, and its runs stop; added back it is active', async () => {
    const config = analyticsConfig as string;
    await admin('DELETE', `/installations/${installationId}/repositories`, { repositories: ['analytics'] });
    expect(await activeBecomes([])).toEqual([]);
    const inactive = (await repos('inactive')).data.find((repo) => repo.attributes['github-id'] === ANALYTICS);
    expect(inactive?.attributes['installation-state']).toBe('inactive');
    expect(inactive?.relationships['update-configs'].data.map((c) => c.id)).toEqual([config]);
    const stopped = await bumpNowAndFinish(config);
    expect(stopped.attributes.status).toBe('failed');
    expect(JSON.stringify(stopped.attributes)).toContain("the App's installation no longer covers globex/analytics");

    await admin('POST', `/installations/${installationId}/repositories`, { repositories: ['analytics'] });
    expect(await activeBecomes([ANALYTICS])).toEqual([ANALYTICS]);
  });

  it('uninstalling the App makes every repo of the account inactive; installing it again brings the config back', async () => {
    const config = analyticsConfig as string;
    await admin('DELETE', `/installations/${installationId}`);
    expect(await activeBecomes([])).toEqual([]);
    const stopped = await bumpNowAndFinish(config);
    expect(stopped.attributes.status).toBe('failed');

    const installed = await admin('POST', '/switchyard/installations', { account: 'globex' });
    const account = await installedAs(installed.id);
    expect(await activeBecomes([ANALYTICS])).toEqual([ANALYTICS]);
    expect(account.attributes['access-granted-to-all-repos']).toBe(true);
    const back = (await repos('active')).data.flatMap((repo) => repo.relationships['update-configs'].data.map((c) => c.id));
    expect(back).toEqual([config]);
    const ran = await bumpNowAndFinish(config);
    expect(JSON.stringify(ran.attributes)).not.toContain('no longer covers');
    expect(ran.attributes.status, JSON.stringify(ran.attributes)).toBe('done');

    // As seeded again: selected analytics and website.
    await admin('DELETE', `/installations/${installed.id}`);
    const again = await admin('POST', '/switchyard/installations', { account: 'globex', repositories: SEEDED_SELECTION });
    await installedAs(again.id);
  });

  const ttlMs = options.tokenTtlMs;
  if (ttlMs === undefined) return;
  it(`installation tokens are made again across their expiry (${ttlMs / 1000} s here), no run failing`, {
    timeout: ttlMs + 4 * SETTLE_MS,
  }, async () => {
    const config = analyticsConfig as string;
    const mints = async () => {
      const counts = (await request(urls().codeHost, 'GET', REQUEST_COUNTER_PATH)).body as RequestCounts;
      return Object.values(counts.routes[MINT_ROUTE] ?? {}).reduce((sum, n) => sum + n, 0);
    };
    const first = await bumpNowAndFinish(config);
    expect(first.attributes.status, JSON.stringify(first.attributes)).toBe('done');
    const before = await mints();
    await new Promise((resolve) => setTimeout(resolve, ttlMs + 1_000));
    const second = await bumpNowAndFinish(config);
    expect(second.attributes.status, JSON.stringify(second.attributes)).toBe('done');
    expect(await mints()).toBeGreaterThan(before);
  });
}
