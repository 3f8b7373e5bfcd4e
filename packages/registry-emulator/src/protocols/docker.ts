import { createHash } from 'node:crypto';
import { type Answer, json, type Protocol, type ProtocolContext, segmentsOf } from '../protocol.ts';
import { artifactBytes, newestFirst, type StoredPackage, type StoredVersion } from '../registry.ts';

/** The OCI image manifest media type (https://github.com/opencontainers/image-spec/blob/main/manifest.md). */
export const OCI_IMAGE_MANIFEST = 'application/vnd.oci.image.manifest.v1+json';

const sha256 = (bytes: string | Buffer) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

/** An image's manifest as the emulator serves it: its JSON text and the digest of that text. */
export interface DockerManifest {
  body: string;
  /** `sha256:<64 hex>` of `body`: the `Docker-Content-Digest`, and what a Dockerfile pins with `@`. */
  digest: string;
  /** The config blob (JSON) and the one layer blob (the synthetic artifact bytes, `docker:<name>@<tag>`). */
  config: string;
  layer: Buffer;
}

/**
 * The OCI image manifest of `name:tag` (https://github.com/opencontainers/image-spec/blob/main/manifest.md): a config
 * blob (JSON naming the tag) and one layer whose bytes are `artifactBytes('docker', name, tag)`. Deterministic from
 * name and tag only, so tests and demo Dockerfiles can compute the digest a pin needs.
 */
export function dockerManifest(name: string, tag: string): DockerManifest {
  const layer = artifactBytes('docker', name, tag);
  const config = JSON.stringify({
    architecture: 'amd64',
    os: 'linux',
    config: { Labels: { 'org.opencontainers.image.version': tag } },
    rootfs: { type: 'layers', diff_ids: [sha256(layer)] },
  });
  const body = JSON.stringify({
    schemaVersion: 2,
    mediaType: OCI_IMAGE_MANIFEST,
    config: { mediaType: 'application/vnd.oci.image.config.v1+json', digest: sha256(config), size: Buffer.byteLength(config) },
    layers: [{ mediaType: 'application/vnd.oci.image.layer.v1.tar+gzip', digest: sha256(layer), size: layer.length }],
    annotations: { 'org.opencontainers.image.ref.name': tag, 'org.opencontainers.image.version': tag },
  });
  return { body, digest: sha256(body), config, layer };
}

/** The error codes of the distribution spec (https://github.com/opencontainers/distribution-spec/blob/main/spec.md#error-codes). */
type ErrorCode = 'NAME_UNKNOWN' | 'MANIFEST_UNKNOWN' | 'BLOB_UNKNOWN' | 'NAME_INVALID' | 'UNAUTHORIZED' | 'DENIED' | 'UNSUPPORTED';

const failure = (status: number, code: ErrorCode, message: string, detail: unknown = null): Answer =>
  json(status, { errors: [{ code, message, detail }] });

const CODE_OF: Record<number, ErrorCode> = { 401: 'UNAUTHORIZED', 403: 'DENIED', 404: 'NAME_UNKNOWN', 405: 'UNSUPPORTED' };

const API_VERSION = { 'docker-distribution-api-version': 'registry/2.0' };

/**
 * What the protocol reads of a request when the server passes it along with the context: its `Authorization` header
 * and its query. Without it the public registry answers anonymous pulls (as a `registry:2` without auth does) and the
 * token endpoint issues tokens for every public repository.
 */
export interface DockerRequest {
  authorization?: string | undefined;
  query?: URLSearchParams;
}

/** A {@link ProtocolContext} that may carry the {@link DockerRequest}. */
export type DockerContext = ProtocolContext & { request?: DockerRequest };

const TOKEN_PREFIX = 'emulator-docker.';
const TOKEN_SECONDS = 300;

/** A token of the emulator's token service: the scope it was asked for and its expiry (epoch seconds), readable by anyone. */
function issueToken(scope: string, issuedAt: Date): string {
  const payload = { scope, exp: Math.floor(issuedAt.getTime() / 1000) + TOKEN_SECONDS };
  return `${TOKEN_PREFIX}${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
}

/** Does the `Authorization` header carry a live token of {@link issueToken} that lets `repository` (or, for none, anything) be pulled? */
function tokenAllows(header: string | undefined, repository: string | undefined): boolean {
  const match = /^Bearer\s+(\S+)$/i.exec(header?.trim() ?? '');
  const token = match?.[1];
  if (!token?.startsWith(TOKEN_PREFIX)) return false;
  let payload: { scope?: unknown; exp?: unknown };
  try {
    payload = JSON.parse(Buffer.from(token.slice(TOKEN_PREFIX.length), 'base64url').toString('utf8'));
  } catch {
    return false;
  }
  if (typeof payload.exp !== 'number' || payload.exp * 1000 < Date.now() || typeof payload.scope !== 'string') return false;
  if (repository === undefined || payload.scope === '*') return true;
  return payload.scope.split(' ').some((scope) => {
    const [kind, name, actions] = scope.split(':');
    return kind === 'repository' && name === repository && (actions ?? '').split(',').includes('pull');
  });
}

/** The 401 of a request without a token: the `WWW-Authenticate` Bearer challenge naming the token service and the scope. */
function challenge(context: ProtocolContext, repository: string | undefined): Answer {
  const realm = `${context.baseUrl}/token`;
  const service = new URL(context.baseUrl).host;
  const scope = repository === undefined ? '' : `,scope="repository:${repository}:pull"`;
  return {
    ...failure(
      401,
      'UNAUTHORIZED',
      'authentication required',
      repository === undefined ? null : [{ Type: 'repository', Name: repository, Action: 'pull' }],
    ),
    headers: { ...API_VERSION, 'www-authenticate': `Bearer realm="${realm}",service="${service}"${scope}` },
  };
}

/** The tags a repository lists: its versions that are not yanked (a yanked tag is deleted), highest first. */
const liveTags = (pkg: StoredPackage): StoredVersion[] => newestFirst(pkg).filter((v) => v.yanked === false);

/** `GET /token?service=…&scope=repository:<name>:pull`: Docker's token response (https://distribution.github.io/distribution/spec/auth/token/). */
function tokenAnswer(context: DockerContext): Answer {
  const issuedAt = new Date();
  const scope = context.request?.query ? context.request.query.getAll('scope').join(' ') : '*';
  const token = issueToken(scope, issuedAt);
  return json(200, { token, access_token: token, expires_in: TOKEN_SECONDS, issued_at: issuedAt.toISOString() });
}

/** Splits `v2/<name…>/<kind>/<reference>` into the repository name, the kind and the reference. */
function route(segments: string[]): { name: string; kind: 'tags' | 'manifests' | 'blobs'; reference: string } | undefined {
  if (segments.length < 4) return undefined;
  const kind = segments.at(-2);
  const reference = segments.at(-1) ?? '';
  if (kind !== 'tags' && kind !== 'manifests' && kind !== 'blobs') return undefined;
  if (kind === 'tags' && reference !== 'list') return undefined;
  return { name: segments.slice(1, -2).join('/'), kind, reference };
}

/**
 * An OCI distribution registry (https://github.com/opencontainers/distribution-spec/blob/main/spec.md), Docker Hub's
 * way: `GET /v2/` (the API check, `{}`), `GET /token` (the token service: `token`, `access_token`, `expires_in`,
 * `issued_at`), `GET /v2/<name>/tags/list` (`{ name, tags }`, every tag at once), `GET|HEAD /v2/<name>/manifests/<tag or
 * digest>` (the OCI image manifest of {@link dockerManifest}, `Docker-Content-Digest` its sha256) and
 * `GET /v2/<name>/blobs/<digest>` (its config and layer). Repository names are as stored (`library/python` for an
 * official image). A yanked version is a deleted tag (not listed, its manifest unknown). When the server passes the
 * request ({@link DockerRequest}), the public registry asks for a token like Docker Hub: 401 with
 * `WWW-Authenticate: Bearer realm="<base>/token",service="<host>",scope="repository:<name>:pull"` without one. The
 * private registry (`/private/docker/`) is behind the server's credentials check. Errors:
 * `{"errors":[{"code":"NAME_UNKNOWN","message":…,"detail":…}]}`.
 */
export const dockerProtocol: Protocol = {
  prefix: 'docker',
  packageManager: 'docker',
  error: (status, message) => ({ ...failure(status, CODE_OF[status] ?? 'UNSUPPORTED', message), headers: API_VERSION }),
  answer(path, context: DockerContext) {
    const segments = segmentsOf(path);
    if (!segments) return failure(400, 'NAME_INVALID', 'invalid path encoding');
    if (segments.length === 1 && segments[0] === 'token') return tokenAnswer(context);
    if (segments[0] !== 'v2') return dockerProtocol.error(404, 'not found');
    const target = route(segments);
    const guarded = context.request !== undefined && !context.privateScope;
    if (segments.length === 1) {
      if (guarded && !tokenAllows(context.request?.authorization, undefined)) return challenge(context, undefined);
      return { ...json(200, {}), headers: API_VERSION };
    }
    if (!target) return dockerProtocol.error(404, 'not found');
    if (guarded && !tokenAllows(context.request?.authorization, target.name)) return challenge(context, target.name);
    const pkg = context.registry.find('docker', target.name, context.privateScope);
    if (!pkg) {
      return { ...failure(404, 'NAME_UNKNOWN', 'repository name not known to registry', { name: target.name }), headers: API_VERSION };
    }
    const tags = liveTags(pkg);
    if (target.kind === 'tags') {
      return { ...json(200, { name: pkg.name, tags: tags.map((v) => v.version) }, pkg.modifiedAt), headers: API_VERSION };
    }
    const found = tags.find((v) => v.version === target.reference || dockerManifest(pkg.name, v.version).digest === target.reference);
    if (target.kind === 'manifests') {
      if (!found) {
        return { ...failure(404, 'MANIFEST_UNKNOWN', 'manifest unknown', { tag: target.reference }), headers: API_VERSION };
      }
      const manifest = dockerManifest(pkg.name, found.version);
      return {
        status: 200,
        contentType: OCI_IMAGE_MANIFEST,
        body: manifest.body,
        lastModified: found.releasedAt,
        headers: { ...API_VERSION, 'docker-content-digest': manifest.digest },
      };
    }
    for (const v of tags) {
      const manifest = dockerManifest(pkg.name, v.version);
      const blob =
        sha256(manifest.config) === target.reference
          ? Buffer.from(manifest.config)
          : sha256(manifest.layer) === target.reference
            ? manifest.layer
            : undefined;
      if (blob) {
        return {
          status: 200,
          contentType: blob === manifest.layer ? 'application/octet-stream' : 'application/vnd.oci.image.config.v1+json',
          body: blob,
          lastModified: v.releasedAt,
          headers: { ...API_VERSION, 'docker-content-digest': target.reference },
        };
      }
    }
    return { ...failure(404, 'BLOB_UNKNOWN', 'blob unknown to registry', { digest: target.reference }), headers: API_VERSION };
  },
  versionEntry: (pkg, v) => {
    const manifest = dockerManifest(pkg.name, v.version);
    return { name: pkg.name, tag: v.version, mediaType: OCI_IMAGE_MANIFEST, digest: manifest.digest };
  },
  metadataUrl: (pkg, context) => `${context.baseUrl}/v2/${pkg.name}/tags/list`,
};
