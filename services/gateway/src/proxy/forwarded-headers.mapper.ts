import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { REQUEST_ID_HEADER, requestIdFrom } from '@switchyard/service-kit';

/** Hop-by-hop headers (RFC 9110 section 7.6.1), plus `expect` (answered by the gateway itself) and `host`. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'expect',
  'host',
]);

/**
 * Headers the gateway sets itself on the way up; incoming copies are replaced or extended. An incoming
 * RFC 7239 `Forwarded` header is dropped, so it cannot contradict the `X-Forwarded-*` the gateway vouches for.
 */
const REWRITTEN = new Set([REQUEST_ID_HEADER, 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'forwarded']);

function nominatedBy(connection: string | undefined): Set<string> | undefined {
  if (!connection || connection === 'keep-alive' || connection === 'close') return undefined;
  return new Set(connection.split(',').map((name) => name.trim().toLowerCase()));
}

/** What the gateway needs to know about an incoming request, read in one pass over its raw headers. */
export interface UpstreamRequest {
  /** The request's id: the client's `x-request-id` when acceptable, else a new UUID. */
  requestId: string;
  /** Flat `[name, value, name, value, ...]` list to send upstream. */
  headers: string[];
  /** The declared body length, or undefined when there is none. */
  contentLength: number | undefined;
  chunked: boolean;
}

/**
 * Reads `req.rawHeaders` once and builds the upstream request's headers: the client's end-to-end
 * headers, `x-request-id`, and `x-forwarded-for` (appended to), `-host` and `-proto` as a reverse
 * proxy sets them. Hop-by-hop headers, including any the `Connection` header names, are dropped;
 * `host` becomes the upstream's own.
 */
export function prepareUpstreamRequest(req: IncomingMessage): UpstreamRequest {
  const raw = req.rawHeaders;
  let connection: string | undefined;
  let incomingId: string | undefined;
  let forwardedFor: string | undefined;
  let host = '';
  let contentLength: number | undefined;
  let chunked = false;
  // One pass: each name lower-cased once, kept unless the gateway drops or sets it; the names a `Connection` header
  // nominates (rare: it usually says `keep-alive` or `close`) are known only at the end, and removed then.
  const headers: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase();
    const value = raw[i + 1] as string;
    if (HOP_BY_HOP.has(name) || REWRITTEN.has(name)) {
      if (name === 'connection') connection = value;
      else if (name === REQUEST_ID_HEADER) incomingId = incomingId === undefined ? value : '';
      else if (name === 'x-forwarded-for') forwardedFor = forwardedFor ? `${forwardedFor}, ${value}` : value;
      else if (name === 'host') host = value;
      else if (name === 'transfer-encoding') chunked = true;
      continue;
    }
    if (name === 'content-length') contentLength = Number(value);
    headers.push(name, value);
  }
  const nominated = nominatedBy(connection);
  if (nominated) {
    let kept = 0;
    for (let i = 0; i < headers.length; i += 2) {
      if (nominated.has(headers[i] as string)) continue;
      headers[kept++] = headers[i] as string;
      headers[kept++] = headers[i + 1] as string;
    }
    headers.length = kept;
  }
  const requestId = requestIdFrom(incomingId);
  const peer = req.socket.remoteAddress ?? '';
  const proto = 'encrypted' in req.socket && req.socket.encrypted ? 'https' : 'http';
  headers.push(
    REQUEST_ID_HEADER,
    requestId,
    'x-forwarded-for',
    forwardedFor ? `${forwardedFor}, ${peer}` : peer,
    'x-forwarded-proto',
    proto,
  );
  if (host) headers.push('x-forwarded-host', host);
  return { requestId, headers, contentLength, chunked };
}

/**
 * The upstream response's headers less hop-by-hop ones (and any the `Connection` header names), as a new
 * object: deleting keys from undici's object would turn it into a slow dictionary-mode object on the hot path.
 */
export function stripHopByHop(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const nominated = nominatedBy(typeof headers.connection === 'string' ? headers.connection : undefined);
  const out: IncomingHttpHeaders = {};
  for (const name in headers) {
    if ((HOP_BY_HOP.has(name) && name !== 'host') || nominated?.has(name)) continue;
    out[name] = headers[name];
  }
  return out;
}
