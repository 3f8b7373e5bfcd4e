/**
 * The two JSON schemas the files are validated against, as SchemaStore publishes them (`schemas/`, copied verbatim;
 * `schemas/README.md` names the commit), and the one change this service makes to the v2 schema: `reviewers`.
 */
import v2Schema from '../schemas/dependabot-2.0.json' with { type: 'json' };
import v1Schema from '../schemas/dependabot-v1.json' with { type: 'json' };

/** A JSON schema node, read as plain data. */
type SchemaNode = Record<string, unknown>;

/** SchemaStore's `dependabot.json`: the Dependabot Preview file, version 1. */
export const DEPENDABOT_V1_SCHEMA: Readonly<SchemaNode> = v1Schema;

/**
 * The `reviewers` key of a v2 update entry: GitHub usernames or `org/team` names set as reviewers on the update pull
 * requests. GitHub-native Dependabot accepted it until 2025-08 (SchemaStore commit 00f2f42de86c595f7318f617cc5010b65b31b980
 * removed it when GitHub moved reviewers to CODEOWNERS); 2021-era files, and the files this service writes, have it.
 * Same shape as `assignees`.
 */
export const REVIEWERS_OVERLAY: Readonly<SchemaNode> = {
  description: 'Reviewers to set on pull requests',
  type: 'array',
  items: { type: 'string', minLength: 1 },
  minItems: 1,
  uniqueItems: true,
};

/**
 * SchemaStore's `dependabot-2.0.json` with {@link REVIEWERS_OVERLAY} added to `definitions.update.properties` (a deep
 * copy: the imported schema is not changed). Throws `Error` when the schema has no `definitions.update.properties`.
 */
export function withReviewers(schema: Readonly<SchemaNode>): SchemaNode {
  const copy = structuredClone(schema) as SchemaNode;
  const definitions = copy.definitions as Record<string, SchemaNode> | undefined;
  const properties = definitions?.update?.properties as SchemaNode | undefined;
  if (!properties) throw new Error('the v2 schema has no definitions.update.properties');
  properties.reviewers = structuredClone(REVIEWERS_OVERLAY);
  return copy;
}

/** The v2 schema this service validates `.github/dependabot.yml` against: SchemaStore's, plus `reviewers`. */
export const DEPENDABOT_V2_SCHEMA: Readonly<SchemaNode> = withReviewers(v2Schema);

/** The IANA time zones the v2 schema accepts in `schedule.timezone` (its `definitions.timezone.enum`). */
export const V2_TIME_ZONES: ReadonlySet<string> = new Set(v2Schema.definitions.timezone.enum);
