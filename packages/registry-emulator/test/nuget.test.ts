import type { Listening } from '@switchyard/service-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_REGISTRY_TOKEN, emulatorRegistryUrls } from '../src/index.ts';
import { nugetKey } from '../src/protocols/nuget.ts';
import { bearer, digests, get, post, startEmulator } from './fixtures.ts';

describe('registry emulator: NuGet v3 feed', () => {
  let server: Listening;
  beforeAll(async () => {
    server = await startEmulator();
  });
  afterAll(() => server.close());

  it('serves the service index at the client base URL, naming the resources under the same scope', async () => {
    expect(emulatorRegistryUrls(server.url).nuget).toBe(`${server.url}/nuget/v3/index.json`);
    const index = (await get(server, '/nuget/v3/index.json')).json();
    expect(index.version).toBe('3.0.0');
    const byType = Object.fromEntries(index.resources.map((r: { '@type': string; '@id': string }) => [r['@type'], r['@id']]));
    expect(byType).toMatchObject({
      'PackageBaseAddress/3.0.0': `${server.url}/nuget/v3-flatcontainer/`,
      RegistrationsBaseUrl: `${server.url}/nuget/v3/registration/`,
      'RegistrationsBaseUrl/3.6.0': `${server.url}/nuget/v3/registration/`,
    });
    const priv = (await get(server, '/private/nuget/v3/index.json', bearer(DEMO_REGISTRY_TOKEN))).json();
    expect(priv.resources[0]['@id']).toBe(`${server.url}/private/nuget/v3-flatcontainer/`);
  });

  it('lists versions in the flat container (lower-case, normalised) and serves the .nupkg', async () => {
    const res = await get(server, '/nuget/v3-flatcontainer/newtonsoft.json/index.json');
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ versions: ['12.0.3', '13.0.1', '13.0.2', '13.0.3'] });
    const nupkg = await get(server, '/nuget/v3-flatcontainer/newtonsoft.json/13.0.3/newtonsoft.json.13.0.3.nupkg');
    expect(nupkg.text).toBe(digests('nuget', 'Newtonsoft.Json', '13.0.3').bytes.toString());
    expect((await get(server, '/nuget/v3-flatcontainer/Newtonsoft.Json/index.json')).status).toBe(404);
    expect((await get(server, '/nuget/v3-flatcontainer/newtonsoft.json/9.9.9/newtonsoft.json.9.9.9.nupkg')).status).toBe(404);
    expect((await get(server, '/nuget/v3-flatcontainer/no.such/index.json')).status).toBe(404);
  });

  it('answers the registration index with leaves: listed, published, dependencies, and the catalog leaf with packageHash', async () => {
    const doc = (await get(server, '/nuget/v3/registration/newtonsoft.json/index.json')).json();
    expect(doc.count).toBe(1);
    const page = doc.items[0];
    expect(page).toMatchObject({ count: 4, lower: '12.0.3', upper: '13.0.3' });
    const leaves = page.items.map((l: { catalogEntry: Record<string, unknown> }) => l.catalogEntry);
    expect(leaves.map((e: { version: string }) => e.version)).toEqual(['12.0.3', '13.0.1', '13.0.2', '13.0.3']);
    expect(leaves[2]).toMatchObject({ listed: false, published: '1900-01-01T00:00:00+00:00' });
    expect(leaves[3]).toMatchObject({
      id: 'Newtonsoft.Json',
      listed: true,
      published: '2023-03-08T07:41:59.000Z',
      projectUrl: 'https://github.com/JamesNK/Newtonsoft.Json',
      packageContent: `${server.url}/nuget/v3-flatcontainer/newtonsoft.json/13.0.3/newtonsoft.json.13.0.3.nupkg`,
    });
    const sinks = (await get(server, '/nuget/v3/registration/serilog.sinks.console/5.0.1.json')).json();
    expect(sinks.catalogEntry.dependencyGroups[0].dependencies).toMatchObject([{ id: 'Serilog', range: '[3.1.1, )' }]);
    const catalog = (await get(server, '/nuget/v3/catalog0/data/newtonsoft.json/13.0.3.json')).json();
    expect(catalog).toMatchObject({
      id: 'Newtonsoft.Json',
      version: '13.0.3',
      packageHash: digests('nuget', 'Newtonsoft.Json', '13.0.3').sha512,
      packageHashAlgorithm: 'SHA512',
    });
  });

  it('shows a version published through the admin API at once, and keeps private packages behind credentials', async () => {
    const published = await post(server, '/admin/publish', { packageManager: 'nuget', name: 'Serilog', version: '3.2.0' });
    expect(published.status).toBe(201);
    expect(published.json()).toMatchObject({
      metadataUrl: `${server.url}/nuget/v3/registration/serilog/index.json`,
      entry: { catalogEntry: { id: 'Serilog', version: '3.2.0', listed: true } },
    });
    expect((await get(server, '/nuget/v3-flatcontainer/serilog/index.json')).json().versions).toContain('3.2.0');
    expect((await get(server, '/nuget/v3-flatcontainer/acme.internal.logging/index.json')).status).toBe(404);
    expect((await get(server, '/private/nuget/v3-flatcontainer/acme.internal.logging/index.json')).status).toBe(401);
    const priv = await get(server, '/private/nuget/v3-flatcontainer/acme.internal.logging/index.json', bearer(DEMO_REGISTRY_TOKEN));
    expect(priv.json()).toEqual({ versions: ['1.0.0', '1.2.0'] });
  });

  it('normalises versions as NuGet does', () => {
    expect(nugetKey('1.0')).toBe('1.0.0');
    expect(nugetKey('1.0.0.0')).toBe('1.0.0');
    expect(nugetKey('2.0.01-Beta+sha.1')).toBe('2.0.1-beta');
    expect(nugetKey('1.2.3.4')).toBe('1.2.3.4');
  });
});
