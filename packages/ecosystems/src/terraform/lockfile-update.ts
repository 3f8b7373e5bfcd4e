import type { LockfileRequest, LockfileUpdate } from '../ecosystem.ts';
import { attribute, type HclValue } from './hcl.ts';
import { readTerraformLock } from './terraform-files.ts';
import { terraformVersions } from './versions.ts';

/** The dependency lock file's name. */
export const TERRAFORM_LOCKFILE = '.terraform.lock.hcl';

/**
 * The `hashes` a lock file records for a provider version, from the registry's artifacts
 * (https://developer.hashicorp.com/terraform/language/files/dependency-lock#checksum-verification): `zh:<sha256 hex>` of
 * each platform's zip (the registry's `shasum`, the lines of its `SHA256SUMS`), and any `h1:` directory hash the
 * registry gives; sorted and without duplicates, as Terraform writes them.
 */
export function lockHashes(request: LockfileRequest): string[] {
  const hashes = new Set<string>();
  for (const artifact of request.target.artifacts) {
    if (!/\.zip$/i.test(artifact.filename)) continue;
    for (const digest of artifact.digests) {
      if (digest.algorithm === 'sha256' && digest.encoding === 'hex') hashes.add(`zh:${digest.value.toLowerCase()}`);
      else if (digest.algorithm === 'h1') hashes.add(digest.value.startsWith('h1:') ? digest.value : `h1:${digest.value}`);
    }
  }
  return [...hashes].sort();
}

/** The line break the text uses (CRLF when its first line ends so). */
const eolOf = (text: string) => (/\r\n/.test(text) ? '\r\n' : '\n');

/** The indentation of the line `offset` is on. */
function indentAt(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))?.[0] ?? '';
}

/**
 * Updates `.terraform.lock.hcl` for a provider update (https://developer.hashicorp.com/terraform/language/files/dependency-lock):
 * in the provider's block, `version` becomes the target, `constraints` the updated manifests' constraint, and `hashes`
 * the target's {@link lockHashes}, one per line at the items' indentation (the old version's hashes go). Only those
 * strings and the hashes list's inside change. `h1:` hashes are written as the registry gives them (the Terraform
 * adapter computes the `linux_amd64` one); `terraform init` adds the `h1:` of another platform it runs on.
 * Modules are not locked: their update leaves the lock file as it is, and so does a provider the lock file does not
 * list (it was never initialised). `needsResolution` when the registry gives no zip digest of the target, or the
 * block's attributes are not string literals.
 * @throws ManifestParseError when the lock file does not parse
 */
export function updateTerraformLock(request: LockfileRequest, requirement: string | null): LockfileUpdate {
  const text = request.files[TERRAFORM_LOCKFILE];
  if (text === undefined) return { files: {} };
  const { use, target } = request;
  if (use.name.split('/').length !== 2) return { files: {} };
  const locked = readTerraformLock(TERRAFORM_LOCKFILE, text).find((provider) => provider.name === use.name.toLowerCase());
  if (!locked) return { files: {} };
  if (!terraformVersions.isValid(target.version)) return { needsResolution: `${target.version} is not a SemVer version` };
  const hashes = lockHashes(request);
  if (!hashes.some((hash) => hash.startsWith('zh:'))) {
    return { needsResolution: `the registry gives no SHA-256 of the zips of ${use.name} ${target.version}` };
  }
  const attributes = locked.block.body.attributes;
  const edits: { start: number; end: number; text: string }[] = [];
  const stringEdit = (value: HclValue | undefined, replacement: string, what: string): string | undefined => {
    if (value === undefined) return undefined;
    if (value.kind !== 'string' || value.escaped) return `${what} is not a plain string`;
    edits.push({ start: value.start, end: value.end, text: replacement });
    return undefined;
  };
  const problems = [
    stringEdit(attribute(attributes, 'version'), target.version, 'version'),
    requirement === null ? undefined : stringEdit(attribute(attributes, 'constraints'), requirement, 'constraints'),
  ].filter((problem) => problem !== undefined);
  if (attribute(attributes, 'version') === undefined) problems.push('the block has no version');
  const list = attribute(attributes, 'hashes');
  if (list !== undefined) {
    if (list.kind !== 'tuple') problems.push('hashes is not a list');
    else {
      const eol = eolOf(text);
      const base = indentAt(text, list.start);
      const lineStart = text.lastIndexOf('\n', list.end - 1) + 1;
      const first = list.items[0];
      if (/^[ \t]*$/.test(text.slice(lineStart, list.end))) {
        // `]` on its own line: the items are replaced up to that line, which stays
        const indent = first && text.lastIndexOf('\n', first.start) > list.start - 1 ? indentAt(text, first.start) : `${base}  `;
        edits.push({ start: list.start, end: lineStart, text: `${eol}${hashes.map((hash) => `${indent}"${hash}",${eol}`).join('')}` });
      } else {
        // a list on one line is written out one hash per line, as Terraform writes it
        edits.push({
          start: list.start,
          end: list.end,
          text: `${eol}${hashes.map((hash) => `${base}  "${hash}",${eol}`).join('')}${base}`,
        });
      }
    }
  }
  if (problems.length > 0) return { needsResolution: `${TERRAFORM_LOCKFILE} (${locked.address}): ${problems.join('; ')}` };
  let out = text;
  for (const edit of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  return { files: { [TERRAFORM_LOCKFILE]: out } };
}
