import type { LockfileRequest, LockfileUpdate } from '../ecosystem.ts';
import { ManifestParseError } from '../errors.ts';
import type { RegistryDependency } from '../registry-data.ts';
import { hexVersions } from './versions.ts';

/** The lock file's name. */
export const MIX_LOCK = 'mix.lock';

/**
 * One `:hex` entry of mix.lock, as Mix writes it, one per line
 * (https://github.com/elixir-lang/elixir/blob/main/lib/mix/lib/mix/dep/lock.ex and hex's `Hex.SCM`):
 * `"app": {:hex, :package, "version", "inner checksum", [build tools], [dependencies], "repo", "outer checksum"},`.
 */
export interface MixLockEntry {
  app: string;
  /** The Hex package name. */
  name: string;
  version: string;
  /** `hexpm` (also when the older layout without it is used) or `hexpm:<organisation>`. */
  repo: string;
  /** The entry's line (0-based) and the spans of the parts an update rewrites, in the whole text. */
  line: number;
  versionSpan: { start: number; end: number };
  innerSpan: { start: number; end: number };
  dependenciesSpan: { start: number; end: number };
  /** Null in the older layouts without the outer checksum (`..., [deps], "hexpm"}` and `..., [deps]}`). */
  outerSpan: { start: number; end: number } | null;
  /** The dependencies list as written: `{:app, "requirement", [hex: :name, repo: "hexpm", optional: true]}` items. */
  dependencyItems: { app: string; name: string; requirement: string; optional: boolean }[];
}

const ENTRY =
  /^(\s*)"([^"]+)"(?::| =>)\s*\{:hex,\s*:"?([a-z0-9_]+)"?,\s*"([^"]+)",\s*"([0-9a-fA-F]*)",\s*(\[[^\]]*\]),\s*(\[.*\])(?:,\s*"([^"]+)"(?:,\s*"([0-9a-fA-F]*)")?)?\},?\s*$/;

const ITEM = /\{:"?([a-z0-9_]+)"?,\s*"([^"]*)",\s*\[([^\]]*)\]\}/g;

/**
 * The `:hex` entries of a mix.lock (git and path entries are skipped).
 * @throws ManifestParseError when the text is not a map literal (`%{ ... }`) or a `:hex` line is not in Mix's layout
 */
export function readMixLock(file: string, text: string): MixLockEntry[] {
  if (!/^\s*%\{/.test(text) || !/\}\s*$/.test(text)) throw new ManifestParseError(file, 'not a map literal %{...}');
  const out: MixLockEntry[] = [];
  let offset = 0;
  for (const [index, raw] of text.split('\n').entries()) {
    const line = raw.replace(/\r$/, '');
    const lineStart = offset;
    offset += raw.length + 1;
    if (!/\{:hex,/.test(line)) continue;
    const match = ENTRY.exec(line);
    if (!match) throw new ManifestParseError(file, `line ${index + 1}: a :hex entry not in the layout Mix writes`);
    const [whole, , app = '', name = '', version = '', inner = '', , dependencies = '', repo = 'hexpm', outer] = match;
    const at = (value: string, from: number) => {
      const start = lineStart + line.indexOf(value, from);
      return { start, end: start + value.length };
    };
    const versionSpan = at(`"${version}"`, 0);
    const innerAt = at(`"${inner}",`, versionSpan.end - lineStart);
    const outerStart = outer === undefined ? undefined : lineStart + whole.lastIndexOf(`"${outer}"`);
    const dependenciesStart = lineStart + line.lastIndexOf(dependencies, (outerStart ?? lineStart + line.length) - lineStart);
    out.push({
      app,
      name,
      version,
      repo,
      line: index,
      versionSpan: { start: versionSpan.start + 1, end: versionSpan.end - 1 },
      innerSpan: { start: innerAt.start + 1, end: innerAt.start + 1 + inner.length },
      dependenciesSpan: { start: dependenciesStart, end: dependenciesStart + dependencies.length },
      outerSpan: outerStart === undefined || outer === undefined ? null : { start: outerStart + 1, end: outerStart + 1 + outer.length },
      dependencyItems: [...dependencies.matchAll(ITEM)].map((item) => ({
        app: item[1] ?? '',
        name: /hex: :"?([a-z0-9_]+)/.exec(item[3] ?? '')?.[1] ?? item[1] ?? '',
        requirement: item[2] ?? '',
        optional: /optional: true/.test(item[3] ?? ''),
      })),
    });
  }
  return out;
}

/** An Elixir string literal's content (`"` and `\` escaped). */
const elixirString = (value: string) => value.replace(/[\\"]/g, (c) => `\\${c}`).replace(/#\{/g, '\\#{');

/** A lock file dependencies list from the registry's: `[{:app, "req", [hex: :name, repo: "repo", optional: bool]}]`, by app. */
function dependencyList(dependencies: readonly RegistryDependency[], repo: string): string {
  const items = [...dependencies]
    .filter((d) => d.kind === 'runtime' || d.kind === 'optional')
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((d) => `{:${d.name}, "${elixirString(d.requirement)}", [hex: :${d.name}, repo: "${repo}", optional: ${d.kind === 'optional'}]}`);
  return `[${items.join(', ')}]`;
}

/**
 * Updates mix.lock for a Hex package update: the package's entry gets the target version, the inner checksum (the
 * registry artifact's `inner_checksum` attribute) and the outer checksum (its `sha256`, hex.pm's release `checksum`),
 * and its dependencies list becomes the target's (runtime and optional ones, by name). Only those parts of the line
 * change (an entry in an older layout without the outer checksum keeps that layout). `needsResolution` when: the
 * package is not locked from Hex; the registry gives no outer or inner checksum (hex.pm's HTTP API has only the outer
 * one; the inner one is in the signed protobuf registry, which is not read) or no dependencies; a required dependency of the target is not locked, or locked at a version its requirement does not
 * allow (an optional one only when it is locked).
 * @throws ManifestParseError when mix.lock does not parse
 */
export function updateMixLock(request: LockfileRequest): LockfileUpdate {
  const text = request.files[MIX_LOCK];
  if (text === undefined) return { files: {} };
  const { use, target } = request;
  const entries = readMixLock(MIX_LOCK, text);
  const entry = entries.find((e) => e.name === use.name);
  if (!entry) return { needsResolution: `${MIX_LOCK} does not lock ${use.name} from Hex` };
  if (!hexVersions.isValid(target.version)) return { needsResolution: `${target.version} is not a SemVer version` };
  const artifact = target.artifacts.find((a) => a.digests.some((d) => d.algorithm === 'sha256'));
  const outer = artifact?.digests.find((d) => d.algorithm === 'sha256' && d.encoding === 'hex')?.value;
  const inner = artifact?.attributes?.inner_checksum;
  if (!outer || !inner) {
    return { needsResolution: `the registry gives no ${outer ? 'inner' : 'outer'} checksum of ${use.name} ${target.version}` };
  }
  if (target.dependencies === null)
    return { needsResolution: `the registry does not list the dependencies of ${use.name} ${target.version}` };
  const locked = new Map(entries.map((e) => [e.name, e.version]));
  for (const dependency of target.dependencies) {
    if (dependency.kind !== 'runtime' && dependency.kind !== 'optional') continue;
    const version = locked.get(dependency.name);
    if (version === undefined && dependency.kind === 'optional') continue;
    let allowed = false;
    try {
      allowed = version !== undefined && hexVersions.satisfies(version, dependency.requirement);
    } catch {
      allowed = false;
    }
    if (!allowed) {
      return {
        needsResolution: `${use.name} ${target.version} requires ${dependency.name} '${dependency.requirement}' (${version === undefined ? 'not locked' : `locked at ${version}`})`,
      };
    }
  }
  const sameDependencies =
    JSON.stringify(entry.dependencyItems.map((d) => [d.name, d.requirement, d.optional]).sort()) ===
    JSON.stringify(
      target.dependencies
        .filter((d) => d.kind === 'runtime' || d.kind === 'optional')
        .map((d) => [d.name, d.requirement, d.kind === 'optional'])
        .sort(),
    );
  const edits = [
    { ...entry.versionSpan, text: target.version },
    { ...entry.innerSpan, text: inner.toLowerCase() },
    ...(sameDependencies ? [] : [{ ...entry.dependenciesSpan, text: dependencyList(target.dependencies, entry.repo) }]),
    ...(entry.outerSpan ? [{ ...entry.outerSpan, text: outer.toLowerCase() }] : []),
  ];
  let out = text;
  for (const edit of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  return { files: { [MIX_LOCK]: out } };
}
