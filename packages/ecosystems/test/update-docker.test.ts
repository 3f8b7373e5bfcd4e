import { describe, expect, it } from 'vitest';
import type { RegistryVersionDetails } from '../src/index.ts';
import { type DependencyUse, docker, dockerDeclarations, InvalidVersionError, type ManifestUpdate } from '../src/index.ts';
import { fixture } from './fixtures.ts';

const files = fixture('docker');
const dockerfile = files.Dockerfile ?? '';
const use = (f: Record<string, string>, name: string) => docker.findDependency(f, name) as DependencyUse;
const hex = (c: string) => c.repeat(64);
/** `${name}` as a Dockerfile writes a variable. */
const ref = (name: string) => `\${${name}}`;

/** What the registry adapter's `describeVersion` answers for an image tag: the manifest with its sha256 digest. */
const details = (name: string, version: string, digest: string): RegistryVersionDetails => ({
  name,
  version,
  dependencies: null,
  artifacts: [
    {
      filename: `${name}:${version}`,
      url: `https://registry-1.docker.io/v2/${name}/manifests/${version}`,
      digests: [{ algorithm: 'sha256', value: digest, encoding: 'hex' }],
    },
  ],
});

/** The update, after checking that the changed files read back with the target on a FROM of the image. */
function updated(f: Record<string, string>, name: string, target: string, described?: RegistryVersionDetails): ManifestUpdate {
  const result = docker.updateManifest(f, use(f, name), target, described);
  if ('files' in result) {
    const merged = { ...f, ...result.files };
    const image = docker.normaliseName(name);
    const tags = dockerDeclarations(merged)
      .filter((d) => docker.normaliseName(d.name) === image)
      .map((d) => d.tag);
    expect(tags).toContain(target);
    expect(result.requirement).toBeNull();
  }
  return result;
}

describe('docker updateManifest', () => {
  it('moves every FROM of an image with the same tag format, in every Dockerfile, keeping the rest of the lines', () => {
    const result = updated(files, 'python', '3.13-slim');
    expect(result).toEqual({
      files: {
        Dockerfile: dockerfile.replaceAll('python:3.11-slim', 'python:3.13-slim'),
        'Dockerfile.worker': (files['Dockerfile.worker'] ?? '').replace('python:3.11-slim', 'python:3.13-slim'),
      },
      requirement: null,
    });
    expect(dockerfile.match(/python:3\.11-slim/g)).toHaveLength(2);
    expect((result as { files: Record<string, string> }).files.Dockerfile).toContain(
      'FROM --platform=$BUILDPLATFORM python:3.13-slim AS build',
    );
  });

  it('edits the ARG default a FROM takes its tag from', () => {
    expect(updated(files, 'node', '22.1-alpine3.19')).toEqual({
      files: { Dockerfile: dockerfile.replace('ARG NODE_TAG="20.11-alpine3.19"', 'ARG NODE_TAG="22.1-alpine3.19"') },
      requirement: null,
    });
  });

  it('keeps v prefixes, continuation lines, lower-case instructions and registry hosts', () => {
    expect(updated(files, 'ghcr.io/acme/toolbox', 'v1.5.0')).toEqual({
      files: { Dockerfile: dockerfile.replace('toolbox:v1.4.2 \\\n    AS tools', 'toolbox:v1.5.0 \\\n    AS tools') },
      requirement: null,
    });
    expect(updated(files, 'localhost:5000/cache/builder', '1.1')).toEqual({
      files: { Dockerfile: dockerfile.replace('builder:1.0 AS cache', 'builder:1.1 AS cache') },
      requirement: null,
    });
  });

  it('replaces a pinned digest with the target manifest digest from the registry, and cannot without one', () => {
    const old = `sha256:${'0123456789abcdef'.repeat(4)}`;
    const name = 'registry.example.com:5000/team/app';
    expect(updated(files, name, '2.4', details(name, '2.4', hex('f')))).toEqual({
      files: { Dockerfile: dockerfile.replace(`app:2.3@${old} as app-base`, `app:2.4@sha256:${hex('f')} as app-base`) },
      requirement: null,
    });
    expect(docker.updateManifest(files, use(files, name), '2.4')).toEqual({ cannot: expect.stringContaining('no manifest digest') });
    expect(docker.updateManifest(files, use(files, name), '2.4', details(name, '2.5', hex('f')))).toEqual({
      cannot: expect.stringContaining("details are of '2.5'"),
    });
  });

  it('leaves tags of another format, words, digest-only pins and newer tags, saying why', () => {
    const mixed = {
      Dockerfile: `FROM python:3.11-alpine AS a\nFROM python:latest AS b\nFROM python@sha256:${hex('a')} AS c\nFROM python:3.11\n`,
    };
    expect(docker.updateManifest(mixed, use(mixed, 'python'), '3.13-slim')).toEqual({
      unchanged: expect.stringMatching(/not of the format of '3\.13-slim'.*not a version.*digest alone.*not of the format/),
    });
    expect(docker.updateManifest(files, use(files, 'redis'), '7.2')).toEqual({ unchanged: expect.stringContaining('not older') });
    const precise = { Dockerfile: 'FROM python:3.9\nFROM python:3.9.1\n' };
    expect(updated(precise, 'python', '3.12')).toEqual({
      files: { Dockerfile: 'FROM python:3.12\nFROM python:3.9.1\n' },
      requirement: null,
    });
    expect(updated(precise, 'python', '3.12.1')).toEqual({
      files: { Dockerfile: 'FROM python:3.9\nFROM python:3.12.1\n' },
      requirement: null,
    });
  });

  it('keeps CRLF line endings, comments and trailing text', () => {
    const text = [
      '# base image',
      'FROM node:18.19-alpine AS build # not a comment to Docker, kept',
      'RUN npm ci',
      'FROM node:18.19-alpine',
      '',
    ].join('\r\n');
    expect(updated({ Dockerfile: text }, 'node', '20.12-alpine')).toEqual({
      files: { Dockerfile: text.replaceAll('node:18.19-alpine', 'node:20.12-alpine') },
      requirement: null,
    });
  });

  it('moves a version written in an ARG used with a literal suffix, and refuses an ARG shared with another image', () => {
    const own = { Dockerfile: `ARG PY=3.11\nFROM python:${ref('PY')}-slim\nFROM python:$PY-slim AS again\n` };
    expect(updated(own, 'python', '3.12-slim')).toEqual({
      files: { Dockerfile: `ARG PY=3.12\nFROM python:${ref('PY')}-slim\nFROM python:$PY-slim AS again\n` },
      requirement: null,
    });
    const shared = { Dockerfile: `ARG V=3.11\nFROM python:${ref('V')}-slim\nFROM acme/tool:${ref('V')}-slim\n` };
    expect(docker.updateManifest(shared, use(shared, 'python'), '3.12-slim')).toEqual({ cannot: expect.stringContaining('another image') });
    const split = { Dockerfile: `ARG MAJOR=3\nARG MINOR=11\nFROM python:${ref('MAJOR')}.${ref('MINOR')}\n` };
    expect(docker.updateManifest(split, use(split, 'python'), '3.12')).toEqual({
      cannot: expect.stringContaining('not written in one place'),
    });
  });

  it('throws InvalidVersionError for a target that is not a version tag, and cannot for an image not used', () => {
    expect(() => docker.updateManifest(files, use(files, 'python'), 'latest')).toThrow(InvalidVersionError);
    expect(docker.updateManifest(files, { ...use(files, 'python'), name: 'ruby' }, '3.3')).toEqual({
      cannot: expect.stringContaining('not used'),
    });
  });
});
