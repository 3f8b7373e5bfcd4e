/**
 * YAML text in the style of the files Dependabot Preview wrote (Ruby's Psych emitter; the upgrade commits named in
 * `write.ts`): block
 * style, two-space indentation, list items not indented under their key, no comments, no `---`. A string is written
 * bare when it reads back as the same string; otherwise, or when it starts with a character that is not a word
 * character (Psych's rule, which quotes `"/"`), it is double-quoted. `"03:00"` is quoted because bare it would read as
 * the sexagesimal integer 180.
 */
import { parse } from 'yaml';
import { readYaml } from './yaml-read.ts';

/** A mapping with its keys in the order they are written. */
export interface YamlMapping {
  readonly entries: ReadonlyArray<readonly [string, YamlValue]>;
}

/** What the emitter writes: strings, integers, lists, mappings. */
export type YamlValue = string | number | readonly YamlValue[] | YamlMapping;

/** A {@link YamlMapping} of `entries`, leaving out those whose value is undefined. */
export function mapping(entries: ReadonlyArray<readonly [string, YamlValue | undefined]>): YamlMapping {
  return { entries: entries.filter((entry): entry is readonly [string, YamlValue] => entry[1] !== undefined) };
}

/** Is `value` a {@link YamlMapping} (rather than a list or a scalar)? */
function isMapping(value: YamlValue): value is YamlMapping {
  return typeof value === 'object' && !Array.isArray(value) && 'entries' in value;
}

/** The YAML text of `document`, ending in a newline. */
export function toYaml(document: YamlMapping): string {
  return `${mappingLines(document, 0).join('\n')}\n`;
}

/** Starts with a word character (a letter, mark, digit or connector such as `_`): Psych writes such strings bare when it can. */
const WORD_START = /^[\p{L}\p{M}\p{N}\p{Pc}]/u;

/** Characters that are not printable in YAML, escaped inside double quotes. */
const UNPRINTABLE = /[\u007f-\u0084\u0086-\u009f\ufffe\uffff]/g;

/** Can `text` be written without quotes and read back as the same string by Psych's YAML 1.1, by YAML 1.1 with timestamps, and by YAML 1.2? */
function bare(text: string): boolean {
  if (!WORD_START.test(text) || /[\s\p{C}]/u.test(text.slice(-1)) || /[\p{Cc}\p{Zl}\p{Zp}]|: | #|:$/u.test(text)) return false;
  const line = `key: ${text}`;
  const psych = readYaml(line);
  if (!psych.ok || (psych.value as { key?: unknown } | null)?.key !== text) return false;
  try {
    // YAML 1.2, and the full YAML 1.1 schema: Psych reads `2001-12-14` as a date, which Dependabot's safe_load refuses.
    return [parse(line), parse(line, { version: '1.1' })].every((value) => (value as { key?: unknown } | null)?.key === text);
  } catch {
    return false;
  }
}

/** A scalar as written: an integer as digits, a string bare or double-quoted. */
export function scalarText(value: string | number): string {
  if (typeof value === 'number') return String(value);
  if (bare(value)) return value;
  return JSON.stringify(value).replaceAll(UNPRINTABLE, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The lines of a mapping's entries at `indent` spaces. */
function mappingLines(map: YamlMapping, indent: number): string[] {
  const pad = ' '.repeat(indent);
  const lines: string[] = [];
  for (const [key, value] of map.entries) {
    const head = `${pad}${scalarText(key)}:`;
    if (typeof value === 'string' || typeof value === 'number') lines.push(`${head} ${scalarText(value)}`);
    else if (isMapping(value)) {
      if (value.entries.length === 0) lines.push(`${head} {}`);
      else lines.push(head, ...mappingLines(value, indent + 2));
    } else if (value.length === 0) lines.push(`${head} []`);
    else lines.push(head, ...sequenceLines(value, indent));
  }
  return lines;
}

/** The lines of a list's items at `indent` spaces: `- item`, a mapping's first entry on the dash's line. */
function sequenceLines(items: readonly YamlValue[], indent: number): string[] {
  const pad = ' '.repeat(indent);
  const lines: string[] = [];
  for (const item of items) {
    if (typeof item === 'string' || typeof item === 'number') {
      lines.push(`${pad}- ${scalarText(item)}`);
      continue;
    }
    const nested = isMapping(item)
      ? item.entries.length === 0
        ? [`${pad}  {}`]
        : mappingLines(item, indent + 2)
      : item.length === 0
        ? [`${pad}  []`]
        : sequenceLines(item, indent + 2);
    const [first = '', ...rest] = nested;
    lines.push(`${pad}- ${first.slice(indent + 2)}`, ...rest);
  }
  return lines;
}
