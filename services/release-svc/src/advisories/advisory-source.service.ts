import { type CodeHost, CodeHostError, type CodeHostTokens, type SecurityAdvisory } from '@switchyard/code-host';
import { advisoryEcosystemOf } from '@switchyard/contracts';
import type { Ecosystem } from '@switchyard/ecosystems';
import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { ReleaseDatabase } from '../db/schema.ts';
import { findAffectedPackages } from './advisory.repository.ts';
import { type AffectedPackage, parseVulnerableRange } from './advisory-match.policy.ts';

/** The advisories about one package of an ecosystem, by affected entry. */
export type AdvisoryLookup = (ecosystem: Ecosystem, name: string) => Promise<readonly AffectedPackage[]>;

/** The advisories imported from OSV files (`pnpm advisories:import`): the offline source, read when asked. */
export function importedAdvisories(db: Kysely<ReleaseDatabase>): AdvisoryLookup {
  return (ecosystem, name) => findAffectedPackages(db, ecosystem, name);
}

/**
 * The affected entries of `advisories` for package `name` of `ecosystem`: each vulnerability of that ecosystem and
 * name (compared as the ecosystem compares names) whose `vulnerable_version_range` can be read, of each advisory not
 * withdrawn.
 */
export function affectedEntriesOf(advisories: readonly SecurityAdvisory[], ecosystem: Ecosystem, name: string): AffectedPackage[] {
  const wanted = advisoryEcosystemOf(ecosystem.packageManager);
  const key = ecosystem.normaliseName(name);
  const entries: AffectedPackage[] = [];
  for (const advisory of advisories) {
    if (advisory.withdrawnAt !== null) continue;
    for (const v of advisory.vulnerabilities) {
      if (v.ecosystem !== wanted || v.packageName === null || ecosystem.normaliseName(v.packageName) !== key) continue;
      const constraints = v.vulnerableVersionRange === null ? undefined : parseVulnerableRange(v.vulnerableVersionRange);
      if (constraints) entries.push({ advisoryId: advisory.ghsaId, ranges: [], versions: [], constraints });
    }
  }
  return entries;
}

/** Options of {@link codeHostAdvisories}. */
export interface CodeHostAdvisoryOptions {
  /** How long a package's advisories are reused, ms. */
  ttlMs: number;
  /** Packages whose advisories are kept at most. */
  maxPackages: number;
}

/**
 * The code host's global security advisories (GitHub's `GET /advisories?ecosystem=&affects=`,
 * https://docs.github.com/rest/security-advisories/global-advisories), asked with the worker's token (any installation's in App mode), each package's
 * kept `ttlMs` (advisories change over days, not seconds) in a bounded cache shared by every run of the process. A code
 * host without the API (no `listAdvisories`, or one that refuses or does not know it: 403, 404) gives none, and the
 * imported OSV records stand alone.
 * @returns the lookup; it throws the code host's `unavailable` / `rate_limited` errors, so the run or scan that asked is
 * delivered again rather than deciding without the advisories
 */
export function codeHostAdvisories(codeHost: CodeHost, tokens: CodeHostTokens, options: CodeHostAdvisoryOptions): AdvisoryLookup {
  const cache = new LRUCache<string, readonly SecurityAdvisory[]>({ max: options.maxPackages, ttl: options.ttlMs });
  const pending = new Map<string, Promise<readonly SecurityAdvisory[]>>();
  return async (ecosystem, name) => {
    const advisoryEcosystem = advisoryEcosystemOf(ecosystem.packageManager);
    if (!codeHost.listAdvisories || !advisoryEcosystem) return [];
    const key = `${advisoryEcosystem}:${ecosystem.normaliseName(name)}`;
    let advisories = cache.get(key);
    if (!advisories) {
      let asking = pending.get(key);
      if (!asking) {
        asking = tokens
          .anyToken()
          .then(
            (token) => codeHost.listAdvisories?.(token, { ecosystem: advisoryEcosystem, packageName: ecosystem.normaliseName(name) }) ?? [],
          )
          .catch((error: unknown) => {
            if (error instanceof CodeHostError && (error.kind === 'forbidden' || error.kind === 'not_found')) return [];
            throw error;
          })
          .finally(() => pending.delete(key));
        pending.set(key, asking);
      }
      advisories = await asking;
      cache.set(key, advisories);
    }
    return affectedEntriesOf(advisories, ecosystem, name);
  };
}

/** Both sources at once: the imported OSV records and the code host's advisories. */
export function combinedAdvisories(...sources: AdvisoryLookup[]): AdvisoryLookup {
  return async (ecosystem, name) => (await Promise.all(sources.map((source) => source(ecosystem, name)))).flat();
}
