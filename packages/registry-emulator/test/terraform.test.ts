import { createHash } from 'node:crypto';
import type { Listening } from '@switchyard/service-kit';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { providerH1, providerZipSha256 } from '../src/protocols/terraform.ts';
import { bearer, get, post, startEmulator } from './fixtures.ts';

describe('terraform protocol', () => {
  let server: Listening;
  beforeAll(async () => {
    server = await startEmulator();
  });
  afterAll(async () => {
    await server.close();
  });

  it('answers service discovery with absolute protocol bases', async () => {
    const res = await get(server, '/terraform/.well-known/terraform.json');
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({
      'providers.v1': `${server.url}/terraform/v1/providers/`,
      'modules.v1': `${server.url}/terraform/v1/modules/`,
    });
    expect((await get(server, '/private/terraform/.well-known/terraform.json', bearer('demo-registry-token'))).json()['providers.v1']).toBe(
      `${server.url}/private/terraform/v1/providers/`,
    );
  });

  it('lists provider versions with platforms, case-insensitively', async () => {
    const res = await get(server, '/terraform/v1/providers/HashiCorp/AWS/versions');
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({
      id: 'hashicorp/aws',
      versions: [
        { version: '5.31.0', protocols: ['5.0'], platforms: expect.arrayContaining([{ os: 'linux', arch: 'amd64' }]) },
        { version: '5.30.0' },
      ],
    });
  });

  it('serves a download answer whose shasum is the SHA-256 of a real zip, listed in SHA256SUMS', async () => {
    const res = await get(server, '/terraform/v1/providers/hashicorp/aws/5.31.0/download/linux/amd64');
    expect(res.status).toBe(200);
    const answer = res.json();
    expect(answer).toMatchObject({ os: 'linux', arch: 'amd64', filename: 'terraform-provider-aws_5.31.0_linux_amd64.zip' });
    const zip = Buffer.from(await (await fetch(answer.download_url)).arrayBuffer());
    expect(createHash('sha256').update(zip).digest('hex')).toBe(answer.shasum);
    expect(answer.shasum).toBe(providerZipSha256('hashicorp/aws', '5.31.0', 'linux', 'amd64'));
    const entries = unzipSync(zip);
    expect(Object.keys(entries)).toEqual(['terraform-provider-aws_v5.31.0_x5']);
    // the h1 hash is computable from the zip's files (dirhash Hash1)
    const [file, bytes] = Object.entries(entries)[0] as [string, Uint8Array];
    const line = `${createHash('sha256').update(bytes).digest('hex')}  ${file}\n`;
    expect(`h1:${createHash('sha256').update(line).digest('base64')}`).toBe(providerH1('hashicorp/aws', '5.31.0', 'linux', 'amd64'));
    const sums = await get(server, new URL(answer.shasums_url).pathname);
    expect(sums.text).toContain(`${answer.shasum}  terraform-provider-aws_5.31.0_linux_amd64.zip\n`);
    expect(sums.text.trim().split('\n')).toHaveLength(4);
  });

  it('lists module versions and answers their download with X-Terraform-Get', async () => {
    const res = await get(server, '/terraform/v1/modules/terraform-aws-modules/vpc/aws/versions');
    expect(res.json()).toMatchObject({
      modules: [{ source: 'terraform-aws-modules/vpc/aws', versions: [{ version: '5.1.2' }, { version: '5.1.0' }, { version: '5.0.0' }] }],
    });
    const download = await get(server, '/terraform/v1/modules/terraform-aws-modules/vpc/aws/5.1.0/download');
    expect(download.status).toBe(204);
    expect(download.headers['x-terraform-get']).toBe('git::https://github.com/terraform-aws-modules/terraform-aws-vpc?ref=v5.1.0');
  });

  it('answers unknown things with the registry error shape, and keeps providers and modules apart', async () => {
    for (const path of [
      '/terraform/v1/providers/hashicorp/nope/versions',
      '/terraform/v1/providers/hashicorp/aws/9.9.9/download/linux/amd64',
      '/terraform/v1/providers/hashicorp/aws/5.31.0/download/plan9/mips',
      '/terraform/v1/modules/hashicorp/aws/x/versions',
      '/terraform/v1/providers/terraform-aws-modules/vpc/versions',
      '/terraform/v2/providers',
    ]) {
      const res = await get(server, path);
      expect(res.status, path).toBe(404);
      expect(res.json(), path).toEqual({ errors: ['Not Found'] });
    }
  });

  it('shows a version published through the admin API, and serves private providers with credentials', async () => {
    const published = await post(server, '/admin/publish', { packageManager: 'terraform', name: 'hashicorp/aws', version: '5.33.0' });
    expect(published.status).toBe(201);
    expect(published.json()).toMatchObject({
      entry: { version: '5.33.0', protocols: ['5.0'] },
      metadataUrl: `${server.url}/terraform/v1/providers/hashicorp/aws/versions`,
    });
    expect((await get(server, '/terraform/v1/providers/hashicorp/aws/versions')).json().versions[0].version).toBe('5.33.0');
    expect((await get(server, '/private/terraform/v1/providers/acme/platform/versions')).status).toBe(401);
    expect((await get(server, '/private/terraform/v1/providers/acme/platform/versions', bearer('demo-registry-token'))).status).toBe(200);
    expect((await get(server, '/terraform/v1/providers/acme/platform/versions')).status).toBe(404);
  });
});
