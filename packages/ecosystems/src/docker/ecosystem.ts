import type { DependencyUse, Ecosystem, SkippedDeclaration } from '../ecosystem.ts';
import { REQUIRED_FILES, requiredFilesOf } from '../required-files.ts';
import { filesMatching } from '../shared/files.ts';
import { groupBy } from '../shared/group.ts';
import { type ImageDeclaration, normaliseImageName, readDockerfile, readDockerfileContents } from './dockerfile.ts';
import { updateDockerfiles } from './update.ts';
import { dockerVersions } from './versions.ts';

type Files = Readonly<Record<string, string>>;

/**
 * The files Docker's ecosystem reads in a directory: Dependabot's file fetcher takes every file whose name matches
 * `dockerfile` or `containerfile` (https://github.com/dependabot/dependabot-core/blob/main/docker/lib/dependabot/docker/file_fetcher.rb);
 * here `Dockerfile<anything>` (`Dockerfile`, `Dockerfile.prod`, `Dockerfile-alpine`), `<anything>.Dockerfile` and the same
 * for `Containerfile`, less what {@link isDockerfile} leaves out (`.dockerignore` files and templates).
 */
export const DOCKERFILE_PATTERNS: readonly string[] = REQUIRED_FILES.docker.flat();

/**
 * Endings of files that match {@link DOCKERFILE_PATTERNS} but are not Dockerfiles: `.dockerignore` files, and templates a
 * script renders into Dockerfiles (`Dockerfile-alpine.template`, `Dockerfile.tmpl`, `Dockerfile.j2`), whose placeholders
 * (`{{ .version }}`, `%%VERSION%%`) are not image references. Dependabot's fetcher takes every name matching
 * `/dockerfile|containerfile/i`, templates included; here they are not read (a template is not built, and its
 * placeholders would only give skipped `FROM`s).
 */
const NOT_DOCKERFILES = /\.(?:dockerignore|template|tmpl|tpl|j2|jinja2?|mustache|hbs|erb)$/i;

/** Is a path the ecosystem matched a Dockerfile, not a `.dockerignore` file or a template ({@link NOT_DOCKERFILES})? */
export function isDockerfile(path: string): boolean {
  return filesMatching(DOCKERFILE_PATTERNS, [path]).length === 1 && !NOT_DOCKERFILES.test(path);
}

/** The Dockerfiles of a files map (`.dockerignore` files and templates left out: {@link isDockerfile}), sorted by path. */
function dockerfiles(files: Files): string[] {
  return Object.keys(files)
    .filter(isDockerfile)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * Every image `FROM` of the Dockerfiles read (see {@link readDockerfile}), files in path order, lines in file order.
 * @throws ManifestParseError when a file is not a Dockerfile at all (see {@link readDockerfileContents})
 */
export function dockerDeclarations(files: Files): ImageDeclaration[] {
  return dockerfiles(files).flatMap((path) => readDockerfile(path, files[path] ?? ''));
}

/**
 * Every `FROM` of the Dockerfiles read that was skipped, with its reason (see {@link readDockerfileContents}), files in
 * path order, lines in file order.
 * @throws ManifestParseError when a file is not a Dockerfile at all
 */
export function skippedDockerDeclarations(files: Files): SkippedDeclaration[] {
  return dockerfiles(files).flatMap((path) => readDockerfileContents(path, files[path] ?? '').skipped);
}

/** The use of an image from its declarations: the first tagged one gives the version and the manifest. */
function useOf(declarations: readonly ImageDeclaration[]): DependencyUse | undefined {
  const first = declarations.find((d) => d.tag !== null) ?? declarations[0];
  if (!first) return undefined;
  return { name: first.name, type: 'runtime', requirement: null, version: first.tag, manifest: first.file };
}

/**
 * Docker: the base images of Dockerfiles (`FROM`, see {@link readDockerfile}), after Dependabot's docker ecosystem
 * (https://github.com/dependabot/dependabot-core/tree/main/docker). A dependency is an image by its name as written
 * without tag or digest (`python`, `ghcr.io/owner/img`; `docker.io/library/python` is the same image as `python`); its
 * version is the tag (of the first `FROM` with one; null for an image pinned by digest alone) and it has no requirement
 * (Docker has no ranges). An image named by several `FROM`s is one dependency; `updateManifest` moves each of them (see
 * {@link updateDockerfiles}). A `FROM` whose image cannot be read is skipped, not fatal: `skippedDeclarations` gives each
 * with its reason. No lockfile.
 */
export const docker: Ecosystem = {
  packageManager: 'docker',
  files: { required: requiredFilesOf('docker'), optional: [], lockfiles: [] },
  versions: dockerVersions,
  normaliseName: normaliseImageName,
  findDependency(files, name) {
    const wanted = normaliseImageName(name);
    return useOf(dockerDeclarations(files).filter((d) => normaliseImageName(d.name) === wanted));
  },
  listDependencies(files) {
    return [...groupBy(dockerDeclarations(files), (d) => normaliseImageName(d.name)).values()].flatMap((list) => useOf(list) ?? []);
  },
  skippedDeclarations: skippedDockerDeclarations,
  updateManifest: (files, use, targetVersion, target) => updateDockerfiles(dockerDeclarations, files, use, targetVersion, target),
};
