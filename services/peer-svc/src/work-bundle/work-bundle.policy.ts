import { InvalidInput } from '@switchyard/service-kit';
import { z } from 'zod';
import { CANNOT_DESERIALIZE_WORK_BUNDLE } from './enqueue-messages.mapper.ts';

/**
 * The work bundle of `POST /WorkSpaceClientEnqueue.action` as strict JSON, never a native serialization
 * format: upstream read `tpObj` with `ObjectInputStream.readObject` (CVE-2021-32634,
 * https://nvd.nist.gov/vuln/detail/CVE-2021-32634). Field names and defaults are those of upstream's
 * `WorkBundle` and `WorkUnit` (https://github.com/NationalSecurityAgency/emissary, `src/main/java/emissary/pickup/WorkBundle.java`
 * and `WorkUnit.java`); the length limits are this project's (below); Java's `Long.MIN/MAX_VALUE` "unset"
 * modification times are `null`.
 */

/** Most work units in one bundle (upstream `WorkBundle.MAX_UNITS`). */
export const MAX_WORK_UNITS = 1024;
/** Longest `bundleId`, in characters; it matches `[A-Za-z0-9._:-]+` (a UUID by default upstream). */
export const MAX_BUNDLE_ID_LENGTH = 128;
/** Longest `outputRoot`, `eatPrefix` and work unit `fileName`, in characters. */
export const MAX_PATH_LENGTH = 4096;
/** Longest `caseId` and `sentTo`, in characters. */
export const MAX_LABEL_LENGTH = 1024;
/** Longest work unit `transactionId`, in characters. */
export const MAX_TRANSACTION_ID_LENGTH = 256;
/**
 * Longest accepted `tpObj`, in ISO-8859-1 characters (= bytes). The largest valid bundle written without
 * escapes is about 4.6 MB (1024 units × (4096 + 256) characters plus framing); this leaves room for escapes.
 * The service must also bound the whole form body before parsing it.
 */
export const MAX_WORK_BUNDLE_LENGTH = 8 * 1024 * 1024;
/** Upstream's default `priority` (`Priority.DEFAULT`); lower runs first. */
export const DEFAULT_PRIORITY = 10;

/** A Java serialization stream's magic `AC ED 00 05` read as ISO-8859-1 characters. */
export const JAVA_SERIALIZATION_MAGIC = '\u00ac\u00ed\u0000\u0005';
/** The same magic in base64 (`rO0AB…`), how such streams are often smuggled in text. */
export const JAVA_SERIALIZATION_BASE64_MAGIC = 'rO0AB';
/** Keys refused anywhere in the JSON (prototype poisoning). */
export const FORBIDDEN_JSON_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** Any UTF-16 code unit above U+00FF (surrogates included): not ISO-8859-1. */
const BEYOND_LATIN1 = /[\u0100-\uffff]/;

const INT32_MIN = -2_147_483_648;
const INT32_MAX = 2_147_483_647;

const noNul = (value: string) => !value.includes('\u0000');
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses
const CONTROL = /[\u0000-\u001f\u007f]/;

const text = (max: number) =>
  z
    .string()
    .max(max, `must be at most ${max} characters`)
    .refine((value) => value.isWellFormed(), 'must be well-formed Unicode text')
    .refine(noNul, 'must not contain NUL characters');

const optionalText = (max: number) => text(max).nullable().default(null);

/**
 * A work unit's file name: a relative path (the pickup client opens and renames it inside its root):
 * 1–4096 characters, no NUL or other control character, not starting with `/` or `\` or a drive letter
 * (`C:`), and no `..` segment (split on `/` and `\`).
 */
export const RelativeFileName = z
  .string()
  .min(1, 'must not be empty')
  .max(MAX_PATH_LENGTH, `must be at most ${MAX_PATH_LENGTH} characters`)
  .refine((value) => value.isWellFormed(), 'must be well-formed Unicode text')
  .refine((value) => !CONTROL.test(value), 'must not contain NUL or control characters')
  .refine((value) => !/^([/\\]|[A-Za-z]:)/.test(value), 'must be a relative path')
  .refine((value) => !value.split(/[/\\]/).includes('..'), 'must not contain ".." segments');

/**
 * A bundle's `outputRoot` or `eatPrefix`, when set: at most 4096 characters, no NUL, and relative like a file name:
 * not starting with `/` or `\` or a drive letter (`C:`), no `..` segment (split on `/` and `\`). `null` = unset.
 */
const optionalRelativePath = optionalText(MAX_PATH_LENGTH)
  .refine((value) => value === null || !/^([/\\]|[A-Za-z]:)/.test(value), 'must be a relative path')
  .refine((value) => value === null || !value.split(/[/\\]/).includes('..'), 'must not contain ".." segments');

/** One work unit (upstream `WorkUnit`): `{ fileName, transactionId: string|null, failedToParse, failedToProcess }`. */
export const WorkUnit = z.strictObject({
  fileName: RelativeFileName,
  transactionId: optionalText(MAX_TRANSACTION_ID_LENGTH),
  failedToParse: z.boolean().default(false),
  failedToProcess: z.boolean().default(false),
});
export type WorkUnit = z.output<typeof WorkUnit>;

/**
 * A work bundle (upstream `WorkBundle`), unknown fields refused at every level:
 * `{ bundleId, outputRoot?, eatPrefix?, caseId?, sentTo?, errorCount=0, priority=10, simpleMode=false,
 * oldestFileModificationTime=null, youngestFileModificationTime=null, totalFileSize=0, workUnits: WorkUnit[≤1024] }`.
 * Times are ms since the epoch (`null` = unset); integers are JS safe integers, counts 32-bit as upstream.
 */
export const WorkBundle = z.strictObject(
  {
    bundleId: z
      .string()
      .min(1, 'must not be empty')
      .max(MAX_BUNDLE_ID_LENGTH, `must be at most ${MAX_BUNDLE_ID_LENGTH} characters`)
      .regex(/^[A-Za-z0-9._:-]+$/, 'must be letters, digits and . _ : -'),
    outputRoot: optionalRelativePath,
    eatPrefix: optionalRelativePath,
    caseId: optionalText(MAX_LABEL_LENGTH),
    sentTo: optionalText(MAX_LABEL_LENGTH),
    errorCount: z.int().min(0, 'must not be negative').max(INT32_MAX, `must be at most ${INT32_MAX}`).default(0),
    priority: z
      .int()
      .min(INT32_MIN, `must be at least ${INT32_MIN}`)
      .max(INT32_MAX, `must be at most ${INT32_MAX}`)
      .default(DEFAULT_PRIORITY),
    simpleMode: z.boolean().default(false),
    oldestFileModificationTime: z.int().nullable().default(null),
    youngestFileModificationTime: z.int().nullable().default(null),
    totalFileSize: z.int().min(0, 'must not be negative').default(0),
    workUnits: z.array(WorkUnit).max(MAX_WORK_UNITS, `must have at most ${MAX_WORK_UNITS} work units`),
  },
  { error: 'must be a JSON object' },
);
export type WorkBundle = z.output<typeof WorkBundle>;
export type WorkBundleInput = z.input<typeof WorkBundle>;

/** Why a `tpObj` was refused (for logs and tests; the client sees {@link CANNOT_DESERIALIZE_WORK_BUNDLE}). */
export type WorkBundleRefusal =
  | 'not-a-string'
  | 'too-large'
  | 'java-serialization'
  | 'not-iso-8859-1'
  | 'not-json'
  | 'forbidden-key'
  | 'invalid';

/**
 * Bad input: a bundle that does not decode or validate. `message` is always exactly `Cannot deserialize WorkBundle`
 * (upstream's `IllegalArgumentException` in `WorkSpaceAdapter.EnqueRequestBean.setPaths`), the answer's whole body.
 * `reason` classifies it; `detail` explains it (for `invalid`, `path: message` per zod issue). `detail` may name
 * JSON keys the client sent: neutralise it before echoing it.
 */
export class WorkBundleDecodeError extends InvalidInput {
  readonly reason: WorkBundleRefusal;
  readonly detail: string;

  constructor(reason: WorkBundleRefusal, detail: string) {
    super(CANNOT_DESERIALIZE_WORK_BUNDLE);
    this.name = 'WorkBundleDecodeError';
    this.reason = reason;
    this.detail = detail;
  }
}

class ForbiddenKey extends Error {}

function refuseForbiddenKeys(key: string, value: unknown): unknown {
  if (FORBIDDEN_JSON_KEYS.has(key)) throw new ForbiddenKey(key);
  return value;
}

/**
 * Decodes the `tpObj` form parameter into a validated {@link WorkBundle}. As upstream (`WorkSpaceAdapter.java`:
 * the client turned the bundle's bytes into a string with ISO-8859-1, the server took them back with
 * `getBytes("8859_1")`), `tpObj` is ISO-8859-1 text, one character per byte (U+0000–U+00FF); here those
 * bytes are JSON text (characters beyond Latin-1 travel as `\uXXXX` escapes, see {@link encodeWorkBundle}).
 * The service must therefore percent-decode the form body as ISO-8859-1, not UTF-8.
 * Order: size bound, Java serialization magic (raw `AC ED 00 05` or base64 `rO0AB`), ISO-8859-1 range,
 * `JSON.parse` refusing `__proto__`/`constructor`/`prototype` keys at any depth, then the schema.
 * @throws WorkBundleDecodeError (message `Cannot deserialize WorkBundle`) for anything else
 */
export function decodeWorkBundle(tpObj: unknown): WorkBundle {
  if (typeof tpObj !== 'string') throw new WorkBundleDecodeError('not-a-string', 'tpObj must be a string');
  if (tpObj.length > MAX_WORK_BUNDLE_LENGTH) {
    throw new WorkBundleDecodeError('too-large', `tpObj must be at most ${MAX_WORK_BUNDLE_LENGTH} characters`);
  }
  const start = tpObj.trimStart();
  if (start.startsWith(JAVA_SERIALIZATION_MAGIC) || start.startsWith(JAVA_SERIALIZATION_BASE64_MAGIC)) {
    throw new WorkBundleDecodeError('java-serialization', 'Java serialization streams are refused');
  }
  if (BEYOND_LATIN1.test(tpObj)) throw new WorkBundleDecodeError('not-iso-8859-1', 'tpObj must be ISO-8859-1 text');
  let parsed: unknown;
  try {
    parsed = JSON.parse(tpObj, refuseForbiddenKeys);
  } catch (error) {
    if (error instanceof ForbiddenKey) throw new WorkBundleDecodeError('forbidden-key', `key ${error.message} is not allowed`);
    throw new WorkBundleDecodeError('not-json', 'tpObj must be a JSON object');
  }
  const result = WorkBundle.safeParse(parsed);
  if (!result.success) {
    throw new WorkBundleDecodeError(
      'invalid',
      result.error.issues.map((issue) => `${issue.path.join('.') || '(bundle)'}: ${issue.message}`).join('; '),
    );
  }
  return result.data;
}

/**
 * As {@link decodeWorkBundle}, from the raw bytes of the parameter (each byte one ISO-8859-1 character).
 * @throws WorkBundleDecodeError as {@link decodeWorkBundle}; `too-large` before decoding an oversized buffer
 */
export function decodeWorkBundleBytes(bytes: Uint8Array): WorkBundle {
  if (bytes.byteLength > MAX_WORK_BUNDLE_LENGTH) {
    throw new WorkBundleDecodeError('too-large', `tpObj must be at most ${MAX_WORK_BUNDLE_LENGTH} bytes`);
  }
  return decodeWorkBundle(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1'));
}

/**
 * The `tpObj` text of a bundle (the inverse of {@link decodeWorkBundle}): validated, JSON with every
 * character beyond U+00FF written as a `\uXXXX` escape so the whole text is ISO-8859-1.
 * @throws ZodError when `bundle` is not a valid work bundle
 */
export function encodeWorkBundle(bundle: WorkBundleInput): string {
  return JSON.stringify(WorkBundle.parse(bundle)).replace(
    /[\u0100-\uffff]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
