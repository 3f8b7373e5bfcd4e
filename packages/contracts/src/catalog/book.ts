import { z } from 'zod';

/**
 * Wire schemas of the book catalogue (catalog-svc's README). Field names are exactly the API's: `Id`, `Name`,
 * `Author`, `Price`, `Year`; responses always carry them so, request bodies may spell them in any case (as Go's
 * `encoding/json` accepts, https://pkg.go.dev/encoding/json#Unmarshal). Bounds are this project's choice (the
 * seed shows none) and are listed in `services/catalog-svc/README.md`.
 */

/** Largest id the catalogue assigns: ids are PostgreSQL `integer` identity values. */
export const MAX_BOOK_ID = 2_147_483_647;
/** Longest accepted `Name`, in characters. */
export const MAX_NAME_LENGTH = 500;
/** Longest accepted `Author`, in characters. */
export const MAX_AUTHOR_LENGTH = 300;
/** Highest accepted `Price` (a non-negative floating-point number, currency-free as in the seed). */
export const MAX_PRICE = 1_000_000_000;
/** Earliest accepted `Year` (negative years are BCE). */
export const MIN_YEAR = -3000;
/** How far past the current year a `Year` may lie (announced books). */
export const YEARS_AHEAD = 5;
/** Largest page a client may ask for with `limit`. */
export const MAX_PAGE_SIZE = 1000;

const requiredMessage = (kind: string) => (issue: { input: unknown }) => (issue.input === undefined ? 'is required' : `must be ${kind}`);

/** PostgreSQL text cannot hold U+0000, so no string the catalogue stores or searches for may contain it. */
const noNul = (value: string) => !value.includes('\u0000');

const text = (max: number) =>
  z
    .string({ error: requiredMessage('a string') })
    .max(max, `must be at most ${max} characters`)
    .regex(/\S/, 'must not be blank')
    .refine((value) => value.isWellFormed(), 'must be well-formed Unicode text')
    .refine(noNul, 'must not contain NUL characters');

/** A book id in a body: a positive 32-bit integer. */
export const BookIdValue = z
  .int({ error: requiredMessage('an integer') })
  .min(1, 'must be a positive integer')
  .max(MAX_BOOK_ID, `must be at most ${MAX_BOOK_ID}`);

const price = z
  .number({ error: requiredMessage('a number') })
  .min(0, 'must not be negative')
  .max(MAX_PRICE, `must be at most ${MAX_PRICE}`);

const year = z
  .int({ error: requiredMessage('an integer') })
  .min(MIN_YEAR, `must be ${MIN_YEAR} or later`)
  .refine((value) => value <= new Date().getUTCFullYear() + YEARS_AHEAD, {
    message: `must be at most ${YEARS_AHEAD} years after the current year`,
  });

/** A stored book, as every response carries it. */
export const Book = z.object({
  Id: z.int(),
  Name: z.string(),
  Author: z.string(),
  Price: z.number(),
  Year: z.int(),
});
export type Book = z.infer<typeof Book>;

/** The fields of a book in request and response bodies, in the order responses list them. */
export const BOOK_FIELDS = ['Id', 'Name', 'Author', 'Price', 'Year'] as const;
export type BookField = (typeof BOOK_FIELDS)[number];

/** A body member whose name is a second spelling of a field already given, e.g. `name` after `Name`. */
export interface RepeatedField {
  /** The member's name as sent. */
  key: string;
  /** The field it names. */
  field: string;
  /** The spelling that came first in the body. */
  first: string;
}

/** Lower-cases ASCII letters only: the field names are ASCII, and no other character may stand in for one. */
const foldAscii = (name: string) => name.replace(/[A-Z]/g, (letter) => letter.toLowerCase());

/**
 * Renames the members of a JSON object to the canonical field names they match case-insensitively, as Go's
 * `encoding/json` matches object keys to struct fields ("preferring an exact match but also accepting a
 * case-insensitive match", https://pkg.go.dev/encoding/json#Unmarshal). Folding is ASCII-only: Go also
 * folds U+212A KELVIN SIGN to `k` and U+017F LONG S to `s`, which makes no difference for names without
 * `k` or `s`, such as the book's. Members that match no field keep their names (for the schema to refuse);
 * members naming a field in `ignore` are dropped. A field spelt more than once is kept as first given and
 * every later spelling is listed in `repeated`, so a caller can refuse the body rather than pick one.
 * Pure: `value` is not changed, and the result is built with `Object.fromEntries`, so a `__proto__` member
 * stays an ordinary (unknown) member.
 */
export function canonicalFieldNames(
  value: Readonly<Record<string, unknown>>,
  fields: readonly string[],
  ignore: readonly string[] = [],
): { value: Record<string, unknown>; repeated: RepeatedField[] } {
  const exact = new Set(fields);
  // The first of fields that fold alike wins a case-insensitive match, as in Go's field lookup.
  const folded = new Map<string, string>();
  for (const field of fields) if (!folded.has(foldAscii(field))) folded.set(foldAscii(field), field);
  const seen = new Map<string, string>();
  const entries: [string, unknown][] = [];
  const repeated: RepeatedField[] = [];
  for (const [key, member] of Object.entries(value)) {
    const field = exact.has(key) ? key : folded.get(foldAscii(key));
    if (field === undefined) {
      entries.push([key, member]);
      continue;
    }
    const first = seen.get(field);
    if (first !== undefined) {
      repeated.push({ key, field, first });
      continue;
    }
    seen.set(field, key);
    if (!ignore.includes(field)) entries.push([field, member]);
  }
  return { value: Object.fromEntries(entries), repeated };
}

/**
 * A zod preprocess step: a JSON object's member names become the canonical {@link BOOK_FIELDS} they match
 * case-insensitively ({@link canonicalFieldNames}), members naming a field in `ignore` are dropped, and a
 * field spelt twice is an issue at the later spelling (`#/name` after `Name`). Anything but a plain object
 * passes through unchanged, for the object schema to refuse.
 */
export const caseInsensitiveBookFields =
  (ignore: readonly BookField[] = []) =>
  (value: unknown, ctx: z.RefinementCtx): unknown => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
    const result = canonicalFieldNames(value as Record<string, unknown>, BOOK_FIELDS, ignore);
    for (const { key, field, first } of result.repeated) {
      ctx.addIssue({
        code: 'custom',
        path: [key],
        message: `repeats field ${field}, already given as ${first} (field names are case-insensitive)`,
        input: value,
      });
    }
    return result.value;
  };

/** The writable fields of a book, with their bounds; unknown fields are refused. Canonical names only. */
const bookFields = z.strictObject(
  {
    Name: text(MAX_NAME_LENGTH),
    Author: text(MAX_AUTHOR_LENGTH),
    Price: price,
    Year: year,
  },
  { error: 'must be a JSON object' },
);

/**
 * Body of `POST /books`: every field but `Id`, which the database assigns, so an `Id` in the body is ignored
 * (as the Go original ignored it). Field names match case-insensitively; unknown fields are refused.
 */
export const NewBook = z.preprocess(caseInsensitiveBookFields(['Id']), bookFields);
export type NewBook = z.output<typeof NewBook>;

/** Body of `PUT /books`: the whole book, `Id` naming the one to replace. Field names match case-insensitively. */
export const BookReplacement = z.preprocess(caseInsensitiveBookFields(), bookFields.extend({ Id: BookIdValue }));
export type BookReplacement = z.output<typeof BookReplacement>;

/** Body of `PUT /books/{id}`: as {@link BookReplacement}, with `Id` optional (the path names the book). */
export const BookReplacementAtPath = z.preprocess(caseInsensitiveBookFields(), bookFields.extend({ Id: BookIdValue.optional() }));
export type BookReplacementAtPath = z.output<typeof BookReplacementAtPath>;

/** A decimal integer in a query or path parameter, e.g. `?limit=20` or `/books/42`. */
export const integerParameter = (min: number, max: number) =>
  z
    .string({ error: requiredMessage('given once') })
    .regex(/^-?\d{1,16}$/, 'must be an integer')
    .transform(Number)
    .pipe(z.number().min(min, `must be ${min} or more`).max(max, `must be at most ${max}`));

/** The `{id}` path parameter of `/books/{id}`. */
export const BookIdParameter = integerParameter(1, MAX_BOOK_ID);

/** Fields `sort` may name; `-` before a field sorts it in descending order. */
export const SORTABLE_BOOK_FIELDS = ['Id', 'Name', 'Author', 'Price', 'Year'] as const;
export type SortableBookField = (typeof SORTABLE_BOOK_FIELDS)[number];
export interface BookSortKey {
  field: SortableBookField;
  descending: boolean;
}

const sortPattern = new RegExp(`^-?(${SORTABLE_BOOK_FIELDS.join('|')})(,-?(${SORTABLE_BOOK_FIELDS.join('|')}))*$`);

/**
 * Query of `GET /books`. All optional: without `limit` and `offset` the whole catalogue comes back.
 * `Author` matches exactly, `Year` is an integer, `sort` is e.g. `-Year,Name` (default `Id`).
 */
export const BookListQuery = z.strictObject({
  limit: integerParameter(1, MAX_PAGE_SIZE).optional(),
  offset: integerParameter(0, MAX_BOOK_ID).optional(),
  Author: z
    .string({ error: 'must be given once' })
    .max(MAX_AUTHOR_LENGTH, `must be at most ${MAX_AUTHOR_LENGTH} characters`)
    .refine((value) => value.isWellFormed(), 'must be well-formed Unicode text')
    .refine(noNul, 'must not contain NUL characters')
    .optional(),
  Year: integerParameter(MIN_YEAR, 99_999).optional(),
  sort: z
    .string({ error: 'must be given once' })
    .regex(sortPattern, `must be a comma-separated list of ${SORTABLE_BOOK_FIELDS.join(', ')}, each optionally prefixed by -`)
    .transform((value): BookSortKey[] =>
      value.split(',').map((key) => ({
        field: key.replace(/^-/, '') as SortableBookField,
        descending: key.startsWith('-'),
      })),
    )
    .optional(),
});
export type BookListQuery = z.output<typeof BookListQuery>;

/** Body of `GET /`. */
export const Welcome = z.object({ message: z.string() });
export type Welcome = z.infer<typeof Welcome>;
