import { blankComments, closingBracket, escapeRegExp } from './scan.ts';

type Files = Readonly<Record<string, string>>;

/** Where a property's value is written: the file and the span of the value's characters (inside its quotes). */
export interface PropertyValue {
  file: string;
  start: number;
  end: number;
  text: string;
  /** The property as the lookup found it (`kotlinVersion`, `versions.okhttp`). */
  property: string;
}

/**
 * The entries of a `gradle.properties` file (java.util.Properties' line format,
 * https://docs.oracle.com/javase/8/docs/api/java/util/Properties.html#load-java.io.Reader-): `key=value`, `key: value`
 * or `key value`; `#`/`!` comment lines. Continuation lines and escapes are not decoded (a value holding a `\` is left
 * out). Values are trimmed; the span is the trimmed value's.
 */
export function readGradleProperties(text: string): Map<string, { start: number; end: number; text: string }> {
  const out = new Map<string, { start: number; end: number; text: string }>();
  let offset = 0;
  for (const raw of text.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    // `(.*)` then trimming, not a lazy `(.*?)[ \t\f]*$`, which backtracks quadratically on long blank runs
    const match = /^([ \t\f]*)([^#!\s=:][^\s=:]*)[ \t\f]*[=:\s][ \t\f]*(.*)$/d.exec(line);
    const untrimmed = match?.[3];
    let length = untrimmed?.length ?? 0;
    while (length > 0 && ' \t\f'.includes(untrimmed?.charAt(length - 1) ?? '')) length--;
    const value = untrimmed?.slice(0, length);
    if (match?.indices?.[3] && value !== undefined && match[2] && !line.trimStart().startsWith('#') && !value.includes('\\')) {
      const start = match.indices[3][0];
      if (!out.has(match[2])) out.set(match[2], { start: offset + start, end: offset + start + value.length, text: value });
    }
    offset += raw.length + 1;
  }
  return out;
}

/** A quoted value without interpolation or escapes, as a named group `v`. */
const VALUE = String.raw`(?<vq>["'])(?<v>[^"'\n$\\]*)\k<vq>`;

/** The first match of `pattern` (with a `v` group) in `blanked`, as a value span; undefined when none. */
function firstValue(
  blanked: string,
  pattern: RegExp,
  from = 0,
  to = blanked.length,
): { start: number; end: number; text: string } | undefined {
  pattern.lastIndex = from;
  for (let match = pattern.exec(blanked); match; match = pattern.exec(blanked)) {
    if (match.index >= to) return undefined;
    const span = match.indices?.groups?.v;
    if (span) return { start: span[0], end: span[1], text: match.groups?.v ?? '' };
  }
  return undefined;
}

/** Where `name` (no dots) is given a string value in a build script: `def`/`val`/`var`, `ext`/`extra`, an `ext { }` block. */
function simpleDefinition(blanked: string, name: string): { start: number; end: number; text: string } | undefined {
  const n = escapeRegExp(name);
  const patterns = [
    String.raw`\b(?:def|val|var|String|final)\s+(?:String\s+)?${n}\s*(?::\s*String\s*)?=\s*${VALUE}`,
    String.raw`\b(?:ext|extra)\s*(?:\.\s*${n}|\[\s*(?<nq>["'])${n}\k<nq>\s*\])\s*=\s*${VALUE}`,
    String.raw`\b(?:ext|extra)\s*\.\s*set\s*\(\s*(?<nq>["'])${n}\k<nq>\s*,\s*${VALUE}`,
    String.raw`\bval\s+${n}\s*(?::\s*String\s*)?by\s+extra\s*\(\s*${VALUE}`,
    String.raw`^[ \t]*${n}\s*=\s*${VALUE}`,
  ];
  for (const source of patterns) {
    const found = firstValue(blanked, new RegExp(source, 'gmd'));
    if (found) return found;
  }
  return undefined;
}

/** Where `namespace.key` is given a value: `namespace.key = '…'`, or a map `namespace = [key: '…']` / `mapOf("key" to "…")`. */
function namespacedDefinition(blanked: string, namespace: string, key: string): { start: number; end: number; text: string } | undefined {
  const ns = escapeRegExp(namespace);
  const k = escapeRegExp(key);
  const direct = firstValue(blanked, new RegExp(String.raw`\b(?:ext\.|extra\.)?${ns}\.${k}\s*=\s*${VALUE}`, 'gd'));
  if (direct) return direct;
  const opener = new RegExp(String.raw`\b(?:ext\.|extra\.)?${ns}\s*=\s*(?:\[|mapOf\s*\()`, 'g');
  for (let match = opener.exec(blanked); match; match = opener.exec(blanked)) {
    const open = match.index + match[0].length - 1;
    const close = closingBracket(blanked, open);
    if (close < 0) continue;
    const entry = new RegExp(String.raw`(?:\b${k}|(?<kq>["'])${k}\k<kq>)\s*(?::|\bto\b)\s*${VALUE}`, 'gd');
    const found = firstValue(blanked, entry, open, close);
    if (found) return found;
  }
  return undefined;
}

/**
 * The reference as a property name: without `rootProject.`, `project.`, `ext.`/`extra.` prefixes and `${ }`/`$`
 * (`${rootProject.ext.kotlinVersion}` → `kotlinVersion`), or undefined when it is not a plain (dotted) identifier.
 */
export function propertyName(reference: string): string | undefined {
  let name = reference.trim();
  const braced = /^\$\{\s*(.+?)\s*\}$/.exec(name);
  if (braced?.[1]) name = braced[1];
  else if (name.startsWith('$')) name = name.slice(1);
  name = name.replace(/^(?:rootProject\.|project\.)?(?:ext\.|extra\.)?/, '');
  return /^[A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)*$/.test(name) ? name : undefined;
}

/**
 * The value of property `name` (see {@link propertyName}) a declaration in `file` refers to, looked up as Gradle would
 * find it, in order: a definition in `file` itself, in the root build script (`build.gradle`, `build.gradle.kts`),
 * then `gradle.properties`. A dotted name `a.b` is also looked up as a map entry `b` of `a` (`ext.versions = [b: '1.0']`)
 * and as the `gradle.properties` key `a.b`. Undefined when no definition with a plain string value is found.
 */
export function findProperty(files: Files, file: string, name: string): PropertyValue | undefined {
  const scripts = [file, 'build.gradle', 'build.gradle.kts'].filter((f, i, all) => all.indexOf(f) === i && f.includes('.gradle'));
  const dot = name.lastIndexOf('.');
  for (const script of scripts) {
    const text = files[script];
    if (text === undefined || script.endsWith('.properties')) continue;
    const blanked = blankComments(text);
    const found = dot < 0 ? simpleDefinition(blanked, name) : namespacedDefinition(blanked, name.slice(0, dot), name.slice(dot + 1));
    if (found) return { file: script, ...found, property: name };
  }
  const properties = files['gradle.properties'];
  const entry = properties === undefined ? undefined : readGradleProperties(properties).get(name);
  return entry ? { file: 'gradle.properties', ...entry, property: name } : undefined;
}
