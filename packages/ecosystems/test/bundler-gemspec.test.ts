import { describe, expect, it } from 'vitest';
import { scanRuby } from '../src/bundler/ruby-literals.ts';
import {
  bundler,
  type DependencyUse,
  ManifestParseError,
  type RegistryVersionDetails,
  readGemspecContents,
  unmetRequirement,
} from '../src/index.ts';
import { REQUIRED_FILES } from '../src/required-files.ts';
import { CORPUS_PRESENT, corpusDirectories } from './corpus.ts';
import { fixture, fixtureTree } from './fixtures.ts';
import { listChecked, rows } from './invariant.ts';
import { checkedUpdate } from './update-check.ts';

const files = fixtureTree('bundler-gemspec');
const gemspec = files['ledger_kit.gemspec'] ?? '';
const billing = files['engines/billing/ledger_billing.gemspec'] ?? '';
const lock = files['Gemfile.lock'] ?? '';
const use = (f: Record<string, string>, name: string) => bundler.findDependency(f, name) as DependencyUse;

/** The registry's description of `name` `version` with its runtime dependencies (no digests: the lock has no CHECKSUMS). */
function details(name: string, version: string, dependencies: [string, string][] = []): RegistryVersionDetails {
  return {
    name,
    version,
    dependencies: dependencies.map(([dep, requirement]) => ({ name: dep, requirement, kind: 'runtime' as const })),
    artifacts: [{ filename: `${name}-${version}.gem`, url: `https://rubygems.org/gems/${name}-${version}.gem`, digests: [] }],
  };
}

/** updateManifest then updateLockfiles for `name` to `target`: the manifest files and the lockfile written. */
async function update(
  input: Record<string, string>,
  name: string,
  target: RegistryVersionDetails,
  strategy: 'widen' | 'increase-if-necessary' | 'auto' = 'auto',
): Promise<{ manifests: Record<string, string>; lockfiles: Record<string, string> }> {
  const before = use(input, name);
  const manifest = bundler.updateManifest(input, before, target.version, undefined, strategy);
  if ('cannot' in manifest) throw new Error(manifest.cannot);
  const manifests = 'files' in manifest ? manifest.files : {};
  const result = await bundler.updateLockfiles?.({
    files: input,
    updated: { ...input, ...manifests },
    use: before,
    target,
    registries: [{ url: 'https://rubygems.org/' }],
  });
  if (!result || !('files' in result)) throw new Error(`lockfile: ${JSON.stringify(result)}`);
  return { manifests, lockfiles: result.files };
}

describe('bundler files: gems.rb and gemspecs', () => {
  it('requires a Gemfile, a gems.rb or a gemspec, and reads gems.locked and gemspecs', () => {
    expect(bundler.files.required).toEqual([['Gemfile', 'gems.rb', '*.gemspec']]);
    expect(REQUIRED_FILES.bundler).toEqual([['Gemfile', 'gems.rb', '*.gemspec']]);
    expect(bundler.files.optional).toEqual(['Gemfile.lock', 'gems.locked', '*.gemspec']);
    expect(bundler.files.lockfiles).toEqual(['Gemfile.lock', 'gems.locked']);
    for (const lone of [['gems.rb'], ['ledger_kit.gemspec'], ['Gemfile']])
      expect(unmetRequirement(bundler.files.required, lone)).toBeUndefined();
    expect(unmetRequirement(bundler.files.required, ['Gemfile.lock', 'lib/x.gemspec'])).toBeDefined();
  });
  it('names the gemspecs of `gemspec path:` calls as related files', () => {
    expect(bundler.files.related?.(files)).toEqual(['engines/billing/*.gemspec']);
    const gemfile = [
      'gemspec',
      'gemspec path: "./gems/core/"',
      'gemspec :path => "../shared", :name => "shared_kit"',
      "gemspec(path: '../elsewhere')",
      'gemspec path: File.expand_path("x", __dir__)',
    ].join('\n');
    expect(bundler.files.related?.({ Gemfile: gemfile })).toEqual(['gems/core/*.gemspec', '../shared/shared_kit.gemspec']);
    expect(bundler.files.related?.({ 'gems.rb': 'gemspec path: "a"\n', Gemfile: 'gemspec path: "b"\n' })).toEqual(['a/*.gemspec']);
    expect(bundler.files.related?.({ Gemfile: 'group :x do\n' })).toEqual([]);
  });
});

describe('bundler gemspec dependencies', () => {
  it('lists the Gemfile gems, then each gemspec loaded by its `gemspec` calls, with lock versions', () => {
    expect(rows(listChecked(bundler, files))).toEqual([
      ['rake', 'runtime', '~> 13.0', '13.1.0'],
      ['minitest', 'development', '~> 5.20', '5.20.0'],
      ['rubocop', 'development', '~> 1.57', '1.57.2'],
      ['bigdecimal', 'runtime', '>= 3.1, < 4', '3.1.4'],
      ['money', 'runtime', '~> 6.16', '6.16.0'],
      ['concurrent-ruby', 'runtime', '~> 1.2, >= 1.2.2', '1.2.2'],
      ['i18n', 'runtime', '>= 1.8, < 2', '1.14.1'],
      ['zeitwerk', 'runtime', '>=2.6, <3', '2.6.12'],
      ['tzinfo', 'runtime', null, '2.0.6'],
      ['ledger_kit-core', 'runtime', null, '0.9.0'],
      ['webmock', 'development', '~> 3.19', '3.19.1'],
      ['stripe', 'runtime', '~> 10.1', '10.1.0'],
    ]);
    expect(use(files, 'money').manifest).toBe('ledger_kit.gemspec');
    expect(use(files, 'stripe').manifest).toBe('engines/billing/ledger_billing.gemspec');
    // the Gemfile's declaration comes first; the gemspec's development one does not make it development
    expect(use(files, 'rake')).toMatchObject({ manifest: 'Gemfile', requirement: '~> 13.0', type: 'runtime' });
  });
  it('reads literals only: heredocs, comments and =begin blocks are text; computed names and requirements are reported', () => {
    for (const name of ['not-a-dependency', 'retired-gem', 'commented-out', 'simplecov', 'yard']) {
      expect(bundler.findDependency(files, name)).toBeUndefined();
    }
    expect(bundler.skippedDeclarations?.(files)).toEqual([
      {
        file: 'ledger_kit.gemspec',
        line: 33,
        text: 'spec.add_dependency "ledger_kit-core", "= #{LedgerKit::VERSION}"',
        reason: expect.stringContaining('computed when Ruby runs'),
      },
      {
        file: 'ledger_kit.gemspec',
        line: 38,
        text: expect.stringContaining('add_development_dependency tool'),
        reason: expect.stringContaining('(tool) is not a string literal'),
      },
    ]);
    const contents = readGemspecContents('ledger_kit.gemspec', gemspec);
    expect(contents.name).toBe('ledger_kit');
    expect(contents.dependencies.find((gem) => gem.name === 'i18n')).toMatchObject({ requirement: '>= 1.8, < 2', line: 30 });
    expect(contents.dependencies.find((gem) => gem.name === 'webmock')).toMatchObject({ type: 'development', line: 36 });
    expect(contents.dependencies.find((gem) => gem.name === 'ledger_kit-core')).toMatchObject({ requirement: null, partial: true });
  });
  it('reads any receiver, parenthesised or not, %q names and frozen strings', () => {
    const text = [
      'Gem::Specification.new do |s|',
      '  s.add_runtime_dependency(%q<rack>.freeze, [">= 2.2".freeze])',
      '  s.add_development_dependency %q{rspec}, %q(~> 3.12)',
      "  gem.add_dependency 'thor', '~> 1.2' if RUBY_VERSION >= '3.0'",
      '  s.add_dependency "#{prefix}-core", "~> 1.0"',
      'end',
    ].join('\n');
    const contents = readGemspecContents('x.gemspec', text);
    expect(contents.dependencies.map((gem) => [gem.name, gem.type, gem.requirement])).toEqual([
      ['rack', 'runtime', '>= 2.2'],
      ['rspec', 'development', '~> 3.12'],
      ['thor', 'runtime', '~> 1.2'],
    ]);
    expect(contents.skipped).toEqual([expect.objectContaining({ line: 5, reason: expect.stringContaining('not a string literal') })]);
    expect(contents.name).toBeNull();
  });
  it('reads a directory with only a gemspec, and the gemspecs of a Gemfile that never calls gemspec', () => {
    expect(rows(listChecked(bundler, { 'ledger_billing.gemspec': billing }))).toEqual([
      ['money', 'runtime', '>= 6.0', null],
      ['stripe', 'runtime', '~> 10.1', null],
    ]);
    expect(rows(listChecked(bundler, { Gemfile: 'gem "rake"\n', 'ledger_billing.gemspec': billing })).map(([name]) => name)).toEqual([
      'rake',
      'money',
      'stripe',
    ]);
  });
  it('reads only the gemspecs `gemspec path:` and `name:` select', () => {
    const only = { ...files, Gemfile: 'gemspec path: "engines/billing"\n' };
    expect(bundler.listDependencies(only).map((gem) => gem.name)).toEqual(['money', 'stripe']);
    expect(use(only, 'money').requirement).toBe('>= 6.0');
    const named = { Gemfile: 'gemspec name: "ledger_billing"\n', 'ledger_kit.gemspec': gemspec, 'ledger_billing.gemspec': billing };
    expect(bundler.listDependencies(named).map((gem) => gem.name)).toEqual(['money', 'stripe']);
    const byFileName = { Gemfile: "gemspec name: 'other'\n", 'other.gemspec': 'Gem::Specification.new { |s| s.add_dependency "rack" }\n' };
    expect(bundler.listDependencies(byFileName).map((gem) => gem.name)).toEqual(['rack']);
  });
  it('throws ManifestParseError naming a gemspec that does not parse', () => {
    const broken = { ...files, 'ledger_kit.gemspec': 'Gem::Specification.new do |s|\n  s.description = <<~DESC\n    never closed\n' };
    expect(() => bundler.listDependencies(broken)).toThrow(
      expect.objectContaining({ name: 'ManifestParseError', file: 'ledger_kit.gemspec' }),
    );
    expect(() => readGemspecContents('x.gemspec', 's.add_dependency "rack\n')).toThrow(ManifestParseError);
  });
});

describe('bundler gems.rb and gems.locked', () => {
  const gemfileFiles = fixture('bundler');
  const renamed = { 'gems.rb': gemfileFiles.Gemfile ?? '', 'gems.locked': gemfileFiles['Gemfile.lock'] ?? '' };
  it('reads gems.rb and gems.locked as Gemfile and Gemfile.lock', () => {
    const expected = bundler.listDependencies(gemfileFiles).map((gem) => ({ ...gem, manifest: 'gems.rb' }));
    expect(listChecked(bundler, renamed)).toEqual(expected);
    expect(bundler.isLibrary?.({ 'gems.rb': 'gemspec\n' })).toBe(true);
  });
  it('prefers gems.rb to a Gemfile beside it, with its own lockfile', () => {
    const both = {
      ...renamed,
      Gemfile: 'gem "rails", "~> 6.0"\n',
      'Gemfile.lock': 'GEM\n  remote: https://rubygems.org/\n  specs:\n    rails (6.0.0)\n',
    };
    expect(use(both, 'rails')).toMatchObject({ requirement: '~> 7.1.2', version: '7.1.2', manifest: 'gems.rb' });
    expect(use({ 'gems.rb': 'gem "rails"\n', 'Gemfile.lock': both['Gemfile.lock'] }, 'rails').version).toBeNull();
    expect(() => bundler.listDependencies({ ...renamed, 'gems.locked': 'GEM\n<<<<<<< HEAD\n' })).toThrow(
      expect.objectContaining({ file: 'gems.locked' }),
    );
  });
  it('updates gems.rb and gems.locked', async () => {
    const text = 'source "https://rubygems.org"\ngem "rack", "~> 2.2"\n';
    const locked =
      'GEM\n  remote: https://rubygems.org/\n  specs:\n    rack (2.2.8)\n\nPLATFORMS\n  ruby\n\nDEPENDENCIES\n  rack (~> 2.2)\n';
    const out = await update({ 'gems.rb': text, 'gems.locked': locked }, 'rack', details('rack', '3.0.8'), 'increase-if-necessary');
    expect(out.manifests).toEqual({ 'gems.rb': text.replace('~> 2.2', '~> 3.0') });
    expect(out.lockfiles).toEqual({
      'gems.locked': locked.replace('rack (2.2.8)', 'rack (3.0.8)').replace('rack (~> 2.2)', 'rack (~> 3.0)'),
    });
  });
});

describe('bundler gemspec updates', () => {
  it.each([
    // runtime dependencies are widened (a ~> becomes a range of two literals), as dependabot-core widened gemspecs
    ['money', '7.0.0', 'widen', "spec.add_dependency 'money', '>= 6.16', '< 8.0'", '>= 6.16, < 8.0'],
    [
      'concurrent-ruby',
      '2.0.0',
      'auto',
      'spec.add_runtime_dependency "concurrent-ruby", [">= 1.2", "< 3.0", ">= 1.2.2"]',
      '>= 1.2, < 3.0, >= 1.2.2',
    ],
    ['i18n', '2.1.0', 'auto', 'spec.add_dependency(%q<i18n>.freeze, [">= 1.8".freeze, "< 3".freeze])', '>= 1.8, < 3'],
    ['i18n', '2.1.0', 'increase-if-necessary', 'spec.add_dependency(%q<i18n>.freeze, [">= 1.8".freeze, "< 3".freeze])', '>= 1.8, < 3'],
    ['money', '7.0.0', 'increase-if-necessary', "spec.add_dependency 'money', '~> 7.0'", '~> 7.0'],
    // %w[] words cannot hold a clause's space: their ~> and bounds move in place
    ['zeitwerk', '3.1.0', 'widen', 'spec.add_dependency "zeitwerk", %w[>=2.6 <4]', '>=2.6, <4'],
    // development dependencies are bumped (dependabot-core's `bumped_requirements`)
    ['webmock', '4.0.0', 'widen', 'spec.add_development_dependency "webmock",\n                                  "~> 4.0"', '~> 4.0'],
    ['bigdecimal', '4.0.1', 'auto', 'spec.add_dependency "bigdecimal", ">= 3.1", "< 5"', '>= 3.1, < 5'],
  ] as const)('%s to %s (%s) rewrites only the requirement literals', (name, target, strategy, line, requirement) => {
    const result = checkedUpdate(bundler, files, name, target, strategy);
    const before = gemspec.split('\n').find((l) => l.includes(`"${name}"`) || l.includes(`'${name}'`) || l.includes(`<${name}>`)) ?? '';
    const old =
      name === 'webmock' ? 'spec.add_development_dependency "webmock",\n                                  "~> 3.19"' : before.trim();
    expect(result).toEqual({ files: { 'ledger_kit.gemspec': gemspec.replace(old, line) }, requirement });
  });
  it('updates the Gemfile and the gemspec declarations of a gem, and a gemspec outside the directory', () => {
    const text = files.Gemfile ?? '';
    expect(checkedUpdate(bundler, files, 'rake', '14.0.0', 'widen')).toEqual({
      files: { Gemfile: text.replace('"~> 13.0"', '"~> 14.0"') },
      requirement: '~> 14.0',
    });
    expect(checkedUpdate(bundler, files, 'stripe', '11.2.0', 'increase-if-necessary')).toEqual({
      files: { 'engines/billing/ledger_billing.gemspec': billing.replace("'~> 10.1'", "'~> 11.2'") },
      requirement: '~> 11.2',
    });
    expect(checkedUpdate(bundler, files, 'money', '6.17.0', 'widen')).toEqual({ unchanged: expect.stringContaining('already allows') });
  });
  it('cannot rewrite a computed requirement or a lower bound that excludes the target', () => {
    expect(bundler.updateManifest(files, use(files, 'ledger_kit-core'), '1.0.0')).toEqual({ cannot: expect.stringContaining('computed') });
    const lower = { 'x.gemspec': 's.add_dependency "rack", "> 3.0"\n' };
    expect(bundler.updateManifest(lower, use(lower, 'rack'), '3.0.0')).toEqual({ cannot: expect.stringContaining('lower bound') });
  });
});

describe('bundler gemspec lockfile updates', () => {
  it("rewrites the gemspec's PATH spec line with the widened requirement, and the GEM spec", async () => {
    const out = await update(files, 'money', details('money', '7.0.0', [['i18n', '>= 0.6.4, <= 2']]));
    expect(out.lockfiles).toEqual({
      'Gemfile.lock': lock
        .replace('      money (~> 6.16)\n', '      money (>= 6.16, < 8.0)\n')
        .replace('    money (6.16.0)\n', '    money (7.0.0)\n'),
    });
  });
  it('rewrites the PATH spec of a gemspec outside the directory', async () => {
    const out = await update(files, 'stripe', details('stripe', '11.2.0'), 'increase-if-necessary');
    expect(out.lockfiles).toEqual({
      'Gemfile.lock': lock
        .replace('      stripe (~> 10.1)\n', '      stripe (~> 11.2)\n')
        .replace('    stripe (10.1.0)\n', '    stripe (11.2.0)\n'),
    });
  });
  it("rewrites the DEPENDENCIES entry of a gemspec's development dependency", async () => {
    const out = await update(files, 'webmock', details('webmock', '4.0.0', [['addressable', '>= 2.8.0']]));
    expect(out.lockfiles).toEqual({
      'Gemfile.lock': lock
        .replace('  webmock (~> 3.19)\n', '  webmock (~> 4.0)\n')
        .replace('    webmock (3.19.1)\n', '    webmock (4.0.0)\n'),
    });
  });
  it('leaves the PATH lines whose requirement already allows the target', async () => {
    const out = await update(files, 'i18n', details('i18n', '1.14.5', [['concurrent-ruby', '~> 1.0']]));
    expect(out.manifests).toEqual({});
    expect(out.lockfiles['Gemfile.lock']).toBe(lock.replace('    i18n (1.14.1)\n', '    i18n (1.14.5)\n'));
  });
  it('needs resolution when the PATH spec does not list the dependency (an out-of-date lockfile)', async () => {
    const stale = { ...files, 'Gemfile.lock': lock.replace('      money (~> 6.16)\n', '') };
    const manifest = bundler.updateManifest(stale, use(stale, 'money'), '7.0.0', undefined, 'widen');
    const updated = 'files' in manifest ? { ...stale, ...manifest.files } : stale;
    const result = await bundler.updateLockfiles?.({
      files: stale,
      updated,
      use: use(stale, 'money'),
      target: details('money', '7.0.0', [['i18n', '>= 0.6.4, <= 2']]),
      registries: [{ url: 'https://rubygems.org/' }],
    });
    expect(result).toEqual({ needsResolution: expect.stringContaining('PATH spec ledger_kit does not list money') });
  });
});

describe.runIf(CORPUS_PRESENT)('bundler over the real-world corpus', () => {
  it('lists every directory without throwing, and reads each as gems.rb and gems.locked alike', () => {
    const directories = corpusDirectories(bundler);
    expect(directories.length).toBeGreaterThan(10);
    let gems = 0;
    for (const { label, files: corpus } of directories) {
      const list = listChecked(bundler, corpus);
      expect(bundler.skippedDeclarations?.(corpus), label).toBeInstanceOf(Array);
      gems += list.length;
      const renamed: Record<string, string> = {};
      for (const [file, text] of Object.entries(corpus)) {
        renamed[file === 'Gemfile' ? 'gems.rb' : file === 'Gemfile.lock' ? 'gems.locked' : file] = text;
      }
      const expected = list.map((gem) => (gem.manifest === 'Gemfile' ? { ...gem, manifest: 'gems.rb' } : gem));
      expect(bundler.listDependencies(renamed), label).toEqual(expected);
    }
    expect(gems).toBeGreaterThan(300);
  }, 60_000);
});

describe('Ruby literal scanner', () => {
  const literalsOf = (text: string) =>
    [...scanRuby('x.rb', text).literals.values()].map((literal) => [
      literal.kind,
      text.slice(literal.contentStart, literal.contentEnd),
      literal.plain,
    ]);
  it('tells strings from interpolation, nested delimiters, regexps, punctuation globals and heredocs', () => {
    expect(literalsOf('a = "#{b ? "x" : \'y\'}"')).toEqual([
      ['string', 'x', true],
      ['string', 'y', true],
      ['string', '#{b ? "x" : \'y\'}', false],
    ]);
    expect(literalsOf('%q{a{b}c} + %w[x y]')).toEqual([
      ['string', 'a{b}c', true],
      ['words', 'x y', true],
    ]);
    expect(literalsOf("x = y / 2; z = $' + 'q'")).toEqual([['string', 'q', true]]);
    expect(literalsOf("f.grep /'/\n'k'")).toEqual([
      ['other', "'", false],
      ['string', 'k', true],
    ]);
    expect(literalsOf("s = <<~EOS.strip\n  it's\nEOS\n'after'")).toEqual([
      ['other', '<<~EOS', false],
      ['string', 'after', true],
    ]);
    expect(literalsOf('class << self\n  "in"\nend\n__END__\n"data"')).toEqual([['string', 'in', true]]);
  });
  it('throws on what Ruby could not parse', () => {
    expect(() => scanRuby('x.rb', 'x = <<~EOS\nno end\n')).toThrow(ManifestParseError);
    expect(() => scanRuby('x.rb', '=begin\nopen')).toThrow(ManifestParseError);
    expect(() => scanRuby('x.rb', '"#{ "a" }')).toThrow(ManifestParseError);
  });
});
