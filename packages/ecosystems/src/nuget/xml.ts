import { parse } from '@xml-tools/parser';
import { ManifestParseError } from '../errors.ts';

/**
 * MSBuild project files and `packages.config` as an element tree with source offsets, read with `@xml-tools/parser`
 * (a CST that keeps every token's position), so that one attribute value or element text can be replaced in place.
 */

/** An attribute: its name, its value as written (entities not decoded) and the value's span inside the quotes. */
export interface XmlAttribute {
  name: string;
  value: string;
  start: number;
  end: number;
}

/** An element: its name, attributes, child elements and the span of its content (empty for `<x/>`). */
export interface XmlNode {
  name: string;
  /** Offset of the start tag's `<`. */
  at: number;
  attributes: XmlAttribute[];
  children: XmlNode[];
  start: number;
  end: number;
  /** Does the content hold anything but text (child elements, comments, CDATA, entity or character references)? */
  markup: boolean;
}

/** What is read of a token of the CST. */
interface IToken {
  image: string;
  startOffset: number;
  endOffset?: number;
}

interface CstLike {
  children: Record<string, (CstLike | IToken)[]>;
}

const tokens = (node: CstLike, key: string) => (node.children[key] ?? []) as IToken[];
const nodes = (node: CstLike, key: string) => (node.children[key] ?? []) as CstLike[];

/** How deep elements may nest before a file is refused (project files nest a handful of levels). */
const MAX_DEPTH = 256;

function element(cst: CstLike, shift: number, file: string, depth = 1): XmlNode {
  if (depth > MAX_DEPTH) throw new ManifestParseError(file, `elements nest too deep (more than ${MAX_DEPTH} levels)`);
  const name = tokens(cst, 'Name')[0]?.image ?? '';
  const endName = tokens(cst, 'END_NAME')[0]?.image;
  if (endName !== undefined && endName !== name) throw new ManifestParseError(file, `<${name}> is closed by </${endName}>`);
  const attributes = nodes(cst, 'attribute').flatMap((attribute): XmlAttribute[] => {
    const value = tokens(attribute, 'STRING')[0];
    const attributeName = tokens(attribute, 'Name')[0]?.image;
    if (!value || attributeName === undefined) return [];
    return [
      {
        name: attributeName,
        value: value.image.slice(1, -1),
        start: shift + value.startOffset + 1,
        end: shift + (value.endOffset ?? value.startOffset),
      },
    ];
  });
  const startClose = tokens(cst, 'START_CLOSE')[0];
  const slashOpen = tokens(cst, 'SLASH_OPEN')[0];
  const content = nodes(cst, 'content')[0];
  const start = startClose ? shift + (startClose.endOffset ?? startClose.startOffset) + 1 : 0;
  const end = slashOpen ? shift + slashOpen.startOffset : start;
  const children = content ? nodes(content, 'element').map((child) => element(child, shift, file, depth + 1)) : [];
  const markup =
    children.length > 0 ||
    (content !== undefined &&
      ['reference', 'CData', 'Comment', 'PROCESSING_INSTRUCTION'].some((key) => (content.children[key] ?? []).length > 0));
  return {
    name,
    at: shift + (tokens(cst, 'OPEN')[0]?.startOffset ?? 0),
    attributes,
    children,
    start: slashOpen ? start : 0,
    end: slashOpen ? end : 0,
    markup,
  };
}

/**
 * The root element of an XML document.
 * @throws ManifestParseError (naming `file`) when the text is not well-formed XML, has no root element, or nests elements
 *   more than 256 levels deep
 */
export function readXml(file: string, text: string): XmlNode {
  // A byte order mark (Visual Studio writes one) is not XML to the parser: offsets are shifted past it.
  const shift = text.startsWith('\uFEFF') ? 1 : 0;
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(shift ? text.slice(shift) : text);
  } catch (error) {
    // the parser descends once per nested element: thousands of levels exhaust the stack
    if (error instanceof RangeError) throw new ManifestParseError(file, `elements nest too deep (more than ${MAX_DEPTH} levels)`);
    throw error;
  }
  const { cst, lexErrors, parseErrors } = parsed;
  const lexError = lexErrors[0];
  if (lexError) throw new ManifestParseError(file, `invalid XML at ${lexError.line}:${lexError.column}: ${lexError.message}`);
  const parseError = parseErrors[0];
  if (parseError) {
    throw new ManifestParseError(
      file,
      `invalid XML at ${parseError.token.startLine ?? '?'}:${parseError.token.startColumn ?? '?'}: ${parseError.message}`,
    );
  }
  const root = nodes(cst as unknown as CstLike, 'element')[0];
  if (!root) throw new ManifestParseError(file, 'no root element');
  return element(root, shift, file);
}

/** The attribute `name` of `node`, compared case-insensitively as MSBuild does. */
export const attributeOf = (node: XmlNode, name: string): XmlAttribute | undefined =>
  node.attributes.find((a) => a.name.toLowerCase() === name.toLowerCase());

/** The child elements of `node` named `name` (case-insensitive, as MSBuild). */
export const childrenOf = (node: XmlNode, name: string): XmlNode[] =>
  node.children.filter((c) => c.name.toLowerCase() === name.toLowerCase());

/** Every element under `node` (depth first, document order) named `name` (case-insensitive). */
export function descendantsOf(node: XmlNode, name: string): XmlNode[] {
  const out: XmlNode[] = [];
  const visit = (n: XmlNode) => {
    for (const child of n.children) {
      if (child.name.toLowerCase() === name.toLowerCase()) out.push(child);
      visit(child);
    }
  };
  visit(node);
  return out;
}

/** The span and text of an element's content without surrounding whitespace. */
export function contentOf(text: string, node: XmlNode): { start: number; end: number; text: string } {
  const raw = text.slice(node.start, node.end);
  const start = node.start + (raw.length - raw.trimStart().length);
  return { start, end: Math.max(start, node.end - (raw.length - raw.trimEnd().length)), text: raw.trim() };
}
