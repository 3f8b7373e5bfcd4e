import { describe, expect, it } from 'vitest';
import { directoryXml, escapeXmlAttribute, escapeXmlText } from '../../src/directory/directory-xml.mapper.ts';

const KEY = 'EMISSARY_DIRECTORY_SERVICES.DIRECTORY.STUDY.http://localhost:9999/DirectoryPlace';

describe('directoryXml', () => {
  it('writes upstream’s RegisterPeerActionTest.SUCCESS_RESULT byte for byte', () => {
    // emissary src/test/java/emissary/server/mvc/internal/RegisterPeerActionTest.java, SUCCESS_RESULT.
    const expected =
      '<?xml version="1.0" encoding="UTF-8"?>\r\n' +
      `<directory location="${KEY}">\r\n` +
      '  <entryList dataid="EMISSARY_DIRECTORY_SERVICES::STUDY">\r\n' +
      '    <entry>\r\n' +
      `      <key>${KEY}</key>\r\n` +
      '      <description />\r\n' +
      '      <cost>50</cost>\r\n' +
      '      <quality>50</quality>\r\n' +
      '      <expense>5050</expense>\r\n' +
      '    </entry>\r\n' +
      '  </entryList>\r\n' +
      '</directory>\r\n';
    const groups = [
      { dataId: 'EMISSARY_DIRECTORY_SERVICES::STUDY', entries: [{ key: KEY, description: '', cost: 50, quality: 50, expense: 5050 }] },
    ];
    expect(directoryXml(KEY, groups)).toBe(expected);
  });

  it('escapes text and attributes as JDOM does', () => {
    const xml = directoryXml('L<&">', [
      { dataId: 'a"b<c&d', entries: [{ key: 'k&<>', description: `<b> & "q" 'a'`, cost: 1, quality: 2, expense: 198 }] },
    ]);
    expect(xml).toContain('<directory location="L&lt;&amp;&quot;&gt;">\r\n');
    expect(xml).toContain('<entryList dataid="a&quot;b&lt;c&amp;d">\r\n');
    expect(xml).toContain('<key>k&amp;&lt;&gt;</key>\r\n');
    expect(xml).toContain(`<description>&lt;b&gt; &amp; "q" 'a'</description>\r\n`);
  });

  it('writes an empty directory and an empty list as empty elements', () => {
    expect(directoryXml('L', [])).toBe('<?xml version="1.0" encoding="UTF-8"?>\r\n<directory location="L" />\r\n');
    expect(directoryXml('L', [{ dataId: 'D', entries: [] }])).toContain('\r\n  <entryList dataid="D" />\r\n</directory>\r\n');
  });

  it('escapes CR, LF and TAB in attributes and CR in text as character references', () => {
    expect(escapeXmlAttribute('a\r\n\tb')).toBe('a&#xD;&#xA;&#x9;b');
    expect(escapeXmlText('a\rb\'"')).toBe('a&#xD;b\'"');
  });
});
