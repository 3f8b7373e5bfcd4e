import type { DependencyUse, Ecosystem, LockfileRequest, LockfileUpdate, ManifestUpdate } from '../ecosystem.ts';
import { InvalidVersionError } from '../errors.ts';
import { requiredFilesOf } from '../required-files.ts';
import type { GoMod, GoRequire } from './go-mod.ts';
import { compareGoLanguage, updateGoSum } from './go-sum-update.ts';
import { type GoModules, goWorkRelated, readGoModules, workspaceReplacement } from './go-work.ts';
import { updateGoMod } from './update.ts';
import { compareGoVersions, goVersions, parseGoVersion } from './versions.ts';

type Files = Readonly<Record<string, string>>;

/** The direct requires of a go.mod (not `// indirect`), each module path once (the first require of it). */
function directRequires(mod: GoMod): GoRequire[] {
  const seen = new Set<string>();
  return mod.requires.filter((r) => {
    if (r.indirect || seen.has(r.path)) return false;
    seen.add(r.path);
    return true;
  });
}

/**
 * The use of module `path` in the modules read, or undefined when no module requires it directly (or it is one of the
 * workspace's own modules). Its manifest is the first module that requires it directly; its version the highest any
 * module requires (minimal version selection builds that one in a workspace; a single go.mod's own require otherwise),
 * null when a `replace` applies to it (the registry's version is not what builds).
 */
function useOf(modules: GoModules, path: string): DependencyUse | undefined {
  if (modules.workspacePaths.has(path)) return undefined;
  const first = modules.modules.find((m) => directRequires(m.mod).some((r) => r.path === path));
  if (!first) return undefined;
  let version: string | null = null;
  let replaced = false;
  for (const module of modules.modules) {
    const require = (module === first ? directRequires(module.mod) : module.mod.requires).find((r) => r.path === path);
    if (!require) continue;
    if (workspaceReplacement(modules, module, path, require.version.value) !== undefined) replaced = true;
    const value = require.version.value;
    if (version === null || (parseGoVersion(value) !== null && parseGoVersion(version) !== null && compareGoVersions(value, version) > 0)) {
      version = value;
    }
  }
  return { name: path, type: 'runtime', requirement: null, version: replaced ? null : version, manifest: first.manifest };
}

/**
 * The modules read ({@link readGoModules}): go.mod, and with a go.work its used modules; go.sum files and go.work.sum
 * are checked to parse, so a broken lockfile is reported as the other ecosystems do.
 */
const read = (files: Files): GoModules => readGoModules(files);

/**
 * `updateManifest` over a workspace: every used module (and the directory's go.mod) that requires `path` has its
 * requires moved by {@link updateGoMod}, as `go work sync` would push the workspace's build list back to each go.mod;
 * `cannot` when go.work replaces the module or when one module cannot be moved; `unchanged` when none changes.
 */
function updateWorkspace(files: Files, modules: GoModules, path: string, target: string): ManifestUpdate {
  const replaced = modules.work?.replaces.find((r) => r.path === path);
  if (replaced) {
    const by = replaced.local ? `the directory ${replaced.newPath}` : `${replaced.newPath} ${replaced.newVersion}`;
    return { cannot: `go.work replaces ${path}${replaced.version ? ` ${replaced.version}` : ''} by ${by}: the replacement is what builds` };
  }
  const changed: Record<string, string> = {};
  const unchanged: string[] = [];
  for (const module of modules.modules) {
    if (!module.mod.requires.some((r) => r.path === path)) continue;
    const result = updateGoMod(files, path, target, module.manifest);
    if ('cannot' in result) return result;
    if ('unchanged' in result) unchanged.push(result.unchanged);
    else Object.assign(changed, result.files);
  }
  if (Object.keys(changed).length === 0) return { unchanged: unchanged.join('; ') || `no module requires ${path}` };
  return { files: changed, requirement: null };
}

/**
 * `updateLockfiles` over a workspace: the go.sum beside each go.mod the update changed is rewritten by
 * {@link updateGoSum} (with that module's old version), under its own path (`a/go.sum`); go.work.sum stays (it holds
 * only checksums no module's go.sum has, and the target's go into the modules' go.sum files). `needsResolution` when one
 * module's go.sum cannot be updated, or when the target asks for a newer `go` than go.work's.
 */
async function updateWorkspaceSums(request: LockfileRequest, modules: GoModules): Promise<LockfileUpdate> {
  const targetGo = request.target.artifacts.find((a) => a.filename.endsWith('.mod'))?.attributes?.go;
  const workGo = modules.work?.go;
  if (workGo && targetGo && compareGoLanguage(targetGo, workGo) > 0) {
    return {
      needsResolution: `${request.use.name} ${request.target.version} needs go ${targetGo}, above go.work's go ${workGo}: the go line would move`,
    };
  }
  const out: Record<string, string> = {};
  for (const module of modules.modules) {
    const before = module.mod.requires.find((r) => r.path === request.use.name);
    const after = request.updated[module.manifest];
    if (!before || after === undefined || after === request.files[module.manifest]) continue;
    const sum = request.files[module.sum];
    if (sum === undefined) continue;
    const result = updateGoSum({
      ...request,
      files: { 'go.mod': request.files[module.manifest] ?? '', 'go.sum': sum },
      updated: { 'go.mod': after, 'go.sum': sum },
      use: { ...request.use, version: before.version.value, manifest: module.manifest },
    });
    if ('needsResolution' in result) return { needsResolution: `${module.sum}: ${result.needsResolution}` };
    const text = result.files['go.sum'];
    if (text !== undefined) out[module.sum] = text;
  }
  return { files: out };
}

/**
 * Go modules (https://go.dev/ref/mod): go.mod plus go.sum, or a workspace's go.work (https://go.dev/ref/mod#workspaces)
 * and the go.mod and go.sum of each module it `use`s (`files.related`: {@link goWorkRelated}; `a/go.mod`, `../x/go.mod`).
 * A dependency is a module path (`github.com/pkg/errors`, `golang.org/x/text`, `example.com/mod/v2` with its major
 * suffix; compared exactly, Go paths are case-sensitive) that a go.mod `require`s without the `// indirect` mark: indirect
 * requires are the module graph's, not the main module's imports, and are neither found nor listed (Dependabot's
 * go_modules updates direct dependencies only by default). In a workspace, the used modules' own paths are not
 * dependencies (their requires of each other resolve to the workspace). The `requirement` is always null: Go has no
 * ranges, a require names a minimum version (see {@link goVersions}); the `version` is the one required (in a workspace
 * the highest one required, which minimal version selection builds). A module that a `replace` directive replaces at
 * that version (by a directory or by another module version; go.work's replaces apply to every module) is found with
 * version null and left out of `listDependencies`: the replacement is what builds, and it is not updated (Dependabot
 * skips replaced modules too, and paths whose first element has no dot, which no proxy serves: both are left out of
 * `listDependencies`; https://github.com/dependabot/dependabot-core, `go_modules/lib/dependabot/go_modules/file_parser.rb`,
 * `skip_dependency?`). `updateManifest` rewrites the require's version in each go.mod that requires it
 * ({@link updateGoMod}); `updateLockfiles` swaps the module's go.sum lines for the target's with the registry's h1
 * digests in each go.sum beside a changed go.mod ({@link updateGoSum}).
 */
export const goModules: Ecosystem = {
  packageManager: 'go_modules',
  files: { required: requiredFilesOf('go_modules'), optional: ['go.sum', 'go.work.sum'], lockfiles: ['go.sum'], related: goWorkRelated },
  versions: goVersions,
  normaliseName: (name) => name.trim(),
  findDependency(files, name) {
    return useOf(read(files), name.trim());
  },
  listDependencies(files) {
    const modules = read(files);
    const seen = new Set<string>();
    const out: DependencyUse[] = [];
    for (const module of modules.modules) {
      for (const require of directRequires(module.mod)) {
        if (seen.has(require.path)) continue;
        seen.add(require.path);
        const use = useOf(modules, require.path);
        if (use && use.version !== null && /^[^/]*\./.test(use.name)) out.push(use);
      }
    }
    return out;
  },
  updateManifest(files, use, targetVersion) {
    const modules = read(files);
    if (useOf(modules, use.name) === undefined) return { cannot: `'${use.name}' is not a direct requirement of the go.mod files read` };
    if (modules.work === undefined) return updateGoMod(files, use.name, targetVersion);
    if (parseGoVersion(targetVersion.trim()) === null) throw new InvalidVersionError('Go', targetVersion);
    return updateWorkspace(files, modules, use.name, targetVersion.trim());
  },
  updateLockfiles: async (request) => {
    const modules = read(request.files);
    if (modules.work === undefined) return updateGoSum(request);
    return updateWorkspaceSums(request, modules);
  },
};
