import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { DependencyType } from '../ecosystem.ts';
import { ManifestParseError } from '../errors.ts';
import { isTable, type Table } from '../shared/parse.ts';

/**
 * Where in the POM a dependency was declared (a profile's sections count as the project's): `plugins` are build and
 * reporting plugins, `pluginManagement` the managed ones, `pluginDependencies` a plugin's own `<dependencies>`,
 * `annotationProcessors` maven-compiler-plugin's `<annotationProcessorPaths>`.
 */
export type PomSection =
  | 'dependencies'
  | 'dependencyManagement'
  | 'plugins'
  | 'pluginManagement'
  | 'pluginDependencies'
  | 'annotationProcessors'
  | 'parent';

/** Sections of build-time artifacts (plugins, their dependencies, annotation processors): always `development`. */
const BUILD_SECTIONS: ReadonlySet<PomSection> = new Set(['plugins', 'pluginManagement', 'pluginDependencies', 'annotationProcessors']);

/** The groupId a plugin without one has (https://maven.apache.org/pom.html#plugins). */
export const DEFAULT_PLUGIN_GROUP = 'org.apache.maven.plugins';

/** The plugin whose `<annotationProcessorPaths>` are read (https://maven.apache.org/plugins/maven-compiler-plugin/compile-mojo.html#annotationProcessorPaths). */
export const COMPILER_PLUGIN = 'maven-compiler-plugin';

/** A dependency (or plugin, or the parent) declared in a pom.xml, `${...}` references resolved. */
export interface PomDependency {
  /** `groupId:artifactId`. */
  name: string;
  /** The version requirement after property resolution; null when absent or when a reference cannot be resolved. */
  requirement: string | null;
  /** The `<scope>` lowercased, null when absent (Maven's default is `compile`). */
  scope: string | null;
  section: PomSection;
  /** The POM it is declared in, as the files map keys it (`pom.xml`, `core/pom.xml`, `../pom.xml`). */
  file: string;
  /**
   * For a `<dependencies>` entry or a plugin: the `<dependencyManagement>` (or `<pluginManagement>`) entry of the same
   * coordinate that supplies what it leaves out, the POM's own or an in-repository parent's (read in the POM's context).
   */
  managed?: PomDependency;
}

const ARRAYS = new Set(['dependency', 'plugin', 'profile', 'path', 'execution', 'module']);
const parser = new XMLParser({ ignoreAttributes: true, parseTagValue: false, trimValues: true, isArray: (tag) => ARRAYS.has(tag) });

/** The trimmed text of an element's value, undefined when it is not text or empty. */
export const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);
/** The tables of an element read as an array (`isArray` tags). */
export const list = (value: unknown): Table[] => (Array.isArray(value) ? value.filter(isTable) : []);
/** The value at `path` below `table`, undefined when a step is missing. */
export const at = (table: unknown, ...path: string[]): unknown =>
  path.reduce<unknown>((node, key) => (isTable(node) ? node[key] : undefined), table);

/**
 * The raw `<properties>` of a project as Dependabot's `PropertyValueFinder` looked them up in one POM: the project's own
 * `<properties>`, and for names they do not define the first profile's `<properties>` that does (profiles' activation is
 * not evaluated, as Dependabot did not). Values are trimmed, references unresolved.
 */
export function ownProperties(project: Table): Map<string, string> {
  const props = new Map<string, string>();
  const add = (properties: unknown, override: boolean) => {
    if (!isTable(properties)) return;
    for (const [key, value] of Object.entries(properties)) {
      if (override || !props.has(key)) props.set(key, typeof value === 'string' ? value.trim() : '');
    }
  };
  for (const profile of list(at(project, 'profiles', 'profile'))) add(profile.properties, false);
  add(at(project, 'properties'), true);
  return props;
}

/**
 * Builds the `${name}` resolver of a POM: `inherited` properties (an in-repository parent's, already merged with its own
 * parents'), overridden by the POM's own ({@link ownProperties}), which may refer to each other (Maven interpolates the
 * effective model, so a parent's `${a}` takes the child's `a`), plus `project.version`, `project.groupId`,
 * `project.artifactId`, `project.parent.version` (and their `pom.`/bare forms). Returns undefined for a value that still
 * holds an unknown reference (e.g. a property of a parent POM that is not in the repository) or a cycle.
 */
export function resolver(project: Table, inherited?: ReadonlyMap<string, string>): (value: string) => string | undefined {
  const props = new Map<string, string>(inherited ?? []);
  for (const [key, value] of ownProperties(project)) props.set(key, value);
  const builtins: Record<string, unknown> = {
    version: at(project, 'version') ?? at(project, 'parent', 'version'),
    groupId: at(project, 'groupId') ?? at(project, 'parent', 'groupId'),
    artifactId: at(project, 'artifactId'),
    'parent.version': at(project, 'parent', 'version'),
    'parent.groupId': at(project, 'parent', 'groupId'),
  };
  for (const [key, value] of Object.entries(builtins)) {
    const v = text(value);
    if (v === undefined) continue;
    for (const prefix of ['project.', 'pom.', '']) if (!props.has(prefix + key)) props.set(prefix + key, v);
  }
  return (value) => {
    let current = value;
    for (let depth = 0; depth < 10 && current.includes('${'); depth++) {
      current = current.replace(/\$\{([^}]+)\}/g, (whole, key: string) => props.get(key.trim()) ?? whole);
    }
    return current.includes('${') ? undefined : current;
  };
}

/** Parsed projects by text (the updater and its check read the same POMs many times). */
const parsed = new Map<string, Table>();

/**
 * Checks that `xml` is well-formed and parses its `<project>` element (cached by text).
 * @throws ManifestParseError when the XML is not well-formed or has no `<project>` root
 */
export function parseProject(file: string, xml: string): Table {
  const cached = parsed.get(xml);
  if (cached) return cached;
  const valid = XMLValidator.validate(xml);
  if (valid !== true) throw new ManifestParseError(file, `invalid XML at ${valid.err.line}:${valid.err.col}: ${valid.err.msg}`);
  const doc: unknown = parser.parse(xml);
  const project = at(doc, 'project');
  if (!isTable(project)) throw new ManifestParseError(file, 'no <project> root element');
  if (parsed.size >= 64) parsed.delete(parsed.keys().next().value as string);
  parsed.set(xml, project);
  return project;
}

/**
 * Reads every dependency of a parsed pom.xml (https://maven.apache.org/pom.html), in this order: `<dependencies>` (the
 * project's, then each profile's), `<dependencyManagement><dependencies>` (the project's, then each profile's),
 * plugins (groupId defaulting to `org.apache.maven.plugins`) of `<build><plugins>`, `<build><pluginManagement>`, each
 * profile's `<build><plugins>` and `<build><pluginManagement>`, `<reporting><plugins>` and each profile's, then those
 * plugins' own `<dependencies>`, then the `<annotationProcessorPaths><path>` entries of maven-compiler-plugin's
 * `<configuration>` (also of its `<executions>`), and `<parent>`. Coordinates and versions have their `${property}`
 * references resolved with `resolve` ({@link resolver}); `managed` is not set.
 */
export function readProject(file: string, project: Table, resolve: (value: string) => string | undefined): PomDependency[] {
  const out: PomDependency[] = [];
  const add = (node: Table, section: PomSection, defaultGroup?: string) => {
    const group = text(node.groupId) ?? defaultGroup;
    const artifact = text(node.artifactId);
    if (group === undefined || artifact === undefined) return;
    const version = text(node.version);
    out.push({
      name: `${resolve(group) ?? group}:${resolve(artifact) ?? artifact}`,
      requirement: version === undefined ? null : (resolve(version) ?? null),
      scope: text(node.scope)?.toLowerCase() ?? null,
      section,
      file,
    });
  };
  const profiles = list(at(project, 'profiles', 'profile'));
  const scopes = [project, ...profiles];
  for (const scope of scopes) for (const dep of list(at(scope, 'dependencies', 'dependency'))) add(dep, 'dependencies');
  for (const scope of scopes) {
    for (const dep of list(at(scope, 'dependencyManagement', 'dependencies', 'dependency'))) add(dep, 'dependencyManagement');
  }
  const plugins: Array<[Table, PomSection]> = [
    ...scopes.flatMap(
      (scope): Array<[Table, PomSection]> => [
        ...list(at(scope, 'build', 'plugins', 'plugin')).map((plugin): [Table, PomSection] => [plugin, 'plugins']),
        ...list(at(scope, 'build', 'pluginManagement', 'plugins', 'plugin')).map((plugin): [Table, PomSection] => [
          plugin,
          'pluginManagement',
        ]),
      ],
    ),
    ...scopes.flatMap((scope) =>
      list(at(scope, 'reporting', 'plugins', 'plugin')).map((plugin): [Table, PomSection] => [plugin, 'plugins']),
    ),
  ];
  for (const [plugin, section] of plugins) add(plugin, section, DEFAULT_PLUGIN_GROUP);
  for (const [plugin] of plugins) for (const dep of list(at(plugin, 'dependencies', 'dependency'))) add(dep, 'pluginDependencies');
  for (const [plugin] of plugins) {
    if ((text(plugin.groupId) ?? DEFAULT_PLUGIN_GROUP) !== DEFAULT_PLUGIN_GROUP || text(plugin.artifactId) !== COMPILER_PLUGIN) continue;
    const configurations = [at(plugin, 'configuration'), ...list(at(plugin, 'executions', 'execution')).map((e) => at(e, 'configuration'))];
    for (const configuration of configurations) {
      for (const path of list(at(configuration, 'annotationProcessorPaths', 'path'))) add(path, 'annotationProcessors');
    }
  }
  const parent = at(project, 'parent');
  if (isTable(parent)) add(parent, 'parent');
  return out;
}

/**
 * Reads every dependency of one pom.xml on its own ({@link readProject}, properties of the file only).
 * @throws ManifestParseError when the XML is not well-formed or has no `<project>` root
 */
export function readPom(file: string, xml: string): PomDependency[] {
  const project = parseProject(file, xml);
  return readProject(file, project, resolver(project));
}

/**
 * `test` and `provided` scopes, build and reporting plugins, their dependencies and annotation processors are
 * development; everything else (compile, runtime, system, import) runtime.
 */
export function pomDependencyType(dependency: PomDependency): DependencyType {
  if (BUILD_SECTIONS.has(dependency.section)) return 'development';
  return dependency.scope === 'test' || dependency.scope === 'provided' ? 'development' : 'runtime';
}
