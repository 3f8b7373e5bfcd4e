import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { filesMatching, type RegistryVersionDetails, requireEcosystem } from '../src/index.ts';
import { CORPUS_PACKAGE_MANAGERS, CORPUS_PRESENT, corpusDirectories } from './corpus.ts';
import { checkedUpdate } from './update-check.ts';

/**
 * The next patch and the next major version after the version in use, written as it is written (a `v` or other prefix
 * and a suffix such as Docker's `-slim` kept): the first run of numbers is moved, at its own precision
 * (`v4` → `v5` for both; `3.12-slim` → `3.13-slim` / `4.0-slim`; `1.2.3` → `1.2.4` / `2.0.0`). Undefined when the
 * version holds no number.
 */
function bump(version: string, kind: 'patch' | 'major'): string | undefined {
  const match = /^(\D*)(\d+(?:\.\d+)*)(.*)$/s.exec(version);
  if (!match) return undefined;
  const [, prefix, core = '', suffix] = match;
  const numbers = core.split('.').map(Number);
  if (kind === 'major') numbers.splice(0, numbers.length, (numbers[0] ?? 0) + 1, ...numbers.slice(1).map(() => 0));
  else {
    const at = Math.min(2, numbers.length - 1);
    numbers.splice(at, numbers.length - at, (numbers[at] ?? 0) + 1, ...numbers.slice(at + 1).map(() => 0));
  }
  return `${prefix}${numbers.join('.')}${suffix}`;
}

/**
 * What a registry would say of `version` for the references that pin more than a version: a commit (a GitHub Action
 * pinned to a SHA) and a manifest digest (a Docker image pinned by digest), both derived from the name and version.
 */
function registryDetails(name: string, version: string): RegistryVersionDetails {
  const hash = createHash('sha256').update(`${name}@${version}`).digest('hex');
  return {
    name,
    version,
    dependencies: null,
    artifacts: [
      {
        filename: version,
        url: '',
        digests: [{ algorithm: 'sha256', value: hash, encoding: 'hex' }],
        attributes: { commit: hash.slice(0, 40) },
      },
    ],
  };
}

/**
 * Every dependency of the real-world corpus with a version in use, updated to its next patch version and to its
 * next major version: each update holds the guarantees {@link checkedUpdate} asserts, and most rewrites succeed.
 * The counts per outcome and the `cannot` reasons (quoted names elided) are written to the test output.
 */
describe.runIf(CORPUS_PRESENT)('updateManifest over the real-world corpus', () => {
  // Submodules pin commits, which have no next version; a Go module's next major is another module (`/v2`), never an
  // update of the same one (go-modules tests cover that refusal).
  const cases = CORPUS_PACKAGE_MANAGERS.filter((pm) => pm !== 'submodules').flatMap((pm) =>
    (['patch', 'major'] as const).filter((kind) => pm !== 'go_modules' || kind === 'patch').map((kind) => [pm, kind] as const),
  );
  it.each(cases)(
    '%s: next-%s updates keep the invariant',
    (packageManager, kind) => {
      const ecosystem = requireEcosystem(packageManager);
      const counts = { files: 0, unchanged: 0, cannot: 0 };
      const reasons = new Map<string, number>();
      for (const directory of corpusDirectories(ecosystem)) {
        // Lockfiles play no part in a manifest update; leaving them out keeps the many re-reads fast.
        const manifests = Object.fromEntries(
          Object.entries(directory.files).filter(([name]) => filesMatching(ecosystem.files.lockfiles, [name]).length === 0),
        );
        for (const use of ecosystem.listDependencies(directory.files)) {
          if (use.version === null || !ecosystem.versions.isValid(use.version) || ecosystem.versions.unordered) continue;
          const target = bump(use.version, kind);
          if (target === undefined || !ecosystem.versions.isValid(target)) continue;
          const result = checkedUpdate(ecosystem, manifests, use.name, target, undefined, registryDetails(use.name, target));
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
        `${packageManager} next ${kind}: ${JSON.stringify(counts)} of ${total}; cannot: ${JSON.stringify(Object.fromEntries(reasons))}\n`,
      );
      expect(total).toBeGreaterThan(0);
      expect(counts.cannot).toBeLessThan(total / 4);
    },
    300_000,
  );
});
