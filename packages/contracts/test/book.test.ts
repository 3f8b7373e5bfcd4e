import { describe, expect, it } from 'vitest';
import {
  BOOK_FIELDS,
  BookIdParameter,
  BookListQuery,
  BookReplacement,
  BookReplacementAtPath,
  canonicalFieldNames,
  NewBook,
} from '../src/index.ts';

const valid = { Name: 'Dune', Author: 'Frank Herbert', Price: 9.99, Year: 1965 };

function messages(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string; code: string }[] } }) {
  return (result.error?.issues ?? []).map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}

describe('NewBook', () => {
  it('accepts a complete book, including a free one and one from antiquity', () => {
    expect(NewBook.parse(valid)).toEqual(valid);
    expect(NewBook.safeParse({ ...valid, Price: 0, Year: -400 }).success).toBe(true);
  });

  it('names every missing field', () => {
    expect(messages(NewBook.safeParse({}))).toEqual([
      'Name: is required',
      'Author: is required',
      'Price: is required',
      'Year: is required',
    ]);
  });

  it('names wrong types, blank text, negative prices and absurd years', () => {
    const result = NewBook.safeParse({ Name: '   ', Author: 42, Price: -1, Year: 1999.5 });
    expect(messages(result)).toEqual([
      'Name: must not be blank',
      'Author: must be a string',
      'Price: must not be negative',
      'Year: must be an integer',
    ]);
    expect(messages(NewBook.safeParse({ ...valid, Year: 99_999 }))).toEqual(['Year: must be at most 5 years after the current year']);
    expect(messages(NewBook.safeParse({ ...valid, Year: -5000 }))).toEqual(['Year: must be -3000 or later']);
    expect(messages(NewBook.safeParse({ ...valid, Price: '9.99' }))).toEqual(['Price: must be a number']);
    expect(messages(NewBook.safeParse({ ...valid, Name: 'x'.repeat(501) }))).toEqual(['Name: must be at most 500 characters']);
    expect(messages(NewBook.safeParse({ ...valid, Author: 'lone \udc00' }))).toEqual(['Author: must be well-formed Unicode text']);
  });

  it('refuses unknown fields (mass assignment)', () => {
    const result = NewBook.safeParse({ ...valid, Id: 7, isbn: 'x', Isbn: 'y' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({ code: 'unrecognized_keys', keys: ['isbn', 'Isbn'] });
  });

  it('takes field names in any case and answers with the canonical ones', () => {
    expect(NewBook.parse({ name: 'Dune', AUTHOR: 'Frank Herbert', pRiCe: 9.99, year: 1965 })).toEqual(valid);
    expect(Object.keys(NewBook.parse({ year: 1965, price: 9.99, author: 'Frank Herbert', name: 'Dune' }))).toEqual(Object.keys(valid));
    expect(messages(NewBook.safeParse({ name: '  ', author: 'A', price: -1, year: 1965 }))).toEqual([
      'Name: must not be blank',
      'Price: must not be negative',
    ]);
  });

  it('ignores an Id in any case and of any value: the database assigns ids', () => {
    for (const Id of [{ Id: 7 }, { id: 0 }, { ID: 'seven' }, { iD: null }]) expect(NewBook.parse({ ...valid, ...Id })).toEqual(valid);
  });

  it('refuses a field spelt twice, at the later spelling, and checks nothing else until it is resolved', () => {
    expect(messages(NewBook.safeParse({ ...valid, name: 'Other' }))).toEqual([
      'name: repeats field Name, already given as Name (field names are case-insensitive)',
    ]);
    expect(messages(NewBook.safeParse({ id: 1, ...valid, ID: 2, Price: -1 }))).toEqual([
      'ID: repeats field Id, already given as id (field names are case-insensitive)',
    ]);
  });

  it('refuses what is not a JSON object', () => {
    for (const bad of [null, [valid], 'Dune', 3]) expect(messages(NewBook.safeParse(bad))).toEqual([': must be a JSON object']);
  });
});

describe('canonicalFieldNames', () => {
  it('renames case-insensitive matches, keeps unknown members and drops ignored fields', () => {
    const input = { NAME: 'a', author: 'b', isbn: 'c', id: 4, Year: 5 };
    expect(canonicalFieldNames(input, BOOK_FIELDS, ['Id'])).toEqual({
      value: { Name: 'a', Author: 'b', isbn: 'c', Year: 5 },
      repeated: [],
    });
    expect(canonicalFieldNames(input, BOOK_FIELDS).value).toEqual({ Name: 'a', Author: 'b', isbn: 'c', Id: 4, Year: 5 });
    expect(input).toEqual({ NAME: 'a', author: 'b', isbn: 'c', id: 4, Year: 5 });
  });

  it('lists every later spelling of a field, keeping the first', () => {
    expect(canonicalFieldNames({ name: 'a', Name: 'b', NAME: 'c' }, BOOK_FIELDS)).toEqual({
      value: { Name: 'a' },
      repeated: [
        { key: 'Name', field: 'Name', first: 'name' },
        { key: 'NAME', field: 'Name', first: 'name' },
      ],
    });
  });

  it('prefers an exact match, as Go does, when two fields differ only in case', () => {
    expect(canonicalFieldNames({ url: 1, URL: 2 }, ['URL', 'url']).value).toEqual({ url: 1, URL: 2 });
    expect(canonicalFieldNames({ Url: 1 }, ['URL', 'url']).value).toEqual({ URL: 1 });
  });

  it('folds ASCII letters only, and keeps __proto__ an ordinary member', () => {
    // U+0130 and U+0131 are not Unicode case variants of i for Go either; U+FF2E is a full-width N.
    expect(canonicalFieldNames({ İd: 1, ıd: 2, Ｎame: 3 }, BOOK_FIELDS).value).toEqual({ İd: 1, ıd: 2, Ｎame: 3 });
    const proto = JSON.parse('{"__proto__": {"polluted": true}, "name": "a"}');
    const { value } = canonicalFieldNames(proto, BOOK_FIELDS);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['__proto__', 'Name']);
    const withProto = NewBook.safeParse(JSON.parse(`{"__proto__": {}, ${JSON.stringify(valid).slice(1)}`));
    expect(withProto.error?.issues).toMatchObject([{ code: 'unrecognized_keys', keys: ['__proto__'] }]);
  });
});

describe('BookReplacement', () => {
  it('requires a positive 32-bit Id', () => {
    expect(BookReplacement.parse({ ...valid, Id: 3 }).Id).toBe(3);
    expect(messages(BookReplacement.safeParse(valid))).toEqual(['Id: is required']);
    expect(messages(BookReplacement.safeParse({ ...valid, Id: 0 }))).toEqual(['Id: must be a positive integer']);
    expect(messages(BookReplacement.safeParse({ ...valid, Id: 2 ** 31 }))).toEqual(['Id: must be at most 2147483647']);
  });

  it('takes field names, Id too, in any case', () => {
    expect(BookReplacement.parse({ id: 3, name: 'Dune', author: 'Frank Herbert', price: 9.99, year: 1965 })).toEqual({ ...valid, Id: 3 });
    expect(BookReplacementAtPath.parse({ ID: 3, ...valid })).toEqual({ ...valid, Id: 3 });
    expect(BookReplacementAtPath.parse({ NAME: 'Dune', Author: 'Frank Herbert', Price: 9.99, Year: 1965 })).toEqual(valid);
    expect(messages(BookReplacementAtPath.safeParse({ ...valid, Id: 3, id: 3 }))).toEqual([
      'id: repeats field Id, already given as Id (field names are case-insensitive)',
    ]);
  });
});

describe('BookIdParameter', () => {
  it('parses decimal ids and refuses everything else', () => {
    expect(BookIdParameter.parse('42')).toBe(42);
    for (const bad of ['abc', '1.5', '-1', '0', '', '1e3', '99999999999']) expect(BookIdParameter.safeParse(bad).success, bad).toBe(false);
  });
});

describe('BookListQuery', () => {
  it('parses paging, filters and sort keys', () => {
    expect(BookListQuery.parse({ limit: '20', offset: '40', Author: 'Ann Leckie', Year: '2013', sort: '-Year,Name' })).toEqual({
      limit: 20,
      offset: 40,
      Author: 'Ann Leckie',
      Year: 2013,
      sort: [
        { field: 'Year', descending: true },
        { field: 'Name', descending: false },
      ],
    });
  });

  it('refuses out-of-range pages, unknown sort fields, repeated and unknown parameters', () => {
    expect(BookListQuery.safeParse({ limit: '0' }).success).toBe(false);
    expect(BookListQuery.safeParse({ limit: '1001' }).success).toBe(false);
    expect(BookListQuery.safeParse({ offset: '-1' }).success).toBe(false);
    expect(BookListQuery.safeParse({ sort: 'Price;drop' }).success).toBe(false);
    expect(BookListQuery.safeParse({ sort: 'version' }).success).toBe(false);
    expect(messages(BookListQuery.safeParse({ limit: ['1', '2'] }))).toEqual(['limit: must be given once']);
    expect(BookListQuery.safeParse({ page: '2' }).success).toBe(false);
  });
});
