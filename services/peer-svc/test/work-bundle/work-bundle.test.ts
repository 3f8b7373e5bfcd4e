import { describe, expect, it } from 'vitest';
import { CANNOT_DESERIALIZE_WORK_BUNDLE } from '../../src/work-bundle/enqueue-messages.mapper.ts';
import {
  decodeWorkBundle,
  decodeWorkBundleBytes,
  encodeWorkBundle,
  MAX_WORK_BUNDLE_LENGTH,
  MAX_WORK_UNITS,
  type WorkBundleDecodeError,
  type WorkBundleInput,
  type WorkBundleRefusal,
} from '../../src/work-bundle/work-bundle.policy.ts';

const units = (n: number) => Array.from({ length: n }, (_, i) => ({ fileName: `in/batch-7/file-${i}.txt` }));
const bundle = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({ bundleId: '4f1c2a9e-3b7d-4e55-9a10-2c8f0d1e6b3a', workUnits: units(2), ...extra });

function refusal(tpObj: unknown): { message: string; reason: WorkBundleRefusal; detail: string } {
  try {
    decodeWorkBundle(tpObj);
  } catch (error) {
    const { message, reason, detail } = error as WorkBundleDecodeError;
    return { message, reason, detail };
  }
  throw new Error('expected the bundle to be refused');
}

describe('decodeWorkBundle', () => {
  it('decodes a valid bundle, filling the defaults', () => {
    expect(
      decodeWorkBundle(bundle({ caseId: 'case-1', workUnits: [{ fileName: 'a/b.txt', transactionId: 'tx-1', failedToParse: true }] })),
    ).toEqual({
      bundleId: '4f1c2a9e-3b7d-4e55-9a10-2c8f0d1e6b3a',
      outputRoot: null,
      eatPrefix: null,
      caseId: 'case-1',
      sentTo: null,
      errorCount: 0,
      priority: 10,
      simpleMode: false,
      oldestFileModificationTime: null,
      youngestFileModificationTime: null,
      totalFileSize: 0,
      workUnits: [{ fileName: 'a/b.txt', transactionId: 'tx-1', failedToParse: true, failedToProcess: false }],
    });
  });

  it('accepts upstream test file names with markup characters', () => {
    expect(decodeWorkBundle(bundle({ workUnits: [{ fileName: '<file2.txt&foo=bar>' }] })).workUnits[0]?.fileName).toBe(
      '<file2.txt&foo=bar>',
    );
  });

  it(`accepts ${MAX_WORK_UNITS} work units and refuses ${MAX_WORK_UNITS + 1}`, () => {
    expect(decodeWorkBundle(bundle({ workUnits: units(MAX_WORK_UNITS) })).workUnits).toHaveLength(MAX_WORK_UNITS);
    const refused = refusal(bundle({ workUnits: units(MAX_WORK_UNITS + 1) }));
    expect(refused).toMatchObject({ message: CANNOT_DESERIALIZE_WORK_BUNDLE, reason: 'invalid' });
    expect(refused.detail).toContain('at most 1024 work units');
  });

  it.each([
    ['../x', '..'],
    ['a/../../etc/passwd', '..'],
    ['a\\..\\b', '..'],
    ['..', '..'],
    ['/etc/passwd', 'relative'],
    ['\\\\server\\share\\x', 'relative'],
    ['C:\\Windows\\x', 'relative'],
    ['c:x', 'relative'],
    ['a\u0000b', 'control'],
    ['a\nb', 'control'],
    ['', 'empty'],
  ])('refuses the file name %j', (fileName, why) => {
    const refused = refusal(bundle({ workUnits: [{ fileName }] }));
    expect(refused).toMatchObject({ message: CANNOT_DESERIALIZE_WORK_BUNDLE, reason: 'invalid' });
    expect(refused.detail).toContain(why);
  });

  it.each([
    ['outputRoot', '/data/out', 'relative'],
    ['outputRoot', '../../etc', '..'],
    ['outputRoot', 'C:\\out', 'relative'],
    ['eatPrefix', '/data/input/', 'relative'],
    ['eatPrefix', 'in/../..', '..'],
    ['eatPrefix', '\\\\server\\share', 'relative'],
  ])('refuses the %s %j', (field, value, why) => {
    const refused = refusal(bundle({ [field]: value }));
    expect(refused).toMatchObject({ message: CANNOT_DESERIALIZE_WORK_BUNDLE, reason: 'invalid' });
    expect(refused.detail).toContain(field);
    expect(refused.detail).toContain(why);
  });

  it('accepts relative outputRoot and eatPrefix, and null ones', () => {
    expect(decodeWorkBundle(bundle({ outputRoot: 'data/out', eatPrefix: 'in/' }))).toMatchObject({
      outputRoot: 'data/out',
      eatPrefix: 'in/',
    });
    expect(decodeWorkBundle(bundle({ outputRoot: null, eatPrefix: null }))).toMatchObject({ outputRoot: null, eatPrefix: null });
  });

  it('accepts names that only look like dot-dot', () => {
    expect(decodeWorkBundle(bundle({ workUnits: [{ fileName: 'a/..b/c..' }, { fileName: './x' }] })).workUnits).toHaveLength(2);
  });

  it.each<[string, unknown, WorkBundleRefusal]>([
    ['a Java serialization stream', '\u00ac\u00ed\u0000\u0005sr\u0000\u001femissary.pickup.WorkBundle', 'java-serialization'],
    ['a Java serialization stream from bytes', Buffer.from([0xac, 0xed, 0x00, 0x05, 0x73, 0x72]).toString('latin1'), 'java-serialization'],
    [
      'base64 of a Java serialization stream',
      Buffer.from([0xac, 0xed, 0x00, 0x05, 0x73, 0x72, 0x00]).toString('base64'),
      'java-serialization',
    ],
    ['a Java stream read as UTF-8 by mistake', Buffer.from([0xac, 0xed, 0x00, 0x05, 0x7b, 0x7d]).toString('utf8'), 'not-iso-8859-1'],
    ['__proto__', '{"bundleId":"b","workUnits":[],"__proto__":{"polluted":true}}', 'forbidden-key'],
    ['escaped __proto__', '{"bundleId":"b","workUnits":[],"\\u005f_proto__":{"polluted":true}}', 'forbidden-key'],
    ['nested constructor', '{"bundleId":"b","workUnits":[{"fileName":"x","constructor":{"prototype":{}}}]}', 'forbidden-key'],
    ['prototype', '{"bundleId":"b","workUnits":[],"prototype":1}', 'forbidden-key'],
    ['non-JSON', 'not json at all', 'not-json'],
    ['XML (the upstream pull format)', '<workBundle><bundleId>b</bundleId></workBundle>', 'not-json'],
    ['truncated JSON', '{"bundleId":"b","workUnits":[', 'not-json'],
    ['a JSON array', '[]', 'invalid'],
    ['JSON null', 'null', 'invalid'],
    ['an unknown field', bundle({ command: 'rm -rf /' }), 'invalid'],
    ['an unknown work unit field', bundle({ workUnits: [{ fileName: 'x', mode: 'exec' }] }), 'invalid'],
    ['a missing bundleId', '{"workUnits":[]}', 'invalid'],
    ['a bad bundleId', bundle({ bundleId: 'a b' }), 'invalid'],
    ['an overlong transactionId', bundle({ workUnits: [{ fileName: 'x', transactionId: 't'.repeat(257) }] }), 'invalid'],
    ['a negative errorCount', bundle({ errorCount: -1 }), 'invalid'],
    ['a fractional priority', bundle({ priority: 1.5 }), 'invalid'],
    ['an unsafe integer time', '{"bundleId":"b","workUnits":[],"oldestFileModificationTime":9223372036854775807}', 'invalid'],
    ['NUL in caseId', bundle({ caseId: 'a\u0000' }), 'invalid'],
    ['a lone surrogate escape', bundle({ caseId: '\ud800' }), 'invalid'],
    ['characters beyond ISO-8859-1', bundle({ caseId: '☕' }), 'not-iso-8859-1'],
    ['an oversized value', `${bundle()}${' '.repeat(MAX_WORK_BUNDLE_LENGTH)}`, 'too-large'],
    ['a missing value', undefined, 'not-a-string'],
  ])('refuses %s with the seed message', (_label, tpObj, reason) => {
    expect(refusal(tpObj)).toMatchObject({ message: 'Cannot deserialize WorkBundle', reason });
  });

  it('does not pollute prototypes', () => {
    refusal('{"__proto__":{"polluted":true}}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('round-trips ISO-8859-1 characters and escapes the rest', () => {
    const input: WorkBundleInput = {
      bundleId: 'b-1',
      caseId: 'Affaire n° 7 — ☕',
      outputRoot: 'data/sortie/été',
      workUnits: [{ fileName: 'répertoire/Größe ÿ ©.txt' }],
    };
    const tpObj = encodeWorkBundle(input);
    expect(tpObj).toContain('répertoire/Größe ÿ ©.txt');
    expect(tpObj).toContain('\\u2014 \\u2615');
    expect(/[\u0100-\uffff]/.test(tpObj)).toBe(false);
    const decoded = decodeWorkBundle(tpObj);
    expect(decoded).toMatchObject(input);
    expect(decodeWorkBundleBytes(Buffer.from(tpObj, 'latin1'))).toEqual(decoded);
    expect(Buffer.from(tpObj, 'latin1').includes(Buffer.from([0xe9]))).toBe(true);
  });

  it('refuses oversized bytes before decoding them', () => {
    expect(() => decodeWorkBundleBytes(new Uint8Array(MAX_WORK_BUNDLE_LENGTH + 1))).toThrow(CANNOT_DESERIALIZE_WORK_BUNDLE);
  });

  it('refuses to encode an invalid bundle', () => {
    expect(() => encodeWorkBundle({ bundleId: 'b', workUnits: [{ fileName: '../x' }] })).toThrow();
  });
});
