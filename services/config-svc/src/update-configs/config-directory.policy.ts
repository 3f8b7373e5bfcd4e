import type { DirectoryFiles } from '@switchyard/code-host';
import type { PackageManager } from '@switchyard/contracts';
import { REQUIRED_FILES, unmetRequirement } from '@switchyard/ecosystems/files';
import { InvalidInput } from '@switchyard/service-kit';

/** The member of a request a missing manifest is reported on: the directory of a create, the target branch of a PATCH. */
export type ConfigDirectoryMember = 'directory' | 'target-branch';

/**
 * A config's directory holds none of the files its package manager needs on the config's branch: the files
 * release-svc's worker requires there (`files.required` of the package manager's ecosystem in `@switchyard/ecosystems`),
 * so every run of the config would fail. An {@link InvalidInput} naming the request's member (`#/directory`, or
 * `#/target-branch` for a PATCH that moved the branch) with a detail naming the files looked for, the directory and the
 * branch; the HTTP layer answers it 422. `message`: `No package.json found in /nope on branch main`.
 */
export class ManifestFilesMissing extends InvalidInput {
  /** The files looked for, alternatives joined with `or`: `package.json`, `requirements.txt or pyproject.toml`. */
  readonly files: string;
  readonly directory: string;
  readonly branch: string;

  constructor(files: string, directory: string, branch: string, member: ConfigDirectoryMember) {
    super(`No ${files} found in ${directory} on branch ${branch}`, {
      errors: [
        member === 'directory'
          ? { pointer: '#/directory', detail: `${directory} has no ${files} on branch ${branch}` }
          : { pointer: '#/target-branch', detail: `${branch} has no ${files} in ${directory}` },
      ],
    });
    this.name = 'ManifestFilesMissing';
    this.files = files;
    this.directory = directory;
    this.branch = branch;
  }
}

/**
 * The files `packageManager` requires in a config's directory: its `REQUIRED_FILES` (`@switchyard/ecosystems/files`,
 * the table its ecosystem's `files.required` is, loaded without the parsers), a list of alternatives per entry
 * (`[['requirements.txt', 'pyproject.toml']]`), entries relative to the directory and possibly `*` patterns or subpaths
 * (`.github/workflows/*.yml`).
 */
export function requiredFilesOf(packageManager: PackageManager): readonly (readonly string[])[] {
  return REQUIRED_FILES[packageManager];
}

/**
 * Whether finding `packageManager`'s required files needs a recursive listing of the repository (an entry in a
 * subdirectory of the config's directory, `.github/workflows/*.yml`) or the directory's own entries suffice: the rule of
 * release-svc's worker, which lists the tree only then.
 */
export function needsRecursiveListing(packageManager: PackageManager): boolean {
  return requiredFilesOf(packageManager).some((alternatives) => alternatives.some((entry) => entry.includes('/')));
}

/**
 * Checks that `listed` (what the code host shows under `directory` on `branch`) holds a file of every alternative
 * `packageManager` requires ({@link requiredFilesOf}, matched as `@switchyard/ecosystems`' `unmetRequirement` does).
 * A listing the code host cut short (`truncated`) proves nothing missing, so it passes.
 * @throws ManifestFilesMissing naming the first unmet alternatives (`requirements.txt or pyproject.toml`), reported on `member`
 */
export function requireManifestFiles(
  packageManager: PackageManager,
  directory: string,
  branch: string,
  listed: DirectoryFiles,
  member: ConfigDirectoryMember,
): void {
  const unmet = unmetRequirement(requiredFilesOf(packageManager), listed.files);
  if (unmet && !listed.truncated) throw new ManifestFilesMissing(unmet.join(' or '), directory, branch, member);
}
