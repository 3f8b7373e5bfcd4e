import type { PackageManager } from './package-managers.ts';

const NAME_RULES: Record<PackageManager, RegExp> = {
  // https://github.com/npm/validate-npm-package-name (new packages: lowercase, URL-safe, optional @scope/)
  npm_and_yarn: /^(?:@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/,
  // PEP 508 names
  pip: /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/,
  // groupId:artifactId with Maven's id characters, no empty groupId segment
  maven: /^[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*:[A-Za-z0-9_.-]+$/,
  bundler: /^[A-Za-z0-9][A-Za-z0-9._-]*$/,
  // crates.io: ASCII letter first, then letters, digits, `-`, `_`, at most 64
  cargo: /^[A-Za-z][A-Za-z0-9_-]{0,63}$/,
  // Packagist: vendor/package, lowercase
  composer: /^[a-z0-9](?:[_.-]?[a-z0-9]+)*\/[a-z0-9](?:(?:[_.]|-{1,2})?[a-z0-9]+)*$/,
  // OCI distribution repository names (path components of lowercase alphanumerics and separators), e.g. `library/python`
  docker: /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*$/,
  // Elm: author/project, the project lowercase with hyphens
  elm: /^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\/[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/,
  // hex.pm: lowercase letter first, then lowercase letters, digits, `_`
  hex: /^[a-z][a-z0-9_]*$/,
  // NuGet package ids: letters, digits, `.`, `_`, `-`, at most 100
  nuget: /^[A-Za-z0-9_](?:[A-Za-z0-9_.-]{0,99})$/,
  // Go module paths: a host-like first element with a dot, then path elements
  go_modules: /^[a-z0-9.-]+\.[a-z]{2,}(?:\/[A-Za-z0-9._~-]+)+$/,
  // Terraform registry: providers `namespace/type`, modules `namespace/name/provider`
  terraform: /^[A-Za-z0-9][A-Za-z0-9_-]*\/[A-Za-z0-9][A-Za-z0-9_-]*(?:\/[A-Za-z0-9][A-Za-z0-9_-]*)?$/,
};

/** Does `name` follow the naming rules of the package manager's registry? */
export function isValidPackageName(packageManager: PackageManager, name: string): boolean {
  return NAME_RULES[packageManager].test(name);
}

/** PEP 503's normalised project name: runs of `-`, `_`, `.` become one `-`, lowercased (`Django` → `django`). */
export function pep503(name: string): string {
  return name.replace(/[-_.]+/g, '-').toLowerCase();
}

/**
 * The key under which a registry finds a package, i.e. which names are the same package: PyPI compares PEP 503 names,
 * crates.io, Packagist, NuGet and the Terraform registry are case-insensitive; npm, Maven, RubyGems, OCI registries
 * (lowercase names only), Elm, hex.pm and Go module paths compare exactly.
 */
export function packageKey(packageManager: PackageManager, name: string): string {
  switch (packageManager) {
    case 'pip':
      return pep503(name);
    case 'cargo':
    case 'composer':
    case 'nuget':
    case 'terraform':
      return name.toLowerCase();
    default:
      return name;
  }
}

/**
 * Is `version` a pre-release in the package manager's terms: semver `-tag` (npm, cargo, hex, NuGet, Go modules with or
 * without their `v`, Terraform), PEP 440 `a`/`b`/`rc`/`.dev` (pip), any letter (RubyGems), `-alpha`/`-beta`/`-rc`/`-M1`/`-SNAPSHOT`
 * (Maven), `-alpha`/`-beta`/`-RC`/`-dev` (Composer), a Docker tag naming `alpha`/`beta`/`rc`/`dev`/`preview`; Elm has none.
 */
export function isPrerelease(packageManager: PackageManager, version: string): boolean {
  switch (packageManager) {
    case 'npm_and_yarn':
    case 'cargo':
    case 'hex':
    case 'nuget':
    case 'go_modules':
    case 'terraform':
      return (version.split('+')[0] ?? '').includes('-');
    case 'elm':
      return false;
    case 'docker':
      return /(?:alpha|beta|rc|dev|preview)\d*/i.test(version);
    case 'pip':
      return /\d[._-]?(?:a|b|c|rc|alpha|beta|pre|preview|dev)\d*/i.test(version);
    case 'bundler':
      return /[a-z]/i.test(version);
    case 'maven':
      return /[-.](?:alpha|beta|rc|cr|m\d|milestone|snapshot|ea)/i.test(version);
    case 'composer':
      return /(?:^dev-|-dev$|[-.]?(?:alpha|beta|rc|a|b)\.?\d*$)/i.test(version.replace(/^v/, ''));
  }
}

/** Qualifiers ordered before the release they qualify (`1.0-rc1` < `1.0`), lowest first. */
const PRE_QUALIFIERS = ['snapshot', 'dev', 'a', 'alpha', 'b', 'beta', 'm', 'milestone', 'c', 'cr', 'pre', 'preview', 'rc'];

type Token = number | string;

function tokens(version: string): Token[] {
  return (
    version
      .replace(/^v/i, '')
      .toLowerCase()
      .match(/\d+|[a-z]+/g) ?? []
  ).map((t) => (/^\d/.test(t) ? Number(t) : t));
}

function rankOfWord(word: string): number {
  const pre = PRE_QUALIFIERS.indexOf(word);
  return pre === -1 ? 1 : -PRE_QUALIFIERS.length + pre; // pre-release qualifiers < end of version < other words
}

/**
 * Orders two versions of the same package: numbers numerically, pre-release qualifiers (`alpha`, `beta`, `rc`, …)
 * before the release, other words (`-jre`, `.post`) after it; build metadata (`+…`) is ignored. Good enough for the
 * version schemes the registries use; the emulator uses it for "latest" and for newest-first lists.
 * @returns negative when `a` < `b`, 0 when equal, positive when `a` > `b`
 */
export function compareVersions(a: string, b: string): number {
  const ta = tokens(a.split('+')[0] ?? a);
  const tb = tokens(b.split('+')[0] ?? b);
  for (let i = 0; i < Math.max(ta.length, tb.length); i++) {
    const x = ta[i];
    const y = tb[i];
    if (x === y) continue;
    if (x === undefined) return typeof y === 'number' ? -1 : -rankOfWord(y as string);
    if (y === undefined) return typeof x === 'number' ? 1 : rankOfWord(x);
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    if (typeof x === 'number') return rankOfWord(y as string) < 0 ? 1 : -1;
    if (typeof y === 'number') return rankOfWord(x) < 0 ? -1 : 1;
    const rx = rankOfWord(x);
    const ry = rankOfWord(y);
    if (rx !== ry) return rx - ry;
    return x < y ? -1 : 1;
  }
  return 0;
}

/**
 * Composer's `version_normalized` (composer/semver `VersionParser::normalize`) for tagged versions: the leading `v`
 * dropped, four numeric parts, and a stability suffix (`-alpha1`, `-beta2`, `-RC1`, `-patch1`):
 * `v5.1.0` → `5.1.0.0`, `7.0.0-BETA1` → `7.0.0.0-beta1`, `2.0.0-rc.2` → `2.0.0.0-RC2`.
 */
export function composerNormalize(version: string): string {
  const match = /^v?(\d+(?:\.\d+){0,3})(?:[-.]?([a-z]+)\.?(\d*))?$/i.exec(version);
  if (!match) return version;
  const numbers = (match[1] ?? '').split('.');
  while (numbers.length < 4) numbers.push('0');
  const word = match[2]?.toLowerCase();
  if (!word) return numbers.join('.');
  const stability =
    word === 'a' || word === 'alpha'
      ? 'alpha'
      : word === 'b' || word === 'beta'
        ? 'beta'
        : word === 'rc' || word === 'c'
          ? 'RC'
          : word === 'p' || word === 'pl' || word === 'patch'
            ? 'patch'
            : word;
  return `${numbers.join('.')}-${stability}${match[3] ?? ''}`;
}
