import { describe, expect, it } from 'vitest';
import { directoryView } from '../../src/http/directory-view.mapper.ts';
import type { EntryRow } from '../../src/registry/directory-entry.table.ts';

const row = (key: string, dataId: string, expense: number, seenAt: number): EntryRow => ({
  key,
  data_id: dataId,
  cost: Math.floor(expense / 100),
  quality: 100 - (expense % 100),
  expense,
  description: '',
  source: 'local',
  created_at: new Date(0),
  seen_at: new Date(seenAt),
});

describe('directoryView', () => {
  it('groups by data id, cheapest first, with the age in whole seconds, never negative', () => {
    const now = 1_000_000;
    const view = directoryView(
      'L',
      [
        row('B.X.T.http://h:1/P', 'B::T', 2010, now - 2_999),
        row('A.Y.S.http://h:1/P', 'A::S', 5050, now + 5_000),
        row('B.W.T.http://h:1/P', 'B::T', 110, now - 61_000),
      ],
      now,
    );
    expect(view.location).toBe('L');
    expect(view.entry_lists.map((list) => [list.data_id, list.entries.map((entry) => [entry.key, entry.age])])).toEqual([
      ['A::S', [['A.Y.S.http://h:1/P', 0]]],
      [
        'B::T',
        [
          ['B.W.T.http://h:1/P', 61],
          ['B.X.T.http://h:1/P', 2],
        ],
      ],
    ]);
    expect(view.entry_lists[1]?.entries[1]).toEqual({
      key: 'B.X.T.http://h:1/P',
      description: '',
      cost: 20,
      quality: 90,
      expense: 2010,
      source: 'local',
      age: 2,
    });
  });
});
