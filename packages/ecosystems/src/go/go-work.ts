import { ManifestParseError } from '../errors.ts';
import { normaliseRelativePath } from '../shared/files.ts';
import { type GoMod, type GoReplace, readDirectiveLines, readGoMod, readReplace } from './go-mod.ts';
import { readGoSum } from './go-sum.ts';

/**
 * Go workspaces (https://go.dev/ref/mod#workspaces): a `go.work` file names the modules of a workspace with `use`
 * directives; their go.mod files are read with it (`files.related`), each module's own `go.sum` beside it.
 */

type Files = Readonly<Record<string, string>>;

/** The workspace file of the config's directory. */
export const GO_WORK = 'go.work';

/** What a go.work declares (https://go.dev/ref/mod#go-work-file). */
export interface GoWork {
  go: string | null;
  toolchain: string | null;
  /** The `use` directories as written (`./a`, `../x`, `.`), in file order. */
  uses: string[];
  /** `replace` directives, which apply to the whole workspace and win over the modules' own. */
  replaces: GoReplace[];
}

const KNOWN = new Set(['go', 'toolchain', 'godebug', 'use', 'replace']);

/**
 * Reads a go.work (https://go.dev/ref/mod#go-work-file; golang.org/x/mod/modfile's `ParseWork`): `go`, `toolchain`,
 * `godebug` (accepted), `use` (single lines and `use ( ... )` blocks) and `replace`, with go.mod's lexical grammar.
 * @throws ManifestParseError naming `file` and the line: an unknown directive, a directive with the wrong number of
 *   arguments, an unterminated string or block
 */
export function readGoWork(file: string, text: string): GoWork {
  const out: GoWork = { go: null, toolchain: null, uses: [], replaces: [] };
  for (const line of readDirectiveLines(file, text, KNOWN, false)) {
    const values = line.args.map((t) => t.value);
    const one = (form: string) => {
      if (values.length !== 1) throw new ManifestParseError(file, `line ${line.line}: usage: ${form}`);
      return values[0] as string;
    };
    if (line.verb === 'go') out.go = one('go 1.23');
    else if (line.verb === 'toolchain') out.toolchain = one('toolchain go1.23.1');
    else if (line.verb === 'use') out.uses.push(one('use ./module/dir'));
    else if (line.verb === 'replace') out.replaces.push(readReplace(file, line));
  }
  return out;
}

/**
 * The files-map path of the module directory `use` names, relative to the config's directory: `./a/` → `a`, `.` → ``
 * (the directory itself), `../x` stays `../x`; undefined for an absolute path (outside the repository's files).
 */
export function moduleDirectory(use: string): string | undefined {
  const path = use.replaceAll('\\', '/');
  if (path.startsWith('/') || /^[A-Za-z]:\//.test(path)) return undefined;
  return normaliseRelativePath(path);
}

/** The path of `name` (`go.mod`, `go.sum`) in the module directory `dir` ({@link moduleDirectory}). */
export const inModule = (dir: string, name: string) => (dir === '' ? name : `${dir}/${name}`);

/**
 * What go.work's `use` directives point at, as `files.related` gives them: each used module's `go.mod` and `go.sum`
 * (`a/go.mod`, `a/go.sum`; `../x/go.mod` for a `use` that goes up). [] without a go.work.
 * @throws ManifestParseError when go.work does not parse
 */
export function goWorkRelated(files: Files): string[] {
  const text = files[GO_WORK];
  if (text === undefined) return [];
  return readGoWork(GO_WORK, text).uses.flatMap((use) => {
    const dir = moduleDirectory(use);
    return dir === undefined ? [] : [inModule(dir, 'go.mod'), inModule(dir, 'go.sum')];
  });
}

/** One module of the directory: its go.mod's path in the files map, and its go.sum's. */
export interface GoModule {
  /** `go.mod`, `a/go.mod`, `../x/go.mod`. */
  manifest: string;
  /** `go.sum`, `a/go.sum`: the lockfile beside it. */
  sum: string;
  mod: GoMod;
}

/** The go.mod files of a directory, parsed: the directory's own, then the workspace's used modules; and the go.work. */
export interface GoModules {
  modules: GoModule[];
  work: GoWork | undefined;
  /** The module paths of the workspace (the used modules' `module` lines): requires of them are not dependencies. */
  workspacePaths: Set<string>;
}

/**
 * The modules of the files read: the directory's `go.mod` when present (Dependabot's fetcher reads it with a go.work
 * too), then, when there is a `go.work`, each module it `use`s whose go.mod was read, in `use` order (`use .` is the
 * directory's own); each go.sum present (and go.work.sum) is checked to parse.
 * @throws ManifestParseError when go.work, a go.mod or a go.sum does not parse
 */
export function readGoModules(files: Files): GoModules {
  const workText = files[GO_WORK];
  const work = workText === undefined ? undefined : readGoWork(GO_WORK, workText);
  const dirs = [''];
  for (const use of work?.uses ?? []) {
    const dir = moduleDirectory(use);
    if (dir !== undefined && !dirs.includes(dir)) dirs.push(dir);
  }
  const modules: GoModule[] = [];
  for (const dir of dirs) {
    const manifest = inModule(dir, 'go.mod');
    const text = files[manifest];
    if (text === undefined) continue;
    const sum = inModule(dir, 'go.sum');
    const sumText = files[sum];
    if (sumText !== undefined) readGoSum(sum, sumText);
    modules.push({ manifest, sum, mod: readGoMod(manifest, text) });
  }
  const workSum = files['go.work.sum'];
  if (workSum !== undefined) readGoSum('go.work.sum', workSum);
  const used = new Set((work?.uses ?? []).map(moduleDirectory));
  const workspacePaths = new Set(
    modules.flatMap((m) =>
      work !== undefined && used.has(m.manifest.slice(0, -'go.mod'.length).replace(/\/$/, '')) && m.mod.module ? [m.mod.module] : [],
    ),
  );
  return { modules, work, workspacePaths };
}

/**
 * The `replace` that applies to `path` at `version` in the workspace: go.work's first (it wins over the modules'), then
 * `module`'s own go.mod's, then (in a workspace, where every module's replacements apply to the build) another used
 * module's; one naming the version wins over one for every version, at each level. Undefined when none does.
 */
export function workspaceReplacement(modules: GoModules, module: GoModule, path: string, version: string): GoReplace | undefined {
  const lists = [modules.work?.replaces ?? [], module.mod.replaces, ...(modules.work ? modules.modules.map((m) => m.mod.replaces) : [])];
  for (const list of lists) {
    const forPath = list.filter((r) => r.path === path);
    const found = forPath.find((r) => r.version === version) ?? forPath.find((r) => r.version === null);
    if (found) return found;
  }
  return undefined;
}
