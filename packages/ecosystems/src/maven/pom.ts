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
}

const ARRAYS = new Set(['dependency', 'plugin', 'profile', 'path', 'execution']);
const parser = new XMLParser({ ignoreAttributes: true, parseTagValue: false, trimValues: true, isArray: (tag) => ARRAYS.has(tag) });

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);
const list = (value: unknown): Table[] => (Array.isArray(value) ? value.filter(isTable) : []);
const at = (table: unknown, ...path: string[]): unknown =>
  path.reduce<unknown>((node, key) => (isTable(node) ? node[key] : undefined), table);

/**
 * Builds the `${name}` resolver of a POM: `<properties>` entries (which may refer to each other), plus
 * `project.version`, `project.groupId`, `project.artifactId`, `project.parent.version` (and their `pom.`/bare
 * forms). Returns undefined for a value that still holds an unknown reference (e.g. a property of the parent
 * POM, which is not read) or a cycle.
 */
function resolver(project: Table): (value: string) => string | undefined {
  const props = new Map<string, string>();
  const properties = at(project, 'properties');
  if (isTable(properties)) {
    for (const [key, value] of Object.entries(properties)) props.set(key, typeof value === 'string' ? value.trim() : '');
  }
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

/**
 * Checks that `xml` is well-formed and parses its `<project>` element.
 * @throws ManifestParseError when the XML is not well-formed or has no `<project>` root
 */
function parseProject(file: string, xml: string): Table {
  const valid = XMLValidator.validate(xml);
  if (valid !== true) throw new ManifestParseError(file, `invalid XML at ${valid.err.line}:${valid.err.col}: ${valid.err.msg}`);
  const doc: unknown = parser.parse(xml);
  const project = at(doc, 'project');
  if (!isTable(project)) throw new ManifestParseError(file, 'no <project> root element');
  return project;
}

/**
 * The `${name}` resolver of a pom.xml (see {@link resolver}), for the manifest updater.
 * @throws ManifestParseError like {@link readPom}
 */
export function pomResolver(file: string, xml: string): (value: string) => string | undefined {
  return resolver(parseProject(file, xml));
}

/**
 * Reads every dependency of a pom.xml (https://maven.apache.org/pom.html), in this order: `<dependencies>` (the
 * project's, then each profile's), `<dependencyManagement><dependencies>` (the project's, then each profile's),
 * plugins (groupId defaulting to `org.apache.maven.plugins`) of `<build><plugins>`, `<build><pluginManagement>`, each
 * profile's `<build><plugins>` and `<build><pluginManagement>`, `<reporting><plugins>` and each profile's, then those
 * plugins' own `<dependencies>`, then the `<annotationProcessorPaths><path>` entries of maven-compiler-plugin's
 * `<configuration>` (also of its `<executions>`), and `<parent>`. Versions and coordinates have their `${property}`
 * references resolved from `<properties>` and the project's own coordinates; the parent POM is not read.
 * @throws ManifestParseError when the XML is not well-formed or has no `<project>` root
 */
export function readPom(file: string, xml: string): PomDependency[] {
  const project = parseProject(file, xml);
  const resolve = resolver(project);
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
 * `test` and `provided` scopes, build and reporting plugins, their dependencies and annotation processors are
 * development; everything else (compile, runtime, system, import) runtime.
 */
export function pomDependencyType(dependency: PomDependency): DependencyType {
  if (BUILD_SECTIONS.has(dependency.section)) return 'development';
  return dependency.scope === 'test' || dependency.scope === 'provided' ? 'development' : 'runtime';
}
