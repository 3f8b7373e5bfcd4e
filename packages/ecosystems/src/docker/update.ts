import type { DependencyUse, ManifestUpdate } from '../ecosystem.ts';
import { InvalidVersionError } from '../errors.ts';
import type { RegistryVersionDetails } from '../registry-data.ts';
import type { Span } from '../update/declarations.ts';
import { type ImageDeclaration, normaliseImageName, spanOfOffsets } from './dockerfile.ts';
import { compareDockerTags, parseDockerTag, sameTagFormat } from './versions.ts';

type Files = Readonly<Record<string, string>>;

/** Every image declaration of the files read, in the ecosystem's file order (see `dockerDeclarations` of ecosystem.ts). */
export type DeclarationsOf = (files: Files) => ImageDeclaration[];

/** The manifest digest (`sha256:<hex>`) of the target version as the registry described it, or undefined. */
function targetDigest(target: RegistryVersionDetails | undefined): string | undefined {
  for (const artifact of target?.artifacts ?? []) {
    const sha256 = artifact.digests.find((d) => d.algorithm === 'sha256' && d.encoding === 'hex' && /^[0-9a-f]{64}$/.test(d.value));
    if (sha256) return `sha256:${sha256.value}`;
  }
  return undefined;
}

/** The part of a tag that changes between two tags of one format: after the prefix, before the suffix. */
function versionCore(tag: string): { from: number; to: number } {
  const parts = parseDockerTag(tag);
  return { from: parts?.prefix.length ?? 0, to: tag.length - (parts?.suffix.length ?? 0) };
}

const where = (d: ImageDeclaration) => `${d.file} line ${d.line}`;
const key = (d: ImageDeclaration) => `${d.file}:${d.line}:${d.name}:${d.tag ?? ''}@${d.digest ?? ''}`;

/**
 * Moves every `FROM` of image `use.name` whose tag has the format of `targetVersion` ({@link sameTagFormat}) and is
 * older to `targetVersion`, the way Dependabot's docker file updater does
 * (https://github.com/dependabot/dependabot-core/blob/main/docker/lib/dependabot/docker/file_updater.rb): only the
 * tag's version characters change (`3.11` of `python:3.11-slim`, also when they come from an `ARG` default), and a
 * digest pinned with the tag (`@sha256:…`) becomes the target's manifest digest, read from `target` (the registry's
 * `describeVersion`; without one, `cannot`). Left alone, with the reason: tags of another format (`3.11-alpine` when
 * the target is `3.13-slim`), tags not a version (`latest`), digest-only pins, tags at or past the target. The result is
 * read again: the edited lines must name the target, and no other image may have changed (an `ARG` shared with
 * another image is `cannot`).
 * @throws InvalidVersionError when `targetVersion` is not a version tag; ManifestParseError from the reader
 */
export function updateDockerfiles(
  declarationsOf: DeclarationsOf,
  files: Files,
  use: DependencyUse,
  targetVersion: string,
  target: RegistryVersionDetails | undefined,
): ManifestUpdate {
  if (!parseDockerTag(targetVersion)) throw new InvalidVersionError('Docker', targetVersion);
  const wanted = normaliseImageName(use.name);
  const all = declarationsOf(files);
  const mine = all.filter((d) => normaliseImageName(d.name) === wanted);
  if (mine.length === 0) return { cannot: `'${use.name}' is not used by a FROM of the files read` };
  const reasons: string[] = [];
  const edits = new Map<string, (Span & { text: string })[]>();
  const add = (file: string, edit: Span & { text: string }) => {
    const list = edits.get(file) ?? [];
    const same = list.find((e) => e.start === edit.start && e.end === edit.end);
    if (same && same.text !== edit.text) return false;
    if (!same) list.push(edit);
    edits.set(file, list);
    return true;
  };
  let newDigest: string | undefined;
  for (const d of mine) {
    if (d.tag === null) {
      reasons.push(`${where(d)}: pinned by digest alone`);
      continue;
    }
    if (!parseDockerTag(d.tag)) {
      reasons.push(`${where(d)}: tag '${d.tag}' is not a version`);
      continue;
    }
    if (!sameTagFormat(d.tag, targetVersion)) {
      reasons.push(`${where(d)}: tag '${d.tag}' is not of the format of '${targetVersion}'`);
      continue;
    }
    if (compareDockerTags(d.tag, targetVersion) >= 0) {
      reasons.push(`${where(d)}: tag '${d.tag}' is not older than '${targetVersion}'`);
      continue;
    }
    const old = versionCore(d.tag);
    const next = versionCore(targetVersion);
    const span = spanOfOffsets(d.tagOffsets.slice(old.from, old.to));
    if (!span) return { cannot: `${where(d)}: the version of tag '${d.tag}' is not written in one place` };
    if (!add(d.file, { ...span, text: targetVersion.slice(next.from, next.to) })) {
      return { cannot: `${where(d)}: the tag's text is shared with a tag that moves differently` };
    }
    if (d.digest !== null) {
      if (target !== undefined && target.version !== targetVersion) {
        return { cannot: `the registry's details are of '${target.version}', not '${targetVersion}'` };
      }
      newDigest ??= targetDigest(target);
      if (newDigest === undefined)
        return { cannot: `${where(d)}: pinned by digest, and no manifest digest of '${targetVersion}' is known` };
      if (!d.digestSpan) return { cannot: `${where(d)}: the digest is not written in one place` };
      if (!add(d.file, { ...d.digestSpan, text: newDigest })) return { cannot: `${where(d)}: the digest's text is shared` };
    }
  }
  if (edits.size === 0) return { unchanged: reasons.length ? reasons.join('; ') : 'no tag to change' };
  const changed: Record<string, string> = {};
  for (const [file, list] of edits) {
    let text = files[file] ?? '';
    const sorted = [...list].sort((a, b) => b.start - a.start);
    for (const [i, edit] of sorted.entries()) {
      const after = sorted[i - 1];
      if (after && edit.end > after.start) return { cannot: `${file}: overlapping tag spans` };
      text = text.slice(0, edit.start) + edit.text + text.slice(edit.end);
    }
    if (text !== files[file]) changed[file] = text;
  }
  return checked(declarationsOf, files, changed, mine, wanted, targetVersion, newDigest);
}

/** The update when the rewritten files name the target on every edited line and no other image moved, else `cannot`. */
function checked(
  declarationsOf: DeclarationsOf,
  files: Files,
  changed: Record<string, string>,
  mine: readonly ImageDeclaration[],
  wanted: string,
  targetVersion: string,
  digest: string | undefined,
): ManifestUpdate {
  let again: ImageDeclaration[];
  try {
    again = declarationsOf({ ...files, ...changed });
  } catch (error) {
    return { cannot: `the rewritten Dockerfile no longer reads: ${(error as Error).message}` };
  }
  const others = (list: readonly ImageDeclaration[]) =>
    list
      .filter((d) => normaliseImageName(d.name) !== wanted)
      .map(key)
      .join('\n');
  const before = declarationsOf(files);
  if (others(again) !== others(before)) return { cannot: 'the edit would also change another image (a shared ARG)' };
  const now = again.filter((d) => normaliseImageName(d.name) === wanted);
  if (now.length !== mine.length) return { cannot: 'the rewritten Dockerfile names the image on other lines' };
  for (const [i, d] of mine.entries()) {
    const after = now[i] as ImageDeclaration;
    const moved = after.tag !== d.tag || after.digest !== d.digest;
    if (!moved) continue;
    if (after.tag !== targetVersion || (d.digest !== null && after.digest !== digest)) {
      return { cannot: `${where(d)}: the rewritten line reads '${after.tag}', not '${targetVersion}'` };
    }
  }
  return { files: changed, requirement: null };
}
