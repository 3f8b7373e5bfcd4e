import { describe, expect, it } from 'vitest';
import { bundler, InvalidRequirementError, ManifestParseError, readGemfileLock, rubyVersions } from '../src/index.ts';
import { fixture, sorted } from './fixtures.ts';
import { listChecked, rows } from './invariant.ts';

describe('bundler findDependency', () => {
  const files = fixture('bundler');
  const find = (name: string) => bundler.findDependency(files, name);

  it('reads a gem with its requirement and the locked version', () => {
    expect(find('rails')).toEqual({ name: 'rails', type: 'runtime', requirement: '~> 7.1.2', version: '7.1.2', manifest: 'Gemfile' });
    expect(find('pg')).toMatchObject({ requirement: '>= 1.1, < 2.0', version: '1.5.4' });
    expect(find('faraday')).toMatchObject({ requirement: '~> 2.7, >= 2.7.11', version: '2.7.12' });
  });
  it('strips platform suffixes of locked platform gems', () => {
    expect(find('nokogiri')).toMatchObject({ requirement: '~> 1.15, >= 1.15.4', version: '1.15.5' });
  });
  it('reads group blocks (also nested in platforms) and group: options as development', () => {
    expect(find('debug')).toMatchObject({ type: 'development', requirement: null, version: '1.8.0' });
    expect(find('rspec-rails')).toMatchObject({ type: 'development', requirement: '~> 6.1.0', version: '6.1.0' });
    expect(find('stackprof')).toMatchObject({ type: 'development', version: '0.2.25' });
    expect(find('selenium-webdriver')).toMatchObject({ type: 'development', version: '4.15.0' });
    expect(find('rubocop-rails')).toMatchObject({ type: 'development', version: '2.22.2' });
  });
  it('keeps gems with options or an if modifier at the top level runtime', () => {
    expect(find('bootsnap')).toMatchObject({ type: 'runtime', requirement: null, version: '1.17.0' });
    expect(find('image_processing')).toMatchObject({ type: 'runtime', requirement: '~> 1.2', version: null });
  });
  it('takes the exact pin without a lockfile, and compares names case-insensitively', () => {
    const gemfileOnly = fixture('bundler', ['Gemfile']);
    expect(bundler.findDependency(gemfileOnly, 'sidekiq')).toMatchObject({ requirement: '7.2.0', version: '7.2.0' });
    expect(bundler.findDependency(gemfileOnly, 'rails')).toMatchObject({ version: null });
    expect(find('Rails')).toMatchObject({ name: 'rails' });
  });
  it('ignores gems only in the lockfile', () => {
    expect(find('actionpack')).toBeUndefined();
    expect(find('sinatra')).toBeUndefined();
  });
  it('names the file that does not parse', () => {
    expect(() => bundler.findDependency({ Gemfile: 'group :test do\n  gem "rspec"\n' }, 'rspec')).toThrow(
      expect.objectContaining({ name: 'ManifestParseError', file: 'Gemfile' }),
    );
    expect(() => bundler.findDependency({ Gemfile: 'gem "rails\n' }, 'rails')).toThrow(ManifestParseError);
    // a name Ruby computes is skipped (see defects-bundler.test.ts), not a parse error
    expect(bundler.findDependency({ Gemfile: 'gem rails\n' }, 'rails')).toBeUndefined();
    const lock = 'GEM\n  remote: https://rubygems.org/\n  specs:\n    rails 7.1.2\n';
    expect(() => bundler.findDependency({ ...files, 'Gemfile.lock': lock }, 'rails')).toThrow(
      expect.objectContaining({ name: 'ManifestParseError', file: 'Gemfile.lock' }),
    );
  });
  it('reads platform variants of a lockfile', () => {
    const gems = readGemfileLock('Gemfile.lock', files['Gemfile.lock'] ?? '').filter((g) => g.name === 'nokogiri');
    expect(gems).toEqual([
      { name: 'nokogiri', version: '1.15.5', platform: 'arm64-darwin' },
      { name: 'nokogiri', version: '1.15.5', platform: 'x86_64-linux' },
    ]);
  });
});

describe('bundler listDependencies', () => {
  it('lists every gem once in Gemfile order with Gemfile.lock versions and group types', () => {
    const list = listChecked(bundler, fixture('bundler'));
    expect(list.map((use) => use.name)).toEqual([
      'rails',
      'pg',
      'puma',
      'nokogiri',
      'sidekiq',
      'bootsnap',
      'tzinfo-data',
      'rubocop-rails',
      'image_processing',
      'debug',
      'rspec-rails',
      'factory_bot_rails',
      'web-console',
      'stackprof',
      'capybara',
      'selenium-webdriver',
      'faraday',
    ]);
    expect(rows(list.filter((use) => ['nokogiri', 'stackprof', 'faraday'].includes(use.name)))).toEqual([
      ['nokogiri', 'runtime', '~> 1.15, >= 1.15.4', '1.15.5'],
      ['stackprof', 'development', '~> 0.2.25', '0.2.25'],
      ['faraday', 'runtime', '~> 2.7, >= 2.7.11', '2.7.12'],
    ]);
  });
  it('leaves out git and path gems, by option or by block, and gem calls built at run time', () => {
    const gemfile = [
      'source "https://rubygems.org"',
      'gem "rails", github: "rails/rails", branch: "main"',
      'gem "engine", path: "engines/engine"',
      'gem "sorcery", :git => "https://github.com/acme/sorcery.git"',
      'git "https://github.com/acme/toolkit.git", branch: "main" do',
      '  gem "toolkit-core"',
      'end',
      'path "components" do',
      '  gem "billing"',
      'end',
      'source "https://gems.example.com" do',
      '  gem "private-gem", "~> 1.0"',
      'end',
      'group :test do',
      '  gem "rspec", "3.12.0"',
      'end',
      'Plugins.each_gem(ENV["EXTRA_GEMS"]) do |args|',
      '  gem(*args)',
      'end',
    ].join('\n');
    expect(rows(listChecked(bundler, { Gemfile: gemfile }))).toEqual([
      ['private-gem', 'runtime', '~> 1.0', null],
      ['rspec', 'development', '3.12.0', '3.12.0'],
    ]);
  });
  it('gives a gem declared twice once: first requirement, runtime if any declaration is', () => {
    const gemfile = ['group :test do', '  gem "Rack", "~> 3.0"', 'end', 'gem "rack", "~> 3.0.8", platforms: :ruby'].join('\n');
    const lock = ['GEM', '  remote: https://rubygems.org/', '  specs:', '    rack (3.0.8)', ''].join('\n');
    expect(listChecked(bundler, { Gemfile: gemfile, 'Gemfile.lock': lock })).toEqual([
      { name: 'Rack', type: 'runtime', requirement: '~> 3.0', version: '3.0.8', manifest: 'Gemfile' },
    ]);
  });
  it('throws ManifestParseError on a Gemfile or Gemfile.lock that does not parse', () => {
    expect(() => bundler.listDependencies({ Gemfile: 'group :test do\n  gem "rspec"\n' })).toThrow(ManifestParseError);
    expect(() => bundler.listDependencies({ ...fixture('bundler'), 'Gemfile.lock': 'GEM\n<<<<<<< HEAD\n' })).toThrow(
      expect.objectContaining({ file: 'Gemfile.lock' }),
    );
  });
});

describe('RubyGems versions', () => {
  it('orders versions, a letter making a pre-release', () => {
    const order = ['0.9', '1.0.0.pre', '1.0.0.rc1', '1.0.0', '1.0.1', '1.1', '2.0.0.beta1', '2.0.0'];
    expect(sorted(order, rubyVersions.compare)).toEqual(order);
    expect(rubyVersions.compare('1.0', '1.0.0')).toBe(0);
  });
  it.each([
    ['1.2.5', '~> 1.2', true],
    ['2.0.0', '~> 1.2', false],
    ['1.2.9', '~> 1.2.3', true],
    ['1.3.0', '~> 1.2.3', false],
    ['1.15.5', '~> 1.15, >= 1.15.4', true],
    ['1.15.3', '~> 1.15, >= 1.15.4', false],
    ['1.9.9', '>= 1.1, < 2.0', true],
    ['7.2.0', '7.2.0', true],
    ['7.2.1', '= 7.2.0', false],
    ['1.0.1', '!= 1.0.1', false],
  ])('%s satisfies %s: %s', (version, requirement, expected) => {
    expect(rubyVersions.satisfies(version, requirement)).toBe(expected);
  });
  it('tells pre-releases, update kinds and lowest versions; rejects bad requirements', () => {
    expect(rubyVersions.isPrerelease('1.0.0.pre')).toBe(true);
    expect(rubyVersions.isPrerelease('7.1.0.rc2')).toBe(true);
    expect(rubyVersions.isPrerelease('7.1.2')).toBe(false);
    expect(rubyVersions.updateKind('7.1.2', '7.1.3')).toBe('patch');
    expect(rubyVersions.updateKind('7.1.2', '7.2')).toBe('minor');
    expect(rubyVersions.updateKind('6.1.7.6', '7.0.0')).toBe('major');
    expect(rubyVersions.lowestAllowed?.('~> 1.15, >= 1.15.4')).toBe('1.15.4');
    expect(rubyVersions.lowestAllowed?.('< 2')).toBeNull();
    expect(() => rubyVersions.satisfies('1.0', '~> one')).toThrow(InvalidRequirementError);
  });
});
