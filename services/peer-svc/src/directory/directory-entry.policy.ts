/**
 * Directory entries: the places a directory advertises, after upstream's `DirectoryEntry` / `DirectoryEntryList`
 * (https://github.com/NationalSecurityAgency/emissary, `src/main/java/emissary/directory/DirectoryEntry.java`,
 * `DirectoryEntryList.java`). An entry is a place key `DATATYPE.SERVICE_NAME.SERVICE_TYPE.http://host:port/Place`
 * (without `$expense`), its data id `DATATYPE::SERVICE_TYPE`, a cost, a quality, the expense derived from them
 * (`cost*100 + 100 - quality`, upstream `DirectoryEntry.calculateExpense`) and a free-text description.
 *
 * This project is stricter than the engine (which took any int and any text): cost is 0 to {@link MAX_COST},
 * quality 0 to 100, the key names no wildcard and no `$expense`, and the description is at most
 * {@link MAX_DESCRIPTION_LENGTH} characters of well-formed Unicode without control characters, trimmed (as upstream's
 * XML reader trims it).
 */
import { DirectoryNameError, MAX_EXPENSE, parseDirectoryName } from './directory-name.policy.ts';

/** Largest accepted cost: the expense of cost {@link MAX_COST} and quality 0 still fits a Java `int`. */
export const MAX_COST = Math.floor((MAX_EXPENSE - 100) / 100);
/** Largest accepted quality (upstream's expense arithmetic assumes 0–100). */
export const MAX_QUALITY = 100;
/** Longest accepted description, in UTF-16 code units. */
export const MAX_DESCRIPTION_LENGTH = 1024;
/** Separator of a data id's two parts (upstream `KeyManipulator.DATAIDSEPARATOR`). */
export const DATA_ID_SEPARATOR = '::';
/** Cost and quality of a directory place's own entry (upstream `DirectoryPlace.cfg`: `$5050`). */
export const DIRECTORY_PLACE_COST = 50;
export const DIRECTORY_PLACE_QUALITY = 50;
/** The `source` of this directory's own entries (its configuration, and the directory place itself). */
export const LOCAL_SOURCE = 'local';

/** A validated directory entry. */
export interface DirectoryEntry {
  /** `DATATYPE.SERVICE_NAME.SERVICE_TYPE.<normalised place URL>`, without `$expense`. */
  key: string;
  /** `DATATYPE::SERVICE_TYPE`. */
  dataId: string;
  serviceName: string;
  /** 0 to {@link MAX_COST}. */
  cost: number;
  /** 0 to {@link MAX_QUALITY}. */
  quality: number;
  /** `cost*100 + 100 - quality`. */
  expense: number;
  /** Trimmed; empty when there is none. */
  description: string;
}

/** What a directory entry is made of before validation (configuration, a zone transfer). */
export interface DirectoryEntryInput {
  key: unknown;
  cost: unknown;
  quality: unknown;
  description?: unknown;
}

/** An invalid directory entry; `message` says which part and why (never echoing the input). */
export class DirectoryEntryError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'DirectoryEntryError';
  }
}

/** Upstream `DirectoryEntry.calculateExpense`: `cost*100 + 100 - quality` (cost weighs most, quality breaks ties). */
export function expenseOf(cost: number, quality: number): number {
  return cost * 100 + 100 - quality;
}

// C0, DEL, C1, line/paragraph separators, bidirectional controls, BOM, and the XML 1.0 non-characters U+FFFE/U+FFFF.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses
const FORBIDDEN_IN_DESCRIPTION = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff\ufffe\uffff]/;

function integerIn(value: unknown, what: string, max: number): number {
  const number = typeof value === 'string' && /^\d{1,10}$/.test(value.trim()) ? Number(value.trim()) : value;
  if (typeof number !== 'number' || !Number.isInteger(number) || number < 0 || number > max) {
    throw new DirectoryEntryError(`${what} must be an integer from 0 to ${max}`);
  }
  return number;
}

/**
 * Validates and normalises a directory entry: `{ key: 'UNKNOWN.TO_UPPER.TRANSFORM.HTTP://Host:8001/ToUpperPlace',
 * cost: 20, quality: 90, description: ' upper case ' }` → `{ key: 'UNKNOWN.TO_UPPER.TRANSFORM.http://host:8001/ToUpperPlace',
 * dataId: 'UNKNOWN::TRANSFORM', serviceName: 'TO_UPPER', cost: 20, quality: 90, expense: 2010, description: 'upper case' }`.
 * Cost and quality may be numbers or decimal strings; a missing description is empty.
 * @throws DirectoryEntryError for a malformed key (see `parseDirectoryName`), a key with `$expense` or a `*` tuple,
 *   a cost outside 0–{@link MAX_COST}, a quality outside 0–100, or a description that is not a string, too long,
 *   not well-formed or holding control characters
 */
export function parseDirectoryEntry(input: DirectoryEntryInput): DirectoryEntry {
  let name: ReturnType<typeof parseDirectoryName>;
  try {
    name = parseDirectoryName(input.key);
  } catch (error) {
    if (error instanceof DirectoryNameError) throw new DirectoryEntryError(`key: ${error.message}`, { cause: error });
    throw error;
  }
  if (name.expense !== undefined) throw new DirectoryEntryError('key: must not carry $expense (give cost and quality)');
  if ([name.dataType, name.serviceName, name.serviceType].some((tuple) => tuple.includes('*'))) {
    throw new DirectoryEntryError('key: a place key names no wildcard');
  }
  const cost = integerIn(input.cost, 'cost', MAX_COST);
  const quality = integerIn(input.quality, 'quality', MAX_QUALITY);
  const raw = input.description ?? '';
  if (typeof raw !== 'string') throw new DirectoryEntryError('description must be a string');
  const description = raw.trim();
  if (description.length > MAX_DESCRIPTION_LENGTH) {
    throw new DirectoryEntryError(`description must be at most ${MAX_DESCRIPTION_LENGTH} characters`);
  }
  if (!description.isWellFormed() || FORBIDDEN_IN_DESCRIPTION.test(description)) {
    throw new DirectoryEntryError('description must be well-formed text without control characters');
  }
  return {
    key: name.keyWithoutExpense,
    dataId: `${name.dataType}${DATA_ID_SEPARATOR}${name.serviceType}`,
    serviceName: name.serviceName,
    cost,
    quality,
    expense: expenseOf(cost, quality),
    description,
  };
}

/** The entry a directory place advertises for itself (upstream: the directory is a place of its own directory, `$5050`). */
export function directoryPlaceEntry(selfKey: string): DirectoryEntry {
  return parseDirectoryEntry({ key: selfKey, cost: DIRECTORY_PLACE_COST, quality: DIRECTORY_PLACE_QUALITY, description: '' });
}

/** The service name of a key `DATATYPE.SERVICE_NAME.…` (the second dotted tuple). */
export function serviceNameOf(key: string): string {
  return key.split('.', 2)[1] ?? '';
}

/** Code-point order of two strings (not locale order: the same on every machine). */
const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Order of entries within a data id, as upstream's `DirectoryEntryList.insert`: cheapest expense first, ties by
 * service name, then (our addition, so the order is total) by key.
 */
export function compareEntries(a: { key: string; expense: number }, b: { key: string; expense: number }): number {
  return a.expense - b.expense || byCodePoint(serviceNameOf(a.key), serviceNameOf(b.key)) || byCodePoint(a.key, b.key);
}

/** Entries of one data id, in {@link compareEntries} order. */
export interface EntryGroup<E> {
  dataId: string;
  entries: E[];
}

/**
 * Groups entries by their data id (`dataIdOf`, e.g. `(entry) => entry.dataId`): groups in code-point order of the data id
 * (upstream's map has no order; this one is stable), each group's entries in {@link compareEntries} order. The input
 * is not changed.
 */
export function groupByDataId<E extends { key: string; expense: number }>(
  entries: readonly E[],
  dataIdOf: (entry: E) => string,
): EntryGroup<E>[] {
  const groups = new Map<string, E[]>();
  for (const entry of entries) {
    const dataId = dataIdOf(entry);
    const group = groups.get(dataId);
    if (group) group.push(entry);
    else groups.set(dataId, [entry]);
  }
  return [...groups.keys()].sort(byCodePoint).map((dataId) => ({ dataId, entries: (groups.get(dataId) ?? []).sort(compareEntries) }));
}

/**
 * Whether an entry from `source` of expense `expense` takes a key `holder` holds, as upstream's `DirectoryEntryList`
 * keeps one entry per key (`src/main/java/emissary/directory/DirectoryEntryList.java`, `insert`): the holder updates its
 * own; a {@link LOCAL_SOURCE} entry takes any key; a remote one takes a remote holder's key only when strictly cheaper
 * (the holder keeps a tie), never a local one.
 */
export function takesOverKey(holder: { source: string; expense: number }, source: string, expense: number): boolean {
  return holder.source === source || source === LOCAL_SOURCE || (holder.source !== LOCAL_SOURCE && expense < holder.expense);
}
