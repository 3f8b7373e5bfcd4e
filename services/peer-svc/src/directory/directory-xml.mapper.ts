/**
 * The directory as XML, the body of a successful RegisterPeer, byte for byte as upstream writes it
 * (https://github.com/NationalSecurityAgency/emissary, `src/main/java/emissary/directory/DirectoryXmlContainer.java`,
 * `DirectoryEntryList.getXml`, `DirectoryEntry.getXml`, serialised by JDOM's pretty format; asserted by
 * `src/test/java/emissary/server/mvc/internal/RegisterPeerActionTest.java`): the XML declaration, CRLF line ends
 * (after the last line too), two-space indent, `<directory location="…">` holding one `<entryList dataid="…">` per data
 * id, each holding `<entry>` elements of `key`, `description` (`<description />` when empty), `cost`, `quality`,
 * `expense` in that order.
 *
 * Written by hand rather than with an XML library: the format is fixed and small, and JDOM's details (the space in
 * `<description />`, the final CRLF, `&#xD;` for CR) are easier to hold exactly this way. Escaping is JDOM's: `&`
 * `<` `>` in text, and `"` too in attributes, CR/LF/TAB as character references there.
 */
import type { EntryGroup } from './directory-entry.policy.ts';

/** The line end of the XML (JDOM's default, `\r\n`). */
export const XML_LINE_END = '\r\n';
/** The XML declaration JDOM writes first. */
export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';

/** What one `<entry>` shows. */
export interface XmlEntry {
  key: string;
  description: string;
  cost: number;
  quality: number;
  expense: number;
}

/** Escapes element text as JDOM does: `&` `<` `>` and CR (as `&#xD;`). */
export function escapeXmlText(text: string): string {
  return text.replace(/[&<>\r]/g, (char) => (char === '&' ? '&amp;' : char === '<' ? '&lt;' : char === '>' ? '&gt;' : '&#xD;'));
}

const ATTRIBUTE_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  '\r': '&#xD;',
  '\n': '&#xA;',
  '\t': '&#x9;',
};

/** Escapes a double-quoted attribute value as JDOM does: `&` `<` `>` `"` and CR, LF, TAB as character references. */
export function escapeXmlAttribute(text: string): string {
  return text.replace(/[&<>"\r\n\t]/g, (char) => ATTRIBUTE_ESCAPES[char] ?? char);
}

const element = (indent: string, name: string, text: string) =>
  text === '' ? `${indent}<${name} />` : `${indent}<${name}>${escapeXmlText(text)}</${name}>`;

/**
 * The directory document: `location` is the directory's key without `$expense`, `groups` the entry lists in the order
 * they are written (see `groupByDataId`). An empty group is written as `<entryList dataid="…" />`, an empty directory
 * as `<directory location="…" />`, as JDOM would.
 * e.g. `directoryXml('E.D.S.http://h:1/DirectoryPlace', [])` →
 * `<?xml version="1.0" encoding="UTF-8"?>\r\n<directory location="E.D.S.http://h:1/DirectoryPlace" />\r\n`.
 */
export function directoryXml(location: string, groups: readonly EntryGroup<XmlEntry>[]): string {
  const lines = [XML_DECLARATION];
  const open = `<directory location="${escapeXmlAttribute(location)}"`;
  if (groups.length === 0) lines.push(`${open} />`);
  else {
    lines.push(`${open}>`);
    for (const group of groups) {
      const list = `  <entryList dataid="${escapeXmlAttribute(group.dataId)}"`;
      if (group.entries.length === 0) {
        lines.push(`${list} />`);
        continue;
      }
      lines.push(`${list}>`);
      for (const entry of group.entries) {
        lines.push(
          '    <entry>',
          element('      ', 'key', entry.key),
          element('      ', 'description', entry.description.trim()),
          element('      ', 'cost', String(entry.cost)),
          element('      ', 'quality', String(entry.quality)),
          element('      ', 'expense', String(entry.expense)),
          '    </entry>',
        );
      }
      lines.push('  </entryList>');
    }
    lines.push('</directory>');
  }
  return lines.join(XML_LINE_END) + XML_LINE_END;
}
