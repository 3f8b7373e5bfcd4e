import type { LockfileRequest, LockfileUpdate } from '../ecosystem.ts';
import { ManifestParseError } from '../errors.ts';
import { tomlStringAt, tomlStrings } from '../update/toml-spans.ts';
import { hasInputsDigest, readGopkgLock, readGopkgToml } from './gopkg.ts';
import { depVersions } from './versions.ts';

const LOCKFILE = 'Gopkg.lock';

/**
 * Rewrites the project's `[[projects]]` entry of Gopkg.lock (https://golang.github.io/dep/docs/Gopkg.lock.html) for the
 * target tag: `version` becomes the tag (`request.target.version`, e.g. `v0.9.2`) and `revision` the tag's commit, which the
 * code host adapter gives as `request.target.artifacts[0].attributes.commit`. The entry's `digest` (dep 0.5's hash of the
 * project's pruned source tree, `1:<hex>`) cannot be computed without the source, so its line is removed: dep reads a
 * project without a digest as not verified and `dep ensure` writes it again, whereas the old digest would vouch for the
 * old version's files. (Dependabot ran `dep ensure -update` itself, which recomputes it from the fetched source.) Every
 * other byte stays, `packages` and `pruneopts` included.
 *
 * `needsResolution` when: the target carries no commit (40 hex); the lock does not hold the project, or holds it at a
 * branch or bare revision rather than a version; Gopkg.toml (as updated) has a constraint on the project that does not
 * allow the target; the manifest changed and the lock has dep < 0.5's `inputs-digest` (a hash of the manifest's inputs,
 * which dep recomputes and this does not); the lock's strings are not written as dep writes them.
 * A request without a Gopkg.lock updates nothing (`files` empty).
 * @throws ManifestParseError when Gopkg.lock or Gopkg.toml does not parse
 */
export function updateGopkgLock(request: LockfileRequest): LockfileUpdate {
  const text = request.files[LOCKFILE];
  if (text === undefined) return { files: {} };
  const { use, target } = request;
  const commit = target.artifacts[0]?.attributes?.commit;
  if (commit === undefined || !/^[0-9a-f]{40}$/i.test(commit)) {
    return { needsResolution: `the code host gives no commit for ${use.name} ${target.version}` };
  }
  const project = readGopkgLock(LOCKFILE, text).find((p) => p.name === use.name);
  if (!project) return { needsResolution: `Gopkg.lock does not hold ${use.name}` };
  if (project.version === null) return { needsResolution: `Gopkg.lock holds ${use.name} at a branch or revision, not a version` };
  const manifest = request.updated['Gopkg.toml'];
  if (manifest !== undefined) {
    const rules = readGopkgToml('Gopkg.toml', manifest).filter((rule) => rule.name === use.name && rule.version !== null);
    const ruling = rules.find((rule) => rule.kind === 'override') ?? rules[0];
    if (ruling?.version && !depVersions.satisfies(target.version, ruling.version)) {
      return { needsResolution: `Gopkg.toml's constraint '${ruling.version}' on ${use.name} does not allow ${target.version}` };
    }
  }
  if (request.updated['Gopkg.toml'] !== request.files['Gopkg.toml'] && hasInputsDigest(LOCKFILE, text)) {
    return { needsResolution: "Gopkg.lock's inputs-digest (dep before 0.5) would change with Gopkg.toml and is not recomputed" };
  }
  let strings: ReturnType<typeof tomlStrings>;
  try {
    strings = tomlStrings(text);
  } catch (error) {
    throw new ManifestParseError(LOCKFILE, error instanceof Error ? error.message : String(error));
  }
  const at = (key: string) => tomlStringAt(strings, ['projects', String(project.index), key]);
  const version = at('version');
  const revision = at('revision');
  if (!version || !revision || text.slice(version.start, version.end) !== project.version) {
    return { needsResolution: `Gopkg.lock's entry of ${use.name} is not written as dep writes it` };
  }
  const edits = [
    { start: version.start, end: version.end, text: target.version },
    { start: revision.start, end: revision.end, text: commit.toLowerCase() },
  ];
  const digest = at('digest');
  if (digest) {
    const lineStart = text.lastIndexOf('\n', digest.start) + 1;
    const newline = text.indexOf('\n', digest.end);
    const lineEnd = newline === -1 ? text.length : newline + 1;
    if (!/^\s*digest\s*=\s*"[^"\n]*"\s*\r?\n?$/.test(text.slice(lineStart, lineEnd))) {
      return { needsResolution: `Gopkg.lock's digest of ${use.name} is not on a line of its own` };
    }
    edits.push({ start: lineStart, end: lineEnd, text: '' });
  }
  let out = text;
  for (const edit of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  return { files: { [LOCKFILE]: out } };
}
