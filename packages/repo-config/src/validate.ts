/**
 * Schema validation of a config file's document with ajv (+ ajv-formats), one validator per file version, each compiled
 * once, on first use.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import formats from 'ajv-formats';
import { rubyProblems } from './messages.ts';
import type { ConfigProblem } from './model.ts';
import { DEPENDABOT_V1_SCHEMA, DEPENDABOT_V2_SCHEMA } from './schemas.ts';

// ajv-formats is CommonJS: its default import is the plugin itself or a namespace holding it as `default`.
const addFormats = ((formats as unknown as { default?: typeof formats }).default ?? formats) as unknown as (ajv: Ajv) => void;

const compiled = new Map<1 | 2, ValidateFunction>();

/**
 * The validator of a file version: v1 against SchemaStore's `dependabot.json`, v2 against `dependabot-2.0.json` with
 * `reviewers` ({@link DEPENDABOT_V2_SCHEMA}). All errors are collected (`allErrors`) with the failing data (`verbose`);
 * SchemaStore's editor keywords (`x-intellij-enum-metadata`) are allowed (`strict: false`).
 */
export function validatorFor(version: 1 | 2): ValidateFunction {
  let validate = compiled.get(version);
  if (!validate) {
    const ajv = new Ajv({ allErrors: true, verbose: true, strict: false, logger: false });
    addFormats(ajv);
    validate = ajv.compile(version === 1 ? DEPENDABOT_V1_SCHEMA : DEPENDABOT_V2_SCHEMA);
    compiled.set(version, validate);
  }
  return validate;
}

/** The schema problems of `document` as a version-`version` file, in the Ruby `json-schema` wording; `[]` when valid. */
export function schemaProblems(version: 1 | 2, document: unknown): ConfigProblem[] {
  const validate = validatorFor(version);
  return validate(document) ? [] : rubyProblems(validate.errors ?? []);
}
