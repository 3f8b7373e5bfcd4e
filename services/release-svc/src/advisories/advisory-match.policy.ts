import type { VersionScheme } from '@switchyard/ecosystems';

/** One OSV range event. */
export interface OsvEvent {
  introduced?: string;
  fixed?: string;
  last_affected?: string;
  limit?: string;
}
/** One OSV range (`GIT` ranges are ignored: they speak of commits, not versions). */
export interface OsvRange {
  type: string;
  events: OsvEvent[];
}

const eventVersion = (e: OsvEvent) => e.introduced ?? e.fixed ?? e.last_affected ?? e.limit ?? '';

/**
 * Whether `version` is affected according to OSV `ranges` and the explicit `versions` list, evaluated
 * with the ecosystem's version ordering as the OSV schema describes
 * (https://ossf.github.io/osv-schema/#evaluation): walking the events in version order, `introduced`
 * (`0` meaning the first version) opens an affected span, `fixed` closes it at that version,
 * `last_affected` closes it after that version. Ranges with versions the scheme cannot read are skipped.
 */
export function isAffected(version: string, ranges: readonly OsvRange[], versions: readonly string[], scheme: VersionScheme): boolean {
  if (versions.includes(version)) return true;
  for (const range of ranges) {
    if (range.type !== 'SEMVER' && range.type !== 'ECOSYSTEM') continue;
    const events = range.events.filter((e) => e.limit === undefined);
    if (events.some((e) => eventVersion(e) !== '0' && !scheme.isValid(eventVersion(e)))) continue;
    const ordered = [...events].sort((a, b) => {
      const [x, y] = [eventVersion(a), eventVersion(b)];
      if (x === '0') return y === '0' ? 0 : -1;
      if (y === '0') return 1;
      return scheme.compare(x, y);
    });
    let affected = false;
    for (const event of ordered) {
      if (event.introduced !== undefined) {
        if (event.introduced === '0' || scheme.compare(version, event.introduced) >= 0) affected = true;
      } else if (event.fixed !== undefined) {
        if (scheme.compare(version, event.fixed) >= 0) affected = false;
      } else if (event.last_affected !== undefined) {
        if (scheme.compare(version, event.last_affected) > 0) affected = false;
      }
    }
    if (affected) return true;
  }
  return false;
}

/** One affected package of an advisory, as stored: the advisory's id, its OSV ranges and its explicit versions. */
export interface AffectedPackage {
  advisoryId: string;
  ranges: readonly OsvRange[];
  versions: readonly string[];
  /**
   * A GitHub advisory's `vulnerable_version_range` (`< 4.17.21`, `>= 2.0.0, < 2.3.1`, `= 1.2.3`), read by
   * {@link parseVulnerableRange}: the version is affected when it meets every constraint. Absent for OSV records.
   */
  constraints?: readonly VersionConstraint[];
}

/** One comparison of a GitHub `vulnerable_version_range`. */
export interface VersionConstraint {
  op: '=' | '<' | '<=' | '>' | '>=';
  version: string;
}

/**
 * Reads a GitHub advisory's `vulnerable_version_range`: comma-separated comparisons, each an operator (`=`, `<`, `<=`,
 * `>`, `>=`; none means `=`) and a version
 * (https://docs.github.com/en/rest/security-advisories/global-advisories, `vulnerabilities[].vulnerable_version_range`).
 * @returns the constraints, or undefined when a part cannot be read
 */
export function parseVulnerableRange(range: string): VersionConstraint[] | undefined {
  const constraints: VersionConstraint[] = [];
  for (const part of range.split(',')) {
    const match = /^\s*(<=|>=|<|>|=)?\s*(\S+)\s*$/.exec(part);
    if (!match?.[2]) return undefined;
    constraints.push({ op: (match[1] ?? '=') as VersionConstraint['op'], version: match[2] });
  }
  return constraints.length > 0 ? constraints : undefined;
}

function meets(version: string, constraints: readonly VersionConstraint[], scheme: VersionScheme): boolean {
  return constraints.every(({ op, version: bound }) => {
    if (!scheme.isValid(bound)) return false;
    const order = scheme.compare(version, bound);
    return op === '=' ? order === 0 : op === '<' ? order < 0 : op === '<=' ? order <= 0 : op === '>' ? order > 0 : order >= 0;
  });
}

/** Whether `version` is affected by one affected entry: its GitHub constraints when it has them, else its OSV ranges and versions. */
export function affects(entry: AffectedPackage, version: string, scheme: VersionScheme): boolean {
  if (entry.constraints) return meets(version, entry.constraints, scheme);
  return isAffected(version, entry.ranges, entry.versions, scheme);
}

/**
 * The advisories an update from `from` to `to` fixes, by id, sorted and each once: those of `affected` (the
 * affected entries of the dependency's package) under which `from` is affected and `to` is not.
 */
export function fixedAdvisories(scheme: VersionScheme, affected: readonly AffectedPackage[], from: string, to: string): string[] {
  const fixed = affected.filter((a) => affects(a, from, scheme) && !affects(a, to, scheme));
  return [...new Set(fixed.map((a) => a.advisoryId))].sort();
}
