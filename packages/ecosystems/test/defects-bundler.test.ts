import { describe, expect, it } from 'vitest';
import { bundler, ManifestParseError, readGemfileContents } from '../src/index.ts';
import { fixture } from './fixtures.ts';

describe('bundler: gem calls only Ruby could read', () => {
  const files = fixture('bundler-dynamic');
  const gemfile = files.Gemfile as string;

  it('skips calls without a literal name and reports them, keeping the rest of the Gemfile', () => {
    const { gems, skipped } = readGemfileContents('Gemfile', gemfile);
    expect(gems.map((gem) => gem.name)).toContain('puma');
    expect(skipped).toEqual([
      expect.objectContaining({ line: 8, text: 'gem "rails", rails_version', reason: expect.stringContaining('rails_version') }),
      expect.objectContaining({ line: 10, reason: expect.stringContaining('**extra') }),
      expect.objectContaining({ line: 13, text: 'gem name, require: false', reason: expect.stringContaining('not a string literal') }),
      expect.objectContaining({ line: 18, text: 'gem(*args)', reason: expect.stringContaining('*args') }),
    ]);
  });
  it('does not throw from findDependency or listDependencies on such calls', () => {
    expect(bundler.findDependency(files, 'puma')).toEqual({
      name: 'puma',
      type: 'runtime',
      requirement: '~> 6.4',
      version: '6.4.2',
      manifest: 'Gemfile',
    });
    expect(bundler.findDependency(files, 'rubocop-rails')).toBeUndefined();
    expect(bundler.listDependencies(files).map((use) => use.name)).toEqual([
      'rails',
      'puma',
      'rack',
      'rspec-rails',
      'factory_bot_rails',
      'pry',
      'capybara',
      'brakeman',
      'lograge',
    ]);
  });
  it('keeps a gem whose version comes from a variable, without rewriting it', () => {
    const rails = bundler.findDependency(files, 'rails');
    expect(rails).toMatchObject({ requirement: null, version: '7.1.2' });
    expect(bundler.updateManifest(files, rails as NonNullable<typeof rails>, '7.1.3')).toEqual({
      cannot: expect.stringContaining('computed when Ruby runs'),
    });
    const { gems } = readGemfileContents('Gemfile', gemfile);
    expect(gems.find((gem) => gem.name === 'rack')).toMatchObject({ requirement: '~> 3.0', partial: true });
    expect(gems.find((gem) => gem.name === 'puma')).toMatchObject({ partial: false });
  });
  it('still rejects text Ruby could not parse', () => {
    expect(() => readGemfileContents('Gemfile', 'gem "rails\n')).toThrow(ManifestParseError);
    expect(() => readGemfileContents('Gemfile', 'group :test do\n  gem "rspec"\n')).toThrow(ManifestParseError);
    expect(() => readGemfileContents('Gemfile', 'end\n')).toThrow(ManifestParseError);
  });
});

describe('bundler: group options', () => {
  const files = fixture('bundler-dynamic');
  it.each([
    ['rspec-rails', 'development'],
    ['factory_bot_rails', 'development'],
    ['pry', 'development'],
    ['capybara', 'development'],
    ['brakeman', 'development'],
    ['lograge', 'runtime'],
    ['puma', 'runtime'],
  ])('%s is %s', (name, type) => {
    expect(bundler.findDependency(files, name)).toMatchObject({ type });
  });
  it('reads group options the way group blocks are read', () => {
    const asOption = 'gem "rspec", group: :test\ngem "rubocop", groups: [:development, :test]\ngem "rake", group: [:default, :test]\n';
    const asBlock =
      'group :test do\n  gem "rspec"\nend\ngroup :development, :test do\n  gem "rubocop"\nend\ngroup :default, :test do\n  gem "rake"\nend\n';
    for (const name of ['rspec', 'rubocop', 'rake']) {
      expect(bundler.findDependency({ Gemfile: asOption }, name)?.type).toBe(bundler.findDependency({ Gemfile: asBlock }, name)?.type);
    }
    expect(bundler.findDependency({ Gemfile: asOption }, 'rake')?.type).toBe('runtime');
  });
});

describe('bundler: git and path gems', () => {
  const files = fixture('bundler-dynamic');
  it('reports the version their GIT and PATH sections lock', () => {
    expect(bundler.findDependency(files, 'toolkit')).toMatchObject({ requirement: null, version: '2.3.0.pre1' });
    expect(bundler.findDependency(files, 'my_engine')).toMatchObject({ version: '0.1.0' });
    expect(bundler.findDependency(files, 'mono_a')).toMatchObject({ version: '0.4.2' });
  });
  it('leaves them out of listDependencies', () => {
    const names = bundler.listDependencies(files).map((use) => use.name);
    for (const name of ['toolkit', 'my_engine', 'mono_a']) expect(names).not.toContain(name);
  });
});

describe('bundler: lockfile updates of a gem with computed arguments', () => {
  it('needs resolution, since the Gemfile requirement is not known', async () => {
    const files = fixture('bundler-dynamic');
    const use = bundler.findDependency(files, 'rails');
    if (!use) throw new Error('rails not found');
    const target = {
      name: 'rails',
      version: '7.1.3',
      dependencies: [],
      artifacts: [{ filename: 'rails-7.1.3.gem', url: 'https://rubygems.org/gems/rails-7.1.3.gem', digests: [] }],
    };
    const result = await bundler.updateLockfiles?.({ files, updated: files, use, target, registries: [{ url: 'https://rubygems.org/' }] });
    expect(result).toEqual({ needsResolution: expect.stringContaining('computes arguments of rails') });
  });
});
