import { mkdtempSync, rmSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { bookApiSuite } from '@switchyard/catalog-svc/test/api-suite';
import { freePort, ProcessStack, type RunningProcess, request, waitFor } from '@switchyard/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digestGet, digestPost, latin1Form } from './support/digest-form.ts';

/**
 * How long the launcher may take to answer `/readyz`: it creates and migrates a fresh PGlite data directory for every
 * service at start, about 20 s on an idle two-core machine and several times that beside the rest of the suite.
 */
const LAUNCHER_READY_MS = 150_000;

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
const PORT_VARIABLES = ['GATEWAY_PORT', 'CATALOG_PORT', 'CONFIG_PORT', 'CODE_HOST_PORT', 'RELEASE_PORT', 'PEER_PORT'] as const;

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
    };
    // HOST empty counts as unset, whatever the environment running the tests says.
    return { ...ports, DATA_DIR: dataDir, DATABASE_URL: '', AMQP_URL: '', CODE_HOST_API_URL: '', HOST: '' };
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
      expect(await switchyard.stop('SIGINT')).toBe(0);
      expect(switchyard.output()).toContain('switchyard stopped');
      switchyard = await processes.start(standaloneMain, await env(), `${url}/readyz`, LAUNCHER_READY_MS);
      expect((await request(url, 'GET', `/books/${created.body.Id}`)).body).toEqual(created.body);
    },
    LAUNCHER_READY_MS + 20_000,
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
