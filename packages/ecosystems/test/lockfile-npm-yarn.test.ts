import { createRequire } from 'node:module';
import { expect, describe as group, it } from 'vitest';
import { npmAndYarn, type RegistryVersionDetails } from '../src/index.ts';
import { CORPUS_PRESENT, corpusDirectories } from './corpus.ts';

const lockfile = createRequire(import.meta.url)('@yarnpkg/lockfile') as typeof import('@yarnpkg/lockfile');

/** A version the registry would describe, offline: no dependencies, a tarball on the public registry, made-up digests. */
function synthetic(name: string, version: string): RegistryVersionDetails {
  const basename = name.split('/').pop();
  return {
    name,
    version,
    dependencies: [],
    artifacts: [
      {
        filename: `${basename}-${version}.tgz`,
        url: `https://registry.npmjs.org/${name}/-/${basename}-${version}.tgz`,
        digests: [
          { algorithm: 'sha512', value: `sha512-${'A'.repeat(86)}==`, encoding: 'sri' },
          { algorithm: 'sha1', value: 'a'.repeat(40), encoding: 'hex' },
        ],
      },
    ],
  };
}

/** The text without the top-level entries (header and indented lines) having a pattern of `key`. */
function withoutEntriesOf(text: string, key: string): string {
  const kept: string[] = [];
  let skipping = false;
  for (const line of text.split('\n')) {
    if (!/^\s/.test(line) && line !== '') skipping = line.split(/,\s*/).some((p) => p.replace(/^"/, '').startsWith(`${key}@`));
    if (!skipping) kept.push(line);
    else if (line === '') skipping = false;
  }
  return kept.join('\n').replace(/\n{3,}/g, '\n\n');
}

group.runIf(CORPUS_PRESENT)('yarn.lock v1 rewrite over the real-world corpus', () => {
  it('next patch of direct dependencies (an even sample): the file parses, and only that dependency’s entries differ', async () => {
    const directories = corpusDirectories(npmAndYarn).filter((d) => d.files['yarn.lock'] && !d.files['yarn.lock'].includes('__metadata:'));
    expect(directories.length).toBeGreaterThan(0);
    const outcomes = { rewritten: 0, needsResolution: 0 };
    for (const directory of directories) {
      const files = { 'package.json': directory.files['package.json'] ?? '', 'yarn.lock': directory.files['yarn.lock'] ?? '' };
      const original = lockfile.parse(files['yarn.lock']).object;
      const uses = npmAndYarn.listDependencies(files).filter((use) => use.version !== null);
      // an even sample of 40 (each case parses a half-megabyte file twice)
      const step = Math.max(1, Math.ceil(uses.length / 40));
      for (const use of uses.filter((_, index) => index % step === 0)) {
        if (use.version === null || !npmAndYarn.versions.release) continue;
        const [major, minor, patch] = npmAndYarn.versions.release(use.version);
        const target = synthetic(use.name, `${major}.${minor}.${patch + 1}`);
        // the manifest update reads package.json alone: the lockfile is parsed by the update only
        const manifestUpdate = npmAndYarn.updateManifest({ 'package.json': files['package.json'] }, use, target.version);
        const updated = 'files' in manifestUpdate ? { ...files, ...manifestUpdate.files } : files;
        const registries = [{ url: 'https://registry.npmjs.org/' }];
        const result = await npmAndYarn.updateLockfiles?.({ files, updated, use, target, registries });
        if (result && 'needsResolution' in result) {
          outcomes.needsResolution++;
          continue;
        }
        const text = result?.files['yarn.lock'] ?? '';
        const parsed = lockfile.parse(text);
        expect(parsed.type).toBe('success');
        const keys = Object.keys(parsed.object).filter((p) => p.startsWith(`${use.name}@`) && parsed.object[p]?.version === target.version);
        expect(keys.length, use.name).toBeGreaterThan(0);
        for (const key of keys) expect(parsed.object[key]?.resolved, key).toMatch(/^https:\/\/registry\.yarnpkg\.com\/.*#a{40}$/);
        const others = (object: Record<string, unknown>) =>
          JSON.stringify(Object.entries(object).filter(([pattern]) => !pattern.startsWith(`${use.name}@`)));
        expect(others(parsed.object) === others(original), use.name).toBe(true);
        expect(withoutEntriesOf(text, use.name)).toBe(withoutEntriesOf(files['yarn.lock'], use.name));
        outcomes.rewritten++;
      }
    }
    process.stdout.write(`yarn.lock corpus rewrite: ${JSON.stringify(outcomes)}\n`);
    expect(outcomes.rewritten).toBeGreaterThan(outcomes.needsResolution);
  }, 120_000);
});
