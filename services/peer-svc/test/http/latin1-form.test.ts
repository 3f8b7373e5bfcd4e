import { describe, expect, it } from 'vitest';
import { FormBodyError, parseLatin1Form } from '../../src/http/latin1-form.mapper.ts';
import { decodeWorkBundle, encodeWorkBundle } from '../../src/work-bundle/work-bundle.policy.ts';

const bytes = (text: string) => Buffer.from(text, 'latin1');

describe('parseLatin1Form', () => {
  it('decodes escapes as ISO-8859-1 bytes', () => {
    expect(parseLatin1Form(bytes('tpObj=%7B%22a%22%3A%22%E9%22%7D&x=1+2&x=&flag'))).toEqual(
      new Map([
        ['tpObj', ['{"a":"é"}']],
        ['x', ['1 2', '']],
        ['flag', ['']],
      ]),
    );
  });

  it('keeps the Java serialization magic byte for byte so the decoder can refuse it', () => {
    expect(parseLatin1Form(bytes('tpObj=%AC%ED%00%05sr')).get('tpObj')).toEqual(['\u00ac\u00ed\u0000\u0005sr']);
  });

  it('carries an encoded bundle through a form intact', () => {
    const tpObj = encodeWorkBundle({ bundleId: 'b', caseId: 'Größe ☕', workUnits: [{ fileName: 'été/a&b=c.txt' }] });
    const body = Buffer.concat([bytes('pickUpClientName=X.Y.Z.http%3A%2F%2Fh%3A1%2FP&tpObj='), bytes(escapeLatin1(tpObj))]);
    const [value] = parseLatin1Form(body).get('tpObj') ?? [];
    expect(decodeWorkBundle(value)).toMatchObject({ caseId: 'Größe ☕', workUnits: [{ fileName: 'été/a&b=c.txt' }] });
  });

  it('refuses too many fields', () => {
    expect(() => parseLatin1Form(bytes('a=1&'.repeat(17)))).toThrow(FormBodyError);
  });
});

/** Percent-encodes every byte of a latin1 string that is not unreserved (as an ISO-8859-1 form client). */
function escapeLatin1(text: string): string {
  return [...Buffer.from(text, 'latin1')]
    .map((byte) =>
      /[A-Za-z0-9._~-]/.test(String.fromCharCode(byte)) ? String.fromCharCode(byte) : `%${byte.toString(16).padStart(2, '0')}`,
    )
    .join('');
}
