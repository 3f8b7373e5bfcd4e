import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  InvalidRequirementError,
  InvalidVersionError,
  ManifestParseError,
  normaliseTerraformName,
  parseTerraformConstraint,
  terraform,
  terraformVersions,
} from '../src/index.ts';
import { parseHcl } from '../src/terraform/hcl.ts';
import { moduleName, providerName } from '../src/terraform/terraform-files.ts';
import { fixture, sorted } from './fixtures.ts';

const files = fixture('terraform');
const find = (name: string) => terraform.findDependency(files, name);

describe('terraform findDependency', () => {
  it('reads required_providers with the lock file version', () => {
    expect(find('hashicorp/aws')).toEqual({
      name: 'hashicorp/aws',
      type: 'runtime',
      requirement: '~> 5.0',
      version: '5.31.0',
      manifest: 'versions.tf',
    });
    expect(find('hashicorp/random')).toMatchObject({ requirement: '>= 3.5.1, < 4.0.0', version: '3.6.0' });
    expect(find('hashicorp/tls')).toMatchObject({ requirement: null, version: '4.0.5' });
  });
  it('names providers namespace/type whatever the source spelling, case-insensitively', () => {
    expect(find('registry.terraform.io/HashiCorp/Random')).toMatchObject({ name: 'hashicorp/random' });
    expect(normaliseTerraformName('Registry.Terraform.io/hashicorp/AWS')).toBe('hashicorp/aws');
    expect(providerName('aws')).toEqual({ name: 'hashicorp/aws', registry: true });
    expect(providerName('registry.terraform.io/hashicorp/aws')).toEqual({ name: 'hashicorp/aws', registry: true });
    expect(providerName('tf.example.com/acme/internal')).toEqual({ name: 'tf.example.com/acme/internal', registry: false });
  });
  it('reads registry modules and their versions; an exact pin is the version in use', () => {
    expect(find('terraform-aws-modules/vpc/aws')).toEqual({
      name: 'terraform-aws-modules/vpc/aws',
      type: 'runtime',
      requirement: '5.1.0',
      version: '5.1.0',
      manifest: 'main.tf',
    });
    expect(find('terraform-aws-modules/eks/aws')).toMatchObject({ requirement: '~> 19.16', version: null });
    expect(find('cloudposse/label/null')).toMatchObject({ requirement: null, version: null });
  });
  it('tells registry module sources from local, git and URL ones', () => {
    expect(moduleName('terraform-aws-modules/vpc/aws')).toBe('terraform-aws-modules/vpc/aws');
    expect(moduleName('registry.terraform.io/terraform-aws-modules/eks/aws//modules/karpenter')).toBe('terraform-aws-modules/eks/aws');
    for (const source of [
      './modules/thing',
      '../shared',
      'git::https://example.com/network.git?ref=v1.2.0',
      'github.com/hashicorp/example',
      'git@github.com:hashicorp/example.git',
      'https://example.com/vpc-module.zip',
      's3::https://s3-eu-west-1.amazonaws.com/bucket/vpc.zip',
      'app.terraform.io/acme/vpc/aws',
    ]) {
      expect(moduleName(source), source).toBeUndefined();
    }
  });
  it('lists every registry dependency once, leaving out local, git and other-host sources', () => {
    const names = terraform.listDependencies(files).map((use) => use.name);
    expect(names).toEqual([
      'terraform-aws-modules/vpc/aws',
      'terraform-aws-modules/eks/aws',
      'cloudposse/label/null',
      'hashicorp/aws',
      'hashicorp/random',
      'hashicorp/tls',
      'cloudflare/cloudflare',
    ]);
    for (const use of terraform.listDependencies(files)) expect(terraform.findDependency(files, use.name)).toEqual(use);
  });
  it('gives the lock file version only to providers, and none to a provider declared without lock', () => {
    const { '.terraform.lock.hcl': _, ...withoutLock } = files;
    expect(terraform.findDependency(withoutLock, 'hashicorp/aws')).toMatchObject({ version: null });
    expect(terraform.findDependency(withoutLock, 'cloudflare/cloudflare')).toMatchObject({ version: '4.20.0' });
  });
  it('reads the 0.12 string shorthand and single-line blocks', () => {
    const tf = { 'old.tf': 'terraform {\n  required_providers {\n    google = "~> 3.5"\n  }\n}\nmodule "m" { source = "a/b/c" }\n' };
    expect(terraform.findDependency(tf, 'hashicorp/google')).toMatchObject({ requirement: '~> 3.5', manifest: 'old.tf' });
    expect(terraform.findDependency(tf, 'a/b/c')).toMatchObject({ requirement: null });
  });
  it('reports files that are not HCL with the file name', () => {
    for (const text of ['terraform {\n', 'module "x" {\n  source = "a/b/c\n}\n', 'x = [1, 2\n', '}', '/* open']) {
      expect(() => terraform.findDependency({ 'bad.tf': text }, 'a/b/c'), text).toThrow(ManifestParseError);
      expect(() => terraform.findDependency({ 'bad.tf': text }, 'a/b/c'), text).toThrow(/^bad\.tf: /);
    }
    expect(() => terraform.findDependency({ 'main.tf': '', '.terraform.lock.hcl': 'provider "x" {' }, 'a/b')).not.toThrow();
    expect(() => terraform.listDependencies({ 'main.tf': 'terraform {}', '.terraform.lock.hcl': 'provider "x" {' })).not.toThrow();
  });
});

describe('terraform files nested too deep or with bad escapes', () => {
  const fails = (text: string, reason: string) => {
    expect(() => terraform.findDependency({ 'main.tf': text }, 'a/b/c'), text.slice(0, 20)).toThrow(
      expect.objectContaining({ name: 'ManifestParseError', file: 'main.tf', reason: expect.stringContaining(reason) }),
    );
  };
  it('refuses HCL whose blocks, objects, tuples or templates nest too deep', () => {
    const n = 30_000;
    fails(`${'a {\n'.repeat(n)}${'}\n'.repeat(n)}`, 'nesting too deep');
    fails(`x = ${'{ a = '.repeat(n)}1${' }'.repeat(n)}\n`, 'nesting too deep');
    fails(`x = ${'['.repeat(n)}${']'.repeat(n)}\n`, 'nesting too deep');
    fails(`x = ${'"${'.repeat(n)}1${'}"'.repeat(n)}\n`, 'nesting too deep');
    const deep = parseHcl('t.tf', `x = ${'['.repeat(200)}"1"${']'.repeat(200)}\n${'a {\n'.repeat(200)}${'}\n'.repeat(200)}`);
    expect(deep.attributes[0]?.value.kind).toBe('tuple');
    expect(deep.blocks).toHaveLength(1);
  });
  it('refuses \\u and \\U escapes that are not a Unicode character', () => {
    fails('x = "\\UFFFFFFFF"\n', 'not a Unicode character');
    fails('x = "\\U00110000"\n', 'not a Unicode character');
    fails('x = "\\uD800"\n', 'not a Unicode character');
    expect(parseHcl('t.tf', 'x = "\\U0001F600\\u00e9"\n').attributes[0]?.value).toMatchObject({ kind: 'string', value: '\u{1F600}\u00e9' });
  });
});

describe('terraform JSON syntax (.tf.json)', () => {
  const json = JSON.stringify(
    {
      terraform: [{ required_providers: [{ google: { source: 'hashicorp/google', version: '~> 5.10' }, null: '>= 3.0' }] }],
      module: { network: { source: 'terraform-google-modules/network/google', version: '9.0.0' }, local: { source: './local' } },
    },
    null,
    2,
  );
  const files = { 'main.tf.json': json };
  it('reads providers and modules, also as arrays of blocks', () => {
    expect(terraform.listDependencies(files)).toEqual([
      { name: 'hashicorp/google', type: 'runtime', requirement: '~> 5.10', version: null, manifest: 'main.tf.json' },
      { name: 'hashicorp/null', type: 'runtime', requirement: '>= 3.0', version: null, manifest: 'main.tf.json' },
      {
        name: 'terraform-google-modules/network/google',
        type: 'runtime',
        requirement: '9.0.0',
        version: '9.0.0',
        manifest: 'main.tf.json',
      },
    ]);
    expect(terraform.files.required).toEqual([['*.tf', '*.tf.json']]);
  });
  it('rewrites the JSON strings in place', () => {
    const use = terraform.findDependency(files, 'hashicorp/google');
    expect(use && terraform.updateManifest(files, use, '6.1.0')).toEqual({
      files: { 'main.tf.json': json.replace('"~> 5.10"', '"~> 6.1"') },
      requirement: '~> 6.1',
    });
    const module = terraform.findDependency(files, 'terraform-google-modules/network/google');
    expect(module && terraform.updateManifest(files, module, '9.1.0')).toEqual({
      files: { 'main.tf.json': json.replace('"9.0.0"', '"9.1.0"') },
      requirement: '9.1.0',
    });
  });
  it('reports a file that is not a JSON object', () => {
    expect(() => terraform.listDependencies({ 'main.tf.json': '[1' })).toThrow(ManifestParseError);
  });
});

describe('the HCL reader', () => {
  it('keeps the offsets of string literals, skips comments, heredocs and templates', () => {
    const text = ['a = "x\\"y" # c', 'b = <<EOT', '}{', 'EOT', `c = "$\{var.x}-1"`, 'd { e = ["1", "2",] }', ''].join('\n');
    const body = parseHcl('t.tf', text);
    const a = body.attributes[0]?.value;
    expect(a).toMatchObject({ kind: 'string', value: 'x"y', escaped: true });
    expect(text.slice(a?.start, a?.end)).toBe('x\\"y');
    expect(body.attributes.map((attr) => [attr.name, attr.value.kind])).toEqual([
      ['a', 'string'],
      ['b', 'other'],
      ['c', 'other'],
    ]);
    expect(body.blocks[0]?.body.attributes[0]?.value).toMatchObject({ kind: 'tuple', items: [{ value: '1' }, { value: '2' }] });
    const loops = parseHcl(
      't.tf',
      'a = {for k, v in var.m : k => upper(v)}\nb = [for s in var.l : s if s != ""]\nc = { (var.k) = 1, "d" : 2 }\n',
    );
    // a `for` expression in brackets is one expression (HCL's ForExpr), not a tuple of items
    expect(loops.attributes.map((attr) => attr.value.kind)).toEqual(['other', 'other', 'object']);
  });
});

describe('terraform version scheme', () => {
  const v = terraformVersions;
  it('orders SemVer versions, pre-releases first', () => {
    expect(sorted(['1.10.0', '1.2.0', '1.2.0-beta1', '0.9.9', '1.2.0-alpha'], v.compare)).toEqual([
      '0.9.9',
      '1.2.0-alpha',
      '1.2.0-beta1',
      '1.2.0',
      '1.10.0',
    ]);
    expect(v.isValid('5.31.0')).toBe(true);
    expect(v.isValid('v5.31.0')).toBe(false);
    expect(v.isValid('5.31')).toBe(false);
    expect(() => v.compare('x', '1.0.0')).toThrow(InvalidVersionError);
  });
  it.each([
    ['~> 1.2', '1.2.0', true],
    ['~> 1.2', '1.9.3', true],
    ['~> 1.2', '2.0.0', false],
    ['~> 1.2', '1.1.9', false],
    ['~> 1.2.0', '1.2.9', true],
    ['~> 1.2.0', '1.3.0', false],
    ['~> 1', '1.9.0', true],
    ['~> 1', '2.0.0', false],
    ['>= 1.2.0, < 2.0.0', '1.5.0', true],
    ['>= 1.2.0, < 2.0.0', '2.0.0', false],
    ['1.2.3', '1.2.3', true],
    ['= 1.2', '1.2.0', true],
    ['!= 1.2.3', '1.2.3', false],
    ['> 1.2.3', '1.2.4', true],
    ['<= 1.2.3', '1.2.3', true],
    ['>= 1.0.0', '2.0.0-beta1', false],
    ['~> 2.0', '2.1.0-rc1', false],
    ['2.0.0-beta1', '2.0.0-beta1', true],
    ['= 2.0.0-beta1, < 3', '2.0.0-beta1', true],
  ])("'%s' allows %s: %s", (requirement, version, expected) => {
    expect(v.satisfies(version, requirement)).toBe(expected);
  });
  it('rejects what is not a constraint', () => {
    for (const requirement of ['', '^1.0', '~1.2', '>= x', '1.0 || 2.0', '>= 1.0.0 < 2.0.0']) {
      expect(() => v.satisfies('1.0.0', requirement), requirement).toThrow(InvalidRequirementError);
    }
  });
  it('gives lower bounds, pre-release intent, positions and update kinds', () => {
    expect(v.lowestAllowed?.('~> 5.0')).toBe('5.0.0');
    expect(v.lowestAllowed?.('>= 1.2, < 2')).toBe('1.2.0');
    expect(v.lowestAllowed?.('< 2')).toBeNull();
    expect(v.allowsPrereleases?.('1.0.0-rc1')).toBe(true);
    expect(v.allowsPrereleases?.('~> 1.0')).toBe(false);
    expect(v.release?.('5.31.2')).toEqual([5, 31, 2]);
    expect(v.updateKind('5.31.0', '5.32.0')).toBe('minor');
    expect(v.updateKind('5.31.0', '6.0.0')).toBe('major');
    expect(v.isPrerelease('1.0.0-beta1')).toBe(true);
    expect(parseTerraformConstraint('~>1.2, != 1.4.1').map((c) => [c.operator, c.written, c.precision])).toEqual([
      ['~>', '1.2', 2],
      ['!=', '1.4.1', 3],
    ]);
  });
});

describe('terraform demo directory', () => {
  it('reads the GitHub emulator demo files and finds the end-to-end dependency', () => {
    const seed = JSON.parse(readFileSync(new URL('../../github-emulator/src/demo-seeds/terraform.json', import.meta.url), 'utf8')) as {
      files: Record<string, Record<string, string>>;
    };
    const repo = seed.files['acme/polyglot'] ?? {};
    const demo = Object.fromEntries(
      Object.entries(repo)
        .filter(([path]) => path.startsWith('terraform/'))
        .map(([path, text]) => [path.slice('terraform/'.length), text]),
    );
    expect(terraform.findDependency(demo, 'hashicorp/aws')).toEqual({
      name: 'hashicorp/aws',
      type: 'runtime',
      requirement: '~> 5.0',
      version: '5.31.0',
      manifest: 'main.tf',
    });
    expect(terraform.listDependencies(demo).map((use) => [use.name, use.version])).toEqual([
      ['hashicorp/aws', '5.31.0'],
      ['hashicorp/random', '3.6.0'],
      ['terraform-aws-modules/vpc/aws', '5.1.0'],
    ]);
  });
});
