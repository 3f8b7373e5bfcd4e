import { createHash, timingSafeEqual } from 'node:crypto';
import { ifNoneMatchHits } from '@switchyard/service-kit';
import type { Request, RequestHandler, Response } from 'express';
import type { PackageManager } from './package-managers.ts';
import type { Answer, Protocol, ProtocolContext } from './protocol.ts';
import { cratesProtocol } from './protocols/crates.ts';
import { dockerProtocol } from './protocols/docker.ts';
import { elmProtocol } from './protocols/elm.ts';
import { goproxyProtocol } from './protocols/goproxy.ts';
import { hexProtocol } from './protocols/hex.ts';
import { mavenProtocol } from './protocols/maven.ts';
import { npmProtocol } from './protocols/npm.ts';
import { nugetProtocol } from './protocols/nuget.ts';
import { packagistProtocol } from './protocols/packagist.ts';
import { pypiProtocol } from './protocols/pypi.ts';
import { rubygemsProtocol } from './protocols/rubygems.ts';
import { terraformProtocol } from './protocols/terraform.ts';
import type { Registry } from './registry.ts';
import type { ParsedSeedCredential } from './seed.ts';

/** Every protocol the emulator speaks, by path prefix. */
export const PROTOCOLS: readonly Protocol[] = [
  npmProtocol,
  pypiProtocol,
  mavenProtocol,
  rubygemsProtocol,
  cratesProtocol,
  packagistProtocol,
  nugetProtocol,
  dockerProtocol,
  goproxyProtocol,
  terraformProtocol,
  hexProtocol,
  elmProtocol,
];

/** The protocol of a package manager. */
export function protocolOf(packageManager: PackageManager): Protocol {
  return PROTOCOLS.find((p) => p.packageManager === packageManager) as Protocol;
}

/** The realm of the private registries' `WWW-Authenticate` challenges. */
export const PRIVATE_REALM = 'registry-emulator';

const PATH = new RegExp(`^/(private/)?(${PROTOCOLS.map((p) => p.prefix).join('|')})(/.*)?$`);

const sameText = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * The credential an `Authorization` header proves: `Bearer <token>`, `Basic` with a seeded user and password (or any
 * user name and a token as the password, as pip and Composer send tokens), or a bare token (as cargo sends it).
 */
export function credentialOf(header: string | undefined, credentials: readonly ParsedSeedCredential[]): ParsedSeedCredential | undefined {
  if (!header) return undefined;
  const [scheme = '', ...rest] = header.trim().split(/\s+/);
  const value = rest.join(' ');
  const byToken = (token: string) => credentials.find((c) => c.token !== undefined && sameText(c.token, token));
  if (/^basic$/i.test(scheme)) {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return undefined;
    const user = decoded.slice(0, colon);
    const password = decoded.slice(colon + 1);
    return (
      credentials.find(
        (c) => c.username !== undefined && c.password !== undefined && sameText(c.username, user) && sameText(c.password, password),
      ) ?? byToken(password)
    );
  }
  if (/^(bearer|token)$/i.test(scheme)) return byToken(value);
  return rest.length === 0 ? byToken(scheme) : undefined;
}

/** A strong entity tag of a body: its SHA-256, base64url, quoted. */
const entityTag = (body: string | Buffer) => `"${createHash('sha256').update(body).digest('base64url')}"`;

function notModified(req: Request, etag: string, lastModified: Date): boolean {
  const ifNoneMatch = req.get('if-none-match');
  if (ifNoneMatch !== undefined) return ifNoneMatchHits(ifNoneMatch, etag);
  const ifModifiedSince = req.get('if-modified-since');
  if (ifModifiedSince === undefined) return false;
  const since = Date.parse(ifModifiedSince);
  return !Number.isNaN(since) && Math.floor(lastModified.getTime() / 1000) * 1000 <= since;
}

function write(req: Request, res: Response, answer: Answer, privateScope: boolean): void {
  for (const [name, value] of Object.entries(answer.headers ?? {})) res.setHeader(name, value);
  if (answer.status === 200 && answer.lastModified) {
    const etag = entityTag(answer.body);
    res.setHeader('etag', etag);
    res.setHeader('last-modified', answer.lastModified.toUTCString());
    // Answers to authenticated requests must not be kept by shared caches.
    res.setHeader('cache-control', `${privateScope ? 'private' : 'public'}, max-age=300`);
    if (privateScope) res.setHeader('vary', 'Authorization');
    if (notModified(req, etag, answer.lastModified)) {
      res.status(304).end();
      return;
    }
  }
  res.status(answer.status).setHeader('content-type', answer.contentType);
  res.end(answer.body);
}

/**
 * Serves every protocol under `/<prefix>/…` (public packages) and `/private/<prefix>/…` (private packages, behind
 * credentials: 401 with `WWW-Authenticate: Basic …, Bearer …` without valid ones, 403 when the credential may not read
 * that package manager). GET and HEAD only (others: 405 in the registry's style). Other paths go to `next`.
 */
export function protocolRoutes(registry: Registry, credentials: readonly ParsedSeedCredential[], startedAt: Date): RequestHandler {
  return (req, res, next) => {
    const match = PATH.exec(req.path);
    const protocol = match && PROTOCOLS.find((p) => p.prefix === match[2]);
    if (!match || !protocol) {
      next();
      return;
    }
    const privateScope = match[1] !== undefined;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      write(req, res, { ...protocol.error(405, 'Method Not Allowed'), headers: { allow: 'GET, HEAD' } }, privateScope);
      return;
    }
    if (privateScope) {
      const credential = credentialOf(req.get('authorization'), credentials);
      if (!credential) {
        res.setHeader('www-authenticate', [`Basic realm="${PRIVATE_REALM}"`, `Bearer realm="${PRIVATE_REALM}"`]);
        write(req, res, protocol.error(401, 'Unauthorized'), privateScope);
        return;
      }
      if (!credential.packageManagers.includes(protocol.packageManager)) {
        write(req, res, protocol.error(403, 'Forbidden'), privateScope);
        return;
      }
    }
    const context: ProtocolContext = {
      registry,
      privateScope,
      baseUrl: baseUrlOf(req, protocol, privateScope),
      startedAt,
      request: { authorization: req.get('authorization'), query: new URL(req.originalUrl, 'http://emulator.invalid').searchParams },
    };
    write(req, res, protocol.answer(match[3] ?? '/', context), privateScope);
  };
}

/** The protocol's base URL as the client reached the emulator (its `Host` header), e.g. `http://127.0.0.1:8091/npm`. */
export function baseUrlOf(req: Request, protocol: Protocol, privateScope: boolean): string {
  return `${req.protocol}://${req.get('host') ?? 'localhost'}${privateScope ? '/private' : ''}/${protocol.prefix}`;
}
