import type { DependencyUse, Ecosystem } from '../ecosystem.ts';
import { requiredFilesOf } from '../required-files.ts';
import { updateDeclarations } from '../update/declarations.ts';
import { type ElmDeclaration, readElmJson } from './elm-json.ts';
import { locateElm, unmetByApplication } from './update.ts';
import { elmVersions } from './versions.ts';

/** Elm package names (`author/project`) compare exactly; surrounding spaces are dropped. */
export const normaliseElmName = (name: string): string => name.trim();

/** The direct declarations of elm.json (indirect ones are not "used" by the project itself). */
const directOf = (text: string): ElmDeclaration[] => readElmJson('elm.json', text).declarations.filter((d) => d.scope !== 'indirect');

/** The use of a package from its direct declarations: the first gives the requirement, a runtime one makes it runtime. */
function useOf(declarations: readonly ElmDeclaration[]): DependencyUse | undefined {
  const [first] = declarations;
  if (!first) return undefined;
  return {
    name: first.name,
    type: declarations.some((d) => d.type === 'runtime') ? 'runtime' : 'development',
    requirement: first.requirement,
    version: first.scope === 'direct' && elmVersions.isValid(first.requirement) ? first.requirement : null,
    manifest: 'elm.json',
  };
}

/**
 * Elm (0.19): `elm.json`, which is both manifest and, for an application, lock (every indirect dependency is pinned
 * there). Direct dependencies only: an application's `dependencies.direct` (runtime) and `test-dependencies.direct`
 * (development) with their exact versions, which are the versions in use; a package's `dependencies` and
 * `test-dependencies` ranges (no version in use). `updateManifest` sets an application's version to the target, or
 * widens a package range's upper bound (see {@link elmRewrite}); for an application it also checks, with the registry's
 * description of the target (its elm.json dependencies), that the pinned versions meet the target's own dependencies,
 * and answers `cannot` when they do not (or when no description is given): moving indirect dependencies is resolution,
 * which `elm install` does.
 */
export const elm: Ecosystem = {
  packageManager: 'elm',
  files: { required: requiredFilesOf('elm'), optional: [], lockfiles: [] },
  versions: elmVersions,
  normaliseName: normaliseElmName,
  findDependency(files, name) {
    const text = files['elm.json'];
    if (text === undefined) return undefined;
    const wanted = normaliseElmName(name);
    return useOf(directOf(text).filter((d) => d.name === wanted));
  },
  listDependencies(files) {
    const text = files['elm.json'];
    if (text === undefined) return [];
    const names = [...new Set(directOf(text).map((d) => d.name))];
    return names.flatMap((name) => elm.findDependency(files, name) ?? []);
  },
  updateManifest(files, use, targetVersion, target) {
    const result = updateDeclarations(
      { schemeName: 'Elm', scheme: elmVersions, find: (f, name) => elm.findDependency(f, name), locate: locateElm },
      files,
      use,
      targetVersion,
    );
    const text = files['elm.json'];
    if (!('files' in result) || text === undefined || readElmJson('elm.json', text).type !== 'application') return result;
    if (target === undefined)
      return { cannot: `the dependencies of ${use.name} ${targetVersion} are needed to check the application's pinned versions` };
    const unmet = unmetByApplication(text, use.name, target);
    if (unmet.length > 0) return { cannot: `needs resolution: ${unmet.join('; ')}` };
    return result;
  },
};
