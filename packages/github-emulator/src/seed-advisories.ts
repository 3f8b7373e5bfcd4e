import { ADVISORY_ECOSYSTEMS } from '@switchyard/contracts';
import { z } from 'zod';

const Timestamp = z.iso.datetime({ offset: true });

/** The kinds of advisory GitHub's database holds (`GET /advisories?type=`, default `reviewed`). */
export const ADVISORY_TYPES = ['reviewed', 'unreviewed', 'malware'] as const;
/** GitHub's severities of an advisory. */
export const ADVISORY_SEVERITIES = ['critical', 'high', 'medium', 'low', 'unknown'] as const;

/**
 * A version range as GitHub writes `vulnerable_version_range`: comparators (`=`, `<`, `<=`, `>`, `>=`) each followed by
 * a version, joined by `, ` (all must hold), e.g. `>= 4.0.0, < 4.17.21` or `= 1.2.3`.
 */
export const VersionRange = z
  .string()
  .regex(/^(?:=|<=?|>=?) ?[^\s,<>=]+(?:, ?(?:=|<=?|>=?) ?[^\s,<>=]+)*$/, 'must be comparators like `>= 1.0.0, < 1.2.3`');

/** One affected package of an advisory: its ecosystem and name, the vulnerable range and the first fixed version (or null). */
export const SeedAdvisoryVulnerability = z.strictObject({
  ecosystem: z.enum(ADVISORY_ECOSYSTEMS),
  package: z.string().min(1).max(214),
  vulnerableVersionRange: VersionRange,
  firstPatchedVersion: z.string().min(1).nullable(),
  vulnerableFunctions: z.array(z.string().min(1)).default([]),
});

/**
 * A global security advisory of GitHub's advisory database (https://github.com/advisories): `ghsaId` in GitHub's
 * format (`GHSA-` and three groups of four characters of `23456789cfghjmpqrvwx`), an optional `cveId`, the affected
 * packages, and when it was published, updated and (if ever) withdrawn.
 */
export const SeedAdvisory = z.strictObject({
  ghsaId: z.string().regex(/^GHSA(?:-[23456789cfghjmpqrvwx]{4}){3}$/, 'must be a GHSA id (GHSA-xxxx-xxxx-xxxx)'),
  cveId: z
    .string()
    .regex(/^CVE-\d{4}-\d{4,}$/, 'must be a CVE id (CVE-YYYY-NNNN)')
    .nullable()
    .default(null),
  type: z.enum(ADVISORY_TYPES).default('reviewed'),
  summary: z.string().min(1).max(1024),
  description: z.string().min(1).nullable().default(null),
  severity: z.enum(ADVISORY_SEVERITIES),
  publishedAt: Timestamp,
  updatedAt: Timestamp,
  withdrawnAt: Timestamp.nullable().default(null),
  references: z.array(z.url()).default([]),
  cwes: z.array(z.strictObject({ cweId: z.string().regex(/^CWE-\d+$/), name: z.string().min(1) })).default([]),
  vulnerabilities: z.array(SeedAdvisoryVulnerability).min(1),
});
export type SeedAdvisoryInput = z.input<typeof SeedAdvisory>;
