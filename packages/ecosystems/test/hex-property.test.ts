import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type DependencyUse, hex, hexVersions, ManifestParseError } from '../src/index.ts';

const pre = fc.option(fc.constantFrom('alpha', 'beta.2', 'rc.0', 'rc.1', 'dev'), { nil: undefined });
const version = fc.tuple(fc.nat(20), fc.nat(20), fc.nat(20), pre).map(([a, b, c, p]) => `${a}.${b}.${c}${p === undefined ? '' : `-${p}`}`);

describe('hex version scheme properties', () => {
  it('orders totally, antisymmetrically and transitively', () => {
    fc.assert(
      fc.property(version, version, version, (a, b, c) => {
        const ab = hexVersions.compare(a, b);
        expect(Math.sign(ab) + Math.sign(hexVersions.compare(b, a))).toBe(0);
        if (ab === 0) expect(a).toBe(b);
        if (ab <= 0 && hexVersions.compare(b, c) <= 0) expect(hexVersions.compare(a, c)).toBeLessThanOrEqual(0);
      }),
    );
  });
  it('round-trips a printed version through an exact requirement', () => {
    fc.assert(
      fc.property(version, fc.constantFrom('', '== '), (v, operator) => {
        expect(hexVersions.isValid(v)).toBe(true);
        expect(hexVersions.satisfies(v, `${operator}${v}`)).toBe(true);
        expect(hexVersions.lowestAllowed?.(`${operator}${v}`)).toBe(v);
      }),
    );
  });
  it('updates a generated mix.exs requirement so it allows any later release, changing only the requirement', () => {
    fc.assert(
      fc.property(
        fc.tuple(fc.nat(15), fc.nat(15), fc.nat(15)),
        fc.constantFrom('~> A.B', '~> A.B.C', 'A.B.C', '>= A.B.C and < N.0.0', '== A.B.C', '~> A.B or ~> N.0'),
        fc.constantFrom('patch', 'minor', 'major'),
        fc.constantFrom('\n', '\r\n'),
        ([a, b, c], form, step, eol) => {
          const requirement = form
            .replace('A', `${a}`)
            .replace('B', `${b}`)
            .replace('C', `${c}`)
            .replace('N', `${a + 1}`);
          const target = step === 'patch' ? `${a}.${b}.${c + 1}` : step === 'minor' ? `${a}.${b + 1}.0` : `${a + 2}.0.0`;
          const text = [
            'defmodule A.MixProject do',
            '  defp deps do',
            `    [{:pkg, "${requirement}", only: :test}] # deps`,
            '  end',
            'end',
            '',
          ].join(eol);
          const files = { 'mix.exs': text };
          const result = hex.updateManifest(files, hex.findDependency(files, 'pkg') as DependencyUse, target);
          if ('cannot' in result) throw new Error(result.cannot);
          if ('unchanged' in result) {
            expect(hexVersions.satisfies(target, requirement)).toBe(true);
            return;
          }
          const after = result.files['mix.exs'] ?? '';
          const written = /\{:pkg, "([^"]*)"/.exec(after)?.[1] ?? '';
          expect(after).toBe(text.replace(`"${requirement}"`, `"${written}"`));
          expect(hexVersions.satisfies(target, written)).toBe(true);
        },
      ),
    );
  });
});

describe('hex readers on arbitrary text', () => {
  it('answer or throw ManifestParseError, never crash', () => {
    const piece = fc.constantFrom(
      'defp',
      'deps',
      'do',
      'end',
      '[',
      ']',
      '{',
      '}',
      '(',
      ')',
      ':jason',
      '"',
      '\\',
      '#',
      '#{',
      '"""',
      '~w(',
      'only:',
      ':test',
      ',',
      '@v',
      '\n',
      ' ',
      '~> 1.0',
      'x',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        const files = { 'mix.exs': pieces.join('') };
        try {
          for (const use of hex.listDependencies(files)) expect(hex.findDependency(files, use.name)).toEqual(use);
        } catch (error) {
          expect(error).toBeInstanceOf(ManifestParseError);
        }
      }),
      { numRuns: 400 },
    );
  });
});
