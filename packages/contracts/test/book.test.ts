import { describe, expect, it } from 'vitest';
import { BookIdParameter, BookListQuery, BookReplacement, NewBook } from '../src/index.ts';

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

  it('refuses unknown fields and a client-chosen Id (mass assignment)', () => {
    const result = NewBook.safeParse({ ...valid, Id: 7, isbn: 'x' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({ code: 'unrecognized_keys', keys: ['Id', 'isbn'] });
  });
});

describe('BookReplacement', () => {
  it('requires a positive 32-bit Id', () => {
    expect(BookReplacement.parse({ ...valid, Id: 3 }).Id).toBe(3);
    expect(messages(BookReplacement.safeParse(valid))).toEqual(['Id: is required']);
    expect(messages(BookReplacement.safeParse({ ...valid, Id: 0 }))).toEqual(['Id: must be a positive integer']);
    expect(messages(BookReplacement.safeParse({ ...valid, Id: 2 ** 31 }))).toEqual(['Id: must be at most 2147483647']);
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
