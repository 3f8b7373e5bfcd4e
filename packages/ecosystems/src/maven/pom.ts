import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { DependencyType } from '../ecosystem.ts';
import { ManifestParseError } from '../errors.ts';
import { isTable, type Table } from '../shared/parse.ts';

/** Where in the POM a dependency was declared. */
export type PomSection = 'dependencies' | 'dependencyManagement' | 'plugins' | 'parent';

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

const ARRAYS = new Set(['dependency', 'plugin', 'profile']);
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
 * Reads every dependency of a pom.xml (https://maven.apache.org/pom.html): `<dependencies>` (also inside
 * `<profiles>`), `<dependencyManagement><dependencies>`, `<build><plugins>` / `<pluginManagement>` (groupId
 * defaulting to `org.apache.maven.plugins`) and `<parent>`. Versions and coordinates have their `${property}`
 * references resolved from `<properties>` and the project's own coordinates; the parent POM is not read.
 * @throws ManifestParseError when the XML is not well-formed or has no `<project>` root
 */
export function readPom(file: string, xml: string): PomDependency[] {
  const valid = XMLValidator.validate(xml);
  if (valid !== true) throw new ManifestParseError(file, `invalid XML at ${valid.err.line}:${valid.err.col}: ${valid.err.msg}`);
  const doc: unknown = parser.parse(xml);
  const project = at(doc, 'project');
  if (!isTable(project)) throw new ManifestParseError(file, 'no <project> root element');
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
  for (const dep of list(at(project, 'dependencies', 'dependency'))) add(dep, 'dependencies');
  for (const profile of list(at(project, 'profiles', 'profile'))) {
    for (const dep of list(at(profile, 'dependencies', 'dependency'))) add(dep, 'dependencies');
  }
  for (const dep of list(at(project, 'dependencyManagement', 'dependencies', 'dependency'))) add(dep, 'dependencyManagement');
  for (const plugin of [
    ...list(at(project, 'build', 'plugins', 'plugin')),
    ...list(at(project, 'build', 'pluginManagement', 'plugins', 'plugin')),
  ]) {
    add(plugin, 'plugins', 'org.apache.maven.plugins');
  }
  const parent = at(project, 'parent');
  if (isTable(parent)) add(parent, 'parent');
  return out;
}

/** `test` and `provided` scopes and build plugins are development; everything else (compile, runtime, system, import) runtime. */
export function pomDependencyType(dependency: PomDependency): DependencyType {
  if (dependency.section === 'plugins') return 'development';
  return dependency.scope === 'test' || dependency.scope === 'provided' ? 'development' : 'runtime';
}
