import type { Declaration, Located } from '../update/declarations.ts';
import { allows, type RequirementRewriter, widenedUpperBound } from '../update/rewrite.ts';
import { compareMavenVersions } from './comparable-version.ts';
import { COMPILER_PLUGIN, DEFAULT_PLUGIN_GROUP } from './pom.ts';
import { inMavenRange, parseMavenRequirement } from './range.ts';
import { lineage, type ReactorPom, reactorPoms, reactorResolver } from './reactor.ts';
import { mavenVersions } from './versions.ts';
import { childNamed, childrenNamed, trimmedContent, type XmlElement, xmlTree } from './xml-spans.ts';

/**
 * Does a Maven requirement let `target` be used? A soft requirement (`1.2.3`) only when it names the target
 * (Maven would otherwise use the soft version), a range when the target is inside it.
 */
export function mavenAllows(target: string, requirement: string): boolean {
  try {
    const parsed = parseMavenRequirement(requirement);
    if ('soft' in parsed) return compareMavenVersions(parsed.soft, target) === 0;
  } catch {
    return false;
  }
  return allows(mavenVersions, target, requirement);
}

/** Replaces group 2 of `pattern`'s match in `raw` with `replacement`; null when it does not match. */
function replaceGroup(raw: string, pattern: RegExp, replacement: string): string | null {
  const match = pattern.exec(raw);
  return match ? `${match[1]}${replacement}${match[3]}` : null;
}

/**
 * Rewrites a Maven version requirement (https://maven.apache.org/pom.html#dependency-version-requirement-specification)
 * for `target`, as Dependabot's Maven updater does: a soft version becomes the target; a range that holds the
 * target stays; `[1.2.3]` becomes `[target]`; an exclusive upper bound is widened (`[1.0,2.0)` → `[1.0,3.0)`), an
 * inclusive one becomes the target. Cannot: unions of ranges that all exclude it, a lower bound above it.
 */
export const mavenRewrite: RequirementRewriter = (parts, target) => {
  const raw = parts[0] ?? '';
  let parsed: ReturnType<typeof parseMavenRequirement>;
  try {
    parsed = parseMavenRequirement(raw);
  } catch (error) {
    return { cannot: (error as Error).message };
  }
  if ('soft' in parsed) {
    if (compareMavenVersions(parsed.soft, target) === 0) return { unchanged: `version ${parsed.soft} is already ${target}` };
    return { parts: [raw.replace(parsed.soft, target)] };
  }
  if (parsed.ranges.some((range) => inMavenRange(target, range))) return { unchanged: `range '${raw.trim()}' already allows ${target}` };
  const [range, ...others] = parsed.ranges;
  if (!range || others.length > 0)
    return { cannot: `none of the ranges of '${raw.trim()}' allows ${target}, and unions are not rewritten` };
  if (range.lower && range.upper && range.lower.version === range.upper.version) {
    const exact = replaceGroup(raw, /^(\s*\[\s*)([^\],\s]+)(\s*\]\s*)$/, target);
    return exact === null ? { cannot: `cannot edit '${raw.trim()}'` } : { parts: [exact] };
  }
  if (range.lower && compareMavenVersions(target, range.lower.version) <= 0) {
    return { cannot: `the lower bound of '${raw.trim()}' excludes ${target}, and lower bounds are not moved` };
  }
  if (!range.upper) return { cannot: `cannot edit '${raw.trim()}'` };
  const bound = range.upper.inclusive ? target : widenedUpperBound(range.upper.version, target);
  const widened = bound === null ? null : replaceGroup(raw, /^(\s*[[(][^,]*,\s*)([^\s\])]+)(\s*[\])]\s*)$/, bound);
  return widened === null ? { cannot: `the upper bound of '${raw.trim()}' cannot be widened to admit ${target}` } : { parts: [widened] };
};

/** References to the project's own coordinates (a module of the same build), which `readPom` resolves itself. */
const BUILT_IN = /^(?:project\.|pom\.)?(?:version|groupId|artifactId|parent\.version|parent\.groupId)$/;

/** A dependency-like element of the POM, where it is (for messages) and the section whose management it reads. */
interface Coordinate {
  element: XmlElement;
  where: string;
  defaultGroup?: string;
  section: 'dependencies' | 'dependencyManagement' | 'plugins' | 'pluginManagement' | 'other';
}

/** The elements `readProject` reads, in its order (see {@link readProject}). */
function coordinates(text: string, project: XmlElement | undefined): Coordinate[] {
  const content = (element: XmlElement | undefined) => (element ? trimmedContent(text, element).text : undefined);
  const isCompilerPlugin = (plugin: XmlElement) =>
    (content(childNamed(plugin, 'groupId')) || DEFAULT_PLUGIN_GROUP) === DEFAULT_PLUGIN_GROUP &&
    content(childNamed(plugin, 'artifactId')) === COMPILER_PLUGIN;
  const path = (from: XmlElement | undefined, ...names: string[]): XmlElement[] =>
    names.reduce<XmlElement[]>((nodes, name) => nodes.flatMap((n) => childrenNamed(n, name)), from ? [from] : []);
  const profiles = path(project, 'profiles', 'profile');
  const scopes = [project, ...profiles];
  const inProfile = (scope: XmlElement | undefined, where: string) => (scope === project ? where : `profile ${where}`);
  const plugins: Coordinate[] = [
    ...scopes.flatMap((scope) => [
      ...path(scope, 'build', 'plugins', 'plugin').map(
        (element): Coordinate => ({ element, where: inProfile(scope, 'build plugins'), section: 'plugins' }),
      ),
      ...path(scope, 'build', 'pluginManagement', 'plugins', 'plugin').map(
        (element): Coordinate => ({ element, where: inProfile(scope, 'pluginManagement'), section: 'pluginManagement' }),
      ),
    ]),
    ...scopes.flatMap((scope) =>
      path(scope, 'reporting', 'plugins', 'plugin').map(
        (element): Coordinate => ({ element, where: inProfile(scope, 'reporting plugins'), section: 'plugins' }),
      ),
    ),
  ].map((plugin) => ({ ...plugin, defaultGroup: DEFAULT_PLUGIN_GROUP }));
  return [
    ...scopes.flatMap((scope) =>
      path(scope, 'dependencies', 'dependency').map(
        (element): Coordinate => ({ element, where: inProfile(scope, 'dependencies'), section: 'dependencies' }),
      ),
    ),
    ...scopes.flatMap((scope) =>
      path(scope, 'dependencyManagement', 'dependencies', 'dependency').map(
        (element): Coordinate => ({ element, where: inProfile(scope, 'dependencyManagement'), section: 'dependencyManagement' }),
      ),
    ),
    ...plugins,
    ...plugins.flatMap((plugin) =>
      path(plugin.element, 'dependencies', 'dependency').map(
        (element): Coordinate => ({ element, where: `${plugin.where} dependencies`, section: 'other' }),
      ),
    ),
    ...plugins.flatMap((plugin) => {
      if (!isCompilerPlugin(plugin.element)) return [];
      const configurations = [
        ...path(plugin.element, 'configuration'),
        ...path(plugin.element, 'executions', 'execution', 'configuration'),
      ];
      return configurations.flatMap((configuration) =>
        path(configuration, 'annotationProcessorPaths', 'path').map(
          (element): Coordinate => ({ element, where: 'annotationProcessorPaths', section: 'other' }),
        ),
      );
    }),
    ...path(project, 'parent').map((element): Coordinate => ({ element, where: 'parent', section: 'other' })),
  ];
}

/** Element trees by text (the updater and its check scan the same POMs many times). */
const trees = new Map<string, XmlElement>();

/** The element tree of a POM's text, cached. */
function treeOf(text: string): XmlElement {
  const cached = trees.get(text);
  if (cached) return cached;
  const tree = xmlTree(text);
  if (trees.size >= 64) trees.delete(trees.keys().next().value as string);
  trees.set(text, tree);
  return tree;
}

/** One POM of the build as the locator scans it: its `<project>` element, its coordinates and its resolver. */
interface ScannedPom {
  pom: ReactorPom;
  project: XmlElement | undefined;
  coordinates: Coordinate[];
  resolve: (value: string) => string | undefined;
}

/** Where a property is defined: the POM and its element (in `<properties>` or a profile's). */
interface Definition {
  scanned: ScannedPom;
  element: XmlElement;
}

/**
 * The definition of property `key` as `context` reads it, as dependabot-core's `PropertyValueFinder` looked it up: the
 * POM's `<properties>`, then its profiles' `<properties>` (the first defining it), then the same in its in-repository
 * parent, and so up. Undefined when no POM read defines it (a remote parent's, a built-in).
 */
function definitionOf(context: ScannedPom, scanned: ReadonlyMap<ReactorPom, ScannedPom>, key: string): Definition | undefined {
  for (const pom of lineage(context.pom)) {
    const at = scanned.get(pom);
    if (!at) continue;
    const own = childNamed(childNamed(at.project, 'properties'), key);
    if (own) return { scanned: at, element: own };
    for (const profile of childrenNamed(childNamed(at.project, 'profiles'), 'profile')) {
      const defined = childNamed(childNamed(profile, 'properties'), key);
      if (defined) return { scanned: at, element: defined };
    }
  }
  return undefined;
}

/** `groupId:artifactId` of a coordinate element of `holder`, read in `context`'s properties. */
function nameOf(context: ScannedPom, holder: ScannedPom, coordinate: Coordinate): string | undefined {
  const content = (element: XmlElement | undefined) => (element ? trimmedContent(holder.pom.text, element).text : undefined);
  const group = content(childNamed(coordinate.element, 'groupId')) || coordinate.defaultGroup;
  const artifact = content(childNamed(coordinate.element, 'artifactId'));
  return group && artifact ? `${context.resolve(group) ?? group}:${context.resolve(artifact) ?? artifact}` : undefined;
}

const definitionKey = (definition: Definition) => `${definition.scanned.pom.file}\u0000${definition.element.start}`;

/**
 * The declaration of the `<version>` element `version` of `holder`, read in `context` (the POM whose coordinate it
 * versions: a child reading its parent's management): the element's text, or, for `${prop}`, the definition of the
 * property ({@link definitionOf}, followed through values that are only another `${...}`), in whichever POM defines it.
 */
function versionDeclaration(
  context: ScannedPom,
  holder: ScannedPom,
  scanned: ReadonlyMap<ReactorPom, ScannedPom>,
  version: XmlElement,
  where: string,
): { declaration: Declaration; property?: { key: string; definition: Definition } } | { cannot: string } {
  let file = holder.pom.file;
  let span = trimmedContent(holder.pom.text, version);
  if (version.children.length > 0 || /[<&]/.test(span.text)) return { cannot: `${where}: <version> holds markup, CDATA or an entity` };
  let property: { key: string; definition: Definition } | undefined;
  for (let depth = 0; depth < 10 && span.text.includes('${'); depth++) {
    const reference = /^\$\{([^}]+)\}$/.exec(span.text)?.[1]?.trim();
    if (reference === undefined) return { cannot: `${where}: version '${span.text}' mixes text and property references` };
    const definition = definitionOf(context, scanned, reference);
    if (!definition && BUILT_IN.test(reference)) {
      return {
        cannot: `${where}: version '\${${reference}}' is the project's own coordinate, which moves with the project, not with an update`,
      };
    }
    if (!definition) {
      return {
        cannot: `${where}: property '${reference}' is not defined in this pom.xml nor in a parent POM of the repository (a remote parent POM's?)`,
      };
    }
    property = { key: reference, definition };
    file = definition.scanned.pom.file;
    span = trimmedContent(definition.scanned.pom.text, definition.element);
    if (definition.element.children.length > 0 || /[<&]/.test(span.text))
      return { cannot: `${where}: property '${reference}' holds markup, CDATA or an entity` };
  }
  if (span.text.includes('${')) return { cannot: `${where}: version property references go too deep` };
  return {
    declaration: {
      file,
      where: property === undefined ? where : `${where}, property ${property.key}`,
      parts: [{ start: span.start, end: span.end }],
      rewrite: mavenRewrite,
      requirement: span.text,
    },
    ...(property ? { property } : {}),
  };
}

/**
 * The declarations of `groupId:artifactId` `name` in the build's POMs ({@link reactorPoms}: the directory's pom.xml,
 * its modules, its in-repository parents): the `<version>` of each dependency, managed dependency, plugin, managed
 * plugin, plugin dependency, annotation processor path or parent naming it (profiles included, see
 * {@link readProject}), or, for `<version>${prop}</version>`, the value of that property where it is defined for the
 * POM (its own `<properties>`, a profile's, else its in-repository parent's, so the parent's file is the one edited:
 * Maven's inheritance, and Dependabot's `PropertyValueFinder`), followed through properties that are only another
 * `${...}`. A dependency (or plugin) without `<version>` is versioned by the `<dependencyManagement>`
 * (`<pluginManagement>`) entry its POM or an in-repository parent gives it, read in the POM's context; without one it
 * is unchanged (a remote parent's or an imported BOM's). Cannot: a property no POM read defines (a remote parent's),
 * the project's own coordinates (`${project.version}`, a module of the same build), a version mixing text and
 * references (`${a}-jre`), CDATA or markup inside `<version>`. When a property is shared with other coordinates, the
 * note names them (they move with it, as with Dependabot).
 * @throws ManifestParseError when a POM read does not parse
 */
export function locateMaven(files: Readonly<Record<string, string>>, name: string): Located {
  const poms = reactorPoms(files);
  if (poms.length === 0) return { cannot: 'no pom.xml' };
  const scanned = new Map<ReactorPom, ScannedPom>();
  for (const pom of poms) {
    const project = childNamed(treeOf(pom.text), 'project');
    scanned.set(pom, { pom, project, coordinates: coordinates(pom.text, project), resolve: reactorResolver(pom) });
  }
  const declarations: Declaration[] = [];
  const unchanged: string[] = [];
  const shared = new Map<string, { key: string; definition: Definition }>();
  const add = (result: ReturnType<typeof versionDeclaration>): Located | undefined => {
    if ('cannot' in result) return result;
    declarations.push(result.declaration);
    if (result.property) shared.set(definitionKey(result.property.definition), result.property);
    return undefined;
  };
  for (const context of scanned.values()) {
    for (const coordinate of context.coordinates) {
      if (nameOf(context, context, coordinate) !== name) continue;
      const version = childNamed(coordinate.element, 'version');
      if (version) {
        const failed = add(versionDeclaration(context, context, scanned, version, coordinate.where));
        if (failed) return failed;
        continue;
      }
      const from =
        coordinate.section === 'dependencies' ? 'dependencyManagement' : coordinate.section === 'plugins' ? 'pluginManagement' : undefined;
      const managed = from === undefined ? undefined : managementOf(context, scanned, from, name);
      const managedVersion = managed && childNamed(managed.coordinate.element, 'version');
      if (!managed || !managedVersion) {
        unchanged.push(`${context.pom.file} (${coordinate.where}): no <version>, it is managed elsewhere`);
        continue;
      }
      const where = `${coordinate.where}, managed in ${managed.holder.pom.file} ${managed.coordinate.where}`;
      const failed = add(versionDeclaration(context, managed.holder, scanned, managedVersion, where));
      if (failed) return failed;
    }
  }
  const users = [...shared.values()].flatMap(({ key, definition }) => {
    const others = [...scanned.values()].flatMap((context) =>
      context.coordinates.flatMap((c) => {
        const version = childNamed(c.element, 'version');
        if (!version || !trimmedContent(context.pom.text, version).text.includes(`\${${key}}`)) return [];
        const other = nameOf(context, context, c);
        const same = definitionOf(context, scanned, key);
        return other !== undefined && other !== name && same && definitionKey(same) === definitionKey(definition) ? [other] : [];
      }),
    );
    return others.length ? [`property '${key}' is also the version of ${[...new Set(others)].join(', ')}, which move with it`] : [];
  });
  return { declarations, unchanged, ...(users.length ? { note: users.join('; ') } : {}) };
}

/**
 * The `<dependencyManagement>` (or `<pluginManagement>`) entry of `name` for `context`: the first in its own POM, else
 * in its nearest in-repository ancestor that has one, names read in `context`'s properties (as {@link reactorDeclarations}).
 */
function managementOf(
  context: ScannedPom,
  scanned: ReadonlyMap<ReactorPom, ScannedPom>,
  section: 'dependencyManagement' | 'pluginManagement',
  name: string,
): { holder: ScannedPom; coordinate: Coordinate } | undefined {
  for (const pom of lineage(context.pom)) {
    const holder = scanned.get(pom);
    const coordinate = holder?.coordinates.find((c) => c.section === section && nameOf(context, holder, c) === name);
    if (holder && coordinate) return { holder, coordinate };
  }
  return undefined;
}
