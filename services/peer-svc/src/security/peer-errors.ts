/**
 * Base of every failure of the peer client. `peer` is the peer's origin (`http://host:port`, no userinfo, no path)
 * or `undefined` when the URL did not even parse; safe to log and to map to a status (see the subclasses).
 */
export class PeerError extends Error {
  readonly peer: string | undefined;

  constructor(message: string, peer: string | undefined, options?: ErrorOptions) {
    super(message, options);
    this.name = 'PeerError';
    this.peer = peer;
  }
}

/** The URL is not an http(s) URL of an allow-listed peer (or carries userinfo); thrown before any socket is opened. `peer` is the refused `host:port` (undefined for an unparsable or non-http URL), `reason` one of `unparsable`, `scheme`, `userinfo`, `not-listed`. Maps to 403. */
export class PeerNotAllowedError extends PeerError {
  readonly reason: string;

  constructor(peer: string | undefined, reason: string) {
    super(`peer not allowed (${reason})`, peer);
    this.name = 'PeerNotAllowedError';
    this.reason = reason;
  }
}

/** The peer did not connect within the connect timeout or answer within the response timeout. Maps to 504. */
export class PeerTimeoutError extends PeerError {
  readonly phase: 'connect' | 'response';

  constructor(peer: string | undefined, phase: 'connect' | 'response', ms: number) {
    super(`peer ${phase} timeout after ${ms} ms`, peer);
    this.name = 'PeerTimeoutError';
    this.phase = phase;
  }
}

/**
 * Authentication with the peer failed: it asked for a scheme other than Digest (e.g. Basic, and then it got no
 * credentials at all), offered no usable Digest challenge, or refused our Digest answer. `status` is the peer's. Maps to 502.
 */
export class PeerAuthError extends PeerError {
  readonly status: number;

  constructor(peer: string | undefined, status: number, message: string) {
    super(message, peer);
    this.name = 'PeerAuthError';
    this.status = status;
  }
}

/** The peer's answer exceeded the byte bound; the connection was dropped after at most `limit` bytes were kept. Maps to 502. */
export class PeerResponseTooLargeError extends PeerError {
  readonly limit: number;

  constructor(peer: string | undefined, limit: number) {
    super(`peer answer larger than ${limit} bytes`, peer);
    this.name = 'PeerResponseTooLargeError';
    this.limit = limit;
  }
}

/** Any other transport failure (connection refused, reset, TLS, bad HTTP); `cause` holds the undici error. Maps to 502. */
export class PeerConnectionError extends PeerError {
  constructor(peer: string | undefined, cause: unknown) {
    super(`peer connection failed: ${cause instanceof Error ? cause.message : String(cause)}`, peer, { cause });
    this.name = 'PeerConnectionError';
  }
}
