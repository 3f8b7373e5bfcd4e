import { describe, expect, it } from 'vitest';
import { requireEcosystem } from '../src/index.ts';
import { CORPUS_PACKAGE_MANAGERS, CORPUS_PRESENT, corpusDirectories } from './corpus.ts';
import { checkedUpdate } from './update-check.ts';

/** Lockfiles play no part in a manifest update; leaving them out keeps the many re-reads fast. */
const LOCKFILES = new Set([
  'package-lock.json',
  'npm-shrinkwrap.json',
  'yarn.lock',
  'poetry.lock',
  'uv.lock',
  'Gemfile.lock',
  'Cargo.lock',
  'composer.lock',
]);

/** The next patch and the next major version after `[major, minor, patch]`. */
const BUMPS = {
  patch: ([major, minor, patch]: readonly number[]) => `${major}.${minor}.${(patch ?? 0) + 1}`,
  major: ([major]: readonly number[]) => `${(major ?? 0) + 1}.0.0`,
};

/**
 * Every dependency of the real-world corpus with a version in use, updated to its next patch version and to its
 * next major version: each update holds the guarantees {@link checkedUpdate} asserts, and most rewrites succeed.
 * The counts per outcome and the `cannot` reasons (quoted names elided) are written to the test output.
 */
describe.runIf(CORPUS_PRESENT)('updateManifest over the real-world corpus', () => {
  const cases = CORPUS_PACKAGE_MANAGERS.flatMap((pm) => (['patch', 'major'] as const).map((bump) => [pm, bump] as const));
  it.each(cases)(
    '%s: next-%s updates keep the invariant',
    (packageManager, bump) => {
      const ecosystem = requireEcosystem(packageManager);
      const counts = { files: 0, unchanged: 0, cannot: 0 };
      const reasons = new Map<string, number>();
      for (const directory of corpusDirectories(ecosystem)) {
        const manifests = Object.fromEntries(Object.entries(directory.files).filter(([name]) => !LOCKFILES.has(name)));
        for (const use of ecosystem.listDependencies(directory.files)) {
          if (use.version === null || !ecosystem.versions.isValid(use.version) || !ecosystem.versions.release) continue;
          const target = BUMPS[bump](ecosystem.versions.release(use.version));
          const result = checkedUpdate(ecosystem, manifests, use.name, target);
          if ('files' in result) counts.files++;
          else if ('unchanged' in result) counts.unchanged++;
          else {
            counts.cannot++;
            const reason = result.cannot.replace(/'[^']*'/g, "'…'").replace(/^[^:]*: /, '');
            reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
          }
        }
      }
      const total = counts.files + counts.unchanged + counts.cannot;
      process.stdout.write(
        `${packageManager} next ${bump}: ${JSON.stringify(counts)} of ${total}; cannot: ${JSON.stringify(Object.fromEntries(reasons))}\n`,
      );
      expect(total).toBeGreaterThan(0);
      expect(counts.cannot).toBeLessThan(total / 4);
    },
    300_000,
  );
});
