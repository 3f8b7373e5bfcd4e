/**
 * ajv's validation errors reworded as the Ruby `json-schema` gem words them, which is what Dependabot showed users
 * (https://github.com/voxpupuli/json-schema `lib/json-schema/attributes/*.rb`; messages seen from GitHub-native
 * Dependabot in https://github.com/blumilksoftware/website/issues/29, https://github.com/activemerchant/payment_icons/pull/389,
 * https://github.com/trinodb/trino/issues/28163):
 *
 * - `The property '#/' did not contain a required property of 'updates'`
 * - `The property '#/updates/0/' contains additional properties ["commit_message"] outside of the schema when none are allowed`
 *   (all unknown keys of one object in one message; an update entry's pointer ends in `/`, as GitHub's messages show,
 *   other objects' do not: `'#/updates/2/allow/0' contains additional properties`)
 * - `The property '#/update_configs/0/update_schedule' value "x" did not match one of the following values: live, daily, weekly, monthly`
 *   (enums, and `const`, which GitHub words the same way: `'#/version' value 1 did not match one of the following values: 2`)
 * - `The property '#/updates/0/schedule/time' of type integer did not match the following type: string`
 * - `The property '#/updates/0/registries' of type string did not match any of the required schemas` (oneOf; anyOf says
 *   `one or more of`); the branches' own errors are not listed, as the gem lists none.
 */
import type { ErrorObject } from 'ajv';
import type { ConfigProblem } from './model.ts';

/** The longest rendering of a value inside a message, in characters; a longer one ends in `...`. */
export const MAX_VALUE_TEXT = 200;

/** The JSON schema type name of a value, as the gem's `type_of_data` names it: `integer` before `number`. */
export function schemaTypeOf(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (typeof value === 'object') return 'object';
  return typeof value;
}

/**
 * A value as Ruby's `inspect` renders it (`"x"`, `1`, `nil`, `["a", "b"]`, `{"a"=>1}`), cut to {@link MAX_VALUE_TEXT}
 * characters; the walk stops once the budget is spent, so a large value costs no more than a small one.
 */
export function rubyInspect(value: unknown): string {
  const parts: string[] = [];
  let length = 0;
  const push = (text: string): boolean => {
    parts.push(text);
    length += text.length;
    return length <= MAX_VALUE_TEXT;
  };
  const walk = (node: unknown): boolean => {
    if (node === null || node === undefined) return push('nil');
    if (typeof node === 'string') return push(JSON.stringify(node));
    if (typeof node !== 'object') return push(String(node));
    const entries: Array<[string | undefined, unknown]> = Array.isArray(node)
      ? node.map((item) => [undefined, item])
      : Object.entries(node as Record<string, unknown>);
    if (!push(Array.isArray(node) ? '[' : '{')) return false;
    for (const [index, [key, item]] of entries.entries()) {
      if (index > 0 && !push(', ')) return false;
      if (key !== undefined && !push(`${JSON.stringify(key)}=>`)) return false;
      if (!walk(item)) return false;
    }
    return push(Array.isArray(node) ? ']' : '}');
  };
  walk(value);
  const text = parts.join('');
  return text.length > MAX_VALUE_TEXT ? `${text.slice(0, MAX_VALUE_TEXT)}...` : text;
}

/** The gem's fragment for an ajv `instancePath`: `#/` for the document, `#/updates/0/schedule/time` below it. */
export function fragmentOf(instancePath: string): string {
  return instancePath === '' ? '#/' : `#${instancePath}`;
}

/** A JSON pointer's segments unescaped (`~1` → `/`, `~0` → `~`), for the text of a message. */
function readable(fragment: string): string {
  return fragment.replaceAll('~1', '/').replaceAll('~0', '~');
}

/** How an enum value is listed (Ruby's `to_s` of each value, joined by `, `). */
function enumText(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/**
 * A test of whether an error is one of the errors of a branch of a failed `anyOf`/`oneOf` among `errors`: one at the
 * error's instance path or above it whose schema path the error's extends. Looks up only the error's ancestors (at most
 * the nesting depth), so a file of thousands of failing entries costs linear time.
 */
function branchErrorTest(errors: readonly ErrorObject[]): (error: ErrorObject) => boolean {
  const combinators = new Map<string, ErrorObject[]>();
  for (const error of errors) {
    if (error.keyword !== 'anyOf' && error.keyword !== 'oneOf') continue;
    combinators.set(error.instancePath, [...(combinators.get(error.instancePath) ?? []), error]);
  }
  return (error) => {
    for (let path = error.instancePath; ; path = path.slice(0, path.lastIndexOf('/'))) {
      for (const combinator of combinators.get(path) ?? []) {
        if (combinator !== error && error.schemaPath.startsWith(`${combinator.schemaPath}/`)) return true;
      }
      if (path === '') return false;
    }
  };
}

/**
 * The problems ajv's `errors` (compiled with `allErrors` and `verbose`) describe, in the gem's words and in ajv's order;
 * the same message twice is listed once. `if` errors are left out (the failing `then`/`else` branch reports its own).
 */
export function rubyProblems(errors: readonly ErrorObject[]): ConfigProblem[] {
  const inBranch = branchErrorTest(errors);
  const listed = errors.filter((error) => error.keyword !== 'if' && !inBranch(error));
  // All unknown keys of one object go into its one message.
  const extraKeys = new Map<string, Set<string>>();
  for (const error of listed) {
    if (error.keyword !== 'additionalProperties') continue;
    const keys = extraKeys.get(error.instancePath) ?? new Set<string>();
    keys.add(String(error.params.additionalProperty));
    extraKeys.set(error.instancePath, keys);
  }
  const problems: ConfigProblem[] = [];
  const seen = new Set<string>();
  for (const error of listed) {
    let keys: string[] = [];
    if (error.keyword === 'additionalProperties') {
      // The object's one message is written at its first unknown key; the others add nothing.
      const gathered = extraKeys.get(error.instancePath);
      if (!gathered) continue;
      extraKeys.delete(error.instancePath);
      keys = [...gathered];
    }
    const pointer = fragmentOf(error.instancePath);
    const message = messageOf(error, readable(pointer), keys);
    if (seen.has(message)) continue;
    seen.add(message);
    problems.push({ pointer, message });
  }
  return problems;
}

/** The gem's message for one ajv error at `fragment`; `extraKeys` are the unknown keys for `additionalProperties`. */
function messageOf(error: ErrorObject, fragment: string, extraKeys: readonly string[]): string {
  const property = `The property '${fragment}'`;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `${property} did not contain a required property of '${String(params.missingProperty)}'`;
    case 'additionalProperties': {
      const where = /^#\/updates\/\d+$/.test(fragment) ? `${fragment}/` : fragment;
      return `The property '${where}' contains additional properties ${rubyInspect(extraKeys)} outside of the schema when none are allowed`;
    }
    case 'enum':
      return `${property} value ${rubyInspect(error.data)} did not match one of the following values: ${(params.allowedValues as unknown[]).map(enumText).join(', ')}`;
    case 'const':
      return `${property} value ${rubyInspect(error.data)} did not match one of the following values: ${enumText(params.allowedValue)}`;
    case 'type': {
      const types = String(params.type).split(',');
      const which = types.length > 1 ? 'one or more of the following types' : 'the following type';
      return `${property} of type ${schemaTypeOf(error.data)} did not match ${which}: ${types.join(', ')}`;
    }
    case 'pattern':
      return `${property} value ${rubyInspect(error.data)} did not match the regex '${String(params.pattern)}'`;
    case 'minLength':
      return `${property} was not of a minimum string length of ${String(params.limit)}`;
    case 'maxLength':
      return `${property} was not of a maximum string length of ${String(params.limit)}`;
    case 'minItems':
      return `${property} did not contain a minimum number of items ${String(params.limit)}`;
    case 'maxItems':
      return `${property} had more items than the allowed ${String(params.limit)}`;
    case 'minProperties':
      return `${property} did not contain a minimum number of properties ${String(params.limit)}`;
    case 'maxProperties':
      return `${property} had more properties than the allowed ${String(params.limit)}`;
    case 'minimum':
    case 'maximum':
      return `${property} did not have a ${error.keyword} value of ${String(params.limit)}, inclusively`;
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `${property} did not have a ${error.keyword.slice('exclusive'.length).toLowerCase()} value of ${String(params.limit)}, exclusively`;
    case 'uniqueItems':
      return `${property} contained duplicated array values`;
    case 'anyOf':
      return `${property} of type ${schemaTypeOf(error.data)} did not match one or more of the required schemas`;
    case 'oneOf':
      return params.passingSchemas
        ? `${property} of type ${schemaTypeOf(error.data)} matched more than one of the required schemas`
        : `${property} of type ${schemaTypeOf(error.data)} did not match any of the required schemas`;
    case 'not':
      return `${property} of type ${schemaTypeOf(error.data)} matched the disallowed schema`;
    default:
      return `${property} ${error.message ?? `did not match the schema's ${error.keyword}`}`;
  }
}
