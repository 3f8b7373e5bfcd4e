/**
 * Errors of the ecosystems package. Each carries the offending input as a field so the worker can report it
 * without parsing the message.
 */

/** A manifest or lockfile that exists but does not parse, e.g. `new ManifestParseError('package.json', 'Unexpected token } at 3:1')`. */
export class ManifestParseError extends Error {
  readonly file: string;
  readonly reason: string;

  constructor(file: string, reason: string) {
    super(`${file}: ${reason}`);
    this.name = 'ManifestParseError';
    this.file = file;
    this.reason = reason;
  }
}

/** A version the scheme cannot read, e.g. `dev-main` for Composer or `latest` for npm. `scheme` names the version scheme. */
export class InvalidVersionError extends Error {
  readonly version: string;
  readonly scheme: string;

  constructor(scheme: string, version: string) {
    super(`'${version}' is not a valid ${scheme} version`);
    this.name = 'InvalidVersionError';
    this.version = version;
    this.scheme = scheme;
  }
}

/** A requirement the scheme cannot read, e.g. `github:user/repo` for npm. `detail` says what is wrong when known. */
export class InvalidRequirementError extends Error {
  readonly requirement: string;
  readonly scheme: string;

  constructor(scheme: string, requirement: string, detail?: string) {
    super(`'${requirement}' is not a valid ${scheme} requirement${detail ? `: ${detail}` : ''}`);
    this.name = 'InvalidRequirementError';
    this.requirement = requirement;
    this.scheme = scheme;
  }
}

/** Thrown by {@link requireEcosystem} for a package manager this package does not support (yet). */
export class UnsupportedPackageManagerError extends Error {
  readonly packageManager: string;

  constructor(packageManager: string) {
    super(`package manager '${packageManager}' is not supported`);
    this.name = 'UnsupportedPackageManagerError';
    this.packageManager = packageManager;
  }
}
