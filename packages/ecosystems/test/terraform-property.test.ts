import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type DependencyUse, ManifestParseError, terraform, terraformVersions } from '../src/index.ts';
import { rows } from './invariant.ts';
import { aroundExpression, hclExpressions } from './terraform-hcl-shapes.ts';

const pre = fc.option(fc.constantFrom('alpha', 'beta1', 'rc.1', 'rc.2'), { nil: undefined });
const version = fc.tuple(fc.nat(20), fc.nat(20), fc.nat(20), pre).map(([a, b, c, p]) => `${a}.${b}.${c}${p === undefined ? '' : `-${p}`}`);

describe('terraform version scheme properties', () => {
  it('orders totally, antisymmetrically and transitively', () => {
    fc.assert(
      fc.property(version, version, version, (a, b, c) => {
        const ab = terraformVersions.compare(a, b);
        expect(Math.sign(ab) + Math.sign(terraformVersions.compare(b, a))).toBe(0);
        if (ab === 0) expect(a).toBe(b);
        if (ab <= 0 && terraformVersions.compare(b, c) <= 0) expect(terraformVersions.compare(a, c)).toBeLessThanOrEqual(0);
      }),
    );
  });
  it('round-trips a printed version through an exact constraint', () => {
    fc.assert(
      fc.property(version, fc.constantFrom('', '= ', '='), (v, operator) => {
        expect(terraformVersions.isValid(v)).toBe(true);
        expect(terraformVersions.satisfies(v, `${operator}${v}`)).toBe(true);
        expect(terraformVersions.lowestAllowed?.(`${operator}${v}`)).toBe(v);
      }),
    );
  });
  it('updates a generated provider requirement so it allows any later release, changing only the version string', () => {
    const release = fc.tuple(fc.nat(15), fc.nat(15), fc.nat(15));
    fc.assert(
      fc.property(
        release,
        fc.constantFrom('~> A.B', '~> A.B.C', 'A.B.C', '>= A.B.C, < N', '= A.B.C'),
        fc.constantFrom('patch', 'minor', 'major'),
        fc.constantFrom('\n', '\r\n'),
        ([a, b, c], form, step, eol) => {
          const requirement = form
            .replace('A', `${a}`)
            .replace('B', `${b}`)
            .replace('C', `${c}`)
            .replace('N', `${a + 1}`);
          const target = step === 'patch' ? `${a}.${b}.${c + 1}` : step === 'minor' ? `${a}.${b + 1}.0` : `${a + 1}.0.0`;
          const text = [
            'terraform {',
            '  required_providers {',
            `    x = { source = "acme/x", version = "${requirement}" } # keep`,
            '  }',
            '}',
            '',
          ].join(eol);
          const files = { 'main.tf': text };
          const result = terraform.updateManifest(files, terraform.findDependency(files, 'acme/x') as DependencyUse, target);
          if ('cannot' in result) throw new Error(result.cannot);
          if ('unchanged' in result) {
            expect(terraformVersions.satisfies(target, requirement)).toBe(true);
            return;
          }
          const after = result.files['main.tf'] ?? '';
          const written = /version = "([^"]*)"/.exec(after)?.[1] ?? '';
          expect(after).toBe(text.replace(`"${requirement}"`, `"${written}"`));
          expect(terraformVersions.satisfies(target, written)).toBe(true);
        },
      ),
    );
  });
});

describe('terraform files around generated HCL shapes', () => {
  it('finds the providers and modules whatever expressions surround them, and updates only the version string', () => {
    const release = fc.tuple(fc.nat(15), fc.nat(15), fc.nat(15));
    fc.assert(
      fc.property(
        hclExpressions.out,
        release,
        fc.constantFrom('~> A.B', 'A.B.C', '>= A.B.C, < N'),
        fc.constantFrom('\n', '\r\n'),
        (expression, [a, b, c], form, eol) => {
          const requirement = form
            .replace('A', `${a}`)
            .replace('B', `${b}`)
            .replace('C', `${c}`)
            .replace('N', `${a + 1}`);
          const text = aroundExpression(expression)
            .replace('"~> 1.4"', () => `"${requirement}"`)
            .split('\n')
            .join(eol);
          const files = { 'main.tf': text };
          expect(rows(terraform.listDependencies(files))).toEqual([
            ['acme-corp/acme', 'runtime', requirement, form === 'A.B.C' ? requirement : null],
            ['example-org/storage/acme', 'runtime', '2.3.0', '2.3.0'],
          ]);
          const target = `${a + 1}.0.0`;
          const result = terraform.updateManifest(files, terraform.findDependency(files, 'acme-corp/acme') as DependencyUse, target);
          if (!('files' in result)) throw new Error(JSON.stringify(result));
          const written = result.requirement ?? '';
          expect(result.files).toEqual({ 'main.tf': text.replace(`"${requirement}"`, () => `"${written}"`) });
          expect(terraformVersions.satisfies(target, written)).toBe(true);
          expect(terraform.findDependency(result.files, 'acme-corp/acme')).toMatchObject({ requirement: written });
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('terraform readers on arbitrary text', () => {
  it('answer or throw ManifestParseError, never crash', () => {
    const piece = fc.constantFrom(
      'terraform',
      'module',
      'required_providers',
      'source',
      'version',
      '=',
      '{',
      '}',
      '[',
      ']',
      '(',
      ')',
      '"',
      '\\',
      '#',
      '//',
      '/*',
      '*/',
      '<<EOT',
      'EOT',
      '${',
      ',',
      ':',
      '\n',
      ' ',
      'a/b/c',
      '~> 1.0',
      'x',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        const files = { 'main.tf': pieces.join('') };
        try {
          for (const use of terraform.listDependencies(files)) expect(terraform.findDependency(files, use.name)).toEqual(use);
        } catch (error) {
          expect(error).toBeInstanceOf(ManifestParseError);
        }
      }),
      { numRuns: 400 },
    );
  });
});
