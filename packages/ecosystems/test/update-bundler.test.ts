import { describe, expect, it } from 'vitest';
import { bundler, type DependencyUse } from '../src/index.ts';
import { fixture } from './fixtures.ts';
import { checkedUpdate } from './update-check.ts';

const files = fixture('bundler');
const gemfile = files.Gemfile ?? '';
const use = (f: Record<string, string>, name: string) => bundler.findDependency(f, name) as DependencyUse;

describe('bundler updateManifest', () => {
  it.each([
    ['rails', '7.2.1', '"~> 7.1.2"', '"~> 7.2.1"', '~> 7.2.1'],
    ['rspec-rails', '6.2.0', '"~> 6.1.0"', '"~> 6.2.0"', '~> 6.2.0'],
    ['pg', '2.1.0', '"< 2.0"', '"< 3.0"', '>= 1.1, < 3.0'],
    ['nokogiri', '2.0.1', '"~> 1.15"', '"~> 2.0"', '~> 2.0, >= 1.15.4'],
    ['sidekiq', '7.3.0', "'7.2.0'", "'7.3.0'", '7.3.0'],
    ['selenium-webdriver', '4.16.0', '"4.15.0"', '"4.16.0"', '4.16.0'],
    ['stackprof', '0.3.0', '"~> 0.2.25"', '"~> 0.3.0"', '~> 0.3.0'],
    ['image_processing', '2.0.0', '"~> 1.2"', '"~> 2.0"', '~> 2.0'],
    ['faraday', '3.0.0', "'~> 2.7'", "'~> 3.0'", '~> 3.0, >= 2.7.11'],
  ])('%s to %s edits only inside the quotes', (name, target, before, after, requirement) => {
    expect(checkedUpdate(bundler, files, name, target)).toEqual({ files: { Gemfile: gemfile.replace(before, after) }, requirement });
  });
  it('leaves requirements that allow the target and gems without one', () => {
    expect(bundler.updateManifest(files, use(files, 'puma'), '6.4.0')).toEqual({
      unchanged: expect.stringContaining("'>= 5.0' already allows"),
    });
    expect(bundler.updateManifest(files, use(files, 'rails'), '7.1.3')).toEqual({ unchanged: expect.any(String) });
    expect(bundler.updateManifest(files, use(files, 'bootsnap'), '1.18.0')).toEqual({
      unchanged: expect.stringContaining('no version requirement'),
    });
  });
  it('updates every declaration, keeps CRLF and parenthesised calls, and refuses git gems', () => {
    const text =
      "source 'https://rubygems.org'\r\ngem('rack', '~> 2.2', require: false) # web\r\ngroup :test do\r\n  gem \"rack\", \"~> 2.1\"\r\nend";
    expect(checkedUpdate(bundler, { Gemfile: text }, 'rack', '3.0.8')).toEqual({
      files: { Gemfile: text.replace("'~> 2.2'", "'~> 3.0'").replace('"~> 2.1"', '"~> 3.0"') },
      requirement: '~> 3.0',
    });
    const git = { Gemfile: 'gem "rack", "~> 2.2", git: "https://github.com/rack/rack"\n' };
    expect(bundler.updateManifest(git, use(git, 'rack'), '3.0.0')).toEqual({ cannot: expect.stringContaining('git repository') });
    const excluded = { Gemfile: 'gem "rack", ">= 2.2", "!= 3.0.0"\n' };
    expect(bundler.updateManifest(excluded, use(excluded, 'rack'), '3.0.0')).toEqual({ cannot: expect.stringContaining('exclusion') });
  });
});
