import type { DependencyUse, Ecosystem } from '../ecosystem.ts';
import { REQUIRED_FILES, requiredFilesOf } from '../required-files.ts';
import { filesOf } from '../shared/files.ts';
import { updateActionReferences } from './update.ts';
import { githubActionsVersions } from './versions.ts';
import { type ActionReference, readActionReferences } from './workflow.ts';

type Files = Readonly<Record<string, string>>;

/** The files read, in this order: the workflows of the repository (when the directory is its root), then an action's metadata. */
const FILES: readonly string[] = REQUIRED_FILES.github_actions.flat();

/** An action's name for comparison: GitHub's `owner/repo` is case-insensitive. */
const normaliseActionName = (name: string) => name.trim().toLowerCase();

/** Every repository reference of the files, files in {@link FILES}' order (a pattern's files by path), then file order. */
function referencesOf(files: Files): ActionReference[] {
  return FILES.flatMap((entry) => filesOf(files, entry)).flatMap(([file, text]) => readActionReferences(file, text));
}

/**
 * The use of one action from its references (in reading order): the name as first written, the lowest version in use
 * of those that have one (so that repeated updates bring every reference up), from the file of that reference.
 */
function useOf(references: readonly ActionReference[]): DependencyUse | undefined {
  const first = references[0];
  if (!first) return undefined;
  let chosen: { version: string; file: string } | undefined;
  for (const { version, file } of references) {
    if (version !== null && (chosen === undefined || githubActionsVersions.compare(version, chosen.version) < 0))
      chosen = { version, file };
  }
  return { name: first.name, type: 'runtime', requirement: null, version: chosen?.version ?? null, manifest: (chosen ?? first).file };
}

/**
 * GitHub Actions (Dependabot's `github_actions`, https://github.com/dependabot/dependabot-core/tree/main/github_actions):
 * the `uses: owner/repo[/path]@ref` references of the workflows under `.github/workflows/` (`*.yml`, `*.yaml`: steps and
 * reusable workflows) and of an action's `action.yml`/`action.yaml` (composite steps), read by {@link readActionReferences}.
 * The dependency is the repository `owner/repo` (the name the registry adapter lists the tags of), one dependency however
 * many references name it. It has no requirement (a reference names one revision); its version in use is the lowest of the
 * references' versions: a tag ref's tag (`v4`, `v4.1.0`), a commit pin's version comment (`@<sha> # v4.1.0`); a branch ref
 * or a commit pin without a version comment has none. Every use is `runtime`, as Dependabot counts a dependency without
 * groups. `updateManifest` moves the references at the version in use (see {@link updateActionReferences}); there is no lockfile.
 */
export const githubActions: Ecosystem = {
  packageManager: 'github_actions',
  files: { required: requiredFilesOf('github_actions'), optional: [], lockfiles: [] },
  versions: githubActionsVersions,
  normaliseName: normaliseActionName,
  findDependency(files, name) {
    const wanted = normaliseActionName(name);
    return useOf(referencesOf(files).filter((reference) => normaliseActionName(reference.name) === wanted));
  },
  listDependencies(files) {
    const byName = new Map<string, ActionReference[]>();
    for (const reference of referencesOf(files)) {
      const key = normaliseActionName(reference.name);
      const list = byName.get(key);
      if (list) list.push(reference);
      else byName.set(key, [reference]);
    }
    return [...byName.values()].flatMap((references) => useOf(references) ?? []);
  },
  updateManifest(files, use, targetVersion, target) {
    return updateActionReferences(referencesOf, files, use, targetVersion, target);
  },
};
