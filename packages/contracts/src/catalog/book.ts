import { z } from 'zod';

/**
 * Wire schemas of the book catalogue (catalog-svc's README). Field names are exactly the API's: `Id`, `Name`,
 * `Author`, `Price`, `Year`. Bounds are this project's choice (the seed shows none) and are listed in
 * `services/catalog-svc/README.md`.
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

/** Body of `POST /books`: every field but `Id`, which the database assigns; unknown fields are refused. */
export const NewBook = z.strictObject(
  {
    Name: text(MAX_NAME_LENGTH),
    Author: text(MAX_AUTHOR_LENGTH),
    Price: price,
    Year: year,
  },
  { error: 'must be a JSON object' },
);
export type NewBook = z.infer<typeof NewBook>;

/** Body of `PUT /books`: the whole book, `Id` naming the one to replace. */
export const BookReplacement = NewBook.extend({ Id: BookIdValue });
export type BookReplacement = z.infer<typeof BookReplacement>;

/** Body of `PUT /books/{id}`: as {@link BookReplacement}, with `Id` optional (the path names the book). */
export const BookReplacementAtPath = NewBook.extend({ Id: BookIdValue.optional() });

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
