/**
 * Reading a config file's YAML as Dependabot read it (Ruby's Psych, YAML 1.1), within bounds a hostile file cannot
 * exceed: the file's size ({@link MAX_CONFIG_FILE_BYTES}), its nesting ({@link MAX_NESTING}, checked on the lexer's
 * tokens as they come and on the parser's token tree, both built without recursion, before the recursive composition
 * runs: deep recursion there exhausts the stack, and V8 can abort the process rather than throw) and its aliases
 * ({@link MAX_ALIAS_COUNT}, the `yaml` package's guard against "billion laughs"). Reading is linear in the file's
 * size: a 256 KiB file takes about a second.
 */
import {
  Composer,
  CST,
  type Document,
  type DocumentOptions,
  Lexer,
  LineCounter,
  type ParseOptions,
  Parser,
  type ScalarTag,
  type SchemaOptions,
} from 'yaml';

/** The largest config file read, in bytes of UTF-8: 256 KiB. Real files are a few KiB. */
export const MAX_CONFIG_FILE_BYTES = 256 * 1024;

/** The deepest nesting of collections read. Real files nest 5 levels (`updates`, entry, `ignore`, item, `versions`). */
export const MAX_NESTING = 64;

/**
 * How many times aliases may expand (the `yaml` package's `maxAliasCount`: each alias counts the aliases inside its
 * anchor, so nested aliases multiply). Enough for `*schedule`-style sharing between a few dozen entries.
 */
export const MAX_ALIAS_COUNT = 64;

/** The outcome of {@link readYaml}: the document's value, or why it could not be read (`reason` has line and column). */
export type YamlReading = { ok: true; value: unknown } | { ok: false; reason: string };

const BOOL_TAG = 'tag:yaml.org,2002:bool';

/** Psych's booleans: `yes`/`true`/`on` and `no`/`false`/`off` in any case (not `y`/`n`, which the `yaml` package's 1.1 schema takes). */
const PSYCH_BOOLEANS: ScalarTag[] = [
  { tag: BOOL_TAG, default: true, identify: (value) => value === true, test: /^(?:yes|true|on)$/i, resolve: () => true },
  { tag: BOOL_TAG, default: true, identify: (value) => value === false, test: /^(?:no|false|off)$/i, resolve: () => false },
];

/**
 * Tags of the YAML 1.1 schema left out: booleans (replaced by {@link PSYCH_BOOLEANS}), timestamps (a date stays the
 * string it was written as) and the explicit-only collection and binary tags.
 */
const DROPPED_TAGS = new Set(['bool', 'timestamp', 'binary', 'omap', 'pairs', 'set'].map((name) => `tag:yaml.org,2002:${name}`));

/**
 * YAML 1.1 as Psych reads it: `03:00` is the sexagesimal integer 180, `off` is false, `012` is octal, `<<` merges; keys
 * may repeat (the last one wins).
 */
const OPTIONS: ParseOptions & DocumentOptions & SchemaOptions = {
  version: '1.1',
  customTags: (tags) => [...tags.filter((tag) => typeof tag === 'string' || !DROPPED_TAGS.has(tag.tag)), ...PSYCH_BOOLEANS],
  uniqueKeys: false,
  prettyErrors: false,
};

/**
 * The value of the first YAML document of `text` (later documents are not read, as Psych's `safe_load` reads only the
 * first), or the reason it cannot be read: too large, nested too deeply, a syntax error (`<message> at line L column C`,
 * 1-based), or too many aliases. An empty file reads as null.
 */
export function readYaml(text: string): YamlReading {
  if (text.length > MAX_CONFIG_FILE_BYTES || Buffer.byteLength(text, 'utf8') > MAX_CONFIG_FILE_BYTES) {
    return {
      ok: false,
      reason: `the file is ${Buffer.byteLength(text, 'utf8')} bytes long; at most ${MAX_CONFIG_FILE_BYTES} bytes are read`,
    };
  }
  const lines = new LineCounter();
  const parser = new Parser(lines.addNewLine);
  const composer = new Composer(OPTIONS);
  const documents: Document.Parsed[] = [];
  const depth = new LexicalDepth();
  let seenDocument = false;
  let tooDeep = false;
  /** Hands one token of the parser to the composer; false at the second document, or when the first nests too deeply. */
  const take = (token: CST.Token): boolean => {
    if (token.type === 'document') {
      if (seenDocument) return false;
      seenDocument = true;
      if (nestingDepth(token) > MAX_NESTING) {
        tooDeep = true;
        return false;
      }
    }
    documents.push(...composer.next(token));
    return true;
  };
  /** Hands the parser's tokens on; false once the first document is complete (or too deep). */
  const feed = (tokens: Iterable<CST.Token>): boolean => {
    for (const token of tokens) if (!take(token)) return false;
    return true;
  };
  // One pass of the lexer feeds both the quick depth check and the parser (as `Parser.parse` would).
  lines.addNewLine(0);
  let reading = true;
  for (const lexeme of new Lexer().lex(text)) {
    if (depth.exceeded(lexeme)) return { ok: false, reason: TOO_DEEP };
    reading = feed(parser.next(lexeme));
    if (!reading) break;
  }
  if (reading) feed(parser.end());
  if (tooDeep) return { ok: false, reason: TOO_DEEP };
  documents.push(...composer.end());
  const document = documents[0];
  if (!document) return { ok: true, value: null };
  const error = document.errors[0];
  if (error) {
    const { line, col } = lines.linePos(error.pos[0]);
    return { ok: false, reason: `${error.message} at line ${line} column ${col}` };
  }
  try {
    return { ok: true, value: plain(document.toJS({ maxAliasCount: MAX_ALIAS_COUNT, mapAsMap: true }), new Map()) };
  } catch (cause) {
    return { ok: false, reason: cause instanceof Error ? cause.message : String(cause) };
  }
}

const TOO_DEEP = `the file nests collections more than ${MAX_NESTING} levels deep`;

/**
 * Whether the text nests more than {@link MAX_NESTING} levels where the lexer alone can tell, fed one lexeme at a time:
 * open flow collections (`[`, `{`) plus the block indicators (`- `, `? `) of the current line, each of which opens one
 * more level (`- - - x`). The parser takes a second for a 256 KiB file of `[`; this stops it at the 65th level. Nesting
 * by indentation is left to {@link nestingDepth}.
 */
class LexicalDepth {
  private flow = 0;
  private onLine = 0;

  /** Takes the next lexeme; true once the nesting seen exceeds {@link MAX_NESTING}. */
  exceeded(lexeme: string): boolean {
    switch (CST.tokenType(lexeme)) {
      case 'flow-seq-start':
      case 'flow-map-start':
        this.flow++;
        break;
      case 'flow-seq-end':
      case 'flow-map-end':
        this.flow = Math.max(0, this.flow - 1);
        break;
      case 'seq-item-ind':
      case 'explicit-key-ind':
        this.onLine++;
        break;
      case 'newline':
        this.onLine = 0;
        break;
    }
    return this.flow + this.onLine > MAX_NESTING;
  }
}

/** The keys of each mapping read, in the file's order (a JavaScript object lists integer-like keys first). */
const KEY_ORDER = new WeakMap<object, readonly string[]>();

/**
 * The keys of `object` in the order the file wrote them, when {@link readYaml} made it from a YAML mapping; otherwise
 * `Object.keys(object)`. v2 `groups` need it: the first matching group wins, and a group may be named `1`.
 */
export function keysInFileOrder(object: object): readonly string[] {
  return KEY_ORDER.get(object) ?? Object.keys(object);
}

/**
 * The `yaml` package's JavaScript value with each `Map` (from `mapAsMap`) made a plain object: keys as strings, their
 * order kept in {@link KEY_ORDER}, `__proto__` an own property. A value shared through an alias is converted once and
 * stays shared, so aliases cost no more here than in `toJS`. Recursion is bounded by {@link MAX_NESTING}.
 */
function plain(value: unknown, converted: Map<object, unknown>): unknown {
  if (value === null || typeof value !== 'object') return value;
  const done = converted.get(value);
  if (done !== undefined) return done;
  if (Array.isArray(value)) {
    const array: unknown[] = [];
    converted.set(value, array);
    for (const item of value) array.push(plain(item, converted));
    return array;
  }
  if (!(value instanceof Map)) return value;
  const object: Record<string, unknown> = {};
  converted.set(value, object);
  const keys: string[] = [];
  for (const [key, item] of value) {
    const name = key !== null && typeof key === 'object' ? JSON.stringify(key) : String(key);
    if (!Object.hasOwn(object, name)) keys.push(name);
    Object.defineProperty(object, name, { value: plain(item, converted), enumerable: true, writable: true, configurable: true });
  }
  KEY_ORDER.set(object, keys);
  return object;
}

/** A node of the `yaml` parser's token tree, as far as {@link nestingDepth} looks into it. */
interface TokenNode {
  type?: string;
  value?: unknown;
  items?: Array<{ key?: unknown; value?: unknown }>;
}

/** How deeply the collections of a parsed document token nest (0 for a scalar), counted without recursion. */
function nestingDepth(document: TokenNode): number {
  let deepest = 0;
  const pending: Array<[unknown, number]> = [[document.value, 0]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [node, depth] = next;
    if (node === null || typeof node !== 'object') continue;
    const { items } = node as TokenNode;
    if (!Array.isArray(items)) continue;
    deepest = Math.max(deepest, depth + 1);
    if (deepest > MAX_NESTING) return deepest;
    for (const item of items) pending.push([item.key, depth + 1], [item.value, depth + 1]);
  }
  return deepest;
}
