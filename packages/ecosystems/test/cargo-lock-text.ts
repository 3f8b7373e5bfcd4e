/** Cargo.lock text for tests, as Cargo writes it. */

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
