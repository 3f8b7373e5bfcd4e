import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lockRequirement } from '../src/bundler/gemfile-lock-update.ts';
import { bundler, readGemspecContents, type VersioningStrategy } from '../src/index.ts';
import { checkedUpdate } from './update-check.ts';

type Triple = [number, number, number];

/** Requirement clauses a gemspec or Gemfile writes, one per literal, from the version they were written for. */
const FORMS: readonly ((v: Triple) => string[])[] = [
  ([a, b]) => [`~> ${a}.${b}`],
  ([a, b, c]) => [`~> ${a}.${b}.${c}`],
  ([a, b, c]) => [`>= ${a}.${b}.${c}`, `< ${a + 1}`],
  ([a, b, c]) => [`${a}.${b}.${c}`],
  ([a, b, c]) => [`= ${a}.${b}.${c}`],
  ([a, b, c]) => [`~> ${a}.${b}`, `>= ${a}.${b}.${c}`],
  () => [],
];

const triple = fc.tuple(fc.nat(20), fc.nat(20), fc.nat(20));
/** A target at or above `v`: the same version, or a patch, minor or major step of 1 to 5. */
const targetOf = ([a, b, c]: Triple) =>
  fc
    .tuple(fc.constantFrom('same', 'patch', 'minor', 'major'), fc.integer({ min: 1, max: 5 }))
    .map(([kind, n]) =>
      kind === 'patch' ? `${a}.${b}.${c + n}` : kind === 'minor' ? `${a}.${b + n}.0` : kind === 'major' ? `${a + n}.0.0` : `${a}.${b}.${c}`,
    );

/** A generated directory: a gemspec declaring `pkg`, maybe a Gemfile or gems.rb (with `gemspec`, maybe a `gem "pkg"`) and its lock. */
const sample = triple.chain((v) =>
  fc.record({
    v: fc.constant(v),
    target: targetOf(v),
    clauses: fc.constantFrom(...FORMS).map((form) => form(v)),
    gemfileClauses: fc.option(
      fc.constantFrom(...FORMS).map((form) => form(v)),
      { nil: undefined },
    ),
    writing: fc.constantFrom('arguments', 'array', 'frozen', 'words'),
    quote: fc.constantFrom("'", '"'),
    parenthesised: fc.boolean(),
    receiver: fc.constantFrom('s', 'spec', 'gem'),
    method: fc.constantFrom('add_dependency', 'add_runtime_dependency', 'add_development_dependency'),
    gemfile: fc.constantFrom('Gemfile', 'gems.rb', null),
    eol: fc.constantFrom('\n', '\r\n'),
    strategy: fc.constantFrom<VersioningStrategy>('widen', 'increase-if-necessary', 'increase', 'auto'),
  }),
);
type Sample = typeof sample extends fc.Arbitrary<infer T> ? T : never;

/** The gemspec's `pkg` call, written as the sample says. */
function declaration(s: Sample): string {
  const q = s.quote;
  const literal = (text: string) => (s.writing === 'frozen' ? `${q}${text}${q}.freeze` : `${q}${text}${q}`);
  const name = s.writing === 'frozen' ? '%q<pkg>.freeze' : literal('pkg');
  const requirement =
    s.clauses.length === 0
      ? []
      : s.writing === 'array'
        ? [`[${s.clauses.map(literal).join(', ')}]`]
        : s.writing === 'words'
          ? [`%w[${s.clauses.map((clause) => clause.replace(' ', '')).join(' ')}]`]
          : s.clauses.map(literal);
  const args = [name, ...requirement].join(', ');
  return `  ${s.receiver}.${s.method}${s.parenthesised ? `(${args})` : ` ${args}`}`;
}

/** The lockfile of a sample's directory: the gem's PATH spec, the GEM specs and DEPENDENCIES, as Bundler writes them. */
function lockOf(version: string, gemspecRequirement: string | null, runtime: boolean, entry: string | null | undefined): string {
  const written = (name: string, requirement: string | null, indent: string) => {
    const lock = requirement === null ? null : lockRequirement(requirement);
    return `${indent}${name}${lock === null ? '' : ` (${lock})`}`;
  };
  return [
    'PATH',
    '  remote: .',
    '  specs:',
    '    mygem (1.0.0)',
    '      other (>= 1)',
    ...(runtime ? [written('pkg', gemspecRequirement, '      ')] : []),
    '',
    'GEM',
    '  remote: https://rubygems.org/',
    '  specs:',
    '    other (1.5.0)',
    `    pkg (${version})`,
    '',
    'PLATFORMS',
    '  ruby',
    '',
    'DEPENDENCIES',
    '  mygem!',
    ...(entry === undefined ? [] : [written('pkg', entry, '  ')]),
    '',
    'BUNDLED WITH',
    '   2.4.22',
    '',
  ].join('\n');
}

/** The sample's files, and what the lock's `DEPENDENCIES` entry of `pkg` records (undefined: none). */
function filesOf(s: Sample): { files: Record<string, string>; runtime: boolean } {
  const gemspec = [
    '# frozen_string_literal: true',
    '',
    'Gem::Specification.new do |s|',
    '  s.name = "mygem"',
    '  s.summary = <<~TEXT',
    "    Makes 'pkg' easy",
    '  TEXT',
    '  s.add_dependency "other", ">= 1"',
    declaration(s),
    'end',
    '',
  ].join(s.eol);
  const runtime = s.method !== 'add_development_dependency';
  const files: Record<string, string> = { 'mygem.gemspec': gemspec };
  if (s.gemfile === null) return { files, runtime };
  const gemfileDeclaration = s.gemfileClauses && `gem "pkg"${s.gemfileClauses.map((c) => `, "${c}"`).join('')}`;
  files[s.gemfile] = ['source "https://rubygems.org"', '', 'gemspec', ...(gemfileDeclaration ? [gemfileDeclaration] : []), ''].join(s.eol);
  const v = s.v.join('.');
  const requirementOf = (clauses: string[] | undefined) => (clauses === undefined || clauses.length === 0 ? null : clauses.join(', '));
  const entry = s.gemfileClauses !== undefined ? requirementOf(s.gemfileClauses) : runtime ? undefined : requirementOf(s.clauses);
  files[s.gemfile === 'gems.rb' ? 'gems.locked' : 'Gemfile.lock'] = lockOf(v, requirementOf(s.clauses), runtime, entry);
  return { files, runtime };
}

describe('bundler properties over generated gemspecs, Gemfiles and gems.rb', () => {
  it('updates keep every declaration in its spans, allow the target, and leave a lockfile that agrees', async () => {
    const seen = { files: 0, unchanged: 0, locks: 0 };
    await fc.assert(
      fc.asyncProperty(sample, async (s) => {
        const { files, runtime } = filesOf(s);
        const label = JSON.stringify({ files, target: s.target, strategy: s.strategy });
        const result = checkedUpdate(bundler, files, 'pkg', s.target, s.strategy);
        expect(result, label).not.toHaveProperty('cannot');
        seen['files' in result ? 'files' : 'unchanged']++;
        const updated = 'files' in result ? { ...files, ...result.files } : files;
        const use = bundler.findDependency(files, 'pkg');
        if (s.gemfile === null || use === undefined || s.target === s.v.join('.')) return;
        const lock = await bundler.updateLockfiles?.({
          files,
          updated,
          use,
          target: { name: 'pkg', version: s.target, dependencies: [], artifacts: [] },
          registries: [{ url: 'https://rubygems.org/' }],
        });
        if (!lock || !('files' in lock)) throw new Error(`${label}: ${JSON.stringify(lock)}`);
        seen.locks++;
        // the lock agrees with the updated manifests: the gemspec's requirement in the PATH spec, the first
        // declaration's (Gemfile, else the gemspec's development one) in DEPENDENCIES, the target in GEM
        const gemspecRequirement = readGemspecContents('mygem.gemspec', updated['mygem.gemspec'] ?? '').dependencies.find(
          (gem) => gem.name === 'pkg',
        )?.requirement;
        const after = bundler.findDependency(updated, 'pkg');
        const entry = s.gemfileClauses !== undefined || !runtime ? (after?.requirement ?? null) : undefined;
        const lockfile = s.gemfile === 'gems.rb' ? 'gems.locked' : 'Gemfile.lock';
        expect(lock.files, label).toEqual({ [lockfile]: lockOf(s.target, gemspecRequirement ?? null, runtime, entry) });
        for (const requirement of [gemspecRequirement, entry]) {
          if (requirement) expect(bundler.versions.satisfies(s.target, requirement), label).toBe(true);
        }
      }),
      { numRuns: 200 },
    );
    expect(seen.files).toBeGreaterThan(30);
    expect(seen.unchanged).toBeGreaterThan(10);
    expect(seen.locks).toBeGreaterThan(50);
  }, 60_000);
});
