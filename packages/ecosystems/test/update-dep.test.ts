import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { locateDep } from '../src/dep/update.ts';
import type { RegistryVersionDetails } from '../src/index.ts';
import { type DependencyUse, dep, type LockfileRequest, type ManifestUpdate } from '../src/index.ts';
import { fixture } from './fixtures.ts';

const files = fixture('dep');
const toml = files['Gopkg.toml'] ?? '';
const lock = files['Gopkg.lock'] ?? '';
const use = (f: Record<string, string>, name: string) => dep.findDependency(f, name) as DependencyUse;

/** `updateManifest`, checked: the new requirement allows the target and nothing outside the requirement spans moved. */
function checked(f: Record<string, string>, name: string, target: string): ManifestUpdate {
  const result = dep.updateManifest(f, use(f, name), target);
  if (!('files' in result)) return result;
  const merged = { ...f, ...result.files };
  const after = dep.findDependency(merged, name);
  expect(after?.requirement).toBe(result.requirement);
  if (after?.requirement) expect(dep.versions.satisfies(target, after.requirement)).toBe(true);
  const outside = (text: string, files: Record<string, string>) => {
    const located = locateDep(files, name);
    if ('cannot' in located) throw new Error(located.cannot);
    const spans = located.declarations.flatMap((d) => d.parts).sort((a, b) => a.start - b.start);
    const pieces: string[] = [];
    let at = 0;
    for (const span of spans) {
      pieces.push(text.slice(at, span.start));
      at = span.end;
    }
    return [...pieces, text.slice(at)];
  };
  expect(outside(merged['Gopkg.toml'] ?? '', merged)).toEqual(outside(f['Gopkg.toml'] ?? '', f));
  return result;
}

describe('dep updateManifest', () => {
  it.each([
    ['github.com/pkg/errors', 'v0.9.1', 'version = "0.8.0"', 'version = "0.9.1"', '0.9.1'],
    ['github.com/sirupsen/logrus', 'v1.1.0', '"~1.0.4" # patch', '"~1.1.0" # patch', '~1.1.0'],
    ['github.com/spf13/cobra', 'v0.0.4', '"=0.0.3"', '"=0.0.4"', '=0.0.4'],
    ['github.com/stretchr/testify', 'v1.4.0', '">= 1.1.0, < 1.3.0"', '">= 1.1.0, < 1.5.0"', '>= 1.1.0, < 1.5.0'],
    ['github.com/gorilla/mux', 'v2.0.0', '"v1.6.2"', '"v2.0.0"', 'v2.0.0'],
    ['github.com/golang/protobuf', 'v1.3.1', '"~1.2.0"', '"~1.3.1"', '~1.3.1'],
  ])('%s to %s edits only the version constraint', (name, target, before, after, requirement) => {
    expect(checked(files, name, target)).toEqual({ files: { 'Gopkg.toml': toml.replace(before, after) }, requirement });
  });
  it('leaves constraints that allow the target (a bare version is a caret)', () => {
    expect(dep.updateManifest(files, use(files, 'github.com/pkg/errors'), 'v0.8.1')).toEqual({
      unchanged: expect.stringContaining("'0.8.0' already allows 0.8.1"),
    });
    expect(dep.updateManifest(files, use(files, 'github.com/gorilla/mux'), 'v1.7.0')).toEqual({ unchanged: expect.any(String) });
  });
  it('refuses branch, revision and other-source rules', () => {
    for (const name of ['github.com/golang/glog', 'github.com/kr/pretty', 'github.com/acme/fork']) {
      const found = { name, type: 'runtime', requirement: null, version: 'v1.0.0', manifest: 'Gopkg.toml' } as const;
      expect(dep.updateManifest(files, found, 'v1.1.0'), name).toEqual({
        cannot: expect.stringMatching(/branch or revision|fetched from/),
      });
    }
  });
  it('updates a Gopkg.toml that starts with a byte order mark', () => {
    const f = { ...files, 'Gopkg.toml': `\uFEFF${toml}` };
    expect(checked(f, 'github.com/pkg/errors', 'v0.9.1')).toEqual({
      files: { 'Gopkg.toml': `\uFEFF${toml.replace('version = "0.8.0"', 'version = "0.9.1"')}` },
      requirement: '0.9.1',
    });
  });
  it('names Gopkg.toml when its strings cannot be followed', () => {
    const text = `[[constraint]]\n  name = "github.com/a/b"\n  version = "1.0"\n  ${'k'.repeat(250)} = "x"\n`;
    const found = { name: 'github.com/a/b', type: 'runtime', requirement: '1.0', version: null, manifest: 'Gopkg.toml' } as const;
    expect(() => dep.updateManifest({ 'Gopkg.toml': text }, found, 'v2.0.0')).toThrow(
      expect.objectContaining({ name: 'ManifestParseError', file: 'Gopkg.toml', reason: expect.stringContaining('unexpected TOML') }),
    );
  });
  it('refuses to rewrite a requirement too long to read, however many blanks it holds', () => {
    const text = `[[constraint]]\n  name = "github.com/a/b"\n  version = "~1.0${' '.repeat(200_000)}x"\n`;
    const f = { 'Gopkg.toml': text };
    expect(dep.updateManifest(f, use(f, 'github.com/a/b'), 'v2.0.0')).toEqual({
      cannot: expect.stringContaining('the requirement is too long to rewrite'),
    });
  });
  it('keeps CRLF line endings and comments', () => {
    const text = '# deps\r\n[[constraint]]\r\n  name = "github.com/a/b" # lib\r\n  version = "^1.2" # caret\r\n';
    const f = { 'Gopkg.toml': text };
    expect(checked(f, 'github.com/a/b', 'v2.1.0')).toEqual({
      files: { 'Gopkg.toml': text.replace('"^1.2"', '"^2.1"') },
      requirement: '^2.1',
    });
  });
});

const COMMIT = '0123456789abcdef0123456789abcdef01234567';

/** The code host's description of a tag: one artifact whose `attributes.commit` is the tag's commit. */
const tag = (name: string, version: string, commit: string | null = COMMIT): RegistryVersionDetails => ({
  name,
  version,
  dependencies: null,
  artifacts: [
    {
      filename: `${version}.tar.gz`,
      url: `https://github.com/${name.slice('github.com/'.length)}/archive/refs/tags/${version}.tar.gz`,
      digests: [],
      ...(commit === null ? {} : { attributes: { commit } }),
    },
  ],
});

function lockRequest(f: Record<string, string>, name: string, target: RegistryVersionDetails): LockfileRequest {
  const manifest = dep.updateManifest(f, use(f, name), target.version);
  const updated = 'files' in manifest ? { ...f, ...manifest.files } : f;
  return { files: f, updated, use: use(f, name), target, registries: [{ url: 'https://api.github.com/' }] };
}

/** The `[[projects]]` block of `name` in a lock text. */
const block = (text: string, name: string) => text.split('\n\n').find((b) => b.includes(`name = "${name}"`)) ?? '';

/** The fixture's lock as dep before 0.5 wrote it: no per-project `digest`. */
const undigested = lock.replace(/ {2}digest = "[^"]+"\n/g, '');
const unverified = { ...files, 'Gopkg.lock': undigested };

describe('dep updateLockfiles (Gopkg.lock)', () => {
  it('writes the tag and its commit in a lock without per-project digests', async () => {
    const result = await dep.updateLockfiles?.(lockRequest(unverified, 'github.com/pkg/errors', tag('github.com/pkg/errors', 'v0.9.1')));
    const before = block(undigested, 'github.com/pkg/errors');
    const after = before.replace(/revision = "[0-9a-f]{40}"/, `revision = "${COMMIT}"`).replace('version = "v0.8.0"', 'version = "v0.9.1"');
    expect(result).toEqual({ files: { 'Gopkg.lock': undigested.replace(before, after) } });
    expect(after).toContain('packages = ["."]');
  });
  it("needs resolution for an entry with a digest, which hashes the new version's source tree the updater does not have", async () => {
    const result = await dep.updateLockfiles?.(lockRequest(files, 'github.com/pkg/errors', tag('github.com/pkg/errors', 'v0.9.1')));
    expect(result).toEqual({
      needsResolution: expect.stringMatching(/digest of github\.com\/pkg\/errors .*source tree at v0\.9\.1 pruned by pruneopts "UT"/),
    });
  });
  it('updates the lock also when the constraint stays', async () => {
    const request = lockRequest(unverified, 'github.com/pkg/errors', tag('github.com/pkg/errors', 'v0.8.1'));
    expect(request.updated).toBe(unverified);
    const result = await dep.updateLockfiles?.(request);
    expect('files' in (result ?? {}) && (result as { files: Record<string, string> }).files['Gopkg.lock']).toContain('version = "v0.8.1"');
  });
  it('updates a Gopkg.lock that starts with a byte order mark', async () => {
    const f = { 'Gopkg.toml': `\uFEFF${toml}`, 'Gopkg.lock': `\uFEFF${undigested}` };
    const result = await dep.updateLockfiles?.(lockRequest(f, 'github.com/pkg/errors', tag('github.com/pkg/errors', 'v0.9.1')));
    const out = (result as { files: Record<string, string> }).files['Gopkg.lock'] ?? '';
    expect(out.startsWith('\uFEFF')).toBe(true);
    expect(block(out, 'github.com/pkg/errors')).toContain('version = "v0.9.1"');
    expect(block(out, 'github.com/pkg/errors')).toContain(`revision = "${COMMIT}"`);
  });
  it('names Gopkg.lock when its strings cannot be followed', async () => {
    const bad = { ...files, 'Gopkg.lock': `${lock}\n[extra]\n  ${'k'.repeat(250)} = "x"\n` };
    await expect(
      (async () => dep.updateLockfiles?.(lockRequest(bad, 'github.com/pkg/errors', tag('github.com/pkg/errors', 'v0.9.1'))))(),
    ).rejects.toThrow(
      expect.objectContaining({ name: 'ManifestParseError', file: 'Gopkg.lock', reason: expect.stringContaining('unexpected TOML') }),
    );
  });
  it('keeps CRLF line endings', async () => {
    const f = { 'Gopkg.toml': toml.replaceAll('\n', '\r\n'), 'Gopkg.lock': undigested.replaceAll('\n', '\r\n') };
    const result = await dep.updateLockfiles?.(lockRequest(f, 'github.com/pkg/errors', tag('github.com/pkg/errors', 'v0.9.1')));
    const out = (result as { files: Record<string, string> }).files['Gopkg.lock'] ?? '';
    expect(out.replaceAll('\r\n', '')).not.toContain('\n');
    expect(out.split('\r\n').length).toBe(undigested.split('\n').length);
  });
  it('needs resolution without a commit, for a branch pin, a constraint that does not allow the target, or dep < 0.5 inputs-digest', async () => {
    const needs = async (request: LockfileRequest, reason: string) =>
      expect(await dep.updateLockfiles?.(request)).toEqual({ needsResolution: expect.stringContaining(reason) });
    await needs(lockRequest(files, 'github.com/pkg/errors', tag('github.com/pkg/errors', 'v0.9.1', null)), 'no commit');
    const unchanged = { files, updated: files, use: use(files, 'github.com/pkg/errors'), registries: [] };
    await needs({ ...unchanged, target: tag('github.com/pkg/errors', 'v0.9.1') }, "constraint '0.8.0'");
    const glog = { ...unchanged, use: { ...use(files, 'github.com/golang/glog'), version: 'v1.0.0' } };
    await needs({ ...glog, target: tag('github.com/golang/glog', 'v1.0.0') }, 'branch or revision');
    const old = { ...files, 'Gopkg.lock': lock.replace('[solve-meta]\n', '[solve-meta]\n  inputs-digest = "abc"\n') };
    await needs(lockRequest(old, 'github.com/pkg/errors', tag('github.com/pkg/errors', 'v0.9.1')), 'inputs-digest');
    expect(
      await dep.updateLockfiles?.(lockRequest({ 'Gopkg.toml': toml }, 'github.com/pkg/errors', tag('github.com/pkg/errors', 'v0.9.1'))),
    ).toEqual({
      files: {},
    });
  });
});

describe('dep demo directory update', () => {
  it('moves github.com/acme-oss/errors from v0.8.0 to v0.9.2 in Gopkg.toml, and leaves Gopkg.lock, whose digest it cannot compute, to dep', async () => {
    const seed = JSON.parse(readFileSync(new URL('../../github-emulator/src/demo-seeds/dep.json', import.meta.url), 'utf8')) as {
      files: Record<string, Record<string, string>>;
    };
    const demo = Object.fromEntries(
      Object.entries(seed.files['acme/polyglot'] ?? {})
        .filter(([path]) => path.startsWith('dep/Gopkg.'))
        .map(([path, text]) => [path.slice('dep/'.length), text]),
    );
    const name = 'github.com/acme-oss/errors';
    const request = lockRequest(demo, name, tag(name, 'v0.9.2'));
    expect(request.updated['Gopkg.toml']).toBe((demo['Gopkg.toml'] ?? '').replace('version = "0.8.0"', 'version = "0.9.2"'));
    // never a lock with the digest line missing (nor the old version's digest kept)
    expect(await dep.updateLockfiles?.(request)).toEqual({
      needsResolution: expect.stringContaining(`Gopkg.lock's digest of ${name}`),
    });
  });
});
