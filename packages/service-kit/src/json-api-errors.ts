import type { DependencyApiError, DependencyApiErrors } from '@switchyard/contracts';
import type { ErrorFormat, ErrorRenderer } from './error-handler.ts';

/**
 * Writes errors as JSON:API error objects the way the dependency update API's original did
 * (Dependabot's API, archived at https://github.com/dependabot/api-docs): `application/json; charset=utf-8`,
 * `{"errors":[{"status":403,"title":"Forbidden","detail":"..."}]}` with a numeric `status`. A 400 that
 * names invalid fields carries one error object per field, each with `source.pointer` (`/repo-id`) or
 * `source.parameter` (`page`) and a detail that names the field.
 */
export const renderJsonApiErrors: ErrorRenderer = (error, _req, res) => {
  const base = { status: error.status, title: error.title };
  const errors: DependencyApiError[] = error.errors?.length
    ? error.errors.map((field) => {
        const name = field.pointer ? field.pointer.replace(/^#\//, '') : field.parameter;
        return {
          ...base,
          detail: name ? `${name} ${field.detail}` : field.detail,
          ...(field.pointer
            ? { source: { pointer: field.pointer.replace(/^#/, '') || '/' } }
            : field.parameter
              ? { source: { parameter: field.parameter } }
              : {}),
        };
      })
    : [{ ...base, ...(error.detail === undefined ? {} : { detail: error.detail }) }];
  const body: DependencyApiErrors = { errors };
  const payload = JSON.stringify(body);
  res.writeHead(error.status, {
    ...error.headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(payload),
    'cache-control': 'no-store',
  });
  res.end(payload);
};

/**
 * The dependency update API's error wire format: JSON:API error objects, and a duplicate answered with 400
 * (not 409), as the original API did when an update config already existed.
 */
export const JSON_API_ERRORS: ErrorFormat = { render: renderJsonApiErrors, statuses: { already_exists: 400 } };
