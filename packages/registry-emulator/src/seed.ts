import { fileURLToPath } from 'node:url';
import { jsonFilesIn, seedFormat } from '@switchyard/service-kit';
import { z } from 'zod';
import { PackageManager } from './package-managers.ts';
import { isValidPackageName, packageKey } from './versions.ts';

export { PACKAGE_MANAGERS, PackageManager } from './package-managers.ts';

/** An RFC 3339 timestamp with an offset (`2021-02-20T15:42:16.891Z`). */
export const Timestamp = z.iso.datetime({ offset: true });

/** A version string as registries accept it: 1-64 letters, digits, `.`, `+`, `_`, `-`, starting with a letter or digit. */
export const VersionText = z.string().regex(/^[0-9A-Za-z][0-9A-Za-z.+_-]{0,63}$/, 'must be a version (letters, digits, . + _ -)');

const TokenText = z.string().regex(/^[\x21-\x7e]+$/, 'must be visible ASCII without spaces');

/**
 * One version of a package. `yanked`: `true`, or the reason as text; what it does depends on the protocol (see
 * the README: npm deprecates, PyPI and crates.io mark it yanked, RubyGems hides it, Maven and Packagist drop it).
 * `dependencies`: the runtime dependencies the version declares, name → requirement in its package manager's syntax
 * (npm `^1.2.0`, PyPI `>=2.0,<3`, RubyGems `~> 7.1`, crates.io `^1.0`, Packagist `^1.0`, Maven `1.2.3`); none by default.
 */
export const SeedVersion = z.strictObject({
  version: VersionText,
  releasedAt: Timestamp,
  yanked: z.union([z.boolean(), z.string().min(1)]).default(false),
  dependencies: z.record(z.string().min(1).max(214), z.string().min(1).max(200)).default({}),
});

/**
 * A package of one package manager. `name` is as the registry shows it: npm `lodash` or `@acme/widgets`, PyPI `Django`,
 * Maven `groupId:artifactId`, RubyGems `rails`, crates.io `serde`, Packagist `vendor/package`. `private` packages are
 * served only under `/private/…`. `repository` is the source repository's web URL (`https://github.com/o/r`),
 * `changelog` a changelog URL, `abandoned` (Packagist only) `true` or the replacement package's name.
 */
export const SeedPackage = z.strictObject({
  packageManager: PackageManager,
  name: z.string().min(1).max(214),
  private: z.boolean().default(false),
  summary: z.string().default(''),
  license: z.string().min(1).default('MIT'),
  repository: z.url({ protocol: /^https?$/ }).optional(),
  homepage: z.url({ protocol: /^https?$/ }).optional(),
  changelog: z.url({ protocol: /^https?$/ }).optional(),
  abandoned: z.union([z.boolean(), z.string().min(1)]).default(false),
  versions: z.array(SeedVersion).min(1),
});

/**
 * Who may read the private registries: `token` (sent as `Authorization: Bearer <token>`, or the bare token as cargo
 * sends it, or as the password of Basic auth with any user name) and/or `username` + `password` (Basic auth), for the
 * `packageManagers` listed (default: all; other package managers answer 403).
 */
export const SeedCredential = z
  .strictObject({
    username: z
      .string()
      .regex(/^[^:\s]+$/, 'must not contain a colon or spaces')
      .optional(),
    password: z.string().min(1).optional(),
    token: TokenText.optional(),
    packageManagers: z
      .array(PackageManager)
      .min(1)
      .default([...PackageManager.options]),
  })
  .refine((c) => c.token !== undefined || (c.username !== undefined && c.password !== undefined), {
    message: 'needs a token or a username and password',
  })
  .refine((c) => (c.username === undefined) === (c.password === undefined), { message: 'username and password go together' });

/** The whole seed: packages (public and private) and the credentials of the private registries. */
export const Seed = z
  .strictObject({
    packages: z.array(SeedPackage),
    credentials: z.array(SeedCredential).default([]),
  })
  .superRefine((seed, ctx) => {
    const issue = (path: (string | number)[], message: string) => ctx.addIssue({ code: 'custom', path, message });
    const keys = new Set<string>();
    seed.packages.forEach((pkg, i) => {
      if (!isValidPackageName(pkg.packageManager, pkg.name)) {
        issue(['packages', i, 'name'], `not a valid ${pkg.packageManager} package name: ${pkg.name}`);
        return;
      }
      if (pkg.abandoned !== false && pkg.packageManager !== 'composer') issue(['packages', i, 'abandoned'], 'only composer packages');
      const key = `${pkg.private ? 'private' : 'public'} ${pkg.packageManager} ${packageKey(pkg.packageManager, pkg.name)}`;
      if (keys.has(key)) issue(['packages', i, 'name'], `duplicate ${pkg.packageManager} package ${pkg.name}`);
      keys.add(key);
      const versions = new Set<string>();
      pkg.versions.forEach((v, j) => {
        if (versions.has(v.version)) issue(['packages', i, 'versions', j, 'version'], `duplicate version ${v.version}`);
        versions.add(v.version);
      });
    });
    const tokens = new Set<string>();
    const users = new Set<string>();
    seed.credentials.forEach((c, i) => {
      if (c.token !== undefined && tokens.has(c.token)) issue(['credentials', i, 'token'], 'duplicate token');
      if (c.username !== undefined && users.has(c.username)) issue(['credentials', i, 'username'], `duplicate username ${c.username}`);
      if (c.token !== undefined) tokens.add(c.token);
      if (c.username !== undefined) users.add(c.username);
    });
  });

/** A seed as written (defaults not applied yet), e.g. the JSON of a seed file. */
export type SeedInput = z.input<typeof Seed>;
/** A validated seed with defaults applied. */
export type ParsedSeed = z.output<typeof Seed>;
/** A package entry as written in a seed. */
export type SeedPackageInput = z.input<typeof SeedPackage>;
/** A validated package entry. */
export type ParsedSeedPackage = z.output<typeof SeedPackage>;
/** A validated credential entry. */
export type ParsedSeedCredential = z.output<typeof SeedCredential>;

const format = seedFormat('registry emulator seed', Seed);

/** Thrown by {@link parseSeed} when a seed is invalid (service-kit's); `problems` lists every problem as `path: reason`. */
export { SeedError } from '@switchyard/service-kit';

/**
 * Validates a seed: shapes, package names after each package manager's rules, and that packages (per package manager
 * and visibility, names compared as the registry compares them), versions of a package, tokens and user names are unique.
 * @throws SeedError listing every problem
 */
export function parseSeed(input: unknown, source = 'seed'): ParsedSeed {
  return format.parse(input, source);
}

/**
 * Reads and validates a JSON seed file.
 * @throws SeedError when the file is not valid JSON or not a valid seed; the fs error when it cannot be read
 */
export function loadSeedFile(path: string): ParsedSeed {
  return format.loadFile(path);
}

/** Absolute path of the bundled demo seed's main file (`demo-seed.json`: its credentials and the first six package managers' packages). */
export const DEMO_SEED_PATH = fileURLToPath(new URL('./demo-seed.json', import.meta.url));

/** The directory of the demo seed's further package files (`demo-seeds/<package manager>.json`, each `{ "packages": [...] }`). */
export const DEMO_SEEDS_DIR = fileURLToPath(new URL('./demo-seeds/', import.meta.url));

/**
 * The bundled demo seed, validated: `demo-seed.json` with the packages of every `demo-seeds/*.json` added (in file name
 * order). Together they hold the packages of the GitHub emulator's demo repos.
 * @throws SeedError when a file is not valid JSON or the whole is not a valid seed
 */
export function loadDemoSeed(): ParsedSeed {
  const main = format.readJson(DEMO_SEED_PATH) as { packages?: unknown[] };
  const packages = [...(main.packages ?? [])];
  for (const path of jsonFilesIn(DEMO_SEEDS_DIR)) {
    const part = format.readJson(path) as { packages?: unknown };
    if (!Array.isArray(part.packages)) throw format.error(path, ['(seed): must be an object with a "packages" array']);
    packages.push(...part.packages);
  }
  return parseSeed({ ...main, packages }, `${DEMO_SEED_PATH} and ${DEMO_SEEDS_DIR}*.json`);
}

/** The demo seed's private registry token (all package managers). */
export const DEMO_REGISTRY_TOKEN = 'demo-registry-token';
/** The demo seed's Basic auth user (all package managers) and its password. */
export const DEMO_REGISTRY_USER = { username: 'acme-ci', password: 'demo-registry-password' } as const;
/** A demo seed token that may read only the private npm registry (others answer 403). */
export const DEMO_NPM_ONLY_TOKEN = 'demo-registry-token-npm-only';
