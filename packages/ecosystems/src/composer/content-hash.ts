import { createHash } from 'node:crypto';
import { isTable, parseJsonObject, type Table } from '../shared/parse.ts';

/**
 * The composer.json keys whose content composer.lock's `content-hash` covers, from Composer's
 * `Locker::getContentHash` (https://github.com/composer/composer/blob/main/src/Composer/Package/Locker.php).
 */
const RELEVANT_KEYS = [
  'name',
  'version',
  'require',
  'require-dev',
  'conflict',
  'replace',
  'provide',
  'minimum-stability',
  'prefer-stable',
  'repositories',
  'extra',
];

/** A PHP array decoded from a JSON object with keys `0..n-1` in order is a list, which `json_encode` writes as one. */
const isPhpList = (table: Table) => Object.keys(table).every((key, index) => key === String(index));

/** A JSON string as PHP's `json_encode` with no flags writes it: `/` escaped, non-ASCII as lowercase `\uXXXX`. */
function phpString(text: string): string {
  let out = '"';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (char === '"') out += '\\"';
    else if (char === '\\') out += '\\\\';
    else if (char === '/') out += '\\/';
    else if (char === '\b') out += '\\b';
    else if (char === '\f') out += '\\f';
    else if (char === '\n') out += '\\n';
    else if (char === '\r') out += '\\r';
    else if (char === '\t') out += '\\t';
    else if (code < 0x20 || code > 0x7e) {
      for (let i = 0; i < char.length; i++) out += `\\u${char.charCodeAt(i).toString(16).padStart(4, '0')}`;
    } else out += char;
  }
  return `${out}"`;
}

/**
 * `json_encode($value, 0)` of what `json_decode($json, true)` gives for `value`: objects are PHP arrays (an empty one
 * is `[]`, one keyed `0..n-1` a list), strings as {@link phpString}, numbers as JavaScript writes them.
 * @throws TypeError for a non-integral number whose PHP spelling may differ (`1.0` is `1.0` in PHP, `1` here)
 */
function phpJson(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) throw new TypeError('a non-integral number');
    return String(value);
  }
  if (typeof value === 'string') return phpString(value);
  if (Array.isArray(value)) return `[${value.map(phpJson).join(',')}]`;
  if (isTable(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0 || isPhpList(value)) return `[${entries.map(([, v]) => phpJson(v)).join(',')}]`;
    return `{${entries.map(([k, v]) => `${phpString(k)}:${phpJson(v)}`).join(',')}}`;
  }
  throw new TypeError(`cannot encode ${typeof value}`);
}

/**
 * composer.lock's `content-hash` of a composer.json text, as Composer's `Locker::getContentHash` computes it
 * (https://github.com/composer/composer/blob/main/src/Composer/Package/Locker.php): the keys `name`, `version`,
 * `require`, `require-dev`, `conflict`, `replace`, `provide`, `minimum-stability`, `prefer-stable`, `repositories`,
 * `extra` present, plus `config.platform`, sorted by key (`ksort`), encoded by `json_encode` without flags, MD5 in hex.
 * @returns the 32-hex-digit hash, or null when the file holds a number whose PHP encoding cannot be reproduced
 * @throws ManifestParseError when `text` is not a JSON object
 */
export function composerContentHash(text: string): string | null {
  const manifest = parseJsonObject('composer.json', text);
  const relevant: Table = {};
  for (const key of RELEVANT_KEYS) if (key in manifest) relevant[key] = manifest[key];
  const config = manifest.config;
  if (isTable(config) && config.platform !== undefined && config.platform !== null) relevant.config = { platform: config.platform };
  const sorted = Object.fromEntries(Object.entries(relevant).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  try {
    return createHash('md5').update(phpJson(sorted), 'utf8').digest('hex');
  } catch (error) {
    if (error instanceof TypeError) return null;
    throw error;
  }
}
