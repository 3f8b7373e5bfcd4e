import type { PackageManager } from '@switchyard/contracts';
import { type Ecosystem, ecosystemFor } from '@switchyard/ecosystems';
import type { KnownRepo, KnownUpdateConfig, ScanTarget } from '../../read-model/scan-target.model.ts';

/**
 * What the pipeline works on, as a trigger asks for it: every direct dependency of a config (a schedule slot, the
 * registry watch, "bump now"), or one dependency with the version a release notification names as a hint (rule 3 of the
 * dependency update API: the notified version is a hint, the registry is asked).
 */
export type RunScope =
  | { kind: 'every-dependency' }
  | { kind: 'one-dependency'; notificationId: string; name: string; version: string; packageManager: PackageManager };

/** A config whose files can be read: known and not deleted, its repo known, its package manager supported. */
export interface ReadableTarget {
  config: KnownUpdateConfig;
  repo: KnownRepo;
  ecosystem: Ecosystem;
  /** Where its files are read: the config's target branch, else the repo's default branch. */
  branch: string;
}

/**
 * The pipeline's gate, before anything is read: whether a config can be read for work about `packageManager`, or why it
 * is skipped without reading: the config or its repo no longer known, the config deleted, the package manager not
 * supported (`packages/ecosystems` has no rules for it), its repo not known yet, in this order.
 */
export function readableTarget(
  target: ScanTarget | undefined,
  packageManager: PackageManager,
): ReadableTarget | { skipped: { outcome: 'skipped'; reason: string } } {
  const skip = (reason: string) => ({ skipped: { outcome: 'skipped' as const, reason } });
  if (!target) return skip('the update config or its repo is no longer known');
  const { config, repo } = target;
  if (config.deleted) return skip('the update config was deleted');
  const ecosystem = ecosystemFor(packageManager);
  if (!ecosystem) return skip(`package manager ${packageManager} is not supported yet`);
  if (!repo) return skip(`repo ${config.repoId} is not known to the service yet`);
  if (target.installed === false) return skip(`the App's installation no longer covers ${repo.fullName} (installation-state inactive)`);
  return { config, repo, ecosystem, branch: config.targetBranch ?? repo.defaultBranch };
}
