import { describe, expect, it } from 'vitest';
import {
  compareEntries,
  DirectoryEntryError,
  directoryPlaceEntry,
  expenseOf,
  groupByDataId,
  MAX_COST,
  MAX_DESCRIPTION_LENGTH,
  parseDirectoryEntry,
} from '../../src/directory/directory-entry.policy.ts';
import { MAX_EXPENSE } from '../../src/directory/directory-name.policy.ts';

const place = (key: string, cost = 20, quality = 90, description: unknown = '') => ({ key, cost, quality, description });

describe('parseDirectoryEntry', () => {
  it('normalises the key, derives the data id and the expense, trims the description', () => {
    expect(parseDirectoryEntry(place('UNKNOWN.TO_UPPER.TRANSFORM.HTTP://Host:8001/ToUpperPlace', 20, 90, '  upper case '))).toEqual({
      key: 'UNKNOWN.TO_UPPER.TRANSFORM.http://host:8001/ToUpperPlace',
      dataId: 'UNKNOWN::TRANSFORM',
      serviceName: 'TO_UPPER',
      cost: 20,
      quality: 90,
      expense: 2010,
      description: 'upper case',
    });
  });

  it('reads cost and quality given as decimal strings, and a missing description as empty', () => {
    const entry = parseDirectoryEntry({ key: 'A.B.C.http://h:1/P', cost: ' 3 ', quality: '100' });
    expect(entry).toMatchObject({ cost: 3, quality: 100, expense: 300, description: '' });
  });

  it('computes expense as upstream: cost*100 + 100 - quality, and the largest cost still fits an int', () => {
    expect(expenseOf(50, 50)).toBe(5050);
    expect(expenseOf(0, 100)).toBe(0);
    expect(expenseOf(MAX_COST, 0)).toBeLessThanOrEqual(MAX_EXPENSE);
    expect(parseDirectoryEntry(place('A.B.C.http://h:1/P', MAX_COST, 0)).expense).toBe(MAX_COST * 100 + 100);
  });

  it.each([
    ['a malformed key', place('not a key'), /^key: /],
    ['a key with $expense', place('A.B.C.http://h:1/P$5050'), /\$expense/],
    ['a wildcard key', place('*.*.*.http://h:1/DirectoryPlace'), /wildcard/],
    ['a key that is not a string', place(42 as unknown as string), /^key: /],
    ['a negative cost', place('A.B.C.http://h:1/P', -1), /cost/],
    ['a fractional cost', place('A.B.C.http://h:1/P', 1.5), /cost/],
    ['a cost too large', place('A.B.C.http://h:1/P', MAX_COST + 1), /cost/],
    ['a quality above 100', place('A.B.C.http://h:1/P', 1, 101), /quality/],
    ['a quality in words', { key: 'A.B.C.http://h:1/P', cost: 1, quality: 'high' }, /quality/],
    ['a description that is not a string', place('A.B.C.http://h:1/P', 1, 1, 7), /description/],
    ['a description too long', place('A.B.C.http://h:1/P', 1, 1, 'x'.repeat(MAX_DESCRIPTION_LENGTH + 1)), /description/],
    ['a description with a control character', place('A.B.C.http://h:1/P', 1, 1, 'a\u0000b'), /description/],
    ['a description with a line feed inside', place('A.B.C.http://h:1/P', 1, 1, 'a\nb'), /description/],
    ['a description with a lone surrogate', place('A.B.C.http://h:1/P', 1, 1, 'a\ud800b'), /description/],
  ])('refuses %s', (_what, input, message) => {
    expect(() => parseDirectoryEntry(input)).toThrow(DirectoryEntryError);
    expect(() => parseDirectoryEntry(input)).toThrow(message);
  });

  it('keeps markup and quotes in a description (escaping is the writer’s business)', () => {
    expect(parseDirectoryEntry(place('A.B.C.http://h:1/P', 1, 1, `<b> & "q" 'a'`)).description).toBe(`<b> & "q" 'a'`);
  });

  it('gives the directory place its own entry, $5050 as upstream', () => {
    expect(directoryPlaceEntry('EMISSARY_DIRECTORY_SERVICES.DIRECTORY.STUDY.http://h:8001/DirectoryPlace')).toMatchObject({
      dataId: 'EMISSARY_DIRECTORY_SERVICES::STUDY',
      cost: 50,
      quality: 50,
      expense: 5050,
      description: '',
    });
  });
});

describe('ordering and grouping', () => {
  const e = (key: string, expense: number) => ({
    key,
    expense,
    dataId: key
      .split('.')
      .filter((_, i) => i === 0 || i === 2)
      .join('::'),
  });

  it('orders cheapest first, ties by service name, then by key', () => {
    const entries = [
      e('A.ZED.T.http://h:1/P', 10),
      e('A.ALPHA.T.http://h:2/P', 10),
      e('A.ALPHA.T.http://h:1/P', 10),
      e('A.MID.T.http://h:1/P', 5),
    ];
    expect(entries.sort(compareEntries).map((x) => x.key)).toEqual([
      'A.MID.T.http://h:1/P',
      'A.ALPHA.T.http://h:1/P',
      'A.ALPHA.T.http://h:2/P',
      'A.ZED.T.http://h:1/P',
    ]);
  });

  it('groups by data id in code-point order, each group ordered', () => {
    const groups = groupByDataId(
      [e('b.X.t.http://h:1/P', 3), e('B.Y.T.http://h:1/P', 2), e('B.X.T.http://h:1/P', 1), e('B.Z.T.http://h:1/P', 1)],
      (x) => x.dataId,
    );
    expect(groups.map((g) => [g.dataId, g.entries.map((x) => x.key)])).toEqual([
      ['B::T', ['B.X.T.http://h:1/P', 'B.Z.T.http://h:1/P', 'B.Y.T.http://h:1/P']],
      ['b::t', ['b.X.t.http://h:1/P']],
    ]);
    expect(groupByDataId([], (x: { key: string; expense: number }) => x.key)).toEqual([]);
  });
});
