/**
 * Reading an `application/x-www-form-urlencoded` body as ISO-8859-1, as upstream's enqueue client wrote
 * it (`new UrlEncodedFormEntity(nvps, java.nio.charset.Charset.forName("8859_1"))` in `outboundEnque` of
 * https://github.com/NationalSecurityAgency/emissary, `src/main/java/emissary/server/mvc/adapters/WorkSpaceAdapter.java`):
 * each percent-escape is one byte and each byte one character U+0000–U+00FF. `express.urlencoded` decodes
 * escapes as UTF-8 instead, which turns `%E9` into U+FFFD; every peer endpoint's form is read this way
 * (`form-body.middleware.ts`).
 */
import { InvalidInput } from '@switchyard/service-kit';

/** Most fields accepted in one form body (the enqueue form has two). */
export const MAX_FORM_FIELDS = 16;

/** A parsed form: field name → its values, in the order given (set by `formBody` on `res.locals.form`). */
export type Form = Map<string, string[]>;

/** `+` → space, `%XX` → the character U+00XX; a `%` not followed by two hex digits stays as it is. */
function decode(part: string): string {
  return part.replaceAll('+', ' ').replace(/%([0-9A-Fa-f]{2})/g, (_escape, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

/** A form body that cannot be read (too many fields, a parameter given twice): bad input, answered 400 with `message`. */
export class FormBodyError extends InvalidInput {
  constructor(message: string) {
    super(message);
    this.name = 'FormBodyError';
  }
}

/**
 * Parses `body` (raw bytes, already bounded in size by the caller) into field name → values, decoding
 * `+` as space and `%XX` as the byte XX, then every byte as ISO-8859-1, e.g.
 * `tpObj=%7B%22a%22%3A%22%E9%22%7D&x=1` → `Map { 'tpObj' => ['{"a":"é"}'], 'x' => ['1'] }`.
 * Malformed escapes are kept literally (as browsers do).
 * @throws FormBodyError when the body has more than `maxFields` fields
 */
export function parseLatin1Form(body: Uint8Array, maxFields: number = MAX_FORM_FIELDS): Form {
  const text = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('latin1');
  const fields: Form = new Map();
  if (text === '') return fields;
  const pairs = text.split('&');
  if (pairs.length > maxFields) throw new FormBodyError(`form body must have at most ${maxFields} fields`);
  for (const pair of pairs) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const name = decode(eq < 0 ? pair : pair.slice(0, eq));
    const value = eq < 0 ? '' : decode(pair.slice(eq + 1));
    const values = fields.get(name);
    if (values) values.push(value);
    else fields.set(name, [value]);
  }
  return fields;
}

/** The single value of `name` in `form`; `undefined` when absent. @throws FormBodyError when it is given more than once */
export function formValue(form: Form, name: string): string | undefined {
  const values = form.get(name);
  if (values === undefined) return undefined;
  if (values.length > 1) throw new FormBodyError(`parameter ${name} given more than once`);
  return values[0];
}
