/**
 * Reading one config file: YAML (`yaml-read.ts`), the version its path calls for, the schema of that version
 * (`validate.ts`), then the checks beyond the schema and the normalised configs (`v1.ts`, `v2.ts`).
 */
import type { ConfigProblem, ParsedConfigFile } from './model.ts';
import type { Normalised } from './normalised.ts';
import { type ConfigFilePath, isConfigFilePath, versionOfPath } from './paths.ts';
import { normaliseV1 } from './v1.ts';
import { normaliseV2 } from './v2.ts';
import { schemaProblems } from './validate.ts';
import { readYaml } from './yaml-read.ts';

/** The most problems listed for one file; past it, one last problem says how many more there were. */
export const MAX_PROBLEMS = 100;

/**
 * Reads the config file at `path` (one of `CONFIG_FILE_PATHS`) whose text is `text`.
 *
 * The path decides the version the file must be: 1 for `.dependabot/config.yml` (SchemaStore's `dependabot.json`), 2 for
 * `.github/dependabot.yml` and `.yaml` (SchemaStore's `dependabot-2.0.json` with `reviewers`); a `version` that does not
 * match is a problem (`The property '#/version' value 2 did not match one of the following values: 1`). YAML is read as
 * Psych reads it (YAML 1.1: `time: 03:00` is an integer), within the bounds of `yaml-read.ts` (256 KiB, 64 levels, 64
 * alias expansions). A file that cannot be read gives one problem at `#/`:
 * `Dependabot couldn't parse the config file at <path>. The error raised was: <reason, with line and column>`.
 *
 * Returns the file's configs, or `valid: false` with no configs when there is any problem (schema, duplicate entries,
 * a glob in `directory`). At most {@link MAX_PROBLEMS} problems are listed. Throws `TypeError` when `path` is not a
 * config file path.
 */
export function parseConfigFile(path: ConfigFilePath, text: string): ParsedConfigFile {
  if (!isConfigFilePath(path)) throw new TypeError(`${JSON.stringify(path)} is not a config file path`);
  const reading = readYaml(text);
  if (!reading.ok) {
    const message = `Dependabot couldn't parse the config file at ${path}. The error raised was: ${reading.reason}`;
    return { path, version: null, valid: false, configs: [], problems: [{ pointer: '#/', message }], skipped: [] };
  }
  const document = reading.value;
  const declared = (document as { version?: unknown } | null)?.version;
  const version = declared === 1 || declared === 2 ? declared : null;
  const expected = versionOfPath(path);
  const problems = schemaProblems(expected, document);
  let normalised: Normalised = { configs: [], problems: [], skipped: [] };
  if (problems.length === 0) {
    const object = document as Record<string, unknown>;
    normalised = expected === 1 ? normaliseV1(object) : normaliseV2(object);
    problems.push(...normalised.problems);
  }
  if (problems.length > 0) return { path, version, valid: false, configs: [], problems: capped(inFileOrder(problems)), skipped: [] };
  return { path, version, valid: true, configs: normalised.configs, problems: [], skipped: normalised.skipped };
}

/** The update entry a pointer is in (`#/updates/3/…` → 3), -1 for the top level. */
function entryOf(pointer: string): number {
  const entry = /^#\/(?:updates|update_configs)\/(\d+)/.exec(pointer);
  return entry ? Number(entry[1]) : -1;
}

/** `problems` ordered by the update entry they concern, the top level's first; within an entry, as found. */
function inFileOrder(problems: readonly ConfigProblem[]): ConfigProblem[] {
  return problems
    .map((problem, index) => ({ problem, index, entry: entryOf(problem.pointer) }))
    .sort((a, b) => a.entry - b.entry || a.index - b.index)
    .map(({ problem }) => problem);
}

/** `problems` cut to {@link MAX_PROBLEMS}, the last one saying how many were left out. */
function capped(problems: ConfigProblem[]): ConfigProblem[] {
  if (problems.length <= MAX_PROBLEMS) return problems;
  const more = problems.length - (MAX_PROBLEMS - 1);
  return [...problems.slice(0, MAX_PROBLEMS - 1), { pointer: '#/', message: `${more} further problems are not listed` }];
}
