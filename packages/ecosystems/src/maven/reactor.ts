import { normaliseRelativePath } from '../shared/files.ts';
import { isTable, type Table } from '../shared/parse.ts';
import { at, list, ownProperties, type PomDependency, parseProject, readProject, resolver, text } from './pom.ts';

/**
 * A Maven multi-module build as the files read hold it (Maven's "reactor": https://maven.apache.org/guides/mini/guide-multiple-modules.html),
 * after dependabot-core's Maven file fetcher (`maven/lib/dependabot/maven/file_fetcher.rb`: `child_poms` from
 * `<modules>`, `relative_path_parents` from `<parent><relativePath>`) and Maven's inheritance
 * (https://maven.apache.org/guides/introduction/introduction-to-the-pom.html#project-inheritance).
 */

type Files = Readonly<Record<string, string>>;

/** The config directory's own POM. */
export const ROOT_POM = 'pom.xml';

/** One POM of the build: its files-map key, text, parsed `<project>` and its parent when that is a POM read. */
export interface ReactorPom {
  file: string;
  text: string;
  project: Table;
  /** The in-repository parent (`<parent>` found at its `relativePath`, or among the POMs read by coordinates). */
  parent?: ReactorPom;
}

/** The directory part of a files-map key (`` for `pom.xml`, `core` for `core/pom.xml`). */
const directoryOf = (file: string) => (file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '');

const join = (...parts: string[]) => normaliseRelativePath(parts.filter((p) => p !== '').join('/'));

/**
 * The files a `<module>` value may name, as dependabot-core's `fetch_child_pom` tried them: the module directory's
 * `pom.xml`, then, for a value ending in `.xml`, that file itself (a POM with another name).
 */
function moduleCandidates(file: string, module: string): string[] {
  const base = join(directoryOf(file), module);
  return module.toLowerCase().endsWith('.xml') ? [join(base, 'pom.xml'), base] : [join(base, 'pom.xml')];
}

/**
 * The `<module>` values of a project and of its profiles (dependabot-core's `project > modules > module, profile >
 * modules > module`). Maven reads a module as a path, never a glob: a value holding `*` names no module here (the worker
 * would read it as a pattern over the whole tree).
 */
function modulesOf(project: Table): string[] {
  return [project, ...list(at(project, 'profiles', 'profile'))].flatMap((scope) => {
    const modules = at(scope, 'modules', 'module');
    return (Array.isArray(modules) ? modules : [modules]).flatMap((m) => {
      const path = text(m);
      return path === undefined || path.includes('*') ? [] : [path];
    });
  });
}

/**
 * The path `<parent><relativePath>` names, relative to the config's directory: the value (default `..`, Maven's
 * `../pom.xml`), with `pom.xml` appended unless it names an `.xml` file; undefined without `<parent>` or with an empty
 * `<relativePath/>` (which tells Maven not to look in the repository).
 */
function parentPath(file: string, project: Table): string | undefined {
  const parent = at(project, 'parent');
  if (!isTable(parent)) return undefined;
  const raw = parent.relativePath;
  const relative = raw === undefined ? '..' : (text(raw) ?? '');
  if (relative === '') return undefined;
  return relative.toLowerCase().endsWith('.xml') ? join(directoryOf(file), relative) : join(directoryOf(file), relative, 'pom.xml');
}

/** `groupId:artifactId` of a project (the groupId inherited from `<parent>` when it has none), and its version. */
function coordinatesOf(project: Table): { name: string | undefined; version: string | undefined } {
  const group = text(project.groupId) ?? text(at(project, 'parent', 'groupId'));
  const artifact = text(project.artifactId);
  return {
    name: group && artifact ? `${group}:${artifact}` : undefined,
    version: text(project.version) ?? text(at(project, 'parent', 'version')),
  };
}

/**
 * Is `candidate` the POM that `child`'s `<parent>` names? Its groupId and artifactId must be the parent's, and its
 * version too when both are written (as dependabot-core's `fetched_pom_is_parent` and Maven's local parent lookup
 * compare them; the text as written, so a CI-friendly `${revision}` matches itself).
 */
function isParentOf(candidate: Table, child: Table): boolean {
  const parent = at(child, 'parent');
  if (!isTable(parent)) return false;
  const wanted = text(parent.groupId) && text(parent.artifactId) ? `${text(parent.groupId)}:${text(parent.artifactId)}` : undefined;
  const own = coordinatesOf(candidate);
  if (wanted === undefined || own.name !== wanted) return false;
  const version = text(parent.version);
  return version === undefined || own.version === undefined || version === own.version;
}

/** Parses a POM for {@link mavenRelated}: undefined when it does not parse (the reader reports that). */
function tryParse(file: string, xml: string): Table | undefined {
  try {
    return parseProject(file, xml);
  } catch {
    return undefined;
  }
}

/**
 * `files.related` of Maven: from the POMs read so far, the `pom.xml` of each `<module>` of the directory's pom.xml and
 * of its modules (recursively, the project's and its profiles' `<modules>`; a module naming an `.xml` file also that
 * file), and the POM each `<parent><relativePath>` names (default `../pom.xml`), as dependabot-core's Maven file
 * fetcher fetched them. Paths are relative to the config's directory and may go up (`../pom.xml`); whether a file
 * found at a relativePath is the parent is decided when reading ({@link reactorPoms}). Modules of a parent POM are not
 * followed (the directory's build is the parent's module, not its siblings), as Dependabot did not.
 */
export function mavenRelated(files: Files): string[] {
  const out: string[] = [];
  const add = (path: string) => {
    if (path !== '' && !out.includes(path)) out.push(path);
  };
  const visited = new Set<string>();
  const walk = (file: string) => {
    if (visited.has(file)) return;
    visited.add(file);
    const xml = files[file];
    const project = xml === undefined ? undefined : tryParse(file, xml);
    if (!project) return;
    for (const module of modulesOf(project)) {
      const candidates = moduleCandidates(file, module);
      for (const candidate of candidates) add(candidate);
      const found = candidates.find((c) => files[c] !== undefined);
      if (found) walk(found);
    }
  };
  walk(ROOT_POM);
  const parents = new Set<string>();
  const climb = (file: string) => {
    const xml = files[file];
    const project = xml === undefined ? undefined : tryParse(file, xml);
    const path = project && parentPath(file, project);
    if (path === undefined || parents.has(path) || visited.has(path)) return;
    parents.add(path);
    add(path);
    climb(path);
  };
  for (const file of visited) climb(file);
  return out;
}

/**
 * The POMs of the build in reading order: the directory's pom.xml, then its modules depth-first in `<modules>` order
 * (each module's own modules after it), then the in-repository parents of those (a POM at a `relativePath` whose
 * coordinates are the `<parent>`'s, else a POM read whose groupId:artifactId is, as dependabot-core's
 * `PropertyValueFinder` found internal parents), each once. [] without pom.xml.
 * @throws ManifestParseError when one of those POMs does not parse
 */
export function reactorPoms(files: Files): ReactorPom[] {
  const root = files[ROOT_POM];
  if (root === undefined) return [];
  const byFile = new Map<string, ReactorPom>();
  const order: ReactorPom[] = [];
  const read = (file: string): ReactorPom | undefined => {
    const known = byFile.get(file);
    if (known) return known;
    const xml = files[file];
    if (xml === undefined) return undefined;
    const pom: ReactorPom = { file, text: xml, project: parseProject(file, xml) };
    byFile.set(file, pom);
    order.push(pom);
    return pom;
  };
  const walk = (pom: ReactorPom) => {
    for (const module of modulesOf(pom.project)) {
      const found = moduleCandidates(pom.file, module).find((c) => files[c] !== undefined && !byFile.has(c));
      const child = found === undefined ? undefined : read(found);
      if (child) walk(child);
    }
  };
  const first = read(ROOT_POM);
  if (first) walk(first);
  // parents at their relativePath, followed up the chain
  for (let i = 0; i < order.length; i++) {
    const pom = order[i] as ReactorPom;
    const path = parentPath(pom.file, pom.project);
    const xml = path === undefined ? undefined : files[path];
    if (path === undefined || xml === undefined) continue;
    const known = byFile.get(path);
    if (!isParentOf(known?.project ?? parseProject(path, xml), pom.project)) continue;
    const candidate = known ?? read(path);
    if (candidate !== pom) pom.parent = candidate;
  }
  // otherwise a POM read with the parent's coordinates
  for (const pom of order) {
    if (pom.parent || !isTable(at(pom.project, 'parent'))) continue;
    pom.parent = order.find((other) => other !== pom && isParentOf(other.project, pom.project));
  }
  // no cycles: a POM is never its own ancestor
  for (const pom of order) {
    const seen = new Set<ReactorPom>([pom]);
    for (let p = pom.parent; p; p = p.parent) {
      if (seen.has(p)) {
        pom.parent = undefined;
        break;
      }
      seen.add(p);
    }
  }
  return order;
}

/** `pom` and its in-repository ancestors, nearest first. */
export function lineage(pom: ReactorPom): ReactorPom[] {
  const out: ReactorPom[] = [];
  for (let p: ReactorPom | undefined = pom; p && !out.includes(p); p = p.parent) out.push(p);
  return out;
}

/**
 * The `${...}` resolver of a POM of the build: its ancestors' properties, nearer ones overriding farther ones, then its
 * own ({@link resolver}), as Maven's inheritance merges them before interpolating.
 */
export function reactorResolver(pom: ReactorPom): (value: string) => string | undefined {
  const inherited = new Map<string, string>();
  for (const ancestor of lineage(pom).slice(1).reverse())
    for (const [key, value] of ownProperties(ancestor.project)) inherited.set(key, value);
  return resolver(pom.project, inherited);
}

/** `groupId:artifactId` of every POM of the build: its own modules, which Dependabot left out as internal dependencies. */
export function internalNames(poms: readonly ReactorPom[]): Set<string> {
  const names = new Set<string>();
  for (const pom of poms) {
    const resolve = reactorResolver(pom);
    const { name } = coordinatesOf(pom.project);
    if (name !== undefined) names.add(resolve(name) ?? name);
  }
  return names;
}

/**
 * Every declaration of the build's POMs ({@link readProject}) in reading order, each read in its POM's context
 * ({@link reactorResolver}); a `<dependencies>` entry or plugin carries, as `managed`, the first `<dependencyManagement>`
 * (`<pluginManagement>`) entry of its coordinate in its POM or, failing that, in its nearest in-repository ancestor that
 * has one, read in the POM's own context (Maven interpolates the inherited management with the child's properties).
 * @throws ManifestParseError when a POM does not parse
 */
export function reactorDeclarations(files: Files): PomDependency[] {
  const out: PomDependency[] = [];
  for (const pom of reactorPoms(files)) {
    const resolve = reactorResolver(pom);
    const own = readProject(pom.file, pom.project, resolve);
    const inherited = lineage(pom)
      .slice(1)
      .flatMap((ancestor) =>
        readProject(ancestor.file, ancestor.project, resolve).filter(
          (d) => d.section === 'dependencyManagement' || d.section === 'pluginManagement',
        ),
      );
    const management = [...own, ...inherited];
    for (const declaration of own) {
      const from =
        declaration.section === 'dependencies'
          ? 'dependencyManagement'
          : declaration.section === 'plugins'
            ? 'pluginManagement'
            : undefined;
      const managed = from && management.find((m) => m.section === from && m.name === declaration.name);
      out.push(managed ? { ...declaration, managed } : declaration);
    }
  }
  return out;
}
