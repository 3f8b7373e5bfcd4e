import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { directoryXml } from '../../src/directory/directory-xml.mapper.ts';
import { DirectoryXmlError, decodeXmlText, parseDirectoryXml } from '../../src/directory/directory-xml-reader.mapper.ts';

const CAP = { maxBytes: 4 * 1024 * 1024 };
const golden = readFileSync(new URL('../golden/register-peer-directory.xml', import.meta.url), 'utf8');
const GOLDEN_KEY = 'EMISSARY_DIRECTORY_SERVICES.DIRECTORY.STUDY.http://peer-golden.test:8001/DirectoryPlace';
const LOCATION = 'EMISSARY_DIRECTORY_SERVICES.DIRECTORY.STUDY.http://b.test:8001/DirectoryPlace';

const entryXml = (key: string, cost: string, quality: string, description = '') =>
  `<entry><key>${key}</key><description>${description}</description><cost>${cost}</cost><quality>${quality}</quality><expense>0</expense></entry>`;
const document = (body: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\r\n<directory location="${LOCATION}"><entryList dataid="INITIAL::INPUT">${body}</entryList></directory>\r\n`;

describe('parseDirectoryXml', () => {
  it('reads the golden RegisterPeer answer: location, every entry with expense recomputed, descriptions unescaped', () => {
    const read = parseDirectoryXml(golden, CAP);
    expect(read.location).toBe(GOLDEN_KEY);
    expect(read.peerKey).toBe('*.*.*.http://peer-golden.test:8001/DirectoryPlace');
    expect(read.skipped).toEqual([]);
    expect(read.entries).toEqual([
      {
        key: GOLDEN_KEY,
        dataId: 'EMISSARY_DIRECTORY_SERVICES::STUDY',
        serviceName: 'DIRECTORY',
        cost: 50,
        quality: 50,
        expense: 5050,
        description: '',
      },
      {
        key: 'UNKNOWN.TO_LOWER.TRANSFORM.http://peer-golden.test:8001/ToLowerPlace',
        dataId: 'UNKNOWN::TRANSFORM',
        serviceName: 'TO_LOWER',
        cost: 20,
        quality: 90,
        expense: 2010,
        description: '',
      },
      {
        key: 'UNKNOWN.TO_UPPER.TRANSFORM.http://peer-golden.test:8001/ToUpperPlace',
        dataId: 'UNKNOWN::TRANSFORM',
        serviceName: 'TO_UPPER',
        cost: 20,
        quality: 90,
        expense: 2010,
        description: `Upper <case> & "quotes" 'too'`,
      },
    ]);
  });

  it('reads what directoryXml writes (round trip), an empty directory included', () => {
    const entry = {
      key: 'INITIAL.FILE_PICK_UP.INPUT.http://b.test:8001/FilePickUpPlace',
      description: 'a & b\r',
      cost: 10,
      quality: 100,
      expense: 1000,
    };
    const read = parseDirectoryXml(directoryXml(LOCATION, [{ dataId: 'INITIAL::INPUT', entries: [entry] }]), CAP);
    expect(read.entries).toEqual([{ ...entry, dataId: 'INITIAL::INPUT', serviceName: 'FILE_PICK_UP', description: 'a & b' }]);
    expect(parseDirectoryXml(directoryXml(LOCATION, []), CAP)).toEqual({
      location: LOCATION,
      peerKey: '*.*.*.http://b.test:8001/DirectoryPlace',
      entries: [],
      skipped: [],
    });
  });

  it('refuses a document with a DOCTYPE outright: an entity bomb is never expanded, an external entity never read', () => {
    const bomb =
      '<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">' +
      '<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>\n' +
      `<directory location="${LOCATION}"><entryList dataid="INITIAL::INPUT">${entryXml('INITIAL.X.INPUT.http://b.test:8001/XPlace', '1', '1', '&lol3;')}</entryList></directory>`;
    expect(() => parseDirectoryXml(bomb, CAP)).toThrow(new DirectoryXmlError('directory document with a DOCTYPE refused'));
    const external = `<?xml version="1.0"?><!doctype d [<!ENTITY x SYSTEM "file:///etc/passwd">]><directory location="${LOCATION}">&x;</directory>`;
    expect(() => parseDirectoryXml(external, CAP)).toThrow(DirectoryXmlError);
  });

  it('refuses a document over the cap before parsing it', () => {
    const body = document(entryXml('INITIAL.X.INPUT.http://b.test:8001/XPlace', '1', '1', 'x'.repeat(900)));
    expect(() => parseDirectoryXml(body, { maxBytes: 512 })).toThrow(new DirectoryXmlError('directory document over 512 bytes'));
    expect(parseDirectoryXml(body, { maxBytes: Buffer.byteLength(body) }).entries).toHaveLength(1);
  });

  it('refuses malformed XML, another root, a missing or invalid location', () => {
    expect(() => parseDirectoryXml('<directory location="x"><entryList>', CAP)).toThrow(DirectoryXmlError);
    expect(() => parseDirectoryXml('ok', CAP)).toThrow(DirectoryXmlError);
    expect(() => parseDirectoryXml('<other/>', CAP)).toThrow(new DirectoryXmlError('directory document without a <directory> root'));
    expect(() => parseDirectoryXml('<directory/>', CAP)).toThrow(new DirectoryXmlError('directory document without a valid location'));
    expect(() => parseDirectoryXml('<directory location="not a key"/>', CAP)).toThrow(DirectoryXmlError);
  });

  it('skips malformed entries and keeps the good ones, a key given twice kept once', () => {
    const good = entryXml('INITIAL.GOOD.INPUT.http://b.test:8001/GoodPlace', '10', '90');
    const body = document(
      [
        entryXml('not a key', '1', '1'),
        good,
        entryXml('INITIAL.COST.INPUT.http://b.test:8001/CostPlace', '-1', '1'),
        entryXml('INITIAL.QUALITY.INPUT.http://b.test:8001/QualityPlace', '1', '101'),
        entryXml('INITIAL.WILD.*.http://b.test:8001/WildPlace', '1', '1'),
        entryXml('INITIAL.EXP.INPUT.http://b.test:8001/ExpPlace$5050', '1', '1'),
        entryXml('INITIAL.ENTITY.INPUT.http://b.test:8001/EntityPlace', '1', '1', '&undeclared;'),
        entryXml('INITIAL.CONTROL.INPUT.http://b.test:8001/ControlPlace', '1', '1', '&#x7;'),
        '<entry><cost>1</cost><quality>1</quality></entry>',
        '<entry>text</entry>',
        good,
      ].join(''),
    );
    const read = parseDirectoryXml(body, CAP);
    expect(read.entries.map((entry) => [entry.key, entry.expense])).toEqual([['INITIAL.GOOD.INPUT.http://b.test:8001/GoodPlace', 1010]]);
    expect(read.skipped.map((skip) => skip.index)).toEqual([0, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(read.skipped[1]?.reason).toBe('cost must be an integer from 0 to 21474835');
    expect(read.skipped[9]?.reason).toBe('key: given twice');
  });
});

describe('decodeXmlText', () => {
  it('decodes the predefined entities and character references only', () => {
    expect(decodeXmlText('&lt;&gt;&amp;&quot;&apos;&#65;&#x42;&#xD;')).toBe(`<>&"'AB\r`);
    expect(() => decodeXmlText('&nbsp;')).toThrow('an undeclared entity');
    expect(() => decodeXmlText('&#xD800;')).toThrow('a character reference out of range');
  });
});
