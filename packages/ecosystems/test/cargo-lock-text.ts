import { cargo, type DependencyUse, type LockfileRequest, type RegistryVersionDetails } from '../src/index.ts';

/** Cargo.lock text and lockfile requests for tests, as Cargo writes and the worker makes them. */

/** crates.io's source id in Cargo.lock. */
export const CRATES = 'registry+https://github.com/rust-lang/crates.io-index';
/** The checksum the blocks are written with (64 hex digits), and one a registry gives for a target. */
export const OLD = 'a'.repeat(64);
export const NEW = 'b'.repeat(64);

/** A registry package block. */
export const pkg = (name: string, version: string, dependencies: string[] = []) =>
  `[[package]]
name = "${name}"
version = "${version}"
source = "${CRATES}"
checksum = "${OLD}"
${dependencies.length === 0 ? '' : `dependencies = [\n${dependencies.map((d) => ` "${d}",\n`).join('')}]\n`}`;

/** A package without a source (a workspace member or a path package). */
export const own = (name: string, version: string, dependencies: string[]) =>
  `[[package]]
name = "${name}"
version = "${version}"
dependencies = [
${dependencies.map((d) => ` "${d}",\n`).join('')}]
`;

/** What crates.io says of `name` `version`: its `.crate` with the digest {@link NEW}, and the given dependencies. */
export const details = (name: string, version: string, dependencies: [string, string][] = []): RegistryVersionDetails => ({
  name,
  version,
  dependencies: dependencies.map(([dep, requirement]) => ({ name: dep, requirement, kind: 'runtime' })),
  artifacts: [
    {
      filename: `${name}-${version}.crate`,
      url: `https://static.crates.io/crates/${name}/${version}/download`,
      digests: [{ algorithm: 'sha256', value: NEW, encoding: 'hex' }],
    },
  ],
});

/** The dependency `name` as Cargo's reader finds it in `files` (the test knows it is there). */
export const use = (files: Record<string, string>, name: string) => cargo.findDependency(files, name) as DependencyUse;

/** The lockfile request of updating `name` to `target` in `files`, with the manifest update applied. */
export function lockRequest(files: Record<string, string>, name: string, target: string): LockfileRequest {
  const dependency = use(files, name);
  const update = cargo.updateManifest(files, dependency, target);
  return {
    files,
    updated: { ...files, ...('files' in update ? update.files : {}) },
    use: dependency,
    target: details(name, target),
    registries: [],
  };
}
