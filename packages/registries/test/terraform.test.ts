import { createHash } from 'node:crypto';
import { DEMO_REGISTRY_TOKEN, loadDemoSeed, startRegistryEmulator } from '@switchyard/registry-emulator';
import { createLogger } from '@switchyard/service-kit';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { createTerraformRegistry, DEFAULT_TERRAFORM_URL, terraformAddress } from '../src/adapters/terraform.ts';
import { RegistryError } from '../src/port.ts';
import { DEFAULT_REGISTRY_URLS, registryFor } from '../src/registry-for.ts';
import { closedAfterEach, fixture } from './fixture-server.ts';

describe('Terraform registry adapter', () => {
  const { serve, track } = closedAfterEach();
  const registry = (options: Parameters<typeof createTerraformRegistry>[0]) =>
    track(createTerraformRegistry({ retryDelayMs: 10, retries: 0, ...options }));

  it('defaults to the public registry and is what registryFor gives', () => {
    expect(DEFAULT_TERRAFORM_URL).toBe(DEFAULT_REGISTRY_URLS.terraform);
    expect(track(createTerraformRegistry()).baseUrl).toBe(DEFAULT_TERRAFORM_URL);
    const viaFor = registryFor('terraform');
    expect(viaFor?.packageManager).toBe('terraform');
    if (viaFor) track(viaFor);
  });

  it('tells providers from modules by the number of parts', () => {
    expect(terraformAddress('hashicorp/aws')).toEqual({ kind: 'provider', parts: ['hashicorp', 'aws'] });
    expect(terraformAddress('terraform-aws-modules/vpc/aws').kind).toBe('module');
    for (const name of ['', 'aws', 'registry.terraform.io/hashicorp/aws/x', 'a//b', 'a/b c', '../x']) {
      expect(() => terraformAddress(name), name).toThrow(TypeError);
    }
  });

  it('reads provider versions through service discovery, without times or digests', async () => {
    const server = await serve({
      '/.well-known/terraform.json': { body: await fixture('terraform/terraform.json') },
      '/v1/providers/hashicorp/aws/versions': { body: await fixture('terraform/aws.versions.json') },
    });
    const pkg = await registry({ baseUrl: server.url }).fetchPackage('hashicorp/aws');
    expect(pkg).toEqual({
      name: 'hashicorp/aws',
      latest: null,
      sourceUrl: null,
      changelogUrl: null,
      versions: ['5.31.0', '5.32.0', '6.0.0-beta1'].map((version) => ({
        version,
        releasedAt: null,
        yanked: false,
        deprecated: null,
        digests: [],
      })),
    });
  });

  it('reads module versions', async () => {
    const server = await serve({
      '/.well-known/terraform.json': { body: await fixture('terraform/terraform.json') },
      '/v1/modules/terraform-aws-modules/vpc/aws/versions': { body: await fixture('terraform/vpc.versions.json') },
    });
    const terraform = registry({ baseUrl: server.url });
    const pkg = await terraform.fetchPackage('terraform-aws-modules/vpc/aws');
    expect(pkg?.versions.map((v) => v.version)).toEqual(['5.1.2', '5.1.0', '5.0.0']);
    expect(await terraform.describeVersion?.('terraform-aws-modules/vpc/aws', '5.1.0')).toEqual({
      name: 'terraform-aws-modules/vpc/aws',
      version: '5.1.0',
      dependencies: null,
      artifacts: [],
    });
    expect(await terraform.describeVersion?.('terraform-aws-modules/vpc/aws', '9.0.0')).toBeUndefined();
    expect(await terraform.fetchPackage('nobody/none/aws')).toBeUndefined();
  });

  it("describes a provider version with every platform zip's SHA-256 from SHA256SUMS", async () => {
    const server = await serve({
      '/.well-known/terraform.json': { body: await fixture('terraform/terraform.json') },
      '/v1/providers/hashicorp/aws/versions': { body: await fixture('terraform/aws.versions.json') },
      '/releases/terraform-provider-aws/5.32.0/terraform-provider-aws_5.32.0_SHA256SUMS': {
        body: await fixture('terraform/aws.SHA256SUMS'),
        contentType: 'text/plain',
      },
    });
    server.set('/v1/providers/hashicorp/aws/5.32.0/download/linux/amd64', {
      body: (await fixture('terraform/aws.download.json'))
        .toString('utf8')
        .replaceAll('https://releases.hashicorp.com/', `${server.url}releases/`),
    });
    const details = await registry({ baseUrl: server.url }).describeVersion?.('hashicorp/aws', '5.32.0');
    expect(details).toEqual({
      name: 'hashicorp/aws',
      version: '5.32.0',
      dependencies: [],
      artifacts: [
        {
          filename: 'terraform-provider-aws_5.32.0_darwin_arm64.zip',
          url: `${server.url}releases/terraform-provider-aws/5.32.0/terraform-provider-aws_5.32.0_darwin_arm64.zip`,
          digests: [{ algorithm: 'sha256', value: '2f0bd1e1c0f8a2b7c3d5e4f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a', encoding: 'hex' }],
        },
        {
          filename: 'terraform-provider-aws_5.32.0_linux_amd64.zip',
          url: `${server.url}releases/terraform-provider-aws/5.32.0/terraform-provider-aws_5.32.0_linux_amd64.zip`,
          digests: [{ algorithm: 'sha256', value: '5f9f9ec4fa2bd2b2ffb0ab7b5c5c3b8fe3b8f3b66f3e8f0cb6c3f0ad2d1f8a71', encoding: 'hex' }],
        },
      ],
    });
  });

  it('adds the h1 hash of the linux_amd64 zip, and refuses a zip that is not its shasum', async () => {
    const executable = new TextEncoder().encode('provider binary');
    const zip = Buffer.from(zipSync({ 'terraform-provider-aws_v5.32.0_x5': [executable, { mtime: new Date('2020-01-01T00:00:00Z') }] }));
    const sha = createHash('sha256').update(zip).digest('hex');
    const line = `${createHash('sha256').update(executable).digest('hex')}  terraform-provider-aws_v5.32.0_x5\n`;
    const h1 = `h1:${createHash('sha256').update(line).digest('base64')}`;
    const server = await serve({
      '/.well-known/terraform.json': { body: await fixture('terraform/terraform.json') },
      '/v1/providers/hashicorp/aws/versions': { body: await fixture('terraform/aws.versions.json') },
      '/files/terraform-provider-aws_5.32.0_linux_amd64.zip': { body: zip, contentType: 'application/zip' },
    });
    const answer = (shasum: string) =>
      JSON.stringify({
        os: 'linux',
        arch: 'amd64',
        filename: 'terraform-provider-aws_5.32.0_linux_amd64.zip',
        download_url: `${server.url}files/terraform-provider-aws_5.32.0_linux_amd64.zip`,
        shasum,
      });
    server.set('/v1/providers/hashicorp/aws/5.32.0/download/linux/amd64', { body: answer(sha) });
    const details = await registry({ baseUrl: server.url }).describeVersion?.('hashicorp/aws', '5.32.0');
    expect(details?.artifacts).toEqual([
      {
        filename: 'terraform-provider-aws_5.32.0_linux_amd64.zip',
        url: `${server.url}files/terraform-provider-aws_5.32.0_linux_amd64.zip`,
        digests: [
          { algorithm: 'sha256', value: sha, encoding: 'hex' },
          { algorithm: 'h1', value: h1, encoding: 'prefixed' },
        ],
      },
    ]);
    server.set('/v1/providers/hashicorp/aws/5.32.0/download/linux/amd64', { body: answer('0'.repeat(64)) });
    await expect(registry({ baseUrl: server.url }).describeVersion?.('hashicorp/aws', '5.32.0')).rejects.toMatchObject({
      kind: 'bad_response',
    });
  });

  it('gives the zh digests only for a zip over maxZipBytes, and refuses a zip declaring over 500 MiB uncompressed', async () => {
    const zip = Buffer.from(zipSync({ 'terraform-provider-aws_v5.32.0_x5': new TextEncoder().encode('provider binary') }));
    const server = await serve({
      '/.well-known/terraform.json': { body: await fixture('terraform/terraform.json') },
      '/v1/providers/hashicorp/aws/versions': { body: await fixture('terraform/aws.versions.json') },
    });
    const serveZip = (bytes: Buffer) => {
      server.set('/files/terraform-provider-aws_5.32.0_linux_amd64.zip', { body: bytes, contentType: 'application/zip' });
      server.set('/v1/providers/hashicorp/aws/5.32.0/download/linux/amd64', {
        body: JSON.stringify({
          os: 'linux',
          arch: 'amd64',
          filename: 'terraform-provider-aws_5.32.0_linux_amd64.zip',
          download_url: `${server.url}files/terraform-provider-aws_5.32.0_linux_amd64.zip`,
          shasum: createHash('sha256').update(bytes).digest('hex'),
        }),
      });
      return createHash('sha256').update(bytes).digest('hex');
    };
    const sha = serveZip(zip);
    const small = registry({ baseUrl: server.url, maxZipBytes: zip.length - 1 });
    expect((await small.describeVersion?.('hashicorp/aws', '5.32.0'))?.artifacts).toEqual([
      {
        filename: 'terraform-provider-aws_5.32.0_linux_amd64.zip',
        url: `${server.url}files/terraform-provider-aws_5.32.0_linux_amd64.zip`,
        digests: [{ algorithm: 'sha256', value: sha, encoding: 'hex' }],
      },
    ]);
    expect(
      (
        await registry({ baseUrl: server.url, maxZipBytes: zip.length }).describeVersion?.('hashicorp/aws', '5.32.0')
      )?.artifacts[0]?.digests.map((d) => d.algorithm),
    ).toEqual(['sha256', 'h1']);

    const forged = Buffer.from(zip);
    for (let i = 0; i + 30 <= forged.length; i++) {
      if (forged.readUInt32LE(i) === 0x02014b50) forged.writeUInt32LE(0xf000_0000, i + 24);
      else if (forged.readUInt32LE(i) === 0x04034b50) forged.writeUInt32LE(0xf000_0000, i + 22);
    }
    serveZip(forged);
    await expect(registry({ baseUrl: server.url }).describeVersion?.('hashicorp/aws', '5.32.0')).rejects.toMatchObject({
      kind: 'bad_response',
      message: expect.stringMatching(/declares 4026531840 uncompressed bytes, over 524288000/),
    });
  });

  it('reports nonsense as bad_response and a host without the registry as unknown packages', async () => {
    const server = await serve({
      '/.well-known/terraform.json': { body: await fixture('terraform/terraform.json') },
      '/v1/providers/hashicorp/aws/versions': { body: '{"versions": [{"protocols": []}]}' },
      '/v1/providers/hashicorp/bad/versions': { body: 'not json' },
    });
    const terraform = registry({ baseUrl: server.url });
    await expect(terraform.fetchPackage('hashicorp/aws')).rejects.toMatchObject({ kind: 'bad_response' });
    await expect(terraform.fetchPackage('hashicorp/bad')).rejects.toBeInstanceOf(RegistryError);
    const empty = await serve({});
    expect(await registry({ baseUrl: empty.url }).fetchPackage('hashicorp/aws')).toBeUndefined();
  });
});

describe('Terraform adapter against the registry emulator', () => {
  it('reads providers and modules, sees a published version, and reads the private registry with credentials only', async () => {
    const emulator = await startRegistryEmulator({ seed: loadDemoSeed(), logger: createLogger('registry-emulator', 'silent') });
    const open = [
      createTerraformRegistry({ baseUrl: `${emulator.url}/terraform/`, retries: 0 }),
      createTerraformRegistry({ baseUrl: `${emulator.url}/private/terraform/`, retries: 0 }),
      createTerraformRegistry({ baseUrl: `${emulator.url}/private/terraform/`, retries: 0, credentials: { token: DEMO_REGISTRY_TOKEN } }),
    ] as const;
    const [terraform, anonymous, authorised] = open;
    try {
      expect((await terraform.fetchPackage('hashicorp/aws'))?.versions.map((v) => v.version)).toEqual(['5.31.0', '5.30.0']);
      expect((await terraform.fetchPackage('terraform-aws-modules/vpc/aws'))?.versions.map((v) => v.version)).toContain('5.1.0');
      const published = await fetch(`${emulator.url}/admin/publish`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ packageManager: 'terraform', name: 'hashicorp/aws', version: '5.32.0' }),
      });
      expect(published.status).toBe(201);
      expect((await terraform.fetchPackage('hashicorp/aws'))?.versions.map((v) => v.version)).toContain('5.32.0');
      const details = await terraform.describeVersion?.('hashicorp/aws', '5.32.0');
      expect(details?.artifacts.map((a) => a.filename)).toEqual([
        'terraform-provider-aws_5.32.0_darwin_arm64.zip',
        'terraform-provider-aws_5.32.0_linux_amd64.zip',
        'terraform-provider-aws_5.32.0_linux_arm64.zip',
        'terraform-provider-aws_5.32.0_windows_amd64.zip',
      ]);
      expect(details?.artifacts.find((a) => a.filename.endsWith('_linux_amd64.zip'))?.digests[1]).toMatchObject({ algorithm: 'h1' });
      // each digest is the SHA-256 of the zip its URL serves
      for (const artifact of details?.artifacts ?? []) {
        const bytes = Buffer.from(await (await fetch(artifact.url)).arrayBuffer());
        expect(createHash('sha256').update(bytes).digest('hex')).toBe(artifact.digests[0]?.value);
      }
      await expect(anonymous.fetchPackage('acme/platform')).rejects.toMatchObject({ kind: 'auth_failed' });
      expect((await authorised.fetchPackage('acme/platform'))?.versions.map((v) => v.version)).toEqual(['1.3.0', '1.2.0']);
      expect(await terraform.fetchPackage('acme/platform')).toBeUndefined();
    } finally {
      for (const registry of open) await registry.close();
      await emulator.close();
    }
  });
});
