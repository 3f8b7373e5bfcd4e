import type { DependencyType, SkippedDeclaration } from '../ecosystem.ts';
import { ManifestParseError } from '../errors.ts';
import { normaliseRelativePath } from '../shared/files.ts';
import { storableSkipped } from '../shared/skipped.ts';
import { type GemSource, type GemspecCall, gemType, readGemfileContents } from './gemfile.ts';
import { type GemspecContents, type GemspecDeclaration, readGemspecContents } from './gemspec.ts';

type Files = Readonly<Record<string, string>>;

/** The Gemfiles Bundler reads, by preference, and the lockfile each writes (`gems.rb` → `gems.locked`). */
const GEMFILES = [
  { gemfile: 'gems.rb', lockfile: 'gems.locked' },
  { gemfile: 'Gemfile', lockfile: 'Gemfile.lock' },
] as const;

/**
 * The Gemfile of the files: `gems.rb` when present, else `Gemfile`; undefined when neither is (a directory with a
 * gemspec only). Bundler reads `gems.rb` first and ignores a `Gemfile` beside it ("Multiple gemfiles (gems.rb and
 * Gemfile) detected ... bundler is ignoring them in favor of gems.rb and gems.locked", bundler's `SharedHelpers`), and
 * dependabot-core's Bundler `FileFetcher#gemfile` fetched `gems.rb` before `Gemfile`.
 */
export function gemfileOf(files: Files): 'gems.rb' | 'Gemfile' | undefined {
  return GEMFILES.find(({ gemfile }) => files[gemfile] !== undefined)?.gemfile;
}

/**
 * The lockfile of the files' Gemfile ({@link gemfileOf}) when present: `gems.locked` beside `gems.rb`, `Gemfile.lock`
 * beside `Gemfile` (Bundler's `default_lockfile`); undefined without a Gemfile (dependabot-core fetched a lockfile only
 * with a Gemfile) or without that lockfile.
 */
export function lockfileOf(files: Files): 'gems.locked' | 'Gemfile.lock' | undefined {
  const gemfile = gemfileOf(files);
  const pair = GEMFILES.find((entry) => entry.gemfile === gemfile);
  return pair && files[pair.lockfile] !== undefined ? pair.lockfile : undefined;
}

/** A `/`-separated relative path without `.` segments, empty segments or `x/..` pairs (`./a//b/` → `a/b`); `.` for none. */
export function normalisePath(path: string): string {
  return normaliseRelativePath(path) || '.';
}

/** The folder of a file path, normalised (`.` for a file of the directory itself). */
const folderOf = (file: string) => normalisePath(file.split('/').slice(0, -1).join('/'));

/** A gem's name from its gemspec: `spec.name = "..."`, else the file name without `.gemspec`. */
export const gemNameOf = (file: string, contents: GemspecContents) =>
  contents.name ?? (file.split('/').at(-1) ?? file).replace(/\.gemspec$/, '');

/** The `gemspec` calls of the files' Gemfile, [] without one. @throws ManifestParseError when the Gemfile does not parse */
function gemspecCalls(files: Files): GemspecCall[] {
  const gemfile = gemfileOf(files);
  return gemfile === undefined ? [] : readGemfileContents(gemfile, files[gemfile] ?? '').gemspecs;
}

/**
 * The gemspec files dependabot-core's Bundler file fetcher read for a directory, by what the Gemfile's `gemspec` calls
 * say (`FileFetcher#gemspecs`, `GemspecFinder`): the `*.gemspec` files of each call's `path:` (the directory itself when
 * not given; of them, the one whose gem is `name:` when given, as Bundler's `gemspec` DSL selects), or, when the Gemfile
 * calls `gemspec` nowhere (or there is no Gemfile), the `*.gemspec` files of the directory. Each with what
 * {@link readGemspecContents} reads of it, in the order of the calls (then of paths). `calls`: the Gemfile's, when read already.
 * @throws ManifestParseError when the Gemfile or one of those gemspecs does not parse
 */
export function gemspecsRead(
  files: Files,
  calls: readonly GemspecCall[] = gemspecCalls(files),
): { file: string; gem: string; contents: GemspecContents }[] {
  const wanted = calls.length === 0 ? [{ path: '.', name: null }] : calls.filter((call) => call.path !== null);
  const gemspecs = Object.keys(files)
    .filter((key) => key.endsWith('.gemspec'))
    .sort();
  const read = new Map<string, { file: string; gem: string; contents: GemspecContents }>();
  const out: { file: string; gem: string; contents: GemspecContents }[] = [];
  for (const call of wanted) {
    const folder = normalisePath(call.path ?? '.');
    for (const file of gemspecs.filter((key) => folderOf(key) === folder)) {
      let gemspec = read.get(file);
      if (gemspec === undefined) {
        const contents = readGemspecContents(file, files[file] ?? '');
        gemspec = { file, gem: gemNameOf(file, contents), contents };
        read.set(file, gemspec);
      }
      if ((call.name === null || call.name === gemspec.gem) && !out.includes(gemspec)) out.push(gemspec);
    }
  }
  return out;
}

/**
 * The gemspecs a Gemfile's `gemspec path: "x"` calls point at outside the directory's own `*.gemspec` files, as
 * `files.related` paths: `x/*.gemspec` below the directory; above it (`path: "../core"`), where a pattern cannot
 * reach, `../core/<name>.gemspec` when the call gives `name:` (else nothing: the call's gemspecs are not read). [] when
 * the Gemfile does not parse (reading it then reports that).
 */
export function relatedGemspecs(files: Files): string[] {
  let calls: GemspecCall[];
  try {
    calls = gemspecCalls(files);
  } catch (error) {
    if (error instanceof ManifestParseError) return [];
    throw error;
  }
  const out = new Set<string>();
  for (const call of calls) {
    if (call.path === null) continue;
    const path = normalisePath(call.path);
    if (path === '.') continue;
    if (!path.startsWith('..')) out.add(`${path}/*.gemspec`);
    else if (call.name !== null) out.add(`${path}/${call.name}.gemspec`);
  }
  return [...out];
}

/** One declaration of a gem in the files read: a Gemfile `gem` call or a gemspec `add_*dependency` call. */
export interface BundlerDeclaration {
  name: string;
  requirement: string | null;
  type: DependencyType;
  source: GemSource;
  /** The file's key in the files map (`Gemfile`, `gems.rb`, `rack.gemspec`, `core/core.gemspec`). */
  file: string;
  line: number;
  /** Some arguments were computed when Ruby runs (see `GemDeclaration.partial`). */
  partial: boolean;
  /** The gemspec declaration itself, for a gemspec's. */
  gemspec?: GemspecDeclaration;
  /** For a gemspec's declaration: the gem the gemspec is of ({@link gemNameOf}). */
  of?: string;
}

/**
 * Every gem declaration of the files, in reading order: the Gemfile's (`gems.rb` or `Gemfile`, {@link gemfileOf}) `gem`
 * calls, then those of the gemspecs read ({@link gemspecsRead}), as dependabot-core's Bundler `FileParser#parse` adds
 * `gemfile_dependencies` before `gemspec_dependencies`; and what the readers skipped, each `text` cut to 200 characters
 * and control characters replaced ({@link storableSkipped}).
 * @throws ManifestParseError when the Gemfile or a gemspec read does not parse
 */
export function bundlerDeclarations(files: Files): { declarations: BundlerDeclaration[]; skipped: SkippedDeclaration[] } {
  const declarations: BundlerDeclaration[] = [];
  const skipped: SkippedDeclaration[] = [];
  const gemfile = gemfileOf(files);
  let calls: GemspecCall[] = [];
  if (gemfile !== undefined) {
    const contents = readGemfileContents(gemfile, files[gemfile] ?? '');
    calls = contents.gemspecs;
    for (const gem of contents.gems) {
      declarations.push({
        name: gem.name,
        requirement: gem.requirement,
        type: gemType(gem.groups),
        source: gem.source,
        file: gemfile,
        line: gem.line,
        partial: gem.partial,
      });
    }
    for (const call of contents.skipped) skipped.push(storableSkipped({ file: gemfile, ...call }));
  }
  for (const { file, gem: of, contents } of gemspecsRead(files, calls)) {
    for (const gemspec of contents.dependencies) {
      const { name, requirement, type, line, partial } = gemspec;
      declarations.push({ name, requirement, type, source: 'rubygems', file, line, partial, gemspec, of });
    }
    for (const call of contents.skipped) skipped.push(storableSkipped({ file, ...call }));
  }
  return { declarations, skipped };
}
