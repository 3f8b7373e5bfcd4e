import type { DependencyUse, Ecosystem } from '../ecosystem.ts';
import { requiredFilesOf } from '../required-files.ts';
import { type GoMod, type GoRequire, readGoMod, replacementOf } from './go-mod.ts';
import { readGoSum } from './go-sum.ts';
import { updateGoSum } from './go-sum-update.ts';
import { updateGoMod } from './update.ts';
import { goVersions } from './versions.ts';

type Files = Readonly<Record<string, string>>;

/** The direct requires of go.mod (not `// indirect`), each module path once (the first require of it). */
function directRequires(mod: GoMod): GoRequire[] {
  const seen = new Set<string>();
  return mod.requires.filter((r) => {
    if (r.indirect || seen.has(r.path)) return false;
    seen.add(r.path);
    return true;
  });
}

/** The use of a direct require: its version, or null when a `replace` applies to it (the registry's version is not what builds). */
function useOf(mod: GoMod, require: GoRequire): DependencyUse {
  const replaced = replacementOf(mod, require.path, require.version.value) !== undefined;
  return { name: require.path, type: 'runtime', requirement: null, version: replaced ? null : require.version.value, manifest: 'go.mod' };
}

/** Parses go.mod (and checks go.sum parses when present, so a broken lockfile is reported as the other ecosystems do). */
function read(files: Files): GoMod | undefined {
  const text = files['go.mod'];
  if (text === undefined) return undefined;
  const mod = readGoMod('go.mod', text);
  const sum = files['go.sum'];
  if (sum !== undefined) readGoSum('go.sum', sum);
  return mod;
}

/**
 * Go modules (https://go.dev/ref/mod): go.mod plus go.sum. A dependency is a module path (`github.com/pkg/errors`,
 * `golang.org/x/text`, `example.com/mod/v2` with its major suffix; compared exactly, Go paths are case-sensitive) that go.mod
 * `require`s without the `// indirect` mark: indirect requires are the module graph's, not the main module's imports, and
 * are neither found nor listed (Dependabot's go_modules updates direct dependencies only by default). The `requirement` is
 * always null: Go has no ranges, a require names a minimum version (see {@link goVersions}); the `version` is the one
 * required. A module that a `replace` directive replaces at that version (by a directory or by another module version) is
 * found with version null and left out of `listDependencies`: the replacement is what builds, and it is not updated
 * (Dependabot skips replaced modules too, and paths whose first element has no dot, which no proxy serves: both are left
 * out of `listDependencies`; https://github.com/dependabot/dependabot-core, `go_modules/lib/dependabot/go_modules/file_parser.rb`,
 * `skip_dependency?`). `updateManifest` rewrites the require's version in go.mod ({@link updateGoMod});
 * `updateLockfiles` swaps the module's go.sum lines for the target's with the registry's h1 digests ({@link updateGoSum}).
 */
export const goModules: Ecosystem = {
  packageManager: 'go_modules',
  files: { required: requiredFilesOf('go_modules'), optional: ['go.sum'], lockfiles: ['go.sum'] },
  versions: goVersions,
  normaliseName: (name) => name.trim(),
  findDependency(files, name) {
    const mod = read(files);
    if (mod === undefined) return undefined;
    const require = directRequires(mod).find((r) => r.path === name.trim());
    return require && useOf(mod, require);
  },
  listDependencies(files) {
    const mod = read(files);
    if (mod === undefined) return [];
    return directRequires(mod)
      .map((require) => useOf(mod, require))
      .filter((use) => use.version !== null && /^[^/]*\./.test(use.name));
  },
  updateManifest(files, use, targetVersion) {
    if (goModules.findDependency(files, use.name) === undefined) return { cannot: `'${use.name}' is not a direct requirement of go.mod` };
    return updateGoMod(files, use.name, targetVersion);
  },
  updateLockfiles: async (request) => updateGoSum(request),
};
