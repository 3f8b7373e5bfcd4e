import type { LockfileRequest, LockfileUpdate } from '../ecosystem.ts';
import { ManifestParseError } from '../errors.ts';
import { tomlStringAt, tomlStrings } from '../update/toml-spans.ts';
import { hasInputsDigest, readGopkgLock, readGopkgToml } from './gopkg.ts';
import { depVersions } from './versions.ts';

const LOCKFILE = 'Gopkg.lock';

/**
 * Rewrites the project's `[[projects]]` entry of Gopkg.lock (https://golang.github.io/dep/docs/Gopkg.lock.html) for the
 * target tag: `version` becomes the tag (`request.target.version`, e.g. `v0.9.2`) and `revision` the tag's commit, which the
 * code host adapter gives as `request.target.artifacts[0].attributes.commit`. Every other byte stays, `packages` and
 * `pruneopts` included. That is the whole entry of a lock without per-project digests (dep before 0.5).
 *
 * `needsResolution` when: the target carries no commit (40 hex); the lock does not hold the project, or holds it at a
 * branch or bare revision rather than a version; Gopkg.toml (as updated) has a constraint on the project that does not
 * allow the target; the manifest changed and the lock has dep < 0.5's `inputs-digest` (a hash of the manifest's inputs,
 * which dep recomputes and this does not); the lock's strings are not written as dep writes them; the entry has a
 * `digest` (dep 0.5+): that is `1:` and the hex SHA-256 of the project's source tree at the new revision as vendored and
 * pruned by its `pruneopts` (golang/dep `gps/verify/digest.go` `DigestFromDirectory`: every path, node type and file of the
 * tree, CRLF read as LF), and the updater has only the tag's commit, not that tree. Keeping the old digest would vouch for
 * the old version's files and dropping the line leaves an entry without the hash dep 0.5 checks the vendor tree against,
 * so the lock is left to `dep ensure -update`, which Dependabot ran for this.
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
  if (at('digest')) {
    const prune = at('pruneopts');
    const pruned = prune ? ` pruned by pruneopts "${text.slice(prune.start, prune.end)}"` : '';
    return {
      needsResolution:
        `Gopkg.lock's digest of ${use.name} is dep's SHA-256 of the project's source tree at ${target.version}${pruned}, ` +
        'which the updater does not have (the code host describes the tag by its commit only): dep ensure -update writes it',
    };
  }
  let out = text;
  for (const edit of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  return { files: { [LOCKFILE]: out } };
}
