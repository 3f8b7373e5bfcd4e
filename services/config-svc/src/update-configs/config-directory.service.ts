import type { Caller, CodeHostRepo, CodeHostView } from '@switchyard/code-host';
import type { PackageManager } from '@switchyard/contracts';
import {
  type ConfigDirectoryMember,
  ManifestFilesMissing,
  needsRecursiveListing,
  requireManifestFiles,
} from './config-directory.policy.ts';

/** Where a config looks for its files: its repo, package manager, directory and branch (its target branch, else the repo's default). */
export interface ConfigLocation {
  repo: Pick<CodeHostRepo, 'id' | 'fullName'>;
  packageManager: PackageManager;
  directory: string;
  branch: string;
}

/**
 * Checks with the code host, as the caller, that the config's directory holds its package manager's required files on
 * its branch (`requireManifestFiles`): from one listing, the directory's (GitHub `GET /repos/{owner}/{repo}/contents/{path}?ref=`)
 * or, for a package manager that requires files in subdirectories (github_actions' `.github/workflows/*.yml`), the
 * repository's tree (`GET /repos/{owner}/{repo}/git/trees/{ref}?recursive=1`), as release-svc's worker lists them
 * (`listDirectoryFiles` of `@switchyard/code-host`). The listing comes through the view's per-token cache
 * (`CODE_HOST_CACHE_TTL_MS`), so configs of one repo and branch made together cost one listing; a cached listing that
 * lacks the files is asked for afresh before the refusal, so a file pushed a moment ago is seen. Nothing is checked
 * when the code host cannot list (a platform or test double without the listing).
 * @throws ManifestFilesMissing (422 on the wire) reported on `member`
 * @throws RateLimited, CodeHostUnavailable, Forbidden or Unauthenticated when the code host fails (`callerFacingError`:
 *   a code host that is down is never taken for a missing file)
 */
export async function checkConfigDirectory(
  view: CodeHostView,
  caller: Caller,
  { repo, packageManager, directory, branch }: ConfigLocation,
  member: ConfigDirectoryMember,
): Promise<void> {
  const recursive = needsRecursiveListing(packageManager);
  const first = await view.directoryFiles(caller, repo, directory, branch, { recursive });
  if (!first) return;
  try {
    requireManifestFiles(packageManager, directory, branch, first.listed, member);
  } catch (error) {
    if (!(error instanceof ManifestFilesMissing) || first.fresh) throw error;
    const again = await view.directoryFiles(caller, repo, directory, branch, { recursive, refresh: true });
    if (again) requireManifestFiles(packageManager, directory, branch, again.listed, member);
  }
}
