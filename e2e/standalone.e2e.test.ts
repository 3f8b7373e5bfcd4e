import { mkdtempSync, rmSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { bookApiSuite } from '@switchyard/catalog-svc/test/api-suite';
import { freePort, ProcessStack, type RunningProcess, request, waitFor } from '@switchyard/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digestGet, digestPost, latin1Form } from './support/digest-form.ts';
import { LAUNCHER_READY_MS } from './support/launcher.ts';

/** How long the launcher may take to stop after SIGINT before the test kills it: its own shutdown deadline (30 s) and a margin. */
const LAUNCHER_STOP_MS = 40_000;

const standaloneMain = new URL('../apps/standalone/src/main.ts', import.meta.url).pathname;

/** A non-loopback IPv4 address of this machine, where a server bound to every interface answers and one on loopback does not. */
const lanAddress = Object.values(networkInterfaces())
  .flat()
  .find((address) => address?.family === 'IPv4' && !address.internal)?.address;

/** Whether anything accepts an HTTP request at `address:port` (a refused connection is `false`). */
async function answersAt(address: string, port: string): Promise<boolean> {
  try {
    await fetch(`http://${address}:${port}/healthz`, { signal: AbortSignal.timeout(2_000) });
    return true;
  } catch {
    return false;
  }
}

/** The demo Digest user the launcher gives peer-svc (its banner names it). */
const DEMO_PEER_USER = { user: 'emissary', password: 'emissary-demo' };

/** The launcher's port variables (the gateway's first). */
const PORT_VARIABLES = [
  'GATEWAY_PORT',
  'CATALOG_PORT',
  'CONFIG_PORT',
  'CODE_HOST_PORT',
  'RELEASE_PORT',
  'PEER_PORT',
  'REGISTRY_PORT',
] as const;

/**
 * A time zone where it is a weekday now and stays one for the next `minutes` (so a `daily` slot a minute or two ahead
 * falls on a weekday there), with the local time `minutes` from now as `HH:MM`; undefined in the hours of a weekend
 * when no time zone has a weekday.
 */
function weekdayZone(minutes: number): { timeZone: string; time: string } | undefined {
  const at = new Date(Date.now() + minutes * 60_000);
  for (const timeZone of ['UTC', ...Intl.supportedValuesOf('timeZone')]) {
    const parts = (date: Date) =>
      Object.fromEntries(
        new Intl.DateTimeFormat('en-GB', { timeZone, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
          .formatToParts(date)
          .map((p) => [p.type, p.value]),
      );
    const [now, then] = [parts(new Date()), parts(at)];
    if (['Sat', 'Sun'].includes(now.weekday ?? '') || now.weekday !== then.weekday) continue;
    return { timeZone, time: `${then.hour}:${then.minute}` };
  }
  return undefined;
}

describe('standalone launcher on embedded PGlite', () => {
  const processes = new ProcessStack();
  const dataDir = mkdtempSync(join(tmpdir(), 'switchyard-e2e-'));
  processes.defer(() => rmSync(dataDir, { recursive: true, force: true }));
  let switchyard: RunningProcess;
  let url: string;
  let ports: Record<string, string>;
  const env = async () => {
    const [gatewayPort, catalogPort, configPort, codeHostPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
    url = `http://127.0.0.1:${gatewayPort}`;
    ports = {
      GATEWAY_PORT: String(gatewayPort),
      CATALOG_PORT: String(catalogPort),
      CONFIG_PORT: String(configPort),
      CODE_HOST_PORT: String(codeHostPort),
      RELEASE_PORT: String(await freePort()),
      PEER_PORT: String(await freePort()),
      REGISTRY_PORT: String(await freePort()),
    };
    // HOST empty counts as unset, whatever the environment running the tests says. The scheduler and the registry watch
    // look every second, so a slot or a new version shows within the tests' patience.
    return {
      ...ports,
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      AMQP_URL: '',
      CODE_HOST_API_URL: '',
      REGISTRY_URLS: '',
      HOST: '',
      SCHEDULER_INTERVAL_MS: '1000',
      REGISTRY_WATCH_INTERVAL_MS: '1000',
    };
  };

  beforeAll(async () => {
    const vars = await env();
    switchyard = await processes.start(standaloneMain, vars, `${url}/readyz`, LAUNCHER_READY_MS);
  }, LAUNCHER_READY_MS + 10_000);
  afterAll(() => processes.disposeAsync());

  it('prints the gateway URL, the demo token and example requests for every API', () => {
    expect(switchyard.output()).toContain(`gateway    ${url}`);
    expect(switchyard.output()).toContain(`curl ${url}/books`);
    expect(switchyard.output()).toContain('embedded PGlite');
    expect(switchyard.output()).toContain(`curl ${url}/accounts -H 'Authorization: Personal demo-token-alice'`);
    for (const path of ['/repos?', '/update_configs ', '/update_configs/1 ']) expect(switchyard.output()).toContain(`${url}${path}`);
    // The notification's job becomes a pull request on the emulator: the banner shows where to see it.
    expect(switchyard.output()).toMatch(
      /curl http:\/\/127\.0\.0\.1:\d+\/repos\/acme\/web-storefront\/pulls -H 'Authorization: token demo-token-alice'/,
    );
  });

  it('serves the dependency update API from the emulator demo data on PGlite', async () => {
    const auth = { authorization: 'Personal demo-token-alice' };
    const accounts = await request(url, 'GET', '/accounts', { headers: auth });
    expect(accounts.status).toBe(200);
    expect(accounts.body.data.map((a: { attributes: { 'github-login': string } }) => a.attributes['github-login'])).toEqual([
      'alice',
      'acme',
      'globex',
    ]);
    const body = {
      'repo-id': 3102,
      'account-id': '2001',
      'account-type': 'org',
      directory: '/',
      'update-schedule': 'daily',
      'package-manager': 'bundler',
    };
    const created = await request(url, 'POST', '/update_configs', { headers: auth, body });
    expect(created.status).toBe(201);
    const active = await request(url, 'GET', '/repos?account-id=2001&account-type=org&installation-state=active', { headers: auth });
    expect(active.body.data.map((r: { id: string }) => r.id)).toEqual(['3102']);
  });

  it('turns a release notification into a pull-request job over the in-process bus', async () => {
    const auth = { authorization: 'Personal demo-token-alice' };
    const body = { name: 'stripe', version: '5.23.0', 'package-manager': 'bundler' };
    const scan = async () => {
      const sent = await request(url, 'POST', '/release_notifications/private', {
        headers: { ...auth, prefer: 'return=representation' },
        body,
      });
      expect(sent.status).toBe(202);
      return waitFor(async () => {
        const res = await request(url, 'GET', `/release_notifications/${sent.body.data.id}`, { headers: auth });
        return res.body.data.attributes.status === 'done' ? res.body.data.attributes : undefined;
      }, 20_000);
    };
    // The config created above reaches release-svc's read model through config-svc's outbox and the bus,
    // a moment after it was created: notify until the scan covers it.
    const done = await waitFor(async () => {
      const attributes = await scan();
      return attributes['configs-total'] === 1 ? attributes : undefined;
    }, 30_000);
    expect(done['repos-scanned']).toBe(1);
    const jobs = await request(url, 'GET', '/pull_request_jobs?dependency-name=stripe', { headers: auth });
    expect(jobs.body.data).toHaveLength(1);
    expect(jobs.body.data[0].attributes).toMatchObject({ 'version-in-use': '5.22.0', 'target-version': '5.23.0', 'update-kind': 'minor' });
  });

  describe('update runs through the gateway, against the registry emulator', () => {
    const auth = { authorization: 'Personal demo-token-alice' };
    const registry = () => `http://127.0.0.1:${ports.REGISTRY_PORT}`;
    const publish = async (packageManager: string, name: string, version: string) => {
      const res = await fetch(`${registry()}/admin/publish`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ packageManager, name, version }),
      });
      expect(res.status).toBe(201);
    };
    const createConfig = async (body: Record<string, unknown>) => {
      const created = await request(url, 'POST', '/update_configs', {
        headers: auth,
        body: { 'account-type': 'org', directory: '/', 'update-schedule': 'daily', ...body },
      });
      expect(created.status, created.text).toBe(201);
      return created.body.data as { id: string; attributes: Record<string, unknown> };
    };
    type Run = { id: string; attributes: { trigger: string; status: string; dependencies: Array<Record<string, unknown>> } };
    const runsOf = async (configId: string): Promise<Run[]> =>
      (await request(url, 'GET', `/update_runs?update-config-id=${configId}`, { headers: auth })).body.data ?? [];
    const finishedRun = (configId: string, match: (run: Run) => boolean, timeoutMs = 30_000) =>
      waitFor(
        async () => (await runsOf(configId)).find((run) => match(run) && ['done', 'failed'].includes(run.attributes.status)),
        timeoutMs,
      );
    const dependency = (run: Run, name: string) => run.attributes.dependencies.find((d) => d.name === name);
    /** "Bump now", once the config has reached release-svc (its events travel through config-svc's outbox first). */
    const bumpNow = (configId: string) =>
      waitFor(async () => {
        const res = await request(url, 'POST', `/update_configs/${configId}/trigger_update_job`, { headers: auth });
        if (res.status === 404) return undefined;
        expect(res.status, res.text).toBe(202);
        return res.body.data as Run;
      }, 30_000);

    it('"bump now" records the job to a version just published, at once', async () => {
      const config = await createConfig({ 'repo-id': 3101, 'account-id': '2001', 'package-manager': 'npm_and_yarn' });
      await publish('npm_and_yarn', 'lodash', '4.17.22');
      const queued = await bumpNow(config.id);
      expect(queued.attributes).toMatchObject({ trigger: 'manual', status: 'queued' });
      const run = await finishedRun(config.id, (r) => r.id === queued.id);
      expect(run.attributes.status).toBe('done');
      expect(dependency(run, 'lodash')).toMatchObject({
        'version-in-use': '4.17.15',
        'latest-allowed-version': '4.17.22',
        outcome: 'job-recorded',
      });
      const jobs = await request(url, 'GET', '/pull_request_jobs?repo-id=3101&dependency-name=lodash', { headers: auth });
      expect(jobs.body.data.map((j: { attributes: { 'target-version': string } }) => j.attributes['target-version'])).toContain('4.17.22');
    });

    it("a daily config's next slot records the job of a version published before it", async () => {
      // The account's run time a minute or two ahead, in a time zone where today is a weekday (daily runs Monday to Friday).
      const zone = weekdayZone(2);
      const schedule = zone ? 'daily' : 'weekly';
      const config = await createConfig({ 'repo-id': 3103, 'account-id': '2001', 'package-manager': 'pip', 'update-schedule': schedule });
      const local = zone ?? { timeZone: 'UTC', time: new Date(Date.now() + 120_000).toISOString().slice(11, 16) };
      const day = new Intl.DateTimeFormat('en-GB', { timeZone: local.timeZone, weekday: 'long' }).format(new Date(Date.now() + 120_000));
      const patched = await request(url, 'PATCH', '/accounts/2001', {
        headers: auth,
        body: { 'update-run-time': local.time, 'time-zone': local.timeZone, 'weekly-update-run-day': day.toLowerCase() },
      });
      expect(patched.status, patched.text).toBe(200);
      await publish('pip', 'requests', '2.33.0');
      const shown = await waitFor(async () => {
        const res = await request(url, 'GET', `/update_configs/${config.id}`, { headers: auth });
        return res.body.data.attributes['next-run-at'] as string | null;
      }, 10_000);
      expect(Date.parse(shown ?? '') - Date.now()).toBeLessThanOrEqual(180_000);
      const run = await finishedRun(config.id, (r) => r.attributes.trigger === 'schedule', 200_000);
      expect(dependency(run, 'requests')).toMatchObject({
        'version-in-use': '2.23.0',
        'latest-allowed-version': '2.33.0',
        outcome: 'job-recorded',
      });
    }, 240_000);

    it('a live config records a new version within the registry watch interval', async () => {
      const config = await createConfig({ 'repo-id': 3201, 'account-id': '2002', 'package-manager': 'pip', 'update-schedule': 'live' });
      // Its initial run lists what the watch then polls; the watch sees flask's current version once before the new one.
      await finishedRun(config.id, (r) => r.attributes.trigger === 'live');
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      await publish('pip', 'Flask', '3.0.4');
      const run = await finishedRun(
        config.id,
        (r) => r.attributes.trigger === 'live' && dependency(r, 'flask')?.['latest-allowed-version'] === '3.0.4',
      );
      expect(dependency(run, 'flask')).toMatchObject({ 'version-in-use': '1.1.2', outcome: 'job-recorded' });
    });

    it('a private package fails with a clear error without registry credentials, and is found with them', async () => {
      const config = await createConfig({
        'repo-id': 3101,
        'account-id': '2001',
        'package-manager': 'npm_and_yarn',
        'target-branch': 'develop',
      });
      const first = await bumpNow(config.id);
      const refused = await finishedRun(config.id, (r) => r.id === first.id);
      expect(dependency(refused, '@acme/widgets')).toMatchObject({ outcome: 'error', 'error-kind': 'package_not_found' });
      expect(dependency(refused, '@acme/widgets')?.reason).toContain('no registry credentials');

      const credential = await request(url, 'POST', '/registry_credentials', {
        headers: auth,
        body: {
          'account-id': '2001',
          'package-manager': 'npm_and_yarn',
          'base-url': `${registry()}/private/npm/`,
          'auth-type': 'token',
          token: 'demo-registry-token',
        },
      });
      expect(credential.status, credential.text).toBe(201);
      expect(JSON.stringify(credential.body)).not.toContain('demo-registry-token');
      const answered = await waitFor(async () => {
        const second = await bumpNow(config.id);
        const run = await finishedRun(config.id, (r) => r.id === second.id);
        return dependency(run, '@acme/widgets')?.outcome === 'error' ? undefined : run;
      }, 30_000);
      expect(dependency(answered, '@acme/widgets')).toMatchObject({
        'version-in-use': '1.0.0',
        'latest-allowed-version': '1.1.0',
        outcome: 'job-recorded',
      });
      expect(dependency(answered, '@acme/widgets')?.registry).toContain('/private/npm/');
    });
  });

  it.skipIf(!lanAddress)(
    `listens on loopback only when HOST is unset: nothing answers on this machine's non-loopback IPv4 address (${lanAddress ?? 'skipped: the machine has none'})`,
    async () => {
      expect(await answersAt('127.0.0.1', ports.GATEWAY_PORT as string)).toBe(true);
      for (const variable of PORT_VARIABLES) {
        expect(await answersAt(lanAddress as string, ports[variable] as string), `${variable} ${ports[variable]}`).toBe(false);
      }
    },
  );

  it('says in its banner that it listens on loopback only, and how to change it', () => {
    expect(switchyard.output()).toMatch(/this machine only.*HOST=0\.0\.0\.0/);
  });

  bookApiSuite(() => url);

  it('answers the peer directory heartbeat through the gateway', async () => {
    const peerPort = /curl -X POST .*\n.*http:\/\/127\.0\.0\.1:(\d+)\/DirectoryPlace/.exec(switchyard.output())?.[1];
    expect(peerPort).toBeDefined();
    const form = new URLSearchParams({
      hbf: `EMISSARY_DIRECTORY_SERVICES.DIRECTORY.STUDY.http://127.0.0.1:${peerPort}/DirectoryPlace`,
      hbt: `http://127.0.0.1:${peerPort}/DirectoryPlace`,
    });
    const res = await fetch(`${url}/emissary/Heartbeat.action`, { method: 'POST', headers: { 'x-requested-by': 'test' }, body: form });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const missing = await fetch(`${url}/emissary/Heartbeat.action`, { method: 'POST', body: form });
    expect(missing.status).toBe(400);
  });

  it("enqueues the banner's work bundle through the gateway with Digest, without RabbitMQ, and takes it back", async () => {
    const output = switchyard.output();
    expect(output).toContain(`curl --digest -u emissary:emissary-demo ${url}/WorkSpaceClientEnqueue.action -H 'X-Requested-By: curl'`);
    expect(output).toContain(`curl --digest -u emissary:emissary-demo '${url}/emissary/client-places/demo-pickup/bundles?take=10'`);
    const tpObj = /--data-urlencode 'tpObj=(.*)'/.exec(output)?.[1] ?? '';
    const pickUpClientName = /--data-urlencode 'pickUpClientName=(.*)'/.exec(output)?.[1] ?? '';
    expect(pickUpClientName).toBe('demo-pickup');
    for (const bundleId of ['demo-1', 'kept-1']) {
      const form = latin1Form({ pickUpClientName, tpObj: tpObj.replace('demo-1', bundleId) });
      const res = await digestPost(url, '/WorkSpaceClientEnqueue.action', form, DEMO_PEER_USER);
      expect(res).toMatchObject({ status: 200, body: 'Successful add to the PickUpPlaceClient queue' });
    }
    const taken = await digestGet(url, '/emissary/client-places/demo-pickup/bundles?take=1', DEMO_PEER_USER);
    expect(taken.status).toBe(200);
    expect(taken.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const answer = JSON.parse(taken.body);
    expect(answer).toMatchObject({ clientPlace: 'demo-pickup', queue: 'switchyard.demo-pickup' });
    expect(answer.bundles).toHaveLength(1);
    expect(answer.bundles[0].workBundle).toMatchObject({ ...JSON.parse(tpObj), priority: 10 });
    const unknown = await digestGet(url, '/emissary/client-places/nope/bundles', DEMO_PEER_USER);
    expect(unknown).toMatchObject({ status: 404, body: 'No client place found using name nope' });
  });

  it(
    'shuts down cleanly on SIGINT and keeps its books across a restart',
    async () => {
      const created = await request(url, 'POST', '/books', { body: { Name: 'Kept', Author: 'Restart', Price: 1, Year: 2000 } });
      expect(created.status).toBe(201);
      // Closing every service and its embedded database can take several seconds beside the rest of the suite.
      expect(await switchyard.stop('SIGINT', LAUNCHER_STOP_MS), switchyard.output()).toBe(0);
      expect(switchyard.output()).toContain('switchyard stopped');
      switchyard = await processes.start(standaloneMain, await env(), `${url}/readyz`, LAUNCHER_READY_MS);
      expect((await request(url, 'GET', `/books/${created.body.Id}`)).body).toEqual(created.body);
    },
    LAUNCHER_READY_MS + LAUNCHER_STOP_MS + 10_000,
  );

  it('keeps a work bundle not taken yet across the restart', async () => {
    const taken = await digestGet(url, '/emissary/client-places/demo-pickup/bundles', DEMO_PEER_USER);
    expect(taken.status).toBe(200);
    expect(JSON.parse(taken.body).bundles.map((bundle: { workBundle: { bundleId: string } }) => bundle.workBundle.bundleId)).toEqual([
      'kept-1',
    ]);
  });
});

describe.skipIf(!lanAddress)(
  `standalone launcher with HOST=0.0.0.0 (skipped when this machine has no non-loopback IPv4 address${lanAddress ? '' : ': it has none'})`,
  () => {
    const processes = new ProcessStack();
    const dataDir = mkdtempSync(join(tmpdir(), 'switchyard-e2e-host-'));
    processes.defer(() => rmSync(dataDir, { recursive: true, force: true }));
    const ports: Record<string, string> = {};
    let switchyard: RunningProcess;

    beforeAll(async () => {
      for (const variable of PORT_VARIABLES) ports[variable] = String(await freePort());
      switchyard = await processes.start(
        standaloneMain,
        { ...ports, HOST: '0.0.0.0', DATA_DIR: dataDir, DATABASE_URL: '', AMQP_URL: '', CODE_HOST_API_URL: '' },
        `http://127.0.0.1:${ports.GATEWAY_PORT}/readyz`,
        LAUNCHER_READY_MS,
      );
    }, LAUNCHER_READY_MS + 10_000);
    afterAll(() => processes.disposeAsync());

    it(`serves the gateway on this machine's non-loopback address (${lanAddress}), and keeps the services behind it on loopback`, async () => {
      const res = await fetch(`http://${lanAddress}:${ports.GATEWAY_PORT}/books`);
      expect(res.status).toBe(200);
      for (const variable of PORT_VARIABLES.filter((name) => name !== 'GATEWAY_PORT')) {
        expect(await answersAt(lanAddress as string, ports[variable] as string), `${variable} ${ports[variable]}`).toBe(false);
        expect(await answersAt('127.0.0.1', ports[variable] as string), `${variable} ${ports[variable]}`).toBe(true);
      }
      expect(switchyard.output()).toMatch(/HOST=0\.0\.0\.0/);
    });
  },
);
