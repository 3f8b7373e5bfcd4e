import type { AutomergeRule } from '@switchyard/contracts';
import type { UpdateKind } from '@switchyard/ecosystems';

/**
 * Whether a job is merged automatically under a config's automerge rule for the dependency's type
 * (seeds/000 automerge values; meanings from the original's docs, reference/dependabot.md 1.4):
 * `never`; `security:patch` a patch update that fixes a known vulnerability; `semver:patch` any patch
 * update; `semver:minor` a minor or patch update; `in_range` an update the manifest's requirement
 * already allows; `all` every update.
 */
export function automergeAllowed(rule: AutomergeRule, kind: UpdateKind, inRange: boolean, securityFix: boolean): boolean {
  switch (rule) {
    case 'never':
      return false;
    case 'security:patch':
      return securityFix && kind === 'patch';
    case 'semver:patch':
      return kind === 'patch';
    case 'semver:minor':
      return kind === 'patch' || kind === 'minor';
    case 'in_range':
      return inRange;
    case 'all':
      return true;
  }
}
