import { describe, expect, it } from 'vitest';
import { MAX_COST, parseDirectoryEntry } from '../../src/directory/directory-entry.policy.ts';
import {
  DEFAULT_TRANSFER_DATA_IDS,
  parseTransferDataIds,
  REMOTE_COST_OVERHEAD,
  selectTransferred,
  staleBefore,
  ZONE_SLOP_WINDOW_MS,
} from '../../src/directory/zone-transfer.policy.ts';

const entry = (key: string, cost: number, quality: number, description = '') => parseDirectoryEntry({ key, cost, quality, description });
const DATA_IDS = new Set(DEFAULT_TRANSFER_DATA_IDS);
const SELF = 'http://a.test:8001/';

describe('selectTransferred', () => {
  it('keeps the STUDY and INPUT data ids only, by default', () => {
    const study = entry('EMISSARY_DIRECTORY_SERVICES.DIRECTORY.STUDY.http://b.test:8001/DirectoryPlace', 50, 50);
    const input = entry('INITIAL.FILE_PICK_UP.INPUT.http://b.test:8001/FilePickUpPlace', 10, 100, 'pick up');
    const transform = entry('UNKNOWN.TO_UPPER.TRANSFORM.http://b.test:8001/ToUpperPlace', 20, 90);
    const { kept, dropped } = selectTransferred([study, transform, input], { dataIds: DATA_IDS, selfHostUrl: SELF });
    expect(kept.map((e) => e.key)).toEqual([study.key, input.key]);
    expect(dropped).toEqual({ 'data-id': 1, 'own-host': 0, cost: 0 });
    const withTransform = selectTransferred([transform], { dataIds: parseTransferDataIds('UNKNOWN::TRANSFORM'), selfHostUrl: SELF });
    expect(withTransform.kept.map((e) => e.key)).toEqual([transform.key]);
  });

  it('adds the remote cost overhead (1000) to the cost: the expense grows by 100 000, quality and description kept', () => {
    expect(REMOTE_COST_OVERHEAD).toBe(1000);
    const input = entry('INITIAL.FILE_PICK_UP.INPUT.http://b.test:8001/FilePickUpPlace', 10, 100, 'pick up');
    const study = entry('EMISSARY_DIRECTORY_SERVICES.DIRECTORY.STUDY.http://b.test:8001/DirectoryPlace', 50, 50);
    const { kept } = selectTransferred([input, study], { dataIds: DATA_IDS, selfHostUrl: SELF });
    expect(kept).toEqual([
      { ...input, cost: 1010, expense: 101_000 },
      { ...study, cost: 1050, expense: 105_050 },
    ]);
    expect(input.cost).toBe(10);
  });

  it('never learns an entry on our own host, and leaves out one whose cost would overflow', () => {
    const ours = entry('INITIAL.FILE_PICK_UP.INPUT.http://a.test:8001/FilePickUpPlace', 10, 100);
    const otherPort = entry('INITIAL.FILE_PICK_UP.INPUT.http://a.test:800/FilePickUpPlace', 10, 100);
    const dear = entry('INITIAL.DEAR.INPUT.http://b.test:8001/DearPlace', MAX_COST, 0);
    const { kept, dropped } = selectTransferred([ours, otherPort, dear], { dataIds: DATA_IDS, selfHostUrl: SELF });
    expect(kept.map((e) => e.key)).toEqual([otherPort.key]);
    expect(dropped).toEqual({ 'data-id': 0, 'own-host': 1, cost: 1 });
  });
});

describe('parseTransferDataIds', () => {
  it('reads comma-separated data ids and refuses malformed ones', () => {
    expect([...parseTransferDataIds(' INITIAL::INPUT , ,EMISSARY_DIRECTORY_SERVICES::STUDY')]).toEqual([
      'INITIAL::INPUT',
      'EMISSARY_DIRECTORY_SERVICES::STUDY',
    ]);
    expect(parseTransferDataIds('').size).toBe(0);
    for (const bad of ['INITIAL', 'A::B::C', 'A.B::C', 'A ::B']) expect(() => parseTransferDataIds(bad)).toThrow(TypeError);
  });
});

describe('staleBefore', () => {
  it('is the transfer start less the 30 s slop window', () => {
    expect(ZONE_SLOP_WINDOW_MS).toBe(30_000);
    expect(staleBefore(new Date('2026-11-25T15:00:30.000Z'))).toEqual(new Date('2026-11-25T15:00:00.000Z'));
    expect(staleBefore(new Date('2026-11-25T15:00:30.000Z'), 1_000)).toEqual(new Date('2026-11-25T15:00:29.000Z'));
  });
});
