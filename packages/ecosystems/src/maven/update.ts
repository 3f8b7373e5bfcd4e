import type { Declaration, Located } from '../update/declarations.ts';
import { allows, type RequirementRewriter, widenedUpperBound } from '../update/rewrite.ts';
import { compareMavenVersions } from './comparable-version.ts';
import { COMPILER_PLUGIN, DEFAULT_PLUGIN_GROUP, pomResolver } from './pom.ts';
import { inMavenRange, parseMavenRequirement } from './range.ts';
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

/** A dependency-like element of the POM and its section. */
interface Coordinate {
  element: XmlElement;
  where: string;
  defaultGroup?: string;
}

/** The elements `readPom` reads, in its order (see {@link readPom}). */
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
      ...path(scope, 'build', 'plugins', 'plugin').map((element) => ({ element, where: inProfile(scope, 'build plugins') })),
      ...path(scope, 'build', 'pluginManagement', 'plugins', 'plugin').map((element) => ({
        element,
        where: inProfile(scope, 'pluginManagement'),
      })),
    ]),
    ...scopes.flatMap((scope) =>
      path(scope, 'reporting', 'plugins', 'plugin').map((element) => ({ element, where: inProfile(scope, 'reporting plugins') })),
    ),
  ].map((plugin) => ({ ...plugin, defaultGroup: DEFAULT_PLUGIN_GROUP }));
  return [
    ...scopes.flatMap((scope) =>
      path(scope, 'dependencies', 'dependency').map((element) => ({ element, where: inProfile(scope, 'dependencies') })),
    ),
    ...scopes.flatMap((scope) =>
      path(scope, 'dependencyManagement', 'dependencies', 'dependency').map((element) => ({
        element,
        where: inProfile(scope, 'dependencyManagement'),
      })),
    ),
    ...plugins,
    ...plugins.flatMap((plugin) =>
      path(plugin.element, 'dependencies', 'dependency').map((element) => ({ element, where: `${plugin.where} dependencies` })),
    ),
    ...plugins.flatMap((plugin) => {
      if (!isCompilerPlugin(plugin.element)) return [];
      const configurations = [
        ...path(plugin.element, 'configuration'),
        ...path(plugin.element, 'executions', 'execution', 'configuration'),
      ];
      return configurations.flatMap((configuration) =>
        path(configuration, 'annotationProcessorPaths', 'path').map((element) => ({ element, where: 'annotationProcessorPaths' })),
      );
    }),
    ...path(project, 'parent').map((element) => ({ element, where: 'parent' })),
  ];
}

/**
 * The declarations of `groupId:artifactId` `name` in pom.xml: the `<version>` of each dependency, managed
 * dependency, plugin, managed plugin, plugin dependency, annotation processor path or parent naming it (profiles
 * included, see {@link readPom}), or, for `<version>${prop}</version>`, the value of that property in
 * `<properties>` (followed through properties that are only another `${...}`). A declaration without
 * `<version>` is unchanged. Cannot: a property the POM does not define (the parent's), the project's own
 * coordinates (`${project.version}`, a module of the same build), a version mixing text and references
 * (`${a}-jre`), CDATA or markup inside `<version>`. When a property is shared with other coordinates, the note
 * names them (they move with it, as with Dependabot).
 * @throws ManifestParseError when pom.xml does not parse
 */
export function locateMaven(files: Readonly<Record<string, string>>, name: string): Located {
  const text = files['pom.xml'];
  if (text === undefined) return { cannot: 'no pom.xml' };
  const resolve = pomResolver('pom.xml', text);
  const project = childNamed(xmlTree(text), 'project');
  const properties = new Map(childNamed(project, 'properties')?.children.map((p) => [p.name, p]) ?? []);
  const content = (element: XmlElement | undefined) => (element ? trimmedContent(text, element).text : undefined);
  const nameOf = (c: Coordinate) => {
    const group = content(childNamed(c.element, 'groupId')) || c.defaultGroup;
    const artifact = content(childNamed(c.element, 'artifactId'));
    return group && artifact ? `${resolve(group) ?? group}:${resolve(artifact) ?? artifact}` : undefined;
  };
  const all = coordinates(text, project);
  const declarations: Declaration[] = [];
  const unchanged: string[] = [];
  const shared = new Set<string>();
  for (const coordinate of all) {
    if (nameOf(coordinate) !== name) continue;
    const { where } = coordinate;
    const version = childNamed(coordinate.element, 'version');
    if (!version) {
      unchanged.push(`pom.xml (${where}): no <version>, it is managed elsewhere`);
      continue;
    }
    let span = trimmedContent(text, version);
    if (version.children.length > 0 || /[<&]/.test(span.text)) return { cannot: `${where}: <version> holds markup, CDATA or an entity` };
    let property: string | undefined;
    for (let depth = 0; depth < 10 && span.text.includes('${'); depth++) {
      const reference = /^\$\{([^}]+)\}$/.exec(span.text)?.[1]?.trim();
      if (reference === undefined) return { cannot: `${where}: version '${span.text}' mixes text and property references` };
      const defined = properties.get(reference);
      if (!defined && BUILT_IN.test(reference)) {
        return {
          cannot: `${where}: version '\${${reference}}' is the project's own coordinate, which moves with the project, not with an update`,
        };
      }
      if (!defined) return { cannot: `${where}: property '${reference}' is not defined in this pom.xml (a parent POM's?)` };
      property = reference;
      span = trimmedContent(text, defined);
      if (defined.children.length > 0 || /[<&]/.test(span.text))
        return { cannot: `${where}: property '${reference}' holds markup, CDATA or an entity` };
    }
    if (span.text.includes('${')) return { cannot: `${where}: version property references go too deep` };
    if (property !== undefined) shared.add(property);
    declarations.push({
      file: 'pom.xml',
      where: property === undefined ? where : `${where}, property ${property}`,
      parts: [{ start: span.start, end: span.end }],
      rewrite: mavenRewrite,
      requirement: span.text,
    });
  }
  const users = [...shared].flatMap((property) => {
    const others = all
      .filter((c) => nameOf(c) !== name && (content(childNamed(c.element, 'version')) ?? '').includes(`\${${property}}`))
      .map((c) => nameOf(c));
    return others.length ? [`property '${property}' is also the version of ${[...new Set(others)].join(', ')}, which move with it`] : [];
  });
  return { declarations, unchanged, ...(users.length ? { note: users.join('; ') } : {}) };
}
