import type { DependencyType } from '../ecosystem.ts';
import { ManifestParseError } from '../errors.ts';
import { filesOf } from '../shared/files.ts';
import { memoByFiles } from '../shared/files-memo.ts';
import { isTable, parseToml, type Table } from '../shared/parse.ts';
import { type TomlString, tomlStrings } from '../update/toml-spans.ts';
import { findProperty, propertyName } from './properties.ts';
import { blankComments, escapeRegExp, lineAt } from './scan.ts';

type Files = Readonly<Record<string, string>>;

/** The version catalog Gradle reads by default (https://docs.gradle.org/current/userguide/platforms.html). */
export const CATALOG = 'gradle/libs.versions.toml';

/** The build scripts read, in this order: the root project's, the settings', then one level of subprojects'. */
export const BUILD_SCRIPTS = [
  'build.gradle',
  'build.gradle.kts',
  'settings.gradle',
  'settings.gradle.kts',
  '*/build.gradle',
  '*/build.gradle.kts',
];

/**
 * Where a declaration's version is written: a span of a file (the version's characters, inside its quotes) and its text,
 * with the property or catalog version key it goes through; or why it cannot be located.
 */
export type VersionSite = { file: string; start: number; end: number; text: string; via?: string } | { unresolved: string };

/** One declaration of a dependency or plugin in a build script or the version catalog. */
export interface GradleDeclaration {
  /** `groupId:artifactId`; a plugin `id:id.gradle.plugin` (its marker artifact, as Dependabot names plugins). */
  name: string;
  type: DependencyType;
  /** The file the declaration is in. */
  file: string;
  /** Human-readable place: configuration and line, or the catalog entry. */
  where: string;
  /** Where the version is written; null when none is (a platform or a catalog entry without version manages it). */
  version: VersionSite | null;
}

/** The configurations whose string or map notation is read as a dependency (Gradle's and common plugins'). */
const CONFIGURATION =
  /^(?:implementation|api|compileOnly|compileOnlyApi|runtimeOnly|annotationProcessor|classpath|compile|runtime|testCompile|testRuntime|kapt\w*|ksp\w*|detektPlugins|lintChecks|lintPublish|coreLibraryDesugaring|developmentOnly|providedCompile|providedRuntime|[a-z]\w*(?:Implementation|Api|CompileOnly|RuntimeOnly|AnnotationProcessor))$/;

/** Test configurations (`testImplementation`, `androidTestImplementation`, `kaptTest`, `testFixturesApi`, ...): development. */
const TEST_CONFIGURATION = /^(?:(?:kapt|ksp)(?:Android)?)?(?:test|Test|androidTest)/;

/** The dependency type of a configuration. */
export const configurationType = (configuration: string): DependencyType =>
  TEST_CONFIGURATION.test(configuration) ? 'development' : 'runtime';

const PLATFORM = String.raw`(?:(?:platform|enforcedPlatform)\s*\(\s*)?`;
const STRING_NOTATION = new RegExp(
  String.raw`\b(?<config>[a-z][A-Za-z0-9]*)\s*\(?\s*${PLATFORM}(?<q>["'])(?<group>[\w.-]+):(?<artifact>[\w.-]+)(?::(?<version>[^"':@\s]*))?(?::[^"'@\s]*)?(?:@[^"'\s]*)?\k<q>`,
  'gd',
);
const VERSION_VALUE = String.raw`(?:(?<vq>["'])(?<version>[^"'\n]*)\k<vq>|(?<ref>[A-Za-z_][\w.]*))`;
const MAP_NOTATION = new RegExp(
  String.raw`\b(?<config>[a-z][A-Za-z0-9]*)\s*\(?\s*group\s*[:=]\s*(?<gq>["'])(?<group>[^"'\s]+)\k<gq>\s*,\s*name\s*[:=]\s*(?<nq>["'])(?<artifact>[^"'\s]+)\k<nq>(?:\s*,\s*version\s*[:=]\s*${VERSION_VALUE})?`,
  'gd',
);
const PLUGIN = new RegExp(
  String.raw`\b(?<kind>id|kotlin)\s*\(?\s*(?<iq>["'])(?<id>[A-Za-z0-9_.-]+)\k<iq>\s*\)?\s*version\s*\(?\s*${VERSION_VALUE}`,
  'gd',
);

/** A plugin id's marker artifact name: `id:id.gradle.plugin`. */
export const pluginName = (id: string) => `${id}:${id}.gradle.plugin`;

/** The site of a version written in `file` at `span` (a literal, or a whole `$x`/`${x}` reference, or a bare identifier). */
function siteOf(files: Files, file: string, text: string, span: [number, number], bare: boolean): VersionSite {
  if (!bare && !text.includes('$')) return { file, start: span[0], end: span[1], text };
  const whole = bare || /^\$(?:\{[^}]+\}|[A-Za-z_][\w.]*)$/.test(text);
  if (!whole) return { unresolved: `version '${text}' mixes text and property references` };
  const name = propertyName(text);
  if (name === undefined) return { unresolved: `version '${text}' is not a property reference that can be followed` };
  const value = findProperty(files, file, name);
  if (value === undefined) return { unresolved: `property '${name}' has no plain string value in the build scripts or gradle.properties` };
  return { file: value.file, start: value.start, end: value.end, text: value.text, via: `property ${name}` };
}

/**
 * The declarations of one build script (Groovy or Kotlin DSL), comments ignored:
 * - string notation `implementation 'g:a:v'`, `implementation("g:a:v:classifier@ext")`, also in `buildscript`
 *   (`classpath`), `constraints`, and wrapped in `platform(…)`/`enforcedPlatform(…)`;
 * - map notation `testImplementation group: 'g', name: 'a', version: 'v'` (Kotlin `group = "g", …`);
 * - plugins `id 'x' version 'v'`, `id("x") version "v"`, `kotlin("jvm") version "v"` (id `org.jetbrains.kotlin.jvm`).
 * A version `$x`, `${x}`, `${versions.x}` or a bare identifier is followed to its definition (see {@link findProperty}).
 */
function scriptDeclarations(files: Files, file: string, text: string): GradleDeclaration[] {
  const blanked = blankComments(text);
  const found: { at: number; declaration: GradleDeclaration }[] = [];
  const where = (what: string, at: number) => `${what}, line ${lineAt(text, at)}`;
  for (const pattern of [STRING_NOTATION, MAP_NOTATION]) {
    pattern.lastIndex = 0;
    for (const match of blanked.matchAll(pattern)) {
      const groups = match.groups ?? {};
      const config = groups.config ?? '';
      if (!CONFIGURATION.test(config)) continue;
      const versionSpan = match.indices?.groups?.version;
      const refSpan = match.indices?.groups?.ref;
      let version: VersionSite | null = null;
      if (versionSpan && groups.version !== undefined && groups.version !== '') {
        version = siteOf(files, file, groups.version, versionSpan, false);
      } else if (refSpan && groups.ref) version = siteOf(files, file, groups.ref, refSpan, true);
      found.push({
        at: match.index,
        declaration: {
          name: `${groups.group}:${groups.artifact}`,
          type: configurationType(config),
          file,
          where: where(config, match.index),
          version,
        },
      });
    }
  }
  for (const match of blanked.matchAll(PLUGIN)) {
    const groups = match.groups ?? {};
    const id = groups.kind === 'kotlin' ? `org.jetbrains.kotlin.${groups.id}` : (groups.id ?? '');
    const versionSpan = match.indices?.groups?.version;
    const refSpan = match.indices?.groups?.ref;
    const version =
      versionSpan && groups.version !== undefined
        ? siteOf(files, file, groups.version, versionSpan, false)
        : refSpan && groups.ref
          ? siteOf(files, file, groups.ref, refSpan, true)
          : null;
    found.push({
      at: match.index,
      declaration: { name: pluginName(id), type: 'runtime', file, where: where(`plugin ${id}`, match.index), version },
    });
  }
  return found.sort((a, b) => a.at - b.at).map((f) => f.declaration);
}

const RICH = ['require', 'strictly', 'prefer'];

/** The catalog's string at `path`, as a site (unresolved when escaped or multi-line). */
function catalogSite(strings: readonly TomlString[], text: string, path: string[], via?: string): VersionSite {
  const found = strings.find((s) => s.path.length === path.length && s.path.every((k, i) => k === path[i]));
  if (!found || found.escaped) return { unresolved: `${CATALOG} ${path.join('.')} is not a plain single-line string` };
  return { file: CATALOG, start: found.start, end: found.end, text: text.slice(found.start, found.end), ...(via ? { via } : {}) };
}

/** A version given as a table (`{ ref = … }`, `{ require = … }`, `{ strictly = … }`), or a string, at `path`. */
function catalogVersion(doc: Table, strings: readonly TomlString[], text: string, path: string[], value: unknown): VersionSite | null {
  if (value === undefined) return null;
  if (typeof value === 'string') return catalogSite(strings, text, path);
  if (!isTable(value)) return { unresolved: `${CATALOG} ${path.join('.')} is neither a string nor a table` };
  if (typeof value.ref === 'string') {
    const versions = isTable(doc.versions) ? doc.versions : {};
    const target = versions[value.ref];
    if (target === undefined) return { unresolved: `${CATALOG} has no [versions] entry '${value.ref}'` };
    const site = catalogVersion(doc, strings, text, ['versions', value.ref], target);
    return site && 'file' in site ? { ...site, via: `[versions] ${value.ref}` } : site;
  }
  const key = RICH.find((k) => typeof value[k] === 'string');
  if (key === undefined) return { unresolved: `${CATALOG} ${path.join('.')} has no require, strictly or prefer version` };
  return catalogSite(strings, text, [...path, key]);
}

/** How build scripts use a catalog alias: the configurations naming `libs.<accessor>` (`-`, `_`, `.` → `.`). */
function aliasConfigurations(files: Files, alias: string): string[] {
  const accessor = alias.split(/[-_.]/).map(escapeRegExp).join('\\.');
  const pattern = new RegExp(String.raw`\b([a-z][A-Za-z0-9]*)\s*\(?\s*${PLATFORM}libs\.${accessor}(?![\w]|\.[A-Za-z])`, 'g');
  return BUILD_SCRIPTS.flatMap((entry) => filesOf(files, entry)).flatMap(([, text]) =>
    [...blankComments(text).matchAll(pattern)].map((m) => m[1] ?? '').filter((c) => CONFIGURATION.test(c)),
  );
}

/**
 * The declarations of the version catalog (https://docs.gradle.org/current/userguide/platforms.html#sub::toml-dependencies-format):
 * `[libraries]` entries as `"g:a:v"` strings or tables (`module = "g:a"` or `group`/`name`; `version = "v"`,
 * `version.ref = "key"`, `version = { ref | require | strictly | prefer = … }`), and `[plugins]` entries (`"id:v"` or
 * `{ id = …, version… }`). A `version.ref` is followed to its `[versions]` entry (a string or a rich version table).
 * A library is `development` when build scripts use its accessor only in test configurations.
 * @throws ManifestParseError when the catalog does not parse or a section is not a table
 */
function catalogDeclarations(files: Files, text: string): GradleDeclaration[] {
  const doc = parseToml(CATALOG, text);
  let strings: TomlString[];
  try {
    strings = tomlStrings(text);
  } catch (error) {
    throw new ManifestParseError(CATALOG, (error as Error).message);
  }
  const out: GradleDeclaration[] = [];
  for (const section of ['libraries', 'plugins'] as const) {
    const entries = doc[section];
    if (entries === undefined) continue;
    if (!isTable(entries)) throw new ManifestParseError(CATALOG, `[${section}] is not a table`);
    for (const [alias, entry] of Object.entries(entries)) {
      const path = [section, alias];
      let name: string | undefined;
      let version: VersionSite | null = null;
      if (typeof entry === 'string') {
        const parts = entry.split(':');
        const coordinateParts = section === 'libraries' ? 2 : 1;
        const head = parts.slice(0, coordinateParts).join(':');
        name = section === 'libraries' ? head : pluginName(head);
        if (parts.length > coordinateParts) {
          const site = catalogSite(strings, text, path);
          version = 'file' in site ? { ...site, start: site.start + head.length + 1, text: site.text.slice(head.length + 1) } : site;
        }
      } else if (isTable(entry)) {
        if (section === 'plugins') name = typeof entry.id === 'string' ? pluginName(entry.id) : undefined;
        else if (typeof entry.module === 'string') name = entry.module;
        else if (typeof entry.group === 'string' && typeof entry.name === 'string') name = `${entry.group}:${entry.name}`;
        version = catalogVersion(doc, strings, text, [...path, 'version'], entry.version);
      }
      if (name === undefined) throw new ManifestParseError(CATALOG, `[${section}] ${alias} names no module, group and name, or id`);
      const configurations = section === 'libraries' ? aliasConfigurations(files, alias) : [];
      const type =
        configurations.length > 0 && configurations.every((c) => configurationType(c) === 'development') ? 'development' : 'runtime';
      out.push({ name, type, file: CATALOG, where: `[${section}] ${alias}`, version });
    }
  }
  return out;
}

/**
 * Every declaration of the Gradle files read, in reading order: the build scripts of {@link BUILD_SCRIPTS} (each in
 * file order), then the version catalog. Parsed once per files map (`memoByFiles`: `findDependency`, the update and
 * its checks ask again and again); the list is shared, never mutate it.
 * @throws ManifestParseError when the catalog does not parse
 */
export const readGradle: (files: Files) => readonly GradleDeclaration[] = memoByFiles((files) => {
  const scripts = BUILD_SCRIPTS.flatMap((entry) => filesOf(files, entry)).flatMap(([file, text]) => scriptDeclarations(files, file, text));
  const catalog = files[CATALOG];
  return catalog === undefined ? scripts : [...scripts, ...catalogDeclarations(files, catalog)];
});
