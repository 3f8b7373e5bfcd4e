import { describe, expect, it } from 'vitest';
import { type DependencyUse, terraform } from '../src/index.ts';
import { parseHcl } from '../src/terraform/hcl.ts';
import { CORPUS_PRESENT, corpusDirectories } from './corpus.ts';
import { fixture } from './fixtures.ts';
import { listChecked, rows } from './invariant.ts';
import { aroundShape, HCL_SHAPES } from './terraform-hcl-shapes.ts';

const syntax = fixture('terraform', ['syntax-for-and-template-keys.hcl', 'syntax-expressions.hcl']);

describe('terraform files in every HCL native syntax shape Terraform accepts', () => {
  it.each(Object.entries(HCL_SHAPES))('reads the providers and modules around %s', (_, shape) => {
    const files = { 'main.tf': aroundShape(shape) };
    expect(rows(listChecked(terraform, files))).toEqual([
      ['acme-corp/acme', 'runtime', '~> 1.4', null],
      ['example-org/storage/acme', 'runtime', '2.3.0', '2.3.0'],
    ]);
    const text = files['main.tf'];
    const result = terraform.updateManifest(files, terraform.findDependency(files, 'acme-corp/acme') as DependencyUse, '2.1.0');
    expect(result).toEqual({ files: { 'main.tf': text.replace('"~> 1.4"', '"~> 2.1"') }, requirement: '~> 2.1' });
  });

  it('reads a multi-line for expression and template object keys (fixture)', () => {
    const files = { 'main.tf': syntax['syntax-for-and-template-keys.hcl'] ?? '' };
    expect(rows(listChecked(terraform, files))).toEqual([
      ['acme-corp/acme', 'runtime', '~> 2.4', null],
      ['example-org/network/acme', 'runtime', '3.1.0', '3.1.0'],
    ]);
    const locals = parseHcl('main.tf', files['main.tf']).blocks.find((block) => block.type === 'locals');
    const groups = locals?.body.attributes.find((attribute) => attribute.name === 'groups')?.value;
    expect(groups?.kind === 'object' && groups.entries.map((entry) => entry.name)).toEqual([`"group-$\{var.suffix}"`, 'plain']);
    const endpoints = locals?.body.attributes.find((attribute) => attribute.name === 'endpoints')?.value;
    const storage = endpoints?.kind === 'object' ? endpoints.entries[0]?.value : undefined;
    const subnets = storage?.kind === 'object' ? storage.entries.find((entry) => entry.name === 'subnets')?.value : undefined;
    expect(subnets).toMatchObject({ kind: 'other', text: expect.stringMatching(/^\[\n\s+for zone in local\.zones :\n[\s\S]*\]$/) });
  });

  it('reads every other expression shape (fixture), editing only the version strings', () => {
    const text = syntax['syntax-expressions.hcl'] ?? '';
    const files = { 'main.tf': text };
    expect(rows(listChecked(terraform, files))).toEqual([
      ['widgets/widget', 'runtime', '>= 1.2.0, < 2.0.0', null],
      ['gadgets/gadget', 'runtime', '0.9.1', '0.9.1'],
      ['widgets/storage/acme', 'runtime', '~> 4.2', null],
    ]);
    const gadget = terraform.updateManifest(files, terraform.findDependency(files, 'gadgets/gadget') as DependencyUse, '1.0.0');
    expect(gadget).toEqual({ files: { 'main.tf': text.replace('"0.9.1"', '"1.0.0"') }, requirement: '1.0.0' });
    const storage = terraform.updateManifest(files, terraform.findDependency(files, 'widgets/storage/acme') as DependencyUse, '5.0.1');
    expect(storage).toEqual({ files: { 'main.tf': text.replace('"~> 4.2"', '"~> 5.0"') }, requirement: '~> 5.0' });
  });

  it('keeps object keys: identifiers and strings by value, other expressions as written', () => {
    const body = parseHcl('t.tf', `x = {\n  a = 1\n  "b" = 2\n  (var.c) = 3\n  "d-$\{e}" = 4\n  f.g = 5\n  h ? "i" : "j" = 6\n  k: 7\n}\n`);
    const x = body.attributes[0]?.value;
    expect(x?.kind === 'object' && x.entries.map((entry) => entry.name)).toEqual([
      'a',
      'b',
      '(var.c)',
      `"d-$\{e}"`,
      'f.g',
      'h ? "i" : "j"',
      'k',
    ]);
  });

  it('reads for expressions in brackets as expressions, not tuples, and tuples across lines', () => {
    const body = parseHcl('t.tf', 'a = [\n  for k, v in m :\n  v\n]\nb = [\n  "1"\n  ,\n  "2",\n]\n');
    expect(body.attributes[0]?.value).toMatchObject({ kind: 'other', text: '[\n  for k, v in m :\n  v\n]' });
    expect(body.attributes[1]?.value).toMatchObject({ kind: 'tuple', items: [{ value: '1' }, { value: '2' }] });
  });

  it('still refuses what Terraform refuses where it would hide the file structure', () => {
    for (const text of [
      'a = x ?\n  y : z\n',
      'a = { b }\n',
      `a = "$\{x"\n`,
      'a = <<EOT\nno end\n',
      `a = "$\{ x # }"\n`,
      `b "$\{x}" {\n}\n`,
    ]) {
      expect(() => parseHcl('bad.tf', text), text).toThrow(/^bad\.tf: /);
    }
  });
});

describe.runIf(CORPUS_PRESENT)('terraform corpus directories with multi-line for expressions and template keys', () => {
  const directories = new Map(corpusDirectories(terraform).map((directory) => [directory.label, directory.files]));
  const names = (label: string) => listChecked(terraform, directories.get(label) ?? {}).map((use) => use.name);
  it('reads aws-ia/terraform-aws-eks-blueprints patterns/blue-green-upgrade/modules/eks_cluster (template keys)', () => {
    expect(names('aws-ia/terraform-aws-eks-blueprints/patterns/blue-green-upgrade/modules/eks_cluster')).toEqual([
      'terraform-aws-modules/eks/aws',
      'aws-ia/eks-blueprints-teams/aws',
      'aws-ia/eks-blueprints-addons/aws',
      'terraform-aws-modules/iam/aws',
      'hashicorp/aws',
      'hashicorp/kubernetes',
    ]);
  });
  it('reads aws-ia/terraform-aws-eks-blueprints docs/v4-to-v5/example', () => {
    expect(names('aws-ia/terraform-aws-eks-blueprints/docs/v4-to-v5/example')).toEqual([
      'terraform-aws-modules/vpc/aws',
      'hashicorp/aws',
      'hashicorp/kubernetes',
    ]);
  });
  it('reads terraform-aws-modules/terraform-aws-vpc examples/complete (a for body on the next line)', () => {
    const files = directories.get('terraform-aws-modules/terraform-aws-vpc/examples/complete') ?? {};
    expect(Object.keys(files)).toContain('main.tf');
    expect(names('terraform-aws-modules/terraform-aws-vpc/examples/complete')).toEqual(['hashicorp/aws']);
    expect(
      parseHcl('main.tf', files['main.tf'] ?? '')
        .blocks.filter((block) => block.type === 'module')
        .map((block) => block.labels[0]),
    ).toEqual(['vpc', 'vpc_endpoints', 'vpc_endpoints_nocreate']);
  });
});
