import * as pep440 from '@renovatebot/pep440';
import type { RegistryArtifact, RegistryDependency, RegistryVersionDetails } from '../registry-data.ts';
import { poetryToPep440 } from './poetry-constraint.ts';
import { pep440Versions } from './versions.ts';

/** Checks the Python lockfile updaters share: digests, markers, specifiers. */

/** The first `sha256` digest of an artifact as `sha256:<hex>`, undefined without one. */
export const sha256Of = (artifact: RegistryArtifact) => {
  const digest = artifact.digests.find((d) => d.algorithm === 'sha256' && d.encoding === 'hex');
  return digest && `sha256:${digest.value}`;
};

/**
 * The `sha256:<hex>` digests of every file of the target version, sorted (as Pipfile.lock and pip-compile write them);
 * why not, when a file has no SHA-256 or the registry lists no file.
 */
export function targetSha256s(target: RegistryVersionDetails): { hashes: string[] } | { needsResolution: string } {
  const hashes: string[] = [];
  for (const artifact of target.artifacts) {
    const hash = sha256Of(artifact);
    if (!hash) return { needsResolution: `the registry gives no SHA-256 of ${artifact.filename}` };
    hashes.push(hash);
  }
  if (hashes.length === 0) return { needsResolution: `the registry lists no files of ${target.name} ${target.version}` };
  return { hashes: hashes.sort() };
}

/**
 * The lower bound of a `requires-python` (PEP 440) or poetry.lock `python-versions` (Poetry constraint: `^3.10` is
 * `>=3.10,<4.0`) specifier, undefined without one (or with `||` alternatives).
 */
export function pythonFloor(specifier: unknown): string | undefined {
  if (typeof specifier !== 'string' || specifier.includes('|')) return undefined;
  let specifiers = specifier;
  try {
    specifiers = poetryToPep440(specifier)[0] ?? specifier;
  } catch {
    // not a Poetry constraint: read it as PEP 440
  }
  return /(?:^|,)\s*>=\s*([0-9][0-9.]*)/.exec(specifiers)?.[1];
}

/**
 * Does a dependency's marker certainly not apply? Only `extra == …` markers (an extra's requirement) and a single
 * `python_version` / `python_full_version` upper bound (`<`, `<=`) below the project's Python floor are known not to
 * apply; any other marker is taken to apply.
 */
export function markerExcluded(dependency: RegistryDependency, floor: string | undefined): boolean {
  if (dependency.kind !== 'runtime') return true;
  const marker = dependency.condition?.trim();
  if (!marker || floor === undefined) return false;
  const match = /^python_(?:full_)?version\s*(<=?)\s*["']([0-9][0-9.]*)["']$/.exec(marker);
  if (!match?.[2] || !pep440.valid(match[2]) || !pep440.valid(floor)) return false;
  return match[1] === '<' ? pep440.gte(floor, match[2]) : pep440.gt(floor, match[2]);
}

/** Does `version` satisfy `requirement` (`*` and empty are any; false for what cannot be read)? */
export function allows(version: string, requirement: string): boolean {
  const trimmed = requirement.trim();
  if (trimmed === '' || trimmed === '*') return true;
  try {
    return pep440Versions.satisfies(version, trimmed);
  } catch {
    return false;
  }
}
