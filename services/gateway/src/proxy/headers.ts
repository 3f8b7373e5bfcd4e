import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';

/** Hop-by-hop headers (RFC 9110 section 7.6.1) plus `expect`, which the gateway answers itself; never forwarded. */
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

function connectionNominated(headers: IncomingHttpHeaders): Set<string> | undefined {
  const connection = headers.connection;
  if (!connection || connection === 'keep-alive' || connection === 'close') return undefined;
  return new Set(
    String(connection)
      .split(',')
      .map((name) => name.trim().toLowerCase()),
  );
}

/**
 * Headers to send upstream: the client's end-to-end headers, `x-request-id`, and `x-forwarded-for`
 * (appended to), `-host` and `-proto` as a reverse proxy sets them. `host` is the upstream's own.
 */
export function upstreamRequestHeaders(req: IncomingMessage, requestId: string): Record<string, string | string[]> {
  const nominated = connectionNominated(req.headers);
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || nominated?.has(name)) continue;
    out[name] = value;
  }
  const peer = req.socket.remoteAddress ?? '';
  const prior = req.headers['x-forwarded-for'];
  out['x-forwarded-for'] = prior ? `${prior}, ${peer}` : peer;
  out['x-forwarded-host'] = req.headers.host ?? '';
  out['x-forwarded-proto'] = 'encrypted' in req.socket && req.socket.encrypted ? 'https' : 'http';
  out['x-request-id'] = requestId;
  return out;
}

/** Response headers to pass back to the client: the upstream's, less hop-by-hop ones. */
export function clientResponseHeaders(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const nominated = connectionNominated(headers);
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || (HOP_BY_HOP.has(name) && name !== 'host') || nominated?.has(name)) continue;
    out[name] = value;
  }
  return out;
}
