import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';

/** One request exactly as the fuzzer sends it: no normalisation of the target, no header added but `content-length`. */
export interface FuzzRequest {
  /** Any HTTP method token Node's parser knows (`GET`, `PATCH`, `PROPFIND`, ...). */
  method: string;
  /** The request target as sent: path and query string, dot segments and percent-escapes left as they are. */
  target: string;
  /** Header names in lower case; values of visible ASCII and ISO-8859-1 (what Node lets a client send). */
  headers: Record<string, string>;
  /** The body, sent with its `content-length`; none when undefined. */
  body?: string | Buffer;
  /**
   * Answer the server's Digest challenge: send the request once without `authorization`, then again with the
   * answer to the MD5 challenge of the `401` (peer-svc's authenticated endpoints).
   */
  digest?: boolean;
}

/** An answer read whole. */
export interface FuzzResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body as UTF-8 text (empty for none). */
  text: string;
}

/**
 * Sends `req` to `baseUrl` (`http://host:port`) over a new connection and reads the whole answer. A body over 64 KiB
 * is written `earlyAnswerWaitMs` after the headers, unless the server has answered by then.
 * @throws Error when the connection fails or breaks before the answer is complete, or nothing arrives within `timeoutMs`
 */
export function sendRaw(baseUrl: string, req: FuzzRequest, timeoutMs = 15_000, earlyAnswerWaitMs = 20): Promise<FuzzResponse> {
  const { hostname, port } = new URL(baseUrl);
  const headers: Record<string, string> = { ...req.headers };
  if (req.body !== undefined) headers['content-length'] = String(Buffer.byteLength(req.body));
  return new Promise((resolve, reject) => {
    let answered = false;
    const client = httpRequest({ hostname, port, method: req.method, path: req.target, headers, agent: false }, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
    });
    client.setTimeout(timeoutMs, () => client.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    // A server that answers early (413) may close before the whole body is written: the answer is what counts.
    client.on('error', (error) => {
      if (!answered) reject(error);
    });
    if (req.body === undefined || Buffer.byteLength(req.body) <= EARLY_ANSWER_BYTES) {
      client.end(req.body);
      return;
    }
    // A body this large may be refused on its Content-Length alone, and the connection closed: the headers go first,
    // and the body only if no answer came meanwhile (else the write fails with EPIPE and the answer is lost).
    client.flushHeaders();
    setTimeout(() => {
      if (!answered) client.end(req.body);
    }, earlyAnswerWaitMs);
  });
}

/** Bodies above this many bytes are sent only after {@link sendRaw}'s wait for an early answer. */
const EARLY_ANSWER_BYTES = 65_536;
