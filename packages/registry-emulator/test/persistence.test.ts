import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Listening } from '@switchyard/service-kit';
import { afterEach, describe, expect, it } from 'vitest';
import {
  loadDemoSeed,
  loadRegistryEmulatorConfig,
  REGISTRY_STATE_DEBOUNCE_MS,
  REGISTRY_STATE_FILE,
  RegistryStateFile,
  startRegistryEmulator,
} from '../src/index.ts';
import { digests, get, post, silentLogger } from './fixtures.ts';

const start = (dataDir?: string) => startRegistryEmulator({ seed: loadDemoSeed(), logger: silentLogger, ...(dataDir ? { dataDir } : {}) });

/** A folder of its own under the system's temporary folder, removed after the test. */
const folders: string[] = [];
function freshFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'registry-state-'));
  folders.push(folder);
  return folder;
}
const servers: Listening[] = [];
async function started(dataDir?: string): Promise<Listening> {
  const server = await start(dataDir);
  servers.push(server);
  return server;
}

afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** The answer's text with the emulator's own origin (in tarball and file URLs) written as `<origin>`. */
const originless = async (server: Listening, path: string, headers: Record<string, string> = {}) => {
  const reply = await get(server, path, headers);
  expect(reply.status, path).toBe(200);
  return reply.text.replaceAll(server.url, '<origin>');
};

/** The paths whose answers show what the admin calls below changed. */
const CHANGED_PATHS = [
  '/npm/lodash',
  '/pypi/pypi/requests/json',
  '/crates/api/v1/crates/serde',
  '/crates/index/se/rd/serde',
  '/maven/junit/junit/maven-metadata.xml',
];

async function makeChanges(server: Listening): Promise<void> {
  const publish = (body: Record<string, unknown>) => post(server, '/admin/publish', body);
  expect(
    (await publish({ packageManager: 'npm_and_yarn', name: 'lodash', version: '4.17.22', dependencies: { 'left-pad': '^1.3.0' } })).status,
  ).toBe(201);
  expect((await publish({ packageManager: 'cargo', name: 'serde', version: '1.0.300', releasedAt: '2026-11-20T10:00:00Z' })).status).toBe(
    201,
  );
  expect((await publish({ packageManager: 'maven', name: 'junit:junit', version: '4.14.0' })).status).toBe(201);
  expect((await publish({ packageManager: 'npm_and_yarn', name: '@acme/gadgets', version: '0.1.0', private: true })).status).toBe(201);
  const yank = (body: Record<string, unknown>) => post(server, '/admin/yank', body);
  expect((await yank({ packageManager: 'pip', name: 'requests', version: '2.31.0', reason: 'broken wheel' })).status).toBe(200);
  expect((await yank({ packageManager: 'npm_and_yarn', name: 'lodash', version: '4.17.20', reason: 'use 4.17.21' })).status).toBe(200);
}

describe('registry emulator: state under dataDir', () => {
  it('what was published and yanked is there again after a restart on the same folder, answered the same, digests included', async () => {
    const dataDir = join(freshFolder(), 'registry');
    const first = await started(dataDir);
    await makeChanges(first);
    const before = new Map<string, string>();
    for (const path of CHANGED_PATHS) before.set(path, await originless(first, path));
    const privateBefore = await originless(first, '/private/npm/@acme%2fgadgets', { authorization: 'Bearer demo-registry-token' });
    // Closed at once, within the debounce: close() writes what is not written yet.
    await first.close();
    expect(readdirSync(dataDir)).toEqual([REGISTRY_STATE_FILE]);

    const second = await started(dataDir);
    for (const path of CHANGED_PATHS) expect(await originless(second, path), path).toBe(before.get(path));
    expect(await originless(second, '/private/npm/@acme%2fgadgets', { authorization: 'Bearer demo-registry-token' })).toBe(privateBefore);
    expect((await get(second, '/npm/@acme%2fgadgets')).status).toBe(404);

    const lodash = (await get(second, '/npm/lodash')).json();
    const expected = digests('npm_and_yarn', 'lodash', '4.17.22');
    expect(lodash['dist-tags'].latest).toBe('4.17.22');
    expect(lodash.versions['4.17.22'].dependencies).toEqual({ 'left-pad': '^1.3.0' });
    expect(lodash.versions['4.17.22'].dist).toMatchObject({ shasum: expected.sha1, integrity: `sha512-${expected.sha512}` });
    expect(lodash.versions['4.17.20'].deprecated).toBe('use 4.17.21');
    const tarball = await get(second, '/npm/lodash/-/lodash-4.17.22.tgz');
    expect(Buffer.from(tarball.text)).toEqual(expected.bytes);
    const requests = (await get(second, '/pypi/pypi/requests/json')).json();
    expect(requests.releases['2.31.0'][0]).toMatchObject({ yanked: true, yanked_reason: 'broken wheel' });
  });

  it('a change after a restart is added to those before it', async () => {
    const dataDir = freshFolder();
    const first = await started(dataDir);
    await makeChanges(first);
    await first.close();
    const second = await started(dataDir);
    expect((await post(second, '/admin/publish', { packageManager: 'npm_and_yarn', name: 'lodash', version: '4.17.23' })).status).toBe(201);
    // Publishing what was published before the restart is refused, as it was then.
    expect((await post(second, '/admin/publish', { packageManager: 'npm_and_yarn', name: 'lodash', version: '4.17.22' })).status).toBe(409);
    await second.close();
    const third = await started(dataDir);
    expect(Object.keys((await get(third, '/npm/lodash')).json().versions)).toEqual(expect.arrayContaining(['4.17.22', '4.17.23']));
    const saved = RegistryStateFile.parse(JSON.parse(readFileSync(join(dataDir, REGISTRY_STATE_FILE), 'utf8')));
    expect(saved.changes.map((c) => `${c.kind} ${c.name}@${c.version}`)).toEqual([
      'publish lodash@4.17.22',
      'publish serde@1.0.300',
      'publish junit:junit@4.14.0',
      'publish @acme/gadgets@0.1.0',
      'yank requests@2.31.0',
      'yank lodash@4.17.20',
      'publish lodash@4.17.23',
    ]);
  });

  it('saves a change shortly after it, without waiting for close', async () => {
    const dataDir = freshFolder();
    const server = await started(dataDir);
    expect((await post(server, '/admin/publish', { packageManager: 'pip', name: 'Django', version: '9.0.0' })).status).toBe(201);
    const file = join(dataDir, REGISTRY_STATE_FILE);
    const deadline = Date.now() + REGISTRY_STATE_DEBOUNCE_MS + 2_000;
    while (!existsSync(file) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    const saved = RegistryStateFile.parse(JSON.parse(readFileSync(file, 'utf8')));
    expect(saved.changes).toEqual([expect.objectContaining({ kind: 'publish', packageManager: 'pip', name: 'Django', version: '9.0.0' })]);
    // A second yank of the same version changes nothing, and is not saved again.
    await post(server, '/admin/yank', { packageManager: 'pip', name: 'Django', version: '9.0.0' });
    await post(server, '/admin/yank', { packageManager: 'pip', name: 'Django', version: '9.0.0', reason: 'again' });
    await server.close();
    expect(RegistryStateFile.parse(JSON.parse(readFileSync(file, 'utf8'))).changes.map((c) => c.kind)).toEqual(['publish', 'yank']);
  });

  it('a fresh folder (created when missing) starts from the seed, and another folder does not see its changes', async () => {
    const used = freshFolder();
    const first = await started(used);
    await makeChanges(first);
    await first.close();

    const fresh = join(freshFolder(), 'not', 'there', 'yet');
    const server = await started(fresh);
    const lodash = (await get(server, '/npm/lodash')).json();
    expect(Object.keys(lodash.versions)).toEqual(['4.17.15', '4.17.19', '4.17.20', '4.17.21']);
    expect(lodash.versions['4.17.20'].deprecated).toBeUndefined();
    expect((await get(server, '/private/npm/@acme%2fgadgets', { authorization: 'Bearer demo-registry-token' })).status).toBe(404);
    expect(readdirSync(fresh)).toEqual([]);
  });

  it('ignores a temporary file a crash left mid-write, and refuses a state file that is not valid', async () => {
    const dataDir = freshFolder();
    const first = await started(dataDir);
    await makeChanges(first);
    await first.close();
    writeFileSync(join(dataDir, `${REGISTRY_STATE_FILE}.tmp`), '{"version":1,"changes":[{"kind":"pub');
    const second = await started(dataDir);
    expect((await get(second, '/npm/lodash')).json()['dist-tags'].latest).toBe('4.17.22');

    const broken = freshFolder();
    writeFileSync(join(broken, REGISTRY_STATE_FILE), '{"version":1,"changes":[{"kind":"pub');
    await expect(start(broken)).rejects.toThrow(join(broken, REGISTRY_STATE_FILE));
    writeFileSync(join(broken, REGISTRY_STATE_FILE), '{"version":2,"changes":[]}');
    await expect(start(broken)).rejects.toThrow(/not valid/);
  });

  it('drops a saved change that no longer applies to the seed, and keeps the rest', async () => {
    const dataDir = freshFolder();
    const at = '2026-01-01T00:00:00.000Z';
    const change = { at, packageManager: 'npm_and_yarn', private: false } as const;
    writeFileSync(
      join(dataDir, REGISTRY_STATE_FILE),
      JSON.stringify({
        version: 1,
        changes: [
          { ...change, kind: 'publish', name: 'lodash', version: '4.17.21', releasedAt: at, dependencies: {} },
          { ...change, kind: 'yank', name: 'lodash', version: '0.0.1', reason: '' },
          { ...change, kind: 'publish', name: 'lodash', version: '4.17.22', releasedAt: at, dependencies: {} },
        ],
      }),
    );
    const server = await started(dataDir);
    expect(Object.keys((await get(server, '/npm/lodash')).json().versions)).toContain('4.17.22');
    await server.close();
    const saved = RegistryStateFile.parse(JSON.parse(readFileSync(join(dataDir, REGISTRY_STATE_FILE), 'utf8')));
    expect(saved.changes.map((c) => `${c.kind} ${c.version}`)).toEqual(['publish 4.17.22']);
  });

  it('without dataDir writes nothing', async () => {
    const before = readdirSync('.');
    const server = await started();
    expect((await post(server, '/admin/publish', { packageManager: 'npm_and_yarn', name: 'lodash', version: '4.17.22' })).status).toBe(201);
    await server.close();
    expect(readdirSync('.')).toEqual(before);
  });

  it('main.ts reads the folder from DATA_DIR', () => {
    expect(loadRegistryEmulatorConfig({ DATA_DIR: '/var/lib/registries' }).DATA_DIR).toBe('/var/lib/registries');
    expect(loadRegistryEmulatorConfig({}).DATA_DIR).toBeUndefined();
  });
});
