import { docker, requireEcosystem } from '@switchyard/ecosystems';
import { describe, expect, it } from 'vitest';
import { extractDependencies, MAX_SKIPPED_DECLARATIONS } from '../src/pipeline/extract/dependencies.policy.ts';

describe('extractDependencies: what a run keeps of the declarations a reader skipped', () => {
  it(`keeps the first ${MAX_SKIPPED_DECLARATIONS} of a Dockerfile with many unreadable FROM lines, and reads the others`, () => {
    const dockerfile = `${Array.from({ length: 5_000 }, (_, i) => `FROM \${BASE_${i}}`).join('\n')}\nFROM python:3.12-slim\n`;
    const extracted = extractDependencies(docker, { Dockerfile: dockerfile }, { kind: 'every-dependency' });
    if ('failed' in extracted) throw new Error(extracted.failed);
    expect(extracted.uses.map((use) => use.name)).toEqual(['python']);
    expect(extracted.skipped).toHaveLength(MAX_SKIPPED_DECLARATIONS);
    expect(extracted.skipped[0]).toMatchObject({ file: 'Dockerfile', line: 1, text: 'FROM \u0024{BASE_0}' });
  });

  it('replaces control characters (jsonb refuses NUL) and cuts a long line', () => {
    const bundler = requireEcosystem('bundler');
    const gemfile = `source "https://rubygems.org"\ngem name\u0000, *opts\ngem(*${'x'.repeat(1_000)})\ngem "rails", "~> 7.1"\n`;
    const extracted = extractDependencies(bundler, { Gemfile: gemfile }, { kind: 'every-dependency' });
    if ('failed' in extracted) throw new Error(extracted.failed);
    expect(extracted.uses.map((use) => use.name)).toEqual(['rails']);
    expect(extracted.skipped.length).toBeGreaterThan(0);
    for (const skipped of extracted.skipped) {
      expect(skipped.text.includes('\u0000')).toBe(false);
      expect(skipped.text.length).toBeLessThanOrEqual(200);
    }
  });
});
