import { HttpProblem, jsonBody, parseInput } from '@switchyard/service-kit';
import type { Express, Request } from 'express';
import { z } from 'zod';
import { PackageManager } from './package-managers.ts';
import type { Registry, StoredPackage, StoredVersion } from './registry.ts';
import { UnknownVersionError, VersionExistsError } from './registry.ts';
import { SeedVersion, Timestamp, VersionText } from './seed.ts';
import { baseUrlOf, protocolOf } from './serve.ts';
import { isValidPackageName } from './versions.ts';

const validName = (body: { packageManager: PackageManager; name: string }, ctx: z.core.$RefinementCtx) => {
  if (!isValidPackageName(body.packageManager, body.name)) {
    ctx.addIssue({ code: 'custom', path: ['name'], message: `not a valid ${body.packageManager} package name` });
  }
};

/**
 * `POST /admin/publish`: a new version (and the package, when new). `releasedAt` defaults to now; `dependencies` (name →
 * requirement in the package manager's syntax) to none.
 */
export const PublishBody = z
  .strictObject({
    packageManager: PackageManager,
    name: z.string().min(1).max(214),
    version: VersionText,
    releasedAt: Timestamp.optional(),
    private: z.boolean().default(false),
    dependencies: SeedVersion.shape.dependencies,
  })
  .superRefine(validName);

/** `POST /admin/yank`: yank a version; `reason` becomes npm's `deprecated`, PyPI's `yanked_reason`, crates.io's `yank_message`. */
export const YankBody = z
  .strictObject({
    packageManager: PackageManager,
    name: z.string().min(1).max(214),
    version: VersionText,
    private: z.boolean().default(false),
    reason: z.string().max(500).default(''),
  })
  .superRefine(validName);

/** The admin API's answer: the version, and how its registry's protocol now shows it (`entry`). */
export interface AdminVersionAnswer {
  packageManager: PackageManager;
  name: string;
  version: string;
  releasedAt: string;
  private: boolean;
  yanked: boolean;
  /** The package's metadata document (packument, PyPI JSON, maven-metadata.xml, …) as the client reaches it. */
  metadataUrl: string;
  /** The version as the protocol shows it: npm's `versions[v]`, PyPI's `releases[v]`, the index line, … */
  entry: unknown;
}

function answer(req: Request, registry: Registry, pkg: StoredPackage, version: StoredVersion): AdminVersionAnswer {
  const protocol = protocolOf(pkg.packageManager);
  const context = {
    registry,
    privateScope: pkg.private,
    baseUrl: baseUrlOf(req, protocol, pkg.private),
    startedAt: new Date(),
  };
  return {
    packageManager: pkg.packageManager,
    name: pkg.name,
    version: version.version,
    releasedAt: version.releasedAt.toISOString(),
    private: pkg.private,
    yanked: version.yanked !== false,
    metadataUrl: protocol.metadataUrl(pkg, context),
    entry: protocol.versionEntry(pkg, version, context),
  };
}

/**
 * The emulator's own admin API (JSON, unauthenticated: the emulator never runs in production):
 * - `POST /admin/publish` {@link PublishBody} → 201 {@link AdminVersionAnswer}; 409 when the version exists; 400 for a bad body.
 * - `POST /admin/yank` {@link YankBody} → 200 {@link AdminVersionAnswer} (yanking twice is fine); 404 for an unknown
 *   package or version; 400 for a bad body.
 * Changes show at once on every protocol route (and change the ETags). Errors are RFC 9457 problems.
 */
export function mountAdminRoutes(app: Express, registry: Registry, now: () => number): void {
  app.post('/admin/publish', (req, res) => {
    const body = parseInput(PublishBody, jsonBody(req), 'body');
    try {
      const { pkg, version } = registry.publish({ ...body, releasedAt: new Date(body.releasedAt ?? now()) });
      res.status(201).json(answer(req, registry, pkg, version));
    } catch (error) {
      if (error instanceof VersionExistsError) throw new HttpProblem(409, error.message);
      throw error;
    }
  });
  app.post('/admin/yank', (req, res) => {
    const body = parseInput(YankBody, jsonBody(req), 'body');
    try {
      const { pkg, version } = registry.yank(body);
      res.status(200).json(answer(req, registry, pkg, version));
    } catch (error) {
      if (error instanceof UnknownVersionError) throw new HttpProblem(404, error.message);
      throw error;
    }
  });
}
