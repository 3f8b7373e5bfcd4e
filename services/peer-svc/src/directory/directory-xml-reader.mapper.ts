/**
 * Reads a peer's directory XML (the body of its RegisterPeer answer, see `directory-xml.mapper.ts` for the format), after
 * upstream's `DirectoryXmlContainer.buildEntryListMap` (https://github.com/NationalSecurityAgency/emissary,
 * `src/main/java/emissary/directory/DirectoryXmlContainer.java`). Parsed with `fast-xml-parser`, hardened: the body is
 * bounded before parsing, a document with a `<!DOCTYPE` is refused outright (no DTD, hence no entity bomb and no
 * external entity), entity expansion is off (`processEntities: false`) and only XML's five predefined entities and
 * character references are decoded here, by hand. Each `<entry>` is validated with `parseDirectoryEntry`: a bad entry
 * is skipped (and reported), never the whole document.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { type DirectoryEntry, DirectoryEntryError, parseDirectoryEntry } from './directory-entry.policy.ts';
import { DirectoryNameError, parseDirectoryName } from './directory-name.policy.ts';

/** Most entries read from one document; the rest are skipped (with the size cap, a bound on the work a peer can cause). */
export const MAX_TRANSFER_ENTRIES = 10_000;

/** The document as a whole is unusable (too large, a DTD, not well-formed, not a directory). */
export class DirectoryXmlError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'DirectoryXmlError';
  }
}

/** An `<entry>` left out, and why (the reason never echoes the input). */
export interface SkippedEntry {
  /** Position of the entry in the document, from 0. */
  index: number;
  reason: string;
}

/** A peer's directory as read: its `location` (the directory key it names itself by), its valid entries, the skipped ones. */
export interface ReadDirectory {
  location: string;
  /** `*.*.*.<hostUrl>DirectoryPlace` of `location`: the peer's identity. */
  peerKey: string;
  /** In document order; a key given twice is kept once (the first). */
  entries: DirectoryEntry[];
  skipped: SkippedEntry[];
}

const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/**
 * Decodes XML's predefined entities and character references (`&lt;`, `&#xD;`, `&#10;`); nothing else is an entity
 * without a DTD. @throws DirectoryEntryError for another entity or a reference to an invalid code point
 */
export function decodeXmlText(text: string): string {
  return text.replace(/&([^;&\s]{1,12});/g, (_, name: string) => {
    const predefined = PREDEFINED[name];
    if (predefined !== undefined) return predefined;
    const code = /^#x[0-9a-fA-F]{1,6}$/.test(name)
      ? Number.parseInt(name.slice(2), 16)
      : /^#\d{1,7}$/.test(name)
        ? Number(name.slice(1))
        : undefined;
    if (code === undefined) throw new DirectoryEntryError('an undeclared entity');
    if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) throw new DirectoryEntryError('a character reference out of range');
    return String.fromCodePoint(code);
  });
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  processEntities: false,
  htmlEntities: false,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  isArray: (name) => name === 'entryList' || name === 'entry',
});

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);
const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : value === undefined ? [] : [value]);

/** The text of a child element: `''` for `<x />`, `undefined` when absent or not simple text. */
function textOf(node: Node, name: string): string | undefined {
  const value = node[name];
  if (value === '' || value === undefined) return value === '' ? '' : undefined;
  if (typeof value === 'string') return decodeXmlText(value);
  if (isNode(value) && Object.keys(value).every((key) => key.startsWith('@'))) return '';
  return undefined;
}

function readEntry(node: unknown): DirectoryEntry {
  if (!isNode(node)) throw new DirectoryEntryError('an entry must hold key, cost and quality elements');
  const key = textOf(node, 'key');
  if (key === undefined) throw new DirectoryEntryError('key: missing');
  return parseDirectoryEntry({
    key,
    cost: textOf(node, 'cost'),
    quality: textOf(node, 'quality'),
    description: textOf(node, 'description') ?? '',
  });
}

/**
 * Reads a directory document of at most `maxBytes` (UTF-8) bytes, e.g. upstream's `RegisterPeerActionTest.SUCCESS_RESULT`
 * → `{ location: 'EMISSARY_DIRECTORY_SERVICES.DIRECTORY.STUDY.http://localhost:9999/DirectoryPlace', peerKey:
 * '*.*.*.http://localhost:9999/DirectoryPlace', entries: [<the directory place's own entry, $5050>], skipped: [] }`.
 * The `expense` elements and the `dataid` attributes are not trusted: both are derived again from the key, cost and quality.
 * @throws DirectoryXmlError when the body is over `maxBytes`, holds a `<!DOCTYPE`, is not well-formed XML, or its root
 *   is not `<directory>` with a valid directory `location`
 */
export function parseDirectoryXml(xml: string, options: { maxBytes: number }): ReadDirectory {
  if (Buffer.byteLength(xml, 'utf8') > options.maxBytes) {
    throw new DirectoryXmlError(`directory document over ${options.maxBytes} bytes`);
  }
  if (/<!DOCTYPE/i.test(xml)) throw new DirectoryXmlError('directory document with a DOCTYPE refused');
  const valid = XMLValidator.validate(xml);
  if (valid !== true) throw new DirectoryXmlError(`directory document is not well-formed XML (line ${valid.err.line})`);
  const document: unknown = parser.parse(xml);
  const root = isNode(document) ? document.directory : undefined;
  if (!isNode(root) && root !== '') throw new DirectoryXmlError('directory document without a <directory> root');
  const directory: Node = isNode(root) ? root : {};
  const rawLocation = directory['@location'];
  let location: string;
  let peerKey: string;
  try {
    const name = parseDirectoryName(decodeXmlText(typeof rawLocation === 'string' ? rawLocation : ''));
    location = name.keyWithoutExpense;
    peerKey = name.peerKey;
  } catch (error) {
    if (error instanceof DirectoryNameError || error instanceof DirectoryEntryError) {
      throw new DirectoryXmlError('directory document without a valid location', { cause: error });
    }
    throw error;
  }
  const entries: DirectoryEntry[] = [];
  const skipped: SkippedEntry[] = [];
  const keys = new Set<string>();
  let index = 0;
  for (const list of asArray(directory.entryList)) {
    for (const node of isNode(list) ? asArray(list.entry) : []) {
      const at = index++;
      if (at >= MAX_TRANSFER_ENTRIES) {
        skipped.push({ index: at, reason: `more than ${MAX_TRANSFER_ENTRIES} entries` });
        continue;
      }
      try {
        const entry = readEntry(node);
        if (keys.has(entry.key)) throw new DirectoryEntryError('key: given twice');
        keys.add(entry.key);
        entries.push(entry);
      } catch (error) {
        if (!(error instanceof DirectoryEntryError)) throw error;
        skipped.push({ index: at, reason: error.message });
      }
    }
  }
  return { location, peerKey, entries, skipped };
}
