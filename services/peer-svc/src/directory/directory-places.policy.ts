import { ConfigError } from '@switchyard/service-kit';
import { type DirectoryEntry, DirectoryEntryError, parseDirectoryEntry } from './directory-entry.policy.ts';

const shown = (text: string) => JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);

/**
 * Parses declared local places. Each entry is `KEY|cost|quality|description`: `KEY` a place key
 * `DATATYPE.SERVICE_NAME.SERVICE_TYPE.http://host:port/Place` (no `$expense`), `cost` and `quality` decimal integers
 * (see `parseDirectoryEntry` for their ranges), `description` optional, everything after the third `|` (so it may
 * hold `|`), trimmed. In a file, entries are one per line and lines that are blank or start with `#` are ignored; in
 * `DIRECTORY_PLACES` entries are separated by `;` or newlines (so a description cannot contain `;` there). No key twice,
 * and not `selfKey`.
 * e.g. `UNKNOWN.TO_UPPER.TRANSFORM.http://h:8001/ToUpperPlace|20|90|upper case` → one entry of expense 2010.
 * @throws ConfigError (service `peer-svc`) listing every bad entry by its number (line in a file) and its key
 */
export function parseDirectoryPlaces(text: string, kind: 'file' | 'env', selfKey: string): DirectoryEntry[] {
  const variable = kind === 'file' ? 'DIRECTORY_PLACES_FILE' : 'DIRECTORY_PLACES';
  const entries: DirectoryEntry[] = [];
  const seen = new Set<string>([selfKey]);
  const problems: string[] = [];
  (kind === 'file' ? text.split(/\r?\n/) : text.split(/[;\r\n]/)).forEach((raw, index) => {
    const entry = raw.trim();
    if (entry === '' || (kind === 'file' && entry.startsWith('#'))) return;
    const [key = '', cost, quality, ...description] = entry.split('|');
    const where = `${variable} ${kind === 'file' ? 'line' : 'entry'} ${index + 1} (${shown(key.trim())})`;
    if (cost === undefined || quality === undefined) {
      problems.push(`${where}: expected KEY|cost|quality|description`);
      return;
    }
    try {
      const parsed = parseDirectoryEntry({ key: key.trim(), cost, quality, description: description.join('|') });
      if (seen.has(parsed.key)) {
        problems.push(`${where}: ${parsed.key === selfKey ? "the directory's own key" : 'a key declared twice'}`);
        return;
      }
      seen.add(parsed.key);
      entries.push(parsed);
    } catch (error) {
      if (!(error instanceof DirectoryEntryError)) throw error;
      problems.push(`${where}: ${error.message}`);
    }
  });
  if (problems.length > 0) throw new ConfigError('peer-svc', problems);
  return entries;
}
