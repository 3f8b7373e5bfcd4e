import { type Answer, json, type Protocol, type ProtocolContext, segmentsOf, text } from '../protocol.ts';
import { artifactBytes, artifactDigests, type StoredPackage, type StoredVersion } from '../registry.ts';

/** `releases.json`: version → release time in Unix seconds, oldest first (the site lists every release, none withdrawn). */
function releases(pkg: StoredPackage): Record<string, number> {
  return Object.fromEntries(pkg.versions.map((v) => [v.version, Math.floor(v.releasedAt.getTime() / 1000)]));
}

/** The version's elm.json: a package elm.json whose `dependencies` are the stored ones (Elm ranges). */
function elmJson(pkg: StoredPackage, v: StoredVersion) {
  return {
    type: 'package',
    name: pkg.name,
    summary: pkg.summary,
    license: pkg.license,
    version: v.version,
    'exposed-modules': [],
    'elm-version': '0.19.0 <= v < 0.20.0',
    dependencies: Object.fromEntries(Object.entries(v.dependencies).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    'test-dependencies': {},
  };
}

const error = (status: number, message: string): Answer => text(status, message);

/**
 * The Elm package site (https://package.elm-lang.org/, the endpoints `elm` itself uses): `GET
 * /packages/{author}/{project}/releases.json` (`{ "1.0.0": <unix seconds>, ... }`), `GET .../{version}/elm.json`, `GET
 * .../{version}/endpoint.json` (`url` of the zip served at `.../{version}/package.zip`, `hash` its SHA-1) and the zip
 * (the artifact bytes). The site never withdraws a release: yanked versions stay listed. Errors are plain text.
 */
export const elmProtocol: Protocol = {
  prefix: 'elm',
  packageManager: 'elm',
  error,
  answer(path, context) {
    const segments = segmentsOf(path);
    if (segments?.[0] !== 'packages' || segments.length < 4) return error(404, 'Not Found');
    const [, author, project, third, file] = segments;
    const pkg = context.registry.find('elm', `${author}/${project}`, context.privateScope);
    if (!pkg) return error(404, `Could not find package ${author}/${project}`);
    if (segments.length === 4 && third === 'releases.json') return json(200, releases(pkg), pkg.modifiedAt);
    const v = segments.length === 5 ? pkg.versions.find((x) => x.version === third) : undefined;
    if (!v) return error(404, 'Not Found');
    if (file === 'elm.json') return json(200, elmJson(pkg, v), v.releasedAt);
    if (file === 'endpoint.json') {
      return json(
        200,
        { url: `${context.baseUrl}/packages/${pkg.name}/${v.version}/package.zip`, hash: artifactDigests('elm', pkg.name, v.version).sha1 },
        v.releasedAt,
      );
    }
    if (file === 'package.zip')
      return { status: 200, contentType: 'application/zip', body: artifactBytes('elm', pkg.name, v.version), lastModified: v.releasedAt };
    return error(404, 'Not Found');
  },
  versionEntry: (pkg, v) => ({ version: v.version, released: Math.floor(v.releasedAt.getTime() / 1000), elmJson: elmJson(pkg, v) }),
  metadataUrl: (pkg, context: ProtocolContext) => `${context.baseUrl}/packages/${pkg.name}/releases.json`,
};
