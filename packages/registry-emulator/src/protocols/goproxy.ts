import { strToU8, zipSync } from 'fflate';
import { type Answer, json, type Protocol, text } from '../protocol.ts';
import { latestVersion, type StoredPackage, type StoredVersion } from '../registry.ts';

/** The `go` line of every emulated module's go.mod. */
const GO_LINE = '1.21';

/** Fixed modification time of the files in emulated module zips (zip times start in 1980), so the bytes are deterministic. */
const ZIP_TIME = new Date('2020-01-01T00:00:00Z');

/** A module path or version as URLs write it: each capital letter as `!` + its lower case (https://go.dev/ref/mod#goproxy-protocol). */
export function escapeGoPath(path: string): string {
  return path.replace(/[A-Z]/g, (c) => `!${c.toLowerCase()}`);
}

/** The inverse of {@link escapeGoPath}; undefined when the text holds a capital letter or a `!` not followed by a lower-case letter. */
export function unescapeGoPath(escaped: string): string | undefined {
  if (/[A-Z]|![^a-z]|!$/.test(escaped)) return undefined;
  return escaped.replace(/!([a-z])/g, (_, c: string) => c.toUpperCase());
}

/**
 * The go.mod of a stored version: `module <path>`, `go 1.21`, and a `require` line per stored dependency (path → version,
 * sorted by path; one line alone, a block for several), as `go mod tidy` lays it out.
 */
export function goModText(pkg: StoredPackage, version: StoredVersion): string {
  const requires = Object.entries(version.dependencies).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  let out = `module ${pkg.name}\n\ngo ${GO_LINE}\n`;
  if (requires.length === 1) out += `\nrequire ${requires[0]?.[0]} ${requires[0]?.[1]}\n`;
  else if (requires.length > 1) out += `\nrequire (\n${requires.map(([path, v]) => `\t${path} ${v}\n`).join('')})\n`;
  return out;
}

/** The package name Go code of a module uses: the last path element without a major suffix, made an identifier. */
const packageName = (path: string) => {
  const elements = path.split('/');
  const last = /^v\d+$/.test(elements.at(-1) ?? '') && elements.length > 1 ? elements.at(-2) : elements.at(-1);
  const name = (last ?? 'mod').replace(/\.v\d+$/, '').replace(/[^A-Za-z0-9_]/g, '_');
  return /^[A-Za-z_]/.test(name) ? name : `m${name}`;
};

/**
 * The module zip of a stored version (https://go.dev/ref/mod#zip-files): `<path>@<version>/go.mod` ({@link goModText}) and
 * `<path>@<version>/<name>.go` (a package declaring `const Version`), stored uncompressed with a fixed time, so the same
 * version always gives the same bytes and the same `h1:` hash.
 */
export function goModuleZip(pkg: StoredPackage, version: StoredVersion): Buffer {
  const root = `${pkg.name}@${version.version}`;
  const name = packageName(pkg.name);
  const source = `// Package ${name} is an emulated module.\npackage ${name}\n\n// Version is the module version.\nconst Version = "${version.version}"\n`;
  const zip = zipSync(
    {
      [`${root}/go.mod`]: [strToU8(goModText(pkg, version)), { level: 0, mtime: ZIP_TIME }],
      [`${root}/${name}.go`]: [strToU8(source), { level: 0, mtime: ZIP_TIME }],
    },
    { level: 0, mtime: ZIP_TIME },
  );
  return Buffer.from(zip);
}

/** A version's `.info` document: `Version` and `Time` (RFC 3339), as proxy.golang.org writes it. */
const info = (version: StoredVersion) => ({ Version: version.version, Time: version.releasedAt.toISOString() });

/** proxy.golang.org's errors: plain text, `not found: …` for 404 and 410. */
const error = (status: number, message: string): Answer => text(status, `${message}\n`);

/**
 * A GOPROXY (https://go.dev/ref/mod#goproxy-protocol), as proxy.golang.org serves it: `/<module>/@v/list` (the versions not
 * yanked, one a line, in publish order), `/<module>/@v/<version>.info` (`{"Version","Time"}`), `.mod` ({@link goModText}),
 * `.zip` ({@link goModuleZip}) and `/<module>/@latest` (the `.info` of the highest release not yanked). Paths and versions
 * are case-encoded (`!a` for `A`). A yanked version leaves the list (`go get <module>@latest` no longer sees it) but its
 * files stay, as a proxy keeps serving what go.sum files pin. Errors as proxy.golang.org gives them, plain text: 404
 * `not found: module <path>: no matching versions` for an unknown module, 410 `not found: <path>@<version>: invalid version:
 * unknown revision <version>` for an unknown version of a known one, 404 `not found` for paths outside the protocol.
 */
export const goproxyProtocol: Protocol = {
  prefix: 'goproxy',
  packageManager: 'go_modules',
  error,
  answer(path, context) {
    const at = path.indexOf('/@');
    if (at <= 0) return error(404, 'not found');
    const escapedModule = path.slice(1, at);
    const rest = path.slice(at + 1);
    let modulePath: string | undefined;
    try {
      modulePath = unescapeGoPath(decodeURIComponent(escapedModule));
    } catch {
      modulePath = undefined;
    }
    if (modulePath === undefined) return error(404, `not found: bad module path ${escapedModule}`);
    const pkg = context.registry.find('go_modules', modulePath, context.privateScope);
    if (!pkg) return error(404, `not found: module ${modulePath}: no matching versions`);
    if (rest === '@latest') {
      const latest = latestVersion(pkg);
      return latest ? json(200, info(latest), pkg.modifiedAt) : error(404, `not found: module ${modulePath}: no matching versions`);
    }
    if (rest === '@v/list') {
      const listed = pkg.versions.filter((v) => v.yanked === false).map((v) => `${v.version}\n`);
      return text(200, listed.join(''), pkg.modifiedAt);
    }
    const file = /^@v\/([^/]+)\.(info|mod|zip)$/.exec(rest);
    if (!file) return error(404, 'not found');
    const written = unescapeGoPath(decodeURIComponent(file[1] ?? ''));
    const version = written === undefined ? undefined : pkg.versions.find((v) => v.version === written);
    if (!version) {
      const shown = written ?? file[1];
      return error(410, `not found: ${modulePath}@${shown}: invalid version: unknown revision ${shown}`);
    }
    if (file[2] === 'info') return json(200, info(version), version.releasedAt);
    if (file[2] === 'mod') return text(200, goModText(pkg, version), version.releasedAt);
    return { status: 200, contentType: 'application/zip', body: goModuleZip(pkg, version), lastModified: version.releasedAt };
  },
  versionEntry: (_pkg, version) => info(version),
  metadataUrl: (pkg, context) => `${context.baseUrl}/${escapeGoPath(pkg.name)}/@v/list`,
};
