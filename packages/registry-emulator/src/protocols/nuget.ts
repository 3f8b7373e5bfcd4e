import { type Answer, json, type Protocol, type ProtocolContext, segmentsOf, text } from '../protocol.ts';
import { artifactBytes, artifactDigests, type StoredPackage, type StoredVersion } from '../registry.ts';
import { compareVersions as compareVersionsOf } from '../versions.ts';

/**
 * NuGet's normalised version, lower-cased, as the flat container and registration URLs write it
 * (https://learn.microsoft.com/nuget/concepts/package-versioning#normalized-version-numbers): `1.0` → `1.0.0`,
 * `1.0.0.0` → `1.0.0`, `2.0.0-Beta+sha` → `2.0.0-beta`.
 */
export function nugetKey(version: string): string {
  const match = /^(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:\.(\d+))?(-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/.exec(version);
  if (!match) return version.toLowerCase();
  const numbers = [1, 2, 3, 4].map((i) => String(BigInt(match[i] ?? '0')));
  if (numbers[3] === '0') numbers.pop();
  return `${numbers.join('.')}${match[5] ?? ''}`.toLowerCase();
}

/** NuGet's mark of an unlisted version's `published` time on nuget.org. */
const UNLISTED_PUBLISHED = '1900-01-01T00:00:00+00:00';

const urls = (context: ProtocolContext, pkg: StoredPackage, v?: StoredVersion) => {
  const id = pkg.name.toLowerCase();
  const key = v ? nugetKey(v.version) : '';
  return {
    registrationIndex: `${context.baseUrl}/v3/registration/${id}/index.json`,
    leaf: `${context.baseUrl}/v3/registration/${id}/${key}.json`,
    catalog: `${context.baseUrl}/v3/catalog0/data/${id}/${key}.json`,
    nupkg: `${context.baseUrl}/v3-flatcontainer/${id}/${key}/${id}.${key}.nupkg`,
  };
};

/**
 * A registration leaf's `catalogEntry` (https://learn.microsoft.com/nuget/api/registration-base-url-resource#catalog-entry):
 * `id`, `version`, `listed` (a yanked version is unlisted, with nuget.org's 1900 `published`), `published`,
 * `projectUrl`, `packageContent`, `dependencyGroups` (one group without a target framework).
 */
function catalogEntry(pkg: StoredPackage, v: StoredVersion, context: ProtocolContext) {
  const at = urls(context, pkg, v);
  const listed = v.yanked === false;
  return {
    '@id': at.catalog,
    '@type': 'PackageDetails',
    authors: pkg.name.split('.')[0] ?? pkg.name,
    dependencyGroups: [
      {
        '@id': `${at.catalog}#dependencygroup`,
        '@type': 'PackageDependencyGroup',
        dependencies: Object.entries(v.dependencies)
          .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
          .map(([id, range]) => ({
            '@id': `${at.catalog}#dependencygroup/${id.toLowerCase()}`,
            '@type': 'PackageDependency',
            id,
            range,
            registration: `${context.baseUrl}/v3/registration/${id.toLowerCase()}/index.json`,
          })),
      },
    ],
    description: pkg.summary,
    id: pkg.name,
    licenseExpression: pkg.license,
    listed,
    packageContent: at.nupkg,
    projectUrl: pkg.repository ?? pkg.homepage ?? '',
    published: listed ? v.releasedAt.toISOString() : UNLISTED_PUBLISHED,
    summary: '',
    tags: [],
    title: '',
    version: v.version,
  };
}

/** A registration leaf as it appears in a page, and its own document. */
function leaf(pkg: StoredPackage, v: StoredVersion, context: ProtocolContext) {
  const at = urls(context, pkg, v);
  return {
    '@id': at.leaf,
    '@type': 'Package',
    catalogEntry: catalogEntry(pkg, v, context),
    packageContent: at.nupkg,
    registration: at.registrationIndex,
  };
}

/** The registration index: one page holding every version inline, lowest first. */
function registrationIndex(pkg: StoredPackage, context: ProtocolContext) {
  const versions = [...pkg.versions].sort((a, b) => compareVersionsOf(a.version, b.version));
  const { registrationIndex: index } = urls(context, pkg);
  const lower = nugetKey(versions[0]?.version ?? '0.0.0');
  const upper = nugetKey(versions.at(-1)?.version ?? '0.0.0');
  return {
    '@id': index,
    '@type': ['catalog:CatalogRoot', 'PackageRegistration', 'catalog:Permalink'],
    count: 1,
    items: [
      {
        '@id': `${index}#page/${lower}/${upper}`,
        '@type': 'catalog:CatalogPage',
        count: versions.length,
        items: versions.map((v) => leaf(pkg, v, context)),
        lower,
        upper,
        parent: index,
      },
    ],
  };
}

/** The catalog leaf (https://learn.microsoft.com/nuget/api/catalog-resource#package-details-catalog-items) with `packageHash`. */
function catalogLeaf(pkg: StoredPackage, v: StoredVersion, context: ProtocolContext) {
  const digests = artifactDigests('nuget', pkg.name, v.version);
  const { dependencyGroups, ...entry } = catalogEntry(pkg, v, context);
  return {
    ...entry,
    '@type': ['PackageDetails', 'catalog:Permalink'],
    created: v.releasedAt.toISOString(),
    lastEdited: pkg.modifiedAt.toISOString(),
    dependencyGroups,
    isPrerelease: v.prerelease,
    packageHash: digests.sha512,
    packageHashAlgorithm: 'SHA512',
    packageSize: digests.size,
  };
}

const error = (status: number, message: string): Answer => text(status, message);

/**
 * A NuGet v3 feed (https://learn.microsoft.com/nuget/api/overview) under `/nuget/` (client base URL: the service index
 * `/nuget/v3/index.json`):
 * - `GET /v3/index.json`: the service index, naming `PackageBaseAddress/3.0.0` (`/v3-flatcontainer/`),
 *   `RegistrationsBaseUrl` and `RegistrationsBaseUrl/3.6.0` (`/v3/registration/`) and `Catalog/3.0.0`;
 * - `GET /v3-flatcontainer/{id}/index.json`: `{"versions": [...]}`, every version normalised and lower-cased, lowest
 *   first (unlisted ones too); `GET /v3-flatcontainer/{id}/{version}/{id}.{version}.nupkg`: the synthetic package bytes;
 * - `GET /v3/registration/{id}/index.json`: the registration index with its one page inline; `GET
 *   /v3/registration/{id}/{version}.json`: one leaf; a yanked version is unlisted (`listed: false`);
 * - `GET /v3/catalog0/data/{id}/{version}.json`: the catalog leaf, with `packageHash` (SHA-512, base64) and `packageSize`.
 * Ids and versions in paths are lower-case, as NuGet clients write them (another case is a 404, as on nuget.org's blob
 * storage). Errors are plain text.
 */
export const nugetProtocol: Protocol = {
  prefix: 'nuget',
  clientPath: 'v3/index.json',
  packageManager: 'nuget',
  error,
  answer(path, context) {
    const segments = segmentsOf(path);
    if (!segments) return error(404, 'Not Found');
    const route = segments.join('/');
    if (route === 'v3/index.json') {
      const base = context.baseUrl;
      return json(
        200,
        {
          version: '3.0.0',
          resources: [
            {
              '@id': `${base}/v3-flatcontainer/`,
              '@type': 'PackageBaseAddress/3.0.0',
              comment: 'Base URL of where NuGet packages are stored',
            },
            { '@id': `${base}/v3/registration/`, '@type': 'RegistrationsBaseUrl', comment: 'Base URL of package registrations' },
            {
              '@id': `${base}/v3/registration/`,
              '@type': 'RegistrationsBaseUrl/3.6.0',
              comment: 'Registrations with SemVer 2.0.0 packages',
            },
            { '@id': `${base}/v3/catalog0/index.json`, '@type': 'Catalog/3.0.0', comment: 'Index of the NuGet package catalog' },
          ],
        },
        context.startedAt,
      );
    }
    const [first, second, id = '', third, fourth] = segments;
    const pkg = id === id.toLowerCase() ? context.registry.find('nuget', id, context.privateScope) : undefined;
    const versionOf = (key: string | undefined) =>
      key !== undefined && key === key.toLowerCase() ? pkg?.versions.find((v) => nugetKey(v.version) === key) : undefined;
    if (first === 'v3-flatcontainer' && segments.length >= 3) {
      const [, flatId = '', file, name] = segments;
      const flatPkg = flatId === flatId.toLowerCase() ? context.registry.find('nuget', flatId, context.privateScope) : undefined;
      if (!flatPkg) return error(404, 'Not Found');
      if (segments.length === 3 && file === 'index.json') {
        const versions = [...flatPkg.versions].sort((a, b) => compareVersionsOf(a.version, b.version)).map((v) => nugetKey(v.version));
        return json(200, { versions }, flatPkg.modifiedAt);
      }
      const v = file !== undefined && file === file.toLowerCase() ? flatPkg.versions.find((x) => nugetKey(x.version) === file) : undefined;
      if (segments.length === 4 && v && name === `${flatId}.${file}.nupkg`) {
        return {
          status: 200,
          contentType: 'application/octet-stream',
          body: artifactBytes('nuget', flatPkg.name, v.version),
          lastModified: v.releasedAt,
        };
      }
      return error(404, 'Not Found');
    }
    if (first === 'v3' && second === 'registration' && pkg && segments.length === 4 && third !== undefined) {
      if (third === 'index.json') return json(200, registrationIndex(pkg, context), pkg.modifiedAt);
      const v = versionOf(third.replace(/\.json$/, ''));
      if (v && third.endsWith('.json')) return json(200, leaf(pkg, v, context), pkg.modifiedAt);
    }
    if (first === 'v3' && second === 'catalog0' && segments[2] === 'data' && segments.length === 5) {
      const catalogPkg = third === third?.toLowerCase() ? context.registry.find('nuget', third ?? '', context.privateScope) : undefined;
      const key = (fourth ?? '').replace(/\.json$/, '');
      const v = key === key.toLowerCase() ? catalogPkg?.versions.find((x) => nugetKey(x.version) === key) : undefined;
      if (catalogPkg && v && fourth?.endsWith('.json')) return json(200, catalogLeaf(catalogPkg, v, context), v.releasedAt);
    }
    return error(404, 'Not Found');
  },
  versionEntry: (pkg, v, context) => leaf(pkg, v, context),
  metadataUrl: (pkg, context) => urls(context, pkg).registrationIndex,
};
