import type { SkippedDeclaration } from '../ecosystem.ts';
import { ManifestParseError } from '../errors.ts';
import type { Span } from '../update/declarations.ts';

/**
 * Reading the base images of a Dockerfile (https://docs.docker.com/reference/dockerfile/), as Dependabot's docker
 * file parser does (https://github.com/dependabot/dependabot-core/blob/main/docker/lib/dependabot/docker/file_parser.rb):
 * the image of each `FROM [--platform=…] <image>[:<tag>][@<digest>] [AS <stage>]`.
 */

/** One `FROM` that names a registry image, with where its tag and digest are written in the file. */
export interface ImageDeclaration {
  file: string;
  /** 1-based line of the `FROM` instruction. */
  line: number;
  /** The image as written, variables expanded, without tag or digest: `python`, `ghcr.io/owner/img`, `localhost:5000/x`. */
  name: string;
  /** The tag, or null when the image is pinned by digest alone (`python@sha256:…`) or names neither. */
  tag: string | null;
  /** The digest `sha256:<64 hex>`, or null. */
  digest: string | null;
  /**
   * Where each of the tag's characters is in the file (in the `FROM` line or in an `ARG` default it comes from), as
   * offsets (-1 for none); empty without a tag. See {@link spanOfOffsets}.
   */
  tagOffsets: number[];
  /** Where the digest's characters (`sha256:…`) are in the file, or null when not one span. */
  digestSpan: Span | null;
  /** The stage name of `AS <stage>`, or null. */
  stage: string | null;
}

/** A character of an instruction with its offset in the file (-1: none, e.g. a default word's absent text). */
interface Char {
  ch: string;
  off: number;
}
type Chars = Char[];

const text = (chars: Chars) => chars.map((c) => c.ch).join('');

/** The span of characters at `offsets` when they are one run of consecutive characters of the file, else null. */
export function spanOfOffsets(offsets: readonly number[]): Span | null {
  const first = offsets[0];
  if (first === undefined || first < 0) return null;
  for (let i = 1; i < offsets.length; i++) if (offsets[i] !== first + i) return null;
  return { start: first, end: first + offsets.length };
}

const spanOf = (chars: Chars): Span | null => spanOfOffsets(chars.map((c) => c.off));

/** An instruction after joining its continuation lines and dropping comment lines inside it. */
interface Instruction {
  line: number;
  chars: Chars;
}

const DIRECTIVE = /^#\s*([A-Za-z]+)\s*=\s*(\S+)\s*$/;

/**
 * The instructions of a Dockerfile: parser directives read (`# escape=` sets the continuation character, default
 * `\`), lines ending with the escape character joined with the next, comment and blank lines skipped (also inside
 * a continuation, as BuildKit does), and the bodies of heredocs (`RUN <<EOF` … `EOF`) skipped.
 */
function instructions(source: string): { escapeChar: string; list: Instruction[] } {
  const physical: { start: number; content: string }[] = [];
  let start = 0;
  while (start <= source.length) {
    const newline = source.indexOf('\n', start);
    const end = newline < 0 ? source.length : newline;
    const content = source.slice(start, end).replace(/\r$/, '');
    physical.push({ start, content });
    if (newline < 0) break;
    start = newline + 1;
  }
  let escapeChar = '\\';
  let index = 0;
  for (; index < physical.length; index++) {
    const directive = DIRECTIVE.exec(physical[index]?.content ?? '');
    if (!directive) break;
    if (directive[1]?.toLowerCase() === 'escape' && (directive[2] === '`' || directive[2] === '\\')) escapeChar = directive[2];
  }
  const out: Instruction[] = [];
  let current: Instruction | undefined;
  /** The heredoc terminators still awaited (`<<-` ones may be indented). */
  const heredocs: { word: string; indented: boolean }[] = [];
  for (; index < physical.length; index++) {
    const { start: lineStart, content } = physical[index] as { start: number; content: string };
    const awaited = heredocs[0];
    if (awaited) {
      if ((awaited.indented ? content.replace(/^\t+/, '') : content) === awaited.word) heredocs.shift();
      continue;
    }
    const trimmed = content.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const trimmedEnd = content.trimEnd();
    const continues = trimmedEnd.endsWith(escapeChar);
    const kept = continues ? trimmedEnd.slice(0, -1) : content;
    current ??= { line: index + 1, chars: [] };
    for (let i = 0; i < kept.length; i++) current.chars.push({ ch: kept[i] as string, off: lineStart + i });
    if (!continues) {
      out.push(current);
      const line = current.chars.map((c) => c.ch).join('');
      if (/^\s*(?:RUN|COPY|ADD)\s/i.test(line)) {
        for (const match of line.matchAll(/<<(-?)(["']?)([A-Za-z_][A-Za-z0-9_]*)\2/g)) {
          heredocs.push({ word: match[3] as string, indented: match[1] === '-' });
        }
      }
      current = undefined;
    }
  }
  if (current) out.push(current);
  return { escapeChar, list: out };
}

/** Splits an instruction's characters into words at whitespace outside quotes (quotes are kept in the words). */
function words(chars: Chars): Chars[] {
  const out: Chars[] = [];
  let word: Chars = [];
  let quote: string | null = null;
  for (const c of chars) {
    if (quote === null && /\s/.test(c.ch)) {
      if (word.length) out.push(word);
      word = [];
      continue;
    }
    if (quote === null && (c.ch === '"' || c.ch === "'")) quote = c.ch;
    else if (c.ch === quote) quote = null;
    word.push(c);
  }
  if (word.length) out.push(word);
  return out;
}

/** An `ARG`'s value: its expanded characters, or null when it has no default (or its default cannot be resolved). */
type Args = Map<string, Chars | null>;

const NAME_START = /[A-Za-z_]/;
const NAME_CHAR = /[A-Za-z0-9_]/;

/** How deep `${NAME:-word}` words may nest in one another before the word is given up (its `FROM` skipped). */
const MAX_EXPANSION_DEPTH = 32;
/** The longest word (in characters) expanded; a longer one is left unresolved. */
const MAX_EXPANSION_LENGTH = 4096;

/**
 * Expands `$NAME`, `${NAME}`, `${NAME:-word}` and `${NAME:+word}` with the `ARG` values known, and drops quotes
 * (single-quoted text is not expanded), keeping each character's offset. The escape character followed by a character is that
 * character. Returns null when a variable has no value, or the word is longer than {@link MAX_EXPANSION_LENGTH}.
 * @throws what `fail` throws (an {@link UnreadableWord}) when words nest deeper than {@link MAX_EXPANSION_DEPTH}
 */
function expand(chars: Chars, args: Args, escapeChar: string, fail: (reason: string) => never, depth = 0): Chars | null {
  if (chars.length > MAX_EXPANSION_LENGTH) return null;
  if (depth > MAX_EXPANSION_DEPTH) fail(`variable expansions nest deeper than ${MAX_EXPANSION_DEPTH}`);
  const out: Chars = [];
  let quote: string | null = null;
  let i = 0;
  while (i < chars.length) {
    const c = chars[i] as Char;
    if (quote !== "'" && c.ch === escapeChar && i + 1 < chars.length) {
      out.push(chars[i + 1] as Char);
      i += 2;
      continue;
    }
    if (c.ch === '"' || c.ch === "'") {
      if (quote === null) {
        quote = c.ch;
        i++;
        continue;
      }
      if (quote === c.ch) {
        quote = null;
        i++;
        continue;
      }
    }
    if (quote === "'" || c.ch !== '$') {
      out.push(c);
      i++;
      continue;
    }
    const next = chars[i + 1]?.ch ?? '';
    if (next === '{') {
      let close = i + 2;
      let braces = 1;
      for (; close < chars.length; close++) {
        const ch = chars[close]?.ch;
        if (ch === '{') braces++;
        if (ch === '}' && --braces === 0) break;
      }
      if (close >= chars.length) return null;
      const inner = chars.slice(i + 2, close);
      const innerText = text(inner);
      const match = /^([A-Za-z_][A-Za-z0-9_]*)(?::([-+])(.*))?$/s.exec(innerText);
      if (!match) return null;
      const value = args.get(match[1] as string);
      const operator = match[2];
      if (operator === undefined) {
        if (value === undefined || value === null) return null;
        out.push(...value);
      } else {
        const word = inner.slice((match[1] as string).length + 2);
        const set = value !== undefined && value !== null && value.length > 0;
        if (operator === '-') {
          if (set) out.push(...value);
          else {
            const expanded = expand(word, args, escapeChar, fail, depth + 1);
            if (expanded === null) return null;
            out.push(...expanded);
          }
        } else if (set) {
          const expanded = expand(word, args, escapeChar, fail, depth + 1);
          if (expanded === null) return null;
          out.push(...expanded);
        }
      }
      i = close + 1;
      continue;
    }
    if (NAME_START.test(next)) {
      let end = i + 1;
      while (end < chars.length && NAME_CHAR.test(chars[end]?.ch ?? '')) end++;
      const value = args.get(text(chars.slice(i + 1, end)));
      if (value === undefined || value === null) return null;
      out.push(...value);
      i = end;
      continue;
    }
    out.push(c);
    i++;
  }
  return out;
}

const COMPONENT = '[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*';
const HOST = String.raw`(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*(?::\d+)?)`;
/** An image name (https://github.com/distribution/reference/blob/main/reference.go): optional host, then path components. */
const IMAGE_NAME = new RegExp(`^(?:${HOST}/)?${COMPONENT}(?:/${COMPONENT})*$`);
const TAG_TEXT = /^[\w][\w.-]{0,127}$/;
const DIGEST_TEXT = /^sha256:[0-9a-f]{64}$/;

/**
 * Is the first path component of an image name a registry host (`ghcr.io`, `registry.example.com:5000`, `localhost`)?
 * The rule of Docker's reference parser: a component with a `.` or a `:`, or `localhost`.
 */
export function hasRegistryHost(name: string): boolean {
  const slash = name.indexOf('/');
  if (slash < 0) return false;
  const first = name.slice(0, slash);
  return first.includes('.') || first.includes(':') || first === 'localhost';
}

/**
 * The name an image is known by on Docker Hub when written with Docker Hub's host or its `library/` namespace
 * (`docker.io/library/python`, `index.docker.io/python`, `library/python` → `python`); other names as they are.
 */
export function normaliseImageName(name: string): string {
  let out = name;
  const host = /^(?:docker\.io|index\.docker\.io|registry-1\.docker\.io)\//.exec(out);
  if (host) out = out.slice(host[0].length);
  if (!hasRegistryHost(out) && out.startsWith('library/') && out.indexOf('/', 'library/'.length) < 0) out = out.slice('library/'.length);
  return out;
}

/** The instructions of the Dockerfile reference (https://docs.docker.com/reference/dockerfile/#overview), upper-cased. */
const INSTRUCTIONS = new Set([
  'ADD',
  'ARG',
  'CMD',
  'COPY',
  'ENTRYPOINT',
  'ENV',
  'EXPOSE',
  'FROM',
  'HEALTHCHECK',
  'LABEL',
  'MAINTAINER',
  'ONBUILD',
  'RUN',
  'SHELL',
  'STOPSIGNAL',
  'USER',
  'VOLUME',
  'WORKDIR',
]);

/** The flags `FROM` takes (https://docs.docker.com/reference/dockerfile/#from): only `--platform=<platform>`. */
const FROM_FLAGS = new Set(['platform']);

/** Thrown inside {@link expand} when words nest too deep; caught per instruction and turned into a skip reason. */
class UnreadableWord extends Error {}

/** What {@link readDockerfileContents} reads: the image declarations, and the `FROM`s left out with their reason. */
export interface DockerfileContents {
  images: ImageDeclaration[];
  skipped: SkippedDeclaration[];
}

/** The variable names a word refers to (`$NAME`, `${NAME}`, `${NAME:-word}`...), in order. */
const variablesOf = (word: string) => [...word.matchAll(/\$\{?([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1] as string);

/**
 * Every `FROM` of a Dockerfile that names a registry image, in file order, and the `FROM`s that do not, with why.
 * Left out without a reason (they name no registry image): `FROM scratch` and a `FROM` naming an earlier stage (`FROM
 * build`, stage names compared without case). Variables are expanded with the defaults of the `ARG`s before the first
 * `FROM` (the only ones a `FROM` sees; build-time `--build-arg` values are unknown). `--platform=…` is skipped (its value
 * may be a variable).
 *
 * Skipped with a reason ({@link SkippedDeclaration}, the other `FROM`s are still read): a `FROM` without an image, one
 * with a flag other than `--platform=<value>`, one whose image uses a variable without a value (an `ARG` without a
 * default, an `ARG` declared after the first `FROM`, an undeclared name, a default that cannot be read), one whose
 * expansion nests more than 32 deep or is longer than 4,096 characters, and an image reference, tag or digest that is not
 * valid (`FROM Python:3`, `FROM node:@sha256:12`).
 * @throws ManifestParseError only for text that is not a Dockerfile at all: it holds a NUL character (a binary file), or
 *   its first instruction is not a Dockerfile instruction (BuildKit refuses such a file as a whole: `unknown instruction`)
 */
export function readDockerfileContents(file: string, source: string): DockerfileContents {
  if (source.includes('\0')) throw new ManifestParseError(file, 'not a Dockerfile: the file holds NUL characters (binary)');
  const { escapeChar, list } = instructions(source);
  const args: Args = new Map();
  /** Why an `ARG` before the first `FROM` has no value, by name. */
  const argReasons = new Map<string, string>();
  const laterArgs = new Set<string>();
  const stages = new Set<string>();
  const images: ImageDeclaration[] = [];
  const skipped: SkippedDeclaration[] = [];
  let seenFrom = false;
  const fail = (reason: string): never => {
    throw new UnreadableWord(reason);
  };
  for (const [index, instruction] of list.entries()) {
    const [keyword, ...rest] = words(instruction.chars);
    const command = keyword ? text(keyword).toUpperCase() : '';
    if (index === 0 && !INSTRUCTIONS.has(command)) {
      throw new ManifestParseError(
        file,
        `line ${instruction.line}: not a Dockerfile: unknown instruction '${keyword ? text(keyword) : ''}'`,
      );
    }
    if (command === 'ARG') {
      for (const word of rest) {
        const equals = word.findIndex((c) => c.ch === '=');
        const name = text(equals < 0 ? word : word.slice(0, equals));
        if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) continue;
        if (seenFrom) {
          if (!args.has(name)) laterArgs.add(name);
          continue;
        }
        if (equals < 0) {
          args.set(name, null);
          argReasons.set(name, `the build argument ${name} has no default (its value is given at build time)`);
          continue;
        }
        let value: Chars | null;
        try {
          value = expand(word.slice(equals + 1), args, escapeChar, fail);
        } catch (error) {
          if (!(error instanceof UnreadableWord)) throw error;
          value = null;
          argReasons.set(name, `the default of the build argument ${name} cannot be read: ${error.message}`);
        }
        if (value === null && !argReasons.has(name)) {
          argReasons.set(name, `the default of the build argument ${name} cannot be expanded`);
        }
        args.set(name, value);
      }
      continue;
    }
    if (command !== 'FROM') continue;
    seenFrom = true;
    const skip = (reason: string) => {
      skipped.push({ file, line: instruction.line, text: text(instruction.chars).trim(), reason });
    };
    const flags = rest.filter((w) => text(w).startsWith('--'));
    const operands = rest.filter((w) => !text(w).startsWith('--'));
    const image = operands[0];
    const stage = operands.length >= 3 && text(operands[1] as Chars).toUpperCase() === 'AS' ? text(operands[2] as Chars) : null;
    if (stage !== null) stages.add(stage.toLowerCase());
    const badFlag = flags.map(text).find((flag) => {
      const [, name, value] = /^--([^=]*)(?:=(.*))?$/s.exec(flag) ?? [];
      return !FROM_FLAGS.has(name ?? '') || value === undefined || value === '';
    });
    if (badFlag !== undefined) {
      const name = /^--([^=]*)/.exec(badFlag)?.[1] ?? '';
      skip(
        FROM_FLAGS.has(name)
          ? `the flag ${badFlag} has no value (FROM takes --${name}=<value>)`
          : `unknown flag ${badFlag.split('=')[0]}: FROM takes only --platform=<platform>`,
      );
      continue;
    }
    if (!image) {
      skip('FROM names no image');
      continue;
    }
    let expanded: Chars | null;
    try {
      expanded = expand(image, args, escapeChar, fail);
    } catch (error) {
      if (!(error instanceof UnreadableWord)) throw error;
      skip(`the image cannot be expanded: ${error.message}`);
      continue;
    }
    if (expanded === null) {
      skip(unresolvedReason(text(image), args, argReasons, laterArgs));
      continue;
    }
    const reference = text(expanded);
    if (reference === 'scratch' || (stages.has(reference.toLowerCase()) && reference.toLowerCase() !== stage?.toLowerCase())) continue;
    const at = reference.indexOf('@');
    const beforeDigest = at < 0 ? expanded : expanded.slice(0, at);
    const digestChars = at < 0 ? null : expanded.slice(at + 1);
    const named = text(beforeDigest);
    const colon = named.lastIndexOf(':');
    const hasTag = colon > named.lastIndexOf('/');
    const nameChars = hasTag ? beforeDigest.slice(0, colon) : beforeDigest;
    const tagChars = hasTag ? beforeDigest.slice(colon + 1) : null;
    const name = text(nameChars);
    const tag = tagChars ? text(tagChars) : null;
    const digest = digestChars ? text(digestChars) : null;
    if (!IMAGE_NAME.test(name)) {
      skip(`'${reference}' is not a valid image reference (a name is lower-case path components, after an optional registry host)`);
      continue;
    }
    if (tag !== null && !TAG_TEXT.test(tag)) {
      skip(`'${tag}' is not a valid tag in '${reference}'`);
      continue;
    }
    if (digest !== null && !DIGEST_TEXT.test(digest)) {
      skip(`'${digest}' is not a sha256 digest in '${reference}'`);
      continue;
    }
    images.push({
      file,
      line: instruction.line,
      name,
      tag,
      digest,
      tagOffsets: tagChars ? tagChars.map((c) => c.off) : [],
      digestSpan: digestChars ? spanOf(digestChars) : null,
      stage,
    });
  }
  return { images, skipped };
}

/** Why an image word did not expand: the first variable it uses without a value, or the expansion's limits. */
function unresolvedReason(word: string, args: Args, argReasons: ReadonlyMap<string, string>, laterArgs: ReadonlySet<string>): string {
  for (const name of variablesOf(word)) {
    const value = args.get(name);
    if (value !== undefined && value !== null) continue;
    if (value === null) return argReasons.get(name) ?? `the build argument ${name} has no value`;
    if (laterArgs.has(name)) return `the build argument ${name} is declared after the first FROM, where no FROM sees it`;
    return `${name} is not a build argument declared before the first FROM (its value is unknown)`;
  }
  return word.length > MAX_EXPANSION_LENGTH
    ? `the image is longer than ${MAX_EXPANSION_LENGTH} characters once expanded`
    : 'the image holds a variable reference that cannot be expanded';
}

/**
 * The image declarations of a Dockerfile ({@link readDockerfileContents}'s `images`; the `FROM`s it skips are left out).
 * @throws ManifestParseError only for text that is not a Dockerfile at all (see {@link readDockerfileContents})
 */
export function readDockerfile(file: string, source: string): ImageDeclaration[] {
  return readDockerfileContents(file, source).images;
}
