import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  assessUpdate,
  compareDockerTags,
  type DependencyUse,
  docker,
  dockerDeclarations,
  dockerVersions,
  ecosystemFor,
  InvalidRequirementError,
  InvalidVersionError,
  isDockerfile,
  ManifestParseError,
  matchesFilePattern,
  parseDockerTag,
  sameTagFormat,
} from '../src/index.ts';
import { CORPUS_PRESENT, corpusDirectories } from './corpus.ts';
import { fixture, sorted } from './fixtures.ts';
import { listChecked, rows } from './invariant.ts';

const files = fixture('docker');
const use = (f: Record<string, string>, name: string) => docker.findDependency(f, name) as DependencyUse;
/** `${name}` as a Dockerfile writes a variable. */
const ref = (name: string) => `\${${name}}`;

describe('docker findDependency and listDependencies', () => {
  it('is registered for the docker package manager and reads Dockerfile and Containerfile patterns', () => {
    expect(ecosystemFor('docker')).toBe(docker);
    const entries = docker.files.required.flat();
    const read = (path: string) => entries.some((entry) => matchesFilePattern(entry, path));
    for (const path of ['Dockerfile', 'Dockerfile.prod', 'api.Dockerfile', 'Containerfile', 'Containerfile.dev'])
      expect(read(path), path).toBe(true);
    for (const path of ['docker/Dockerfile', 'README.md', 'dockerfile.txt']) expect(read(path), path).toBe(false);
  });

  it('lists every image once, files in path order, without stages, scratch, unresolvable ARGs or .dockerignore', () => {
    expect(rows(listChecked(docker, files))).toEqual([
      ['redis', 'runtime', null, '7.2'],
      ['python', 'runtime', null, '3.11-slim'],
      ['node', 'runtime', null, '20.11-alpine3.19'],
      ['ghcr.io/acme/toolbox', 'runtime', null, 'v1.4.2'],
      ['registry.example.com:5000/team/app', 'runtime', null, '2.3'],
      ['localhost:5000/cache/builder', 'runtime', null, '1.0'],
      ['nginx', 'runtime', null, '1.25.3-alpine'],
    ]);
  });

  it('finds an image by any of its Docker Hub spellings, with the file of its first tagged FROM', () => {
    expect(docker.findDependency(files, 'python')).toEqual({
      name: 'python',
      type: 'runtime',
      requirement: null,
      version: '3.11-slim',
      manifest: 'Dockerfile',
    });
    expect(docker.findDependency(files, 'docker.io/library/python')).toMatchObject({ name: 'python' });
    expect(docker.findDependency(files, 'library/python')).toMatchObject({ name: 'python' });
    expect(docker.findDependency(files, 'build')).toBeUndefined();
    expect(docker.findDependency(files, 'scratch')).toBeUndefined();
    expect(docker.findDependency(files, 'ignored')).toBeUndefined();
    expect(docker.normaliseName('index.docker.io/library/python')).toBe('python');
    expect(docker.normaliseName('ghcr.io/library/python')).toBe('ghcr.io/library/python');
    expect(docker.normaliseName('acme/app')).toBe('acme/app');
  });

  it('reads --platform, AS, ARG defaults (quoted), continuations, lower-case instructions and digests', () => {
    const declarations = dockerDeclarations(files).map((d) => [d.file, d.line, d.name, d.tag, d.digest, d.stage]);
    expect(declarations).toEqual([
      ['Containerfile', 1, 'redis', '7.2', null, null],
      ['Dockerfile', 7, 'python', '3.11-slim', null, 'build'],
      ['Dockerfile', 12, 'node', '20.11-alpine3.19', null, 'assets'],
      ['Dockerfile', 17, 'ghcr.io/acme/toolbox', 'v1.4.2', null, 'tools'],
      ['Dockerfile', 20, 'registry.example.com:5000/team/app', '2.3', `sha256:${'0123456789abcdef'.repeat(4)}`, 'app-base'],
      ['Dockerfile', 22, 'localhost:5000/cache/builder', '1.0', null, 'cache'],
      ['Dockerfile', 30, 'python', '3.11-slim', null, null],
      ['Dockerfile.worker', 1, 'docker.io/library/python', '3.11-slim', null, null],
      ['Dockerfile.worker', 2, 'python', null, `sha256:${'a'.repeat(64)}`, 'pinned'],
      ['Dockerfile.worker', 3, 'python', 'latest', null, 'edge'],
      ['web.Dockerfile', 1, 'nginx', '1.25.3-alpine', null, null],
    ]);
  });

  it('expands braced variables with :- and :+, $VAR and the escape directive; ARGs after the first FROM do not reach a FROM', () => {
    const text = [
      '# escape=`',
      'ARG REGISTRY',
      'ARG TAG=1.2',
      `FROM ${ref('REGISTRY:-docker.io')}/acme/base:$TAG \``,
      '  AS base',
      'ARG LATER=9.9',
      `FROM acme/other:${ref('LATER')}`,
      `FROM acme/third:${ref('TAG:+3.0')}`,
    ].join('\n');
    expect(dockerDeclarations({ Dockerfile: text }).map((d) => [d.name, d.tag, d.stage])).toEqual([
      ['docker.io/acme/base', '1.2', 'base'],
      ['acme/third', '3.0', null],
    ]);
    expect(docker.findDependency({ Dockerfile: text }, 'acme/base')).toMatchObject({ name: 'docker.io/acme/base', version: '1.2' });
  });

  it('skips heredoc bodies, where a FROM line is not an instruction', () => {
    const text = [
      'FROM alpine:3.19',
      'RUN <<EOF cat > /Dockerfile',
      'FROM fake:1.0',
      'EOF',
      'COPY <<-"END" /x',
      '\tFROM fake:2.0',
      '\tEND',
      'FROM debian:12',
    ];
    expect(dockerDeclarations({ Dockerfile: text.join('\n') }).map((d) => [d.name, d.tag, d.line])).toEqual([
      ['alpine', '3.19', 1],
      ['debian', '12', 8],
    ]);
  });

  it('gives [] without Dockerfiles and for Dockerfiles without images', () => {
    expect(docker.listDependencies({})).toEqual([]);
    expect(docker.listDependencies({ Dockerfile: 'FROM scratch\nCOPY app /app\n' })).toEqual([]);
    expect(docker.listDependencies({ 'README.md': 'FROM python:3' })).toEqual([]);
  });

  it('skips a FROM whose ARG expansion nests too deep, with the reason, and reads the others', () => {
    const nested = (depth: number) => `${'${B:-'.repeat(depth)}1.0${'}'.repeat(depth)}`;
    expect(dockerDeclarations({ Dockerfile: `FROM acme/a:${nested(32)}\n` }).map((d) => d.tag)).toEqual(['1.0']);
    const text = `ARG A=${nested(40)}\nFROM acme/a:$A\nFROM acme/b:${nested(40)}\nFROM alpine:3.19\n`;
    expect(docker.listDependencies({ Dockerfile: text }).map((u) => [u.name, u.version])).toEqual([['alpine', '3.19']]);
    expect(docker.skippedDeclarations?.({ Dockerfile: text })).toEqual([
      {
        file: 'Dockerfile',
        line: 2,
        text: 'FROM acme/a:$A',
        reason: 'the default of the build argument A cannot be read: variable expansions nest deeper than 32',
      },
      {
        file: 'Dockerfile',
        line: 3,
        text: `FROM acme/b:${nested(40)}`,
        reason: 'the image cannot be expanded: variable expansions nest deeper than 32',
      },
    ]);
  });

  it('leaves a FROM unresolved whose expansion is longer than 4 KB, and reads lines with long blank runs', () => {
    const nested = `${'${B:-'.repeat(20_000)}1.0${'}'.repeat(20_000)}`;
    const text = [`ARG A=${nested}`, 'FROM acme/a:$A', `FROM acme/b:${nested}`, `FROM alpine:3.19${' '.repeat(200_000)}x`, ''].join('\n');
    expect(dockerDeclarations({ Dockerfile: text }).map((d) => [d.name, d.tag])).toEqual([['alpine', '3.19']]);
  });

  it('skips each FROM it cannot read with a reason instead of refusing the directory, and still updates the others', () => {
    const text = [
      '# c',
      'ARG BASE',
      'ARG LATER_TAG',
      'FROM Python:3.11',
      'FROM',
      'FROM node:1@sha256:12',
      'FROM node:-bad',
      `FROM ${ref('BASE')} AS base`,
      'FROM --platform=$X',
      'FROM --platform=$BUILDPLATFORM golang:1.22 AS build',
      'FROM --chown=1000 alpine:3.19',
      'FROM --platform debian:12',
      'FROM acme/app:$UNDECLARED',
      'ARG LATE=1',
      'FROM acme/late:$LATE',
      'FROM base',
      'FROM redis:7.2',
      '',
    ].join('\n');
    const files = { 'Dockerfile.x': text, Dockerfile: 'FROM python:3.11-slim\n' };
    expect(rows(listChecked(docker, files))).toEqual([
      ['python', 'runtime', null, '3.11-slim'],
      ['golang', 'runtime', null, '1.22'],
      ['redis', 'runtime', null, '7.2'],
    ]);
    expect(docker.skippedDeclarations?.(files).map((s) => [s.file, s.line, s.text, s.reason])).toEqual([
      ['Dockerfile.x', 4, 'FROM Python:3.11', expect.stringContaining("'Python:3.11' is not a valid image reference")],
      ['Dockerfile.x', 5, 'FROM', 'FROM names no image'],
      ['Dockerfile.x', 6, 'FROM node:1@sha256:12', "'sha256:12' is not a sha256 digest in 'node:1@sha256:12'"],
      ['Dockerfile.x', 7, 'FROM node:-bad', "'-bad' is not a valid tag in 'node:-bad'"],
      ['Dockerfile.x', 8, `FROM ${ref('BASE')} AS base`, 'the build argument BASE has no default (its value is given at build time)'],
      ['Dockerfile.x', 9, 'FROM --platform=$X', 'FROM names no image'],
      ['Dockerfile.x', 11, 'FROM --chown=1000 alpine:3.19', 'unknown flag --chown: FROM takes only --platform=<platform>'],
      ['Dockerfile.x', 12, 'FROM --platform debian:12', 'the flag --platform has no value (FROM takes --platform=<value>)'],
      [
        'Dockerfile.x',
        13,
        'FROM acme/app:$UNDECLARED',
        'UNDECLARED is not a build argument declared before the first FROM (its value is unknown)',
      ],
      ['Dockerfile.x', 15, 'FROM acme/late:$LATE', 'the build argument LATE is declared after the first FROM, where no FROM sees it'],
    ]);
    const update = docker.updateManifest(files, use(files, 'redis'), '7.4');
    expect(update).toEqual({ files: { 'Dockerfile.x': text.replace('redis:7.2', 'redis:7.4') }, requirement: null });
  });

  it('reports nothing skipped for Dockerfiles it reads whole, and the unset ARG of the fixture', () => {
    expect(docker.skippedDeclarations?.({ Dockerfile: 'FROM alpine:3.19\nFROM scratch\n' })).toEqual([]);
    expect(docker.skippedDeclarations?.(files)).toEqual([
      {
        file: 'Dockerfile',
        line: 15,
        text: 'FROM $UNSET_IMAGE AS unresolved',
        reason: 'the build argument UNSET_IMAGE has no default (its value is given at build time)',
      },
    ]);
  });

  it('throws ManifestParseError only for text that is not a Dockerfile at all', () => {
    for (const [text, reason] of [
      ['# notes\nSome prose about images\nFROM python:3\n', "line 2: not a Dockerfile: unknown instruction 'Some'"],
      ['FROM python:3\n\0\u0001', 'binary'],
    ] as const) {
      for (const read of [docker.listDependencies, (f: Record<string, string>) => docker.skippedDeclarations?.(f)]) {
        expect(() => read({ 'Dockerfile.x': text }), text).toThrow(ManifestParseError);
        expect(() => read({ 'Dockerfile.x': text })).toThrow(
          expect.objectContaining({ file: 'Dockerfile.x', reason: expect.stringContaining(reason) }),
        );
      }
    }
  });

  it('does not read templates that match Dockerfile* (Dependabot read every name with "dockerfile"), only the Dockerfiles', () => {
    const template = ['FROM alpine:{{ .alpine.version }}', 'ENV PYTHON_VERSION %%PLACEHOLDER%%', ''].join('\n');
    const dir = {
      'Dockerfile-alpine.template': template,
      'Dockerfile-linux.tmpl': template,
      'Dockerfile.j2': template,
      Dockerfile: 'FROM alpine:3.19\n',
      'Dockerfile-slim': 'FROM debian:12-slim\n',
    };
    expect(rows(listChecked(docker, dir))).toEqual([
      ['alpine', 'runtime', null, '3.19'],
      ['debian', 'runtime', null, '12-slim'],
    ]);
    expect(docker.skippedDeclarations?.(dir)).toEqual([]);
    expect(dockerDeclarations(dir).map((d) => d.file)).toEqual(['Dockerfile', 'Dockerfile-slim']);
    expect(isDockerfile('Dockerfile-alpine.template')).toBe(false);
    expect(isDockerfile('Dockerfile.dockerignore')).toBe(false);
    expect(isDockerfile('Dockerfile-alpine')).toBe(true);
    expect(isDockerfile('app.Containerfile')).toBe(true);
    const update = docker.updateManifest(dir, use(dir, 'alpine'), '3.20');
    expect(update).toEqual({ files: { Dockerfile: 'FROM alpine:3.20\n' }, requirement: null });
  });
});

describe('docker corpus', () => {
  const directories = corpusDirectories(docker);
  it.runIf(CORPUS_PRESENT)('reads every corpus Dockerfile without throwing, the windows one of docker-library/python too', () => {
    expect(directories.some((d) => d.label.includes('windowsservercore'))).toBe(true);
    for (const { label, files: dir } of directories) {
      const list = listChecked(docker, dir);
      const skipped = docker.skippedDeclarations?.(dir) ?? [];
      for (const s of skipped) expect(s.reason, `${label} ${s.file}:${s.line}`).not.toBe('');
      expect(list.length + skipped.length, label).toBeGreaterThan(0);
    }
  });
});

describe('docker version scheme (tags)', () => {
  it('reads numeric tags with v prefixes, pre-release words and suffixes; words are not versions', () => {
    for (const tag of [
      '3',
      '3.12',
      '3.12.1',
      'v1.4.2',
      '3.12-slim',
      '20.11-alpine3.19',
      '3.13.0rc1',
      '1.25.3-alpine',
      '3.9-slim-bookworm',
    ]) {
      expect(dockerVersions.isValid(tag), tag).toBe(true);
    }
    for (const tag of ['latest', 'stable', 'bullseye', 'slim-3.9', '3.9-', '', 'sha256:abc', '3..1']) {
      expect(dockerVersions.isValid(tag), tag).toBe(false);
    }
    expect(parseDockerTag('v3.13.0rc1-slim')).toEqual({
      prefix: 'v',
      numbers: ['3', '13', '0'],
      pre: 'rc',
      preNumber: '1',
      suffix: '-slim',
    });
  });

  it('orders tags of one format by their numbers, pre-releases before their release', () => {
    expect(sorted(['3.12-slim', '3.9-slim', '3.10-slim', '3.11-slim'], compareDockerTags)).toEqual([
      '3.9-slim',
      '3.10-slim',
      '3.11-slim',
      '3.12-slim',
    ]);
    expect(sorted(['3.13.0', '3.13.0rc1', '3.13.0a2', '3.13.0b1', '3.12.9'], compareDockerTags)).toEqual([
      '3.12.9',
      '3.13.0a2',
      '3.13.0b1',
      '3.13.0rc1',
      '3.13.0',
    ]);
    expect(compareDockerTags('v1.10', 'v1.9')).toBeGreaterThan(0);
    expect(compareDockerTags('3.09', '3.9')).not.toBe(0);
  });

  it('compares for updates only tags of the same suffix, prefix and precision', () => {
    expect(sameTagFormat('3.9-slim', '3.12-slim')).toBe(true);
    expect(sameTagFormat('3.9-slim', '3.12-alpine')).toBe(false);
    expect(sameTagFormat('3.9-slim', '3.12')).toBe(false);
    expect(sameTagFormat('3.9', '3.12.1')).toBe(false);
    expect(sameTagFormat('v1.2', '1.3')).toBe(false);
    expect(() => sameTagFormat('latest', '3.12')).toThrow(InvalidVersionError);
    expect(dockerVersions.comparable('3.11-slim', '3.13-slim')).toBe(true);
    expect(dockerVersions.comparable('3.11-slim', '3.13-alpine')).toBe(false);
  });

  it('has no ranges: a requirement is one exact tag', () => {
    expect(dockerVersions.satisfies('3.12-slim', '3.12-slim')).toBe(true);
    expect(dockerVersions.satisfies('3.12-slim', '3.11-slim')).toBe(false);
    expect(() => dockerVersions.satisfies('3.12', '>=3.11')).toThrow(InvalidRequirementError);
    expect(() => dockerVersions.compare('latest', '3.12')).toThrow(InvalidVersionError);
    expect(dockerVersions.lowestAllowed?.('3.11')).toBe('3.11');
  });

  it('classifies updates by the numbers and tells pre-releases', () => {
    expect(dockerVersions.updateKind('3.11-slim', '3.12-slim')).toBe('minor');
    expect(dockerVersions.updateKind('20.11-alpine', '22.1-alpine')).toBe('major');
    expect(dockerVersions.updateKind('1.25.3-alpine', '1.25.4-alpine')).toBe('patch');
    expect(dockerVersions.release?.('3.12')).toEqual([3, 12, 0]);
    expect(dockerVersions.isPrerelease('3.13.0rc1-slim')).toBe(true);
    expect(dockerVersions.isPrerelease('22-rc')).toBe(true);
    expect(dockerVersions.isPrerelease('3.13-slim')).toBe(false);
  });

  it('lets assessUpdate find a newer tag of the same format', () => {
    const use = docker.findDependency(files, 'python');
    expect(use).toBeDefined();
    if (!use) return;
    expect(assessUpdate(docker, use, '3.13-slim')).toEqual({ outdated: true, kind: 'minor', inRange: true });
    expect(assessUpdate(docker, use, '3.10-slim')).toMatchObject({ outdated: false });
    expect(assessUpdate(docker, use, 'latest')).toMatchObject({ outdated: false, inRange: false });
  });
});

describe('docker demo directory of acme/polyglot', () => {
  const seed = JSON.parse(readFileSync(new URL('../../github-emulator/src/demo-seeds/docker.json', import.meta.url), 'utf8')) as {
    files: Record<string, Record<string, string>>;
  };
  const repo = seed.files['acme/polyglot'] ?? {};
  const demo = Object.fromEntries(
    Object.entries(repo)
      .filter(([path]) => path.startsWith('docker/'))
      .map(([path, text]) => [path.slice('docker/'.length), text]),
  );

  it('parses the demo Dockerfile and finds python at 3.11-slim, the end-to-end dependency', () => {
    expect(docker.findDependency(demo, 'python')).toEqual({
      name: 'python',
      type: 'runtime',
      requirement: null,
      version: '3.11-slim',
      manifest: 'Dockerfile',
    });
    const update = docker.updateManifest(demo, docker.findDependency(demo, 'python') as never, '3.13-slim');
    expect(update).toHaveProperty('files.Dockerfile');
    const after = (update as { files: Record<string, string> }).files.Dockerfile ?? '';
    expect(after.match(/python:3\.13-slim/g)).toHaveLength(2);
    expect(after).not.toContain('python:3.11-slim');
  });

  it('lists every demo image, each seeded in the registry emulator with its tag', () => {
    const registrySeed = JSON.parse(
      readFileSync(new URL('../../registry-emulator/src/demo-seeds/docker.json', import.meta.url), 'utf8'),
    ) as { packages: { name: string; versions: { version: string }[] }[] };
    for (const use of listChecked(docker, demo)) {
      const stored = use.name.includes('/') ? use.name.replace(/^[^/]*[.:][^/]*\//, '') : `library/${use.name}`;
      const pkg = registrySeed.packages.find((p) => p.name === stored);
      expect(pkg, use.name).toBeDefined();
      expect(pkg?.versions.map((v) => v.version)).toContain(use.version);
    }
  });
});
