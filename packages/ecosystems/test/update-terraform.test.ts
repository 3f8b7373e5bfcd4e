import { describe, expect, it } from 'vitest';
import { type DependencyUse, type RegistryVersionDetails, terraform } from '../src/index.ts';
import { fixture } from './fixtures.ts';

const files = fixture('terraform');
const use = (f: Record<string, string>, name: string) => terraform.findDependency(f, name) as DependencyUse;
const versionsTf = files['versions.tf'] ?? '';
const mainTf = files['main.tf'] ?? '';
const lock = files['.terraform.lock.hcl'] ?? '';

describe('terraform updateManifest', () => {
  it.each([
    ['hashicorp/aws', '6.2.0', 'version = "~> 5.0" # pinned', 'version = "~> 6.2" # pinned', '~> 6.2'],
    ['hashicorp/random', '4.1.0', 'version = ">= 3.5.1, < 4.0.0"', 'version = ">= 3.5.1, < 5.0.0"', '>= 3.5.1, < 5.0.0'],
    ['cloudflare/cloudflare', '4.21.0', 'version = "4.20.0"', 'version = "4.21.0"', '4.21.0'],
  ])('%s to %s edits only the version string of versions.tf', (name, target, before, after, requirement) => {
    expect(terraform.updateManifest(files, use(files, name), target)).toEqual({
      files: { 'versions.tf': versionsTf.replace(before, after) },
      requirement,
    });
  });
  it.each([
    ['terraform-aws-modules/vpc/aws', '5.2.0', '"5.1.0"', '"5.2.0"', '5.2.0'],
    ['terraform-aws-modules/eks/aws', '20.1.0', '"~> 19.16"', '"~> 20.1"', '~> 20.1'],
  ])('module %s to %s edits the module block', (name, target, before, after, requirement) => {
    expect(terraform.updateManifest(files, use(files, name), target)).toEqual({
      files: { 'main.tf': mainTf.replace(before, after) },
      requirement,
    });
  });
  it('leaves constraints that allow the target, and declarations without one', () => {
    expect(terraform.updateManifest(files, use(files, 'hashicorp/aws'), '5.40.0')).toEqual({
      unchanged: expect.stringContaining("'~> 5.0' already allows 5.40.0"),
    });
    expect(terraform.updateManifest(files, use(files, 'hashicorp/tls'), '5.0.0')).toEqual({
      unchanged: expect.stringContaining('no version constraint'),
    });
  });
  it('edits every file declaring the provider, keeping CRLF and comments', () => {
    const a =
      'terraform {\r\n  required_providers {\r\n    aws = {\r\n      source = "hashicorp/aws"\r\n      version = "~>4.2" // old\r\n    }\r\n  }\r\n}\r\n';
    const b = 'terraform {\r\n  required_providers {\r\n    aws = { source = "hashicorp/aws", version = ">= 4.0, < 5" }\r\n  }\r\n}\r\n';
    const both = { 'a.tf': a, 'b.tf': b };
    expect(terraform.updateManifest(both, use(both, 'hashicorp/aws'), '5.1.0')).toEqual({
      files: { 'a.tf': a.replace('~>4.2', '~>5.1'), 'b.tf': b.replace('< 5"', '< 6"') },
      requirement: '~>5.1',
    });
  });
  it('refuses versions it cannot rewrite faithfully', () => {
    const computed = { 'main.tf': 'module "m" {\n  source = "a/b/c"\n  version = var.v\n}\n' };
    expect(terraform.updateManifest(computed, use(computed, 'a/b/c'), '2.0.0')).toEqual({
      cannot: expect.stringContaining('not a string literal'),
    });
    const lower = { 'main.tf': 'module "m" {\n  source = "a/b/c"\n  version = "> 2.0.0"\n}\n' };
    expect(terraform.updateManifest(lower, use(lower, 'a/b/c'), '1.0.0')).toHaveProperty('cannot');
    expect(() => terraform.updateManifest(files, use(files, 'hashicorp/aws'), 'v6')).toThrow(/not a valid Terraform version/);
  });
  it('gives a manifest that reads back at the target', () => {
    const result = terraform.updateManifest(files, use(files, 'hashicorp/random'), '4.0.0');
    if (!('files' in result)) throw new Error(JSON.stringify(result));
    const after = { ...files, ...result.files };
    expect(terraform.versions.satisfies('4.0.0', terraform.findDependency(after, 'hashicorp/random')?.requirement ?? '')).toBe(true);
  });
});

const details = (version: string, sha: string[]): RegistryVersionDetails => ({
  name: 'hashicorp/aws',
  version,
  dependencies: [],
  artifacts: sha.map((value, i) => ({
    filename: `terraform-provider-aws_${version}_os${i}_amd64.zip`,
    url: `https://releases.example/terraform-provider-aws_${version}_os${i}_amd64.zip`,
    digests: [{ algorithm: 'sha256', value, encoding: 'hex' }],
  })),
});

describe('terraform updateLockfiles', () => {
  const a = 'a'.repeat(64);
  const b = 'b'.repeat(64);
  it("rewrites the provider's version, constraints and hashes, nothing else", async () => {
    const manifest = terraform.updateManifest(files, use(files, 'hashicorp/aws'), '6.2.0');
    if (!('files' in manifest)) throw new Error('no manifest update');
    const result = await terraform.updateLockfiles?.({
      files,
      updated: { ...files, ...manifest.files },
      use: use(files, 'hashicorp/aws'),
      target: details('6.2.0', [b, a]),
      registries: [],
    });
    const block = /provider "registry\.terraform\.io\/hashicorp\/aws" \{[^}]*\}/.exec(lock)?.[0] ?? '';
    const expected = `provider "registry.terraform.io/hashicorp/aws" {
  version     = "6.2.0"
  constraints = "~> 6.2"
  hashes = [
    "zh:${a}",
    "zh:${b}",
  ]
}`;
    expect(result).toEqual({ files: { '.terraform.lock.hcl': lock.replace(block, expected) } });
  });
  it('keeps CRLF line endings and writes h1 hashes the registry gives', async () => {
    const crlf = lock.replaceAll('\n', '\r\n');
    const crlfFiles = { ...files, '.terraform.lock.hcl': crlf };
    const target = details('5.40.0', [a]);
    target.artifacts[0]?.digests.push({ algorithm: 'h1', value: 'h1:abc=', encoding: 'prefixed' });
    const result = await terraform.updateLockfiles?.({
      files: crlfFiles,
      updated: crlfFiles,
      use: use(crlfFiles, 'hashicorp/aws'),
      target,
      registries: [],
    });
    const text = (result as { files: Record<string, string> }).files['.terraform.lock.hcl'] ?? '';
    expect(text).not.toMatch(/[^\r]\n/);
    expect(text).toContain('version     = "5.40.0"\r\n  constraints = "~> 5.0"\r\n  hashes = [\r\n    "h1:abc=",\r\n    "zh:');
    expect(terraform.findDependency({ ...crlfFiles, '.terraform.lock.hcl': text }, 'hashicorp/aws')?.version).toBe('5.40.0');
  });
  it('writes an inline hashes list one hash per line', async () => {
    const inline = {
      'main.tf': 'terraform {\n  required_providers {\n    aws = { source = "hashicorp/aws" }\n  }\n}\n',
      '.terraform.lock.hcl': 'provider "registry.terraform.io/hashicorp/aws" {\n  version = "5.31.0"\n  hashes  = ["zh:00"]\n}\n',
    };
    const result = await terraform.updateLockfiles?.({
      files: inline,
      updated: inline,
      use: use(inline, 'hashicorp/aws'),
      target: details('5.32.0', [a]),
      registries: [],
    });
    expect(result).toEqual({
      files: {
        '.terraform.lock.hcl': `provider "registry.terraform.io/hashicorp/aws" {\n  version = "5.32.0"\n  hashes  = [\n    "zh:${a}",\n  ]\n}\n`,
      },
    });
  });
  it('leaves the lock file for modules and unlocked providers, and asks for resolution without digests', async () => {
    const request = (name: string, target: RegistryVersionDetails) => ({
      files,
      updated: files,
      use: use(files, name),
      target,
      registries: [],
    });
    expect(await terraform.updateLockfiles?.(request('terraform-aws-modules/vpc/aws', { ...details('5.2.0', []), name: 'x' }))).toEqual({
      files: {},
    });
    expect(await terraform.updateLockfiles?.(request('hashicorp/aws', details('5.40.0', [])))).toEqual({
      needsResolution: expect.stringContaining('no SHA-256'),
    });
  });
});
