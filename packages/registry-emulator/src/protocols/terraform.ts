import { createHash } from 'node:crypto';
import { zipSync } from 'fflate';
import { type Answer, json, type Protocol, type ProtocolContext, segmentsOf, text } from '../protocol.ts';
import { newestFirst, type StoredPackage, type StoredVersion } from '../registry.ts';

/** The platforms every emulated provider version is built for. */
export const TERRAFORM_PLATFORMS: readonly { os: string; arch: string }[] = [
  { os: 'darwin', arch: 'arm64' },
  { os: 'linux', arch: 'amd64' },
  { os: 'linux', arch: 'arm64' },
  { os: 'windows', arch: 'amd64' },
];

/** The provider's type: the last part of `namespace/type`. */
const typeOf = (name: string) => name.split('/').at(-1) ?? name;

/** The zip file name of a provider build, as HashiCorp names them: `terraform-provider-aws_5.31.0_linux_amd64.zip`. */
export function providerZipName(name: string, version: string, os: string, arch: string): string {
  return `terraform-provider-${typeOf(name)}_${version}_${os}_${arch}.zip`;
}

/** The one file inside a provider zip: its name (`terraform-provider-aws_v5.31.0_x5`) and its bytes. */
function providerExecutable(name: string, version: string, os: string, arch: string): [string, Buffer] {
  const file = `terraform-provider-${typeOf(name)}_v${version}_x5${os === 'windows' ? '.exe' : ''}`;
  return [file, Buffer.from(`terraform:${name.toLowerCase()}@${version} ${os}_${arch}`, 'utf8')];
}

/**
 * The zip of a provider build: one executable (see {@link providerExecutable}), stored with a fixed time so the bytes,
 * and so the digests, are the same on every run.
 */
export function providerZip(name: string, version: string, os: string, arch: string): Buffer {
  const [file, bytes] = providerExecutable(name, version, os, arch);
  return Buffer.from(zipSync({ [file]: [bytes, { mtime: new Date('2020-01-01T00:00:00Z'), level: 0 }] }));
}

/** The SHA-256 (hex) of {@link providerZip}: the registry's `shasum`, and the lock file's `zh:` hash. */
export function providerZipSha256(name: string, version: string, os: string, arch: string): string {
  return createHash('sha256')
    .update(providerZip(name, version, os, arch))
    .digest('hex');
}

/**
 * The `h1:` hash of a provider build (golang.org/x/mod/sumdb/dirhash Hash1 over the zip's files): base64 of the SHA-256
 * of the lines `<sha256 hex of the file>  <file name>\n`, sorted by name. What Terraform writes into the lock file for
 * the platforms it has installed.
 */
export function providerH1(name: string, version: string, os: string, arch: string): string {
  const [file, bytes] = providerExecutable(name, version, os, arch);
  const line = `${createHash('sha256').update(bytes).digest('hex')}  ${file}\n`;
  return `h1:${createHash('sha256').update(line).digest('base64')}`;
}

/** Listed versions (the registry has no yank: a yanked version is withdrawn), highest first. */
const listed = (pkg: StoredPackage) => newestFirst(pkg).filter((v) => v.yanked === false);

const isProvider = (pkg: StoredPackage) => pkg.name.split('/').length === 2;

/** A provider version of `GET /v1/providers/{namespace}/{type}/versions`. */
function providerVersionEntry(v: StoredVersion) {
  return { version: v.version, protocols: ['5.0'], platforms: TERRAFORM_PLATFORMS.map(({ os, arch }) => ({ os, arch })) };
}

/** A module version of `GET /v1/modules/{namespace}/{name}/{provider}/versions`. */
function moduleVersionEntry(v: StoredVersion) {
  return { version: v.version, submodules: [], root: { providers: [], dependencies: [] } };
}

const error = (status: number, message: string): Answer => json(status, { errors: [message] });

/** The stored package `parts` names (providers 2 parts, modules 3), of the right kind. */
function packageOf(context: ProtocolContext, parts: string[]): StoredPackage | undefined {
  const pkg = context.registry.find('terraform', parts.join('/'), context.privateScope);
  return pkg && (parts.length === 2) === isProvider(pkg) ? pkg : undefined;
}

/** The provider protocol's answers, below `/v1/providers/`. */
function providers(segments: string[], context: ProtocolContext): Answer {
  const [namespace = '', type = '', version, action, ...rest] = segments;
  const pkg = packageOf(context, [namespace, type]);
  if (!pkg) return error(404, 'Not Found');
  const base = `${context.baseUrl}/v1/providers/${pkg.name}`;
  if (segments.length === 3 && version === 'versions') {
    return json(200, { id: pkg.name, versions: listed(pkg).map(providerVersionEntry), warnings: null }, pkg.modifiedAt);
  }
  const v = listed(pkg).find((x) => x.version === version);
  if (!v) return error(404, 'Not Found');
  const sums = `terraform-provider-${typeOf(pkg.name)}_${v.version}_SHA256SUMS`;
  if (action === 'download' && rest.length === 2) {
    const [os = '', arch = ''] = rest;
    if (!TERRAFORM_PLATFORMS.some((p) => p.os === os && p.arch === arch)) return error(404, 'Not Found');
    const filename = providerZipName(pkg.name, v.version, os, arch);
    return json(
      200,
      {
        protocols: ['5.0'],
        os,
        arch,
        filename,
        download_url: `${base}/${v.version}/files/${filename}`,
        shasums_url: `${base}/${v.version}/files/${sums}`,
        shasums_signature_url: `${base}/${v.version}/files/${sums}.sig`,
        shasum: providerZipSha256(pkg.name, v.version, os, arch),
        signing_keys: { gpg_public_keys: [] },
      },
      v.releasedAt,
    );
  }
  if (action === 'files' && rest.length === 1) {
    const [file] = rest;
    if (file === sums) {
      const lines = TERRAFORM_PLATFORMS.map(
        ({ os, arch }) => `${providerZipSha256(pkg.name, v.version, os, arch)}  ${providerZipName(pkg.name, v.version, os, arch)}\n`,
      ).sort((a, b) => (a.slice(66) < b.slice(66) ? -1 : 1));
      return text(200, lines.join(''), v.releasedAt);
    }
    const platform = TERRAFORM_PLATFORMS.find(({ os, arch }) => providerZipName(pkg.name, v.version, os, arch) === file);
    if (platform) {
      return {
        status: 200,
        contentType: 'application/zip',
        body: providerZip(pkg.name, v.version, platform.os, platform.arch),
        lastModified: v.releasedAt,
      };
    }
  }
  return error(404, 'Not Found');
}

/** The module protocol's answers, below `/v1/modules/`. */
function modules(segments: string[], context: ProtocolContext): Answer {
  const [namespace = '', name = '', provider = '', version, action] = segments;
  const pkg = packageOf(context, [namespace, name, provider]);
  if (!pkg) return error(404, 'Not Found');
  if (segments.length === 4 && version === 'versions') {
    return json(200, { modules: [{ source: pkg.name, versions: listed(pkg).map(moduleVersionEntry) }] }, pkg.modifiedAt);
  }
  const v = listed(pkg).find((x) => x.version === version);
  if (v && segments.length === 5 && action === 'download') {
    return {
      status: 204,
      contentType: 'text/plain; charset=utf-8',
      body: '',
      headers: { 'X-Terraform-Get': `git::${pkg.repository ?? `https://github.com/${pkg.name}`}?ref=v${v.version}` },
    };
  }
  return error(404, 'Not Found');
}

/**
 * The Terraform registry: service discovery `GET /.well-known/terraform.json`
 * (https://developer.hashicorp.com/terraform/internals/remote-service-discovery) naming `providers.v1` and `modules.v1`;
 * the provider registry protocol (https://developer.hashicorp.com/terraform/internals/provider-registry-protocol):
 * `GET /v1/providers/{namespace}/{type}/versions`, `GET /v1/providers/{namespace}/{type}/{version}/download/{os}/{arch}`
 * (`shasum`, `shasums_url`, `download_url`), and the files those name (`/files/{zip}`: a real zip, see
 * {@link providerZip}; `/files/..._SHA256SUMS`); the module registry protocol
 * (https://developer.hashicorp.com/terraform/internals/module-registry-protocol): `GET /v1/modules/{namespace}/{name}/{provider}/versions`
 * and `.../{version}/download` (204 with `X-Terraform-Get`). Names of 2 parts are providers, of 3 parts modules; they
 * compare case-insensitively. Yanked versions are not listed. Errors: `{"errors":["Not Found"]}`.
 */
export const terraformProtocol: Protocol = {
  prefix: 'terraform',
  packageManager: 'terraform',
  error,
  answer(path, context) {
    const segments = segmentsOf(path);
    if (!segments) return error(404, 'Not Found');
    if (segments.length === 2 && segments[0] === '.well-known' && segments[1] === 'terraform.json') {
      return json(
        200,
        { 'providers.v1': `${context.baseUrl}/v1/providers/`, 'modules.v1': `${context.baseUrl}/v1/modules/` },
        context.startedAt,
      );
    }
    if (segments[0] !== 'v1') return error(404, 'Not Found');
    if (segments[1] === 'providers') return providers(segments.slice(2), context);
    if (segments[1] === 'modules') return modules(segments.slice(2), context);
    return error(404, 'Not Found');
  },
  versionEntry: (pkg, v) => (isProvider(pkg) ? providerVersionEntry(v) : moduleVersionEntry(v)),
  metadataUrl: (pkg, context) => `${context.baseUrl}/v1/${isProvider(pkg) ? 'providers' : 'modules'}/${pkg.name}/versions`,
};
