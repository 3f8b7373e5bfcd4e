import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  type DependencyUse,
  type LockfileRequest,
  pip,
  type RegistryArtifact,
  type RegistryDependency,
  type RegistryVersionDetails,
} from '../src/index.ts';
import { fixture, fixtureTree } from './fixtures.ts';
import { checkedUpdate } from './update-check.ts';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const artifact = (filename: string): RegistryArtifact => ({
  filename,
  url: `https://files.example.org/${filename}`,
  digests: [{ algorithm: 'sha256', value: sha(filename), encoding: 'hex' }],
});
const details = (name: string, version: string, dependencies: RegistryDependency[] | null): RegistryVersionDetails => ({
  name,
  version,
  dependencies,
  artifacts: [artifact(`${name}-${version}.tar.gz`), artifact(`${name}-${version}-py3-none-any.whl`)],
});
const runtime = (name: string, requirement: string, condition?: string): RegistryDependency => ({
  name,
  requirement,
  kind: 'runtime',
  ...(condition ? { condition } : {}),
});

/** The lockfile update after the manifest update of `name` to `target` (its registry description). */
async function lockUpdate(files: Record<string, string>, name: string, target: RegistryVersionDetails) {
  const use = pip.findDependency(files, name) as DependencyUse;
  const manifest = pip.updateManifest(files, use, target.version);
  const updated = 'files' in manifest ? { ...files, ...manifest.files } : files;
  const request: LockfileRequest = { files, updated, use, target, registries: [] };
  return { manifest, lock: await pip.updateLockfiles?.(request), updated };
}

describe('pip updateManifest: Pipfile, setup.py, setup.cfg, requirements.in, included files', () => {
  it('rewrites Pipfile specifiers in every category, only inside the quotes', () => {
    const files = fixture('pipenv');
    const text = files.Pipfile ?? '';
    expect(checkedUpdate(pip, files, 'requests', '3.1.0')).toEqual({
      files: {
        Pipfile: text
          .replace('requests = {version = ">=2.28,<3"', 'requests = {version = ">=2.28,<4"')
          .replace('requests = "==2.31.0"', 'requests = "==3.1.0"'),
      },
      requirement: '>=2.28,<4',
    });
    expect(checkedUpdate(pip, files, 'flask', '3.0.0')).toMatchObject({ files: { Pipfile: text.replace('"==2.3.3"', '"==3.0.0"') } });
    expect(checkedUpdate(pip, files, 'sphinx', '8.0.2')).toMatchObject({ files: { Pipfile: text.replace('"~=7.2"', '"~=8.0"') } });
    expect(checkedUpdate(pip, files, 'zope.interface', '7.0')).toMatchObject({ unchanged: expect.any(String) });
    const use = pip.findDependency(files, 'internal-sdk') as DependencyUse;
    expect(pip.updateManifest(files, use, '2.0.0')).toEqual({ cannot: expect.stringContaining('git, path or file') });
  });
  it('rewrites setup.py string literals and setup.cfg lines in place', () => {
    const files = fixture('setuptools');
    const py = files['setup.py'] ?? '';
    const cfg = files['setup.cfg'] ?? '';
    expect(checkedUpdate(pip, files, 'click', '9.1.0')).toEqual({
      files: { 'setup.py': py.replace('"click>=8.0,<9"', '"click>=8.0,<10"'), 'setup.cfg': cfg.replace('click>=8.0,<9', 'click>=8.0,<10') },
      requirement: '>=8.0,<10',
    });
    expect(checkedUpdate(pip, files, 'pyyaml', '6.0.2')).toMatchObject({
      files: { 'setup.py': py.replace("'PyYAML==6.0.1'", "'PyYAML==6.0.2'") },
    });
    expect(checkedUpdate(pip, files, 'requests', '3.0.1')).toMatchObject({
      files: { 'setup.cfg': cfg.replace('requests[socks] >= 2.28, < 3', 'requests[socks] >= 2.28, < 4') },
    });
    expect(checkedUpdate(pip, files, 'pytest-mock', '3.12.0')).toMatchObject({ unchanged: expect.any(String) });
    const escaped = { 'setup.py': 'setup(install_requires=["click>=8.0,<9\\t"])\n' };
    const use = pip.findDependency(escaped, 'click') as DependencyUse;
    expect(pip.updateManifest(escaped, use, '9.0.0')).toEqual({ cannot: expect.stringContaining('escapes') });
  });
  it('rewrites requirements.in and leaves its pip-compile output to the lockfile update', () => {
    const files = fixture('pip-compile');
    expect(checkedUpdate(pip, files, 'django', '5.0.1')).toEqual({
      files: { 'requirements.in': (files['requirements.in'] ?? '').replace('Django>=4.2,<5', 'Django>=4.2,<6') },
      requirement: '>=4.2,<6',
    });
  });
  it('rewrites included files and constraints files that name the package', () => {
    const files = fixtureTree('pip-includes');
    expect(checkedUpdate(pip, files, 'structlog', '24.1.0')).toMatchObject({
      files: { 'requirements/common.txt': (files['requirements/common.txt'] ?? '').replace('~=23.2', '~=24.1') },
    });
    expect(checkedUpdate(pip, files, 'urllib3', '2.1.0')).toMatchObject({
      files: { 'requirements/constraints.txt': (files['requirements/constraints.txt'] ?? '').replace('urllib3==2.0.7', 'urllib3==2.1.0') },
    });
    expect(checkedUpdate(pip, files, 'attrs', '24.2.0')).toMatchObject({
      files: { 'requirements/constraints.txt': (files['requirements/constraints.txt'] ?? '').replace('attrs<24', 'attrs<25') },
    });
  });
});

describe('pip updateLockfiles: Pipfile.lock', () => {
  const files = fixture('pipenv');
  const deps: RegistryDependency[] = [
    runtime('urllib3', '>=1.21.1,<3'),
    runtime('idna', '>=2.5,<4'),
    { ...runtime('PySocks', '>=1.5.6,!=1.5.7', 'extra == "socks"'), kind: 'optional' as const },
  ];

  it('moves the version and hashes of every section locking it and recomputes _meta.hash.sha256', async () => {
    const target = details('requests', '3.1.0', deps);
    const { lock, updated } = await lockUpdate(files, 'requests', target);
    expect(lock).toHaveProperty('files');
    const text = (lock as { files: Record<string, string> }).files['Pipfile.lock'] ?? '';
    const before = JSON.parse(files['Pipfile.lock'] ?? '{}');
    const after = JSON.parse(text);
    const hashes = target.artifacts.map((a) => `sha256:${a.digests[0]?.value}`).sort();
    for (const section of ['default', 'develop']) {
      expect(after[section].requests).toEqual({ ...before[section].requests, version: '==3.1.0', hashes });
    }
    // the Pipfile changed: the hash is pipenv's of the new Pipfile (computed with Python's json.dumps for this fixture)
    expect(updated.Pipfile).not.toBe(files.Pipfile);
    expect(after._meta.hash.sha256).toBe('bc86898249b670d3b25c6bd5a38c4f205d07e444e98fc5c6bcadb6b4c2da8d3c');
    // nothing else moved: the same text once the requests entries and the hash are put back
    after._meta.hash.sha256 = before._meta.hash.sha256;
    after.default.requests = before.default.requests;
    after.develop.requests = before.develop.requests;
    expect(JSON.stringify(after, null, 4)).toBe(JSON.stringify(before, null, 4));
    expect(text.split('\n').length).toBe((files['Pipfile.lock'] ?? '').split('\n').length);
  });
  it('keeps the hash when the Pipfile does not change', async () => {
    const { manifest, lock } = await lockUpdate(files, 'pytest', details('pytest', '7.4.4', []));
    expect(manifest).toHaveProperty('unchanged');
    const after = JSON.parse((lock as { files: Record<string, string> }).files['Pipfile.lock'] ?? '{}');
    expect(after._meta.hash.sha256).toBe(JSON.parse(files['Pipfile.lock'] ?? '{}')._meta.hash.sha256);
    expect(after.develop.pytest.version).toBe('==7.4.4');
  });
  it('needs resolution when a dependency of the target is not locked at an allowed version, or without dependencies', async () => {
    expect((await lockUpdate(files, 'requests', details('requests', '3.1.0', [runtime('urllib3', '>=3')]))).lock).toEqual({
      needsResolution: expect.stringContaining('urllib3'),
    });
    expect((await lockUpdate(files, 'requests', details('requests', '3.1.0', [runtime('h2', '>=4')]))).lock).toEqual({
      needsResolution: expect.stringContaining('h2'),
    });
    expect((await lockUpdate(files, 'requests', details('requests', '3.1.0', null))).lock).toHaveProperty('needsResolution');
  });
});

describe('pip updateLockfiles: pip-compile output', () => {
  const files = fixture('pip-compile');

  it('moves the pin and its --hash lines, keeping extras, markers and # via comments', async () => {
    const target = details('Django', '4.2.8', [runtime('asgiref', '>=3.6.0,<4'), runtime('sqlparse', '>=0.3.1')]);
    const { lock } = await lockUpdate(files, 'django', target);
    const text = (lock as { files: Record<string, string> }).files['requirements.txt'] ?? '';
    const [tar, whl] = target.artifacts.map((a) => a.digests[0]?.value ?? '').sort();
    const old = files['requirements.txt'] ?? '';
    const block = /django==4\.2\.7 \\\n(?: {4}--hash=sha256:[0-9a-f]+(?: \\)?\n){2}/.exec(old)?.[0] ?? 'missing';
    expect(text).toBe(old.replace(block, `django==4.2.8 \\\n    --hash=sha256:${tar} \\\n    --hash=sha256:${whl}\n`));
  });
  it('keeps the extras of the pin line', async () => {
    const target = details('celery', '5.3.6', [
      runtime('kombu', '>=5.3.2,<6.0'),
      { ...runtime('redis', '>=4.5.2,!=4.5.5,<6.0.0', 'extra == "redis"'), kind: 'optional' },
    ]);
    const { lock } = await lockUpdate(files, 'celery', target);
    expect((lock as { files: Record<string, string> }).files['requirements.txt']).toContain('celery[redis]==5.3.6 \\\n    --hash=');
  });
  it('needs resolution when the target needs a package or version the output does not pin', async () => {
    const needs = async (dependencies: RegistryDependency[]) =>
      (await lockUpdate(files, 'django', details('Django', '4.2.8', dependencies))).lock;
    expect(await needs([runtime('asgiref', '>=4')])).toEqual({ needsResolution: expect.stringContaining('asgiref') });
    expect(await needs([runtime('tzdata', '*')])).toEqual({ needsResolution: expect.stringContaining('tzdata') });
  });
  it('rewrites a pin without hashes', async () => {
    const plain = { 'requirements.in': 'flask>=2\n', 'requirements.txt': 'flask==2.3.3\n    # via -r requirements.in\n' };
    const { lock } = await lockUpdate(plain, 'flask', details('flask', '3.0.0', []));
    expect(lock).toEqual({ files: { 'requirements.txt': 'flask==3.0.0\n    # via -r requirements.in\n' } });
  });
});
