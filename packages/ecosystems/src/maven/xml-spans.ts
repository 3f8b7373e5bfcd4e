/**
 * Positions of the elements of an XML document (https://www.w3.org/TR/xml/), so that one element's text can be
 * replaced in place without re-serialising the document. Comments, CDATA sections, processing instructions and
 * the DOCTYPE are skipped; attributes are not read. The text must already be well-formed (callers validate it).
 */

/** An element: its name as written (with any prefix), its child elements and the span of its content. */
export interface XmlElement {
  name: string;
  children: XmlElement[];
  /** Content between the start and end tags (empty for `<x/>`). */
  start: number;
  end: number;
}

/**
 * The element tree of `text` under a `#document` root.
 * @throws Error on text the scanner cannot follow (an unclosed construct or mismatched end tag)
 */
export function xmlTree(text: string): XmlElement {
  const root: XmlElement = { name: '#document', children: [], start: 0, end: text.length };
  const stack = [root];
  const after = (from: number, marker: string) => {
    const at = text.indexOf(marker, from);
    if (at < 0) throw new Error(`unclosed '${marker}' construct at ${from}`);
    return at + marker.length;
  };
  let pos = 0;
  for (;;) {
    const lt = text.indexOf('<', pos);
    if (lt < 0) break;
    if (text.startsWith('<!--', lt)) pos = after(lt + 4, '-->');
    else if (text.startsWith('<![CDATA[', lt)) pos = after(lt + 9, ']]>');
    else if (text.startsWith('<?', lt)) pos = after(lt + 2, '?>');
    else if (text.startsWith('<!', lt)) {
      const subset = text.indexOf('[', lt);
      const close = text.indexOf('>', lt);
      pos = subset >= 0 && subset < close ? after(after(subset, ']'), '>') : after(lt, '>');
    } else if (text.startsWith('</', lt)) {
      const close = after(lt, '>');
      const name = text.slice(lt + 2, close - 1).trim();
      const open = stack.pop();
      if (!open || open.name !== name || stack.length === 0) throw new Error(`unexpected end tag '${name}' at ${lt}`);
      open.end = lt;
      pos = close;
    } else {
      let gt = lt + 1;
      let quote = '';
      for (; gt < text.length; gt++) {
        const c = text.charAt(gt);
        if (quote) {
          if (c === quote) quote = '';
        } else if (c === '"' || c === "'") quote = c;
        else if (c === '>') break;
      }
      if (gt >= text.length) throw new Error(`unclosed start tag at ${lt}`);
      const name = /^<([^\s/>]+)/.exec(text.slice(lt, gt + 1))?.[1] ?? '';
      const element: XmlElement = { name, children: [], start: gt + 1, end: gt + 1 };
      stack.at(-1)?.children.push(element);
      if (text.charAt(gt - 1) !== '/') stack.push(element);
      pos = gt + 1;
    }
  }
  if (stack.length !== 1) throw new Error('unclosed element');
  return root;
}

/** The child elements of `element` named `name`. */
export const childrenNamed = (element: XmlElement | undefined, name: string): XmlElement[] =>
  element ? element.children.filter((c) => c.name === name) : [];

/** The first child element of `element` named `name`. */
export const childNamed = (element: XmlElement | undefined, name: string): XmlElement | undefined => childrenNamed(element, name)[0];

/** The span of `element`'s content without surrounding whitespace. */
export function trimmedContent(text: string, element: XmlElement): { start: number; end: number; text: string } {
  const raw = text.slice(element.start, element.end);
  const start = element.start + (raw.length - raw.trimStart().length);
  const end = element.end - (raw.length - raw.trimEnd().length);
  return { start, end: Math.max(start, end), text: raw.trim() };
}
