import type { PackageManager } from '@switchyard/contracts';
import type { Ecosystem } from '@switchyard/ecosystems';
import type { AffectedPackage } from '../../advisories/advisory-match.policy.ts';
import type { AdvisoryLookup } from '../../advisories/advisory-source.service.ts';
import { isRegistryError, type RegistryAccess } from './registry-access.client.ts';
import type { Resolved } from './resolved.model.ts';

/** The resolve stage of the pipeline: the candidates of a dependency, asked once each for the resolver's lifetime. */
export interface Resolver {
  /** What the registries say of `name` for `accountId` (its private registry first). @throws what is not a RegistryError */
  registry(accountId: number, packageManager: PackageManager, name: string): Promise<Resolved>;
  /**
   * The advisories about `name` (imported OSV records and the code host's).
   * @throws the code host's `unavailable` / `rate_limited` errors (the work is delivered again rather than decided
   *   without them)
   */
  advisories(ecosystem: Ecosystem, name: string): Promise<readonly AffectedPackage[]>;
}

/**
 * A resolver for one run or one batch of a notification's fan-out: each package is asked of the registries once per
 * account, and its advisories once (a batch is about one dependency, so its configs share one answer). A registry that
 * fails is an answer too (`failed`: the decide stage reports it); an advisory lookup that throws (the code host down)
 * throws for every config of the batch that asks it, so they all wait for the same later attempt.
 */
export function createResolver(registries: RegistryAccess, advisories: AdvisoryLookup): Resolver {
  const asked = new Map<string, Promise<Resolved>>();
  const advised = new Map<string, Promise<readonly AffectedPackage[]>>();
  return {
    registry(accountId, packageManager, name) {
      const key = `${accountId} ${packageManager} ${name}`;
      let answer = asked.get(key);
      if (!answer) {
        answer = registries.fetch(accountId, packageManager, name).then(
          (found): Resolved => (!found ? { noRegistry: true } : 'notFound' in found ? { notFound: found.registries } : { found }),
          (error: unknown): Resolved => {
            if (!isRegistryError(error)) throw error;
            return { failed: error };
          },
        );
        asked.set(key, answer);
      }
      return answer;
    },
    advisories(ecosystem, name) {
      const key = `${ecosystem.packageManager} ${ecosystem.normaliseName(name)}`;
      let lookup = advised.get(key);
      if (!lookup) {
        lookup = advisories(ecosystem, name);
        advised.set(key, lookup);
      }
      return lookup;
    },
  };
}
