import { STATUS_CODES } from 'node:http';
import { DependencyApiErrors, ProblemDetails } from '@switchyard/contracts';
import { type OpenApiResponses, schemaErrors } from './openapi-validator.ts';
import type { FuzzRequest, FuzzResponse } from './raw-request.ts';
import { type FuzzRoute, PEER_ENDPOINTS } from './route-table.ts';

/** The dependency update API's content type, errors and resources alike (https://github.com/dependabot/api-docs). */
const JSON_UTF8 = 'application/json; charset=utf-8';
/** The peer endpoints' content type (peer-svc's README). */
const TEXT_UTF8 = 'text/plain; charset=utf-8';
/** The content type of RegisterPeer's answer, the directory as XML (peer-svc's README). */
const XML_UTF8 = 'application/xml; charset=utf-8';
/** RegisterPeer's path as express matches it (any case, one trailing slash). */
/** The form endpoints whose success is the directory as XML. */
const DIRECTORY_XML = /^\/emissary\/(registerpeer|transferdirectory)\.action\/?$/i;
/** The one form endpoint also served to GET (and so HEAD): TransferDirectory. */
const TRANSFER_DIRECTORY = /^\/emissary\/transferdirectory\.action\/?$/i;

/** The gateway's own paths that answer 2xx (matched as express does: any case, one trailing slash), and the content type of each (the gateway's README). */
const GATEWAY_CONTENT_TYPES: [RegExp, RegExp][] = [
  [/^\/(healthz|readyz)\/?$/i, /^application\/json/],
  [/^\/metrics\/?$/i, /^text\/plain/],
  [/^\/openapi\.json\/?$/i, /^application\/json/],
  [/^\/docs\/?$/i, /^text\/html/],
  [/^\/docs\/init\.js\/?$/i, /^application\/javascript/],
  [/^\/docs\/assets\/[^/]+$/i, /./],
];

/** release-svc's webhook route, which the gateway forwards as it is (exact, case-sensitive). */
const WEBHOOK_PATH = '/webhooks/github';
/** What a delivery did, the answer's `outcome` (release-svc's README). */
const WEBHOOK_OUTCOMES = ['applied', 'ignored', 'duplicate'];

/** A byte Node's HTTP parser refuses in a request target. */
const NOT_ASCII = /[^\x21-\x7e]/;

const pathOf = (target: string) => target.split('?', 1)[0] ?? '';

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** Violations of RFC 9457 problem details, as the catalogue and the gateway write them. */
function problemViolations(req: FuzzRequest, res: FuzzResponse): string[] {
  const type = res.headers['content-type'] ?? '';
  if (!type.startsWith('application/problem+json')) return [`error is not application/problem+json but ${JSON.stringify(type)}`];
  if (req.method === 'HEAD') return [];
  const parsed = parseJson(res.text);
  if (!parsed.ok) return ['problem body is not JSON'];
  const problem = ProblemDetails.safeParse(parsed.value);
  if (!problem.success) return [`problem body does not match ProblemDetails: ${problem.error.message}`];
  return problem.data.status === res.status ? [] : [`problem status ${problem.data.status} differs from the answer's ${res.status}`];
}

/** Violations of the dependency update API's JSON:API error envelope. */
function envelopeViolations(req: FuzzRequest, res: FuzzResponse): string[] {
  const type = res.headers['content-type'];
  if (type !== JSON_UTF8) return [`error is not ${JSON_UTF8} but ${JSON.stringify(type)}`];
  if (req.method === 'HEAD') return [];
  const parsed = parseJson(res.text);
  if (!parsed.ok) return ['error envelope is not JSON'];
  const doc = DependencyApiErrors.safeParse(parsed.value);
  if (!doc.success) return [`error body is not the JSON:API error envelope: ${doc.error.message}`];
  return doc.data.errors.flatMap((error) =>
    error.status === res.status && error.title === STATUS_CODES[res.status]
      ? []
      : [`error object ${JSON.stringify(error)} does not carry status ${res.status} "${STATUS_CODES[res.status]}"`],
  );
}

/**
 * Violations of the peer endpoints' plain-text errors. An unknown route there (any other method, any other path)
 * is service-kit's 404 problem, as peer-svc's README says; everything else is `text/plain` with the detail as the body.
 */
function plainTextViolations(req: FuzzRequest, res: FuzzResponse): string[] {
  const type = res.headers['content-type'];
  const endpoint = req.method === 'POST' && PEER_ENDPOINTS.includes(pathOf(req.target));
  if (!endpoint && res.status === 404 && (type ?? '').startsWith('application/problem+json')) return problemViolations(req, res);
  if (type !== TEXT_UTF8) return [`error is not ${TEXT_UTF8} but ${JSON.stringify(type)}`];
  return req.method === 'HEAD' || res.text.length > 0 ? [] : ['plain-text error without a body'];
}

/**
 * Violations of a 2xx answer of `POST /webhooks/github`, which the OpenAPI document leaves out on purpose (the code
 * host calls it, not the API's clients: packages/contracts' README) and release-svc's README documents: 202
 * `{"outcome":"applied"|"ignored"|"duplicate"}` in the dependency update API's content type, to POST only.
 */
function webhookSuccessViolations(req: FuzzRequest, res: FuzzResponse): string[] {
  if (req.method !== 'POST') return [`${req.method} answered ${res.status}`];
  if (res.status !== 202) return [`${res.status} is not the webhook's documented 202`];
  const type = res.headers['content-type'];
  if (type !== JSON_UTF8) return [`content type ${JSON.stringify(type)} is not ${JSON_UTF8}`];
  const parsed = parseJson(res.text);
  if (!parsed.ok) return ['2xx body is not JSON'];
  const answer = parsed.value as Record<string, unknown> | null;
  const keys = typeof answer === 'object' && answer !== null && !Array.isArray(answer) ? Object.keys(answer) : [];
  return keys.length === 1 && WEBHOOK_OUTCOMES.includes(answer?.outcome as string)
    ? []
    : [`2xx body is not {"outcome": ${WEBHOOK_OUTCOMES.join(' | ')}}`];
}

/** Violations of a 2xx answer: its status, content type and body as the API documents them. */
function successViolations(route: FuzzRoute, req: FuzzRequest, res: FuzzResponse, openapi: OpenApiResponses): string[] {
  const type = res.headers['content-type'] ?? '';
  const path = pathOf(req.target);
  if (route.api === 'peer') {
    // peer-svc's JSON extensions (GET) are in the OpenAPI document, judged by it below; its form endpoints are not.
    if (openapi.template(path) === undefined) {
      // The form endpoints are POST only (TransferDirectory GET too), and express answers OPTIONS on them itself: 200
      // with `Allow` naming them.
      const transfer = TRANSFER_DIRECTORY.test(path);
      const allow = transfer ? 'GET, HEAD, POST' : 'POST';
      if (req.method === 'OPTIONS') return res.headers.allow === allow ? [] : [`OPTIONS answered ${res.status} without Allow: ${allow}`];
      if (req.method !== 'POST' && !(transfer && (req.method === 'GET' || req.method === 'HEAD'))) {
        return [`${req.method} answered ${res.status}`];
      }
      // RegisterPeer and TransferDirectory answer the directory as XML, the others plain text (peer-svc's README).
      const expected = DIRECTORY_XML.test(path) ? XML_UTF8 : TEXT_UTF8;
      return type === expected ? [] : [`2xx is not ${expected} but ${JSON.stringify(type)}`];
    }
    // express answers OPTIONS itself on a route it knows, with the methods it serves.
    if (req.method === 'OPTIONS') return [];
  }
  if (route.api === 'gateway') {
    // express answers OPTIONS itself on a route it knows, with the methods it serves.
    if (req.method === 'OPTIONS') return [];
    if (req.method !== 'GET' && req.method !== 'HEAD') return [`${req.method} answered ${res.status}`];
    const expected = GATEWAY_CONTENT_TYPES.find(([pattern]) => pattern.test(path))?.[1];
    if (!expected) return [`the gateway answered ${res.status} on a path it does not serve`];
    return expected.test(type) ? [] : [`content type ${JSON.stringify(type)} does not match ${expected}`];
  }
  if (path === WEBHOOK_PATH && openapi.template(path) === undefined) return webhookSuccessViolations(req, res);
  const documented = openapi.answer(req.method, path, res.status);
  switch (documented.kind) {
    case 'undocumented-path':
      return [`${res.status} on a path the OpenAPI document does not describe`];
    case 'undocumented-method':
      return [`${res.status} to ${req.method}, which the OpenAPI document does not describe on ${openapi.template(path)}`];
    case 'undocumented-status':
      return [`${res.status} is not a documented answer of ${req.method} ${openapi.template(path)}`];
    case 'no-body':
      return res.text === '' ? [] : [`${res.status} has a body the OpenAPI document does not describe`];
    case 'body': {
      if (!type.startsWith(documented.mediaType)) return [`content type ${JSON.stringify(type)} is not ${documented.mediaType}`];
      if (route.api === 'dependency-api' && type !== JSON_UTF8) return [`content type ${JSON.stringify(type)} is not ${JSON_UTF8}`];
      if (req.method === 'HEAD') return [];
      const parsed = parseJson(res.text);
      if (!parsed.ok) return ['2xx body is not JSON'];
      return documented.validate(parsed.value)
        ? []
        : [`2xx body does not validate against the OpenAPI document: ${schemaErrors(documented.validate).join('; ')}`];
    }
  }
}

/**
 * Everything wrong with `res` as the answer to `req` on `route`, or `[]`: a 5xx (none is expected: every upstream
 * is up); an error not in the format of the route's API (RFC 9457 problem details on the catalogue and the
 * gateway's own paths, the JSON:API error envelope on the dependency update API, text/plain on the peer
 * endpoints); a 2xx whose status, content type or body the OpenAPI document does not describe; a redirect other
 * than 304 outside the gateway's static files.
 */
export function violations(route: FuzzRoute, req: FuzzRequest, res: FuzzResponse, openapi: OpenApiResponses): string[] {
  if (res.status >= 500) return [`server error ${res.status}`];
  // Node's HTTP parser refuses a target with bytes beyond ASCII before any route is known: service-kit's server
  // answers that 400 itself, as a problem (packages/service-kit/src/server.ts).
  if (res.status === 400 && NOT_ASCII.test(req.target) && (req.method === 'HEAD' || res.text.includes('Malformed HTTP request'))) {
    return problemViolations(req, res);
  }
  if (res.status >= 400) {
    switch (route.api) {
      case 'catalogue':
      case 'gateway':
        return problemViolations(req, res);
      case 'dependency-api':
        return envelopeViolations(req, res);
      case 'peer':
        return plainTextViolations(req, res);
    }
  }
  if (res.status >= 300) {
    if (res.status === 304 && req.headers['if-none-match'] !== undefined) return [];
    return route.api === 'gateway' && res.status === 301 ? [] : [`unexpected redirect ${res.status}`];
  }
  if (res.status >= 200) return successViolations(route, req, res, openapi);
  return [`unexpected status ${res.status}`];
}
