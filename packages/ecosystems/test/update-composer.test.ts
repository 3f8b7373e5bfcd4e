import { describe, expect, it } from 'vitest';
import { composer, type DependencyUse } from '../src/index.ts';
import { fixture } from './fixtures.ts';
import { checkedUpdate } from './update-check.ts';

const files = fixture('composer');
const json = files['composer.json'] ?? '';
const use = (f: Record<string, string>, name: string) => composer.findDependency(f, name) as DependencyUse;

describe('composer updateManifest', () => {
  it.each([
    ['doctrine/orm', '3.0.1', '"^2.17"', '"^3.0"', '^3.0'],
    ['guzzlehttp/guzzle', '8.1.0', '"~7.8"', '"~8.1"', '~8.1'],
    ['monolog/monolog', '3.6.0', '"3.5.*"', '"3.6.*"', '3.6.*'],
    ['symfony/console', 'v6.4.1', '"v6.3.4"', '"v6.4.1"', 'v6.4.1'],
    ['symfony/http-kernel', '8.0.0', '"^6.3 || ^7.0"', '"^6.3 || ^7.0 || ^8.0"', '^6.3 || ^7.0 || ^8.0'],
    ['twig/twig', '4.1.0', '">=3.7 <4.0"', '">=3.7 <5.0"', '>=3.7 <5.0'],
    ['league/flysystem', '4.0.0', '"^3.0@stable"', '"^4.0@stable"', '^4.0@stable'],
    ['phpunit/phpunit', '11.0.2', '"^10.4"', '"^11.0"', '^11.0'],
    ['symfony/var-dumper', '6.4.0', '"~6.3.0"', '"~6.4.0"', '~6.4.0'],
  ])('%s to %s edits only the constraint', (name, target, before, after, requirement) => {
    expect(checkedUpdate(composer, files, name, target)).toEqual({ files: { 'composer.json': json.replace(before, after) }, requirement });
  });
  it('leaves constraints that allow the target, and a named branch, whose new head its constraint allows', () => {
    expect(composer.updateManifest(files, use(files, 'doctrine/orm'), '2.19.0')).toEqual({
      unchanged: expect.stringContaining('already allows'),
    });
    expect(composer.updateManifest(files, use(files, 'acme/internal-sdk'), 'dev-main')).toEqual({
      unchanged: expect.stringContaining("'dev-main' follows the branch"),
    });
    expect(composer.updateManifest(files, use(files, 'acme/internal-sdk'), 'f0e1d2c3b4a5f6e7d8c9b0a1f2e3d4c5b6a7f8e9')).toEqual({
      unchanged: expect.stringContaining('composer.lock moves to the commit'),
    });
  });
  it('updates require and require-dev, keeping four-space indentation, CRLF and no final newline', () => {
    const text =
      '{\r\n    "require": {\r\n        "psr/log": "^1.1"\r\n    },\r\n    "require-dev": {\r\n        "PSR/Log": "^1.0"\r\n    }\r\n}';
    expect(checkedUpdate(composer, { 'composer.json': text }, 'psr/log', '3.0.0')).toEqual({
      files: { 'composer.json': text.replace('"^1.1"', '"^3.0"').replace('"^1.0"', '"^3.0"') },
      requirement: '^3.0',
    });
  });
});
