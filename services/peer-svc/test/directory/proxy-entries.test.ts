import { describe, expect, it } from 'vitest';
import { type ChildPlace, proxiesOf, proxyKeyOf } from '../../src/directory/proxy-entries.policy.ts';

const PARENT = 'http://parent.test:8001/DirectoryPlace';
const childKey = (host: string) => `*.*.*.http://${host}:9001/DirectoryPlace`;
const place = (host: string, key: string, cost: number, quality = 90, description = ''): ChildPlace => ({
  key: `${key}.http://${host}:9001/${key.split('.')[1]}Place`,
  child: childKey(host),
  cost,
  quality,
  description,
});

describe('proxy entries', () => {
  it('keeps data type, service name and type, and moves the location to the parent’s directory place', () => {
    expect(proxyKeyOf('INITIAL.FILE_PICK_UP.INPUT.http://child.test:9001/FilePickUpPlace', PARENT)).toBe(
      'INITIAL.FILE_PICK_UP.INPUT.http://parent.test:8001/DirectoryPlace',
    );
  });

  it('keeps the child’s cost and quality, the cheapest of places sharing a proxy key standing for them', () => {
    const proxies = proxiesOf(
      [
        place('b.test', 'INITIAL.FILE_PICK_UP.INPUT', 1020, 90, 'via b'),
        place('a.test', 'INITIAL.FILE_PICK_UP.INPUT', 1010, 100, 'via a'),
        place('a.test', 'EMISSARY_DIRECTORY_SERVICES.DIRECTORY.STUDY', 1050, 50),
      ],
      PARENT,
    );
    expect(proxies.map(({ entry, source }) => [entry.key, entry.cost, entry.expense, entry.description, source])).toEqual([
      ['EMISSARY_DIRECTORY_SERVICES.DIRECTORY.STUDY.http://parent.test:8001/DirectoryPlace', 1050, 105_050, '', childKey('a.test')],
      ['INITIAL.FILE_PICK_UP.INPUT.http://parent.test:8001/DirectoryPlace', 1010, 101_000, 'via a', childKey('a.test')],
    ]);
  });

  it('breaks a tie by child key, whatever the order given', () => {
    const tied = [place('b.test', 'INITIAL.X.INPUT', 1000), place('a.test', 'INITIAL.X.INPUT', 1000)];
    expect(proxiesOf(tied, PARENT)[0]?.source).toBe(childKey('a.test'));
    expect(proxiesOf([...tied].reverse(), PARENT)[0]?.source).toBe(childKey('a.test'));
  });

  it('leaves out a place whose proxy would not be a valid entry', () => {
    expect(proxiesOf([{ ...place('a.test', 'INITIAL.X.INPUT', 1000), cost: -1 }], PARENT)).toEqual([]);
  });
});
