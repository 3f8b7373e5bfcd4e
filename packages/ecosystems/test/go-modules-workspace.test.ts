import { describe, expect, it } from 'vitest';
import { readGoWork } from '../src/go/go-work.ts';
import {
  type DependencyUse,
  goModules,
  type LockfileRequest,
  ManifestParseError,
  type RegistryVersionDetails,
  relatedFiles,
  unmetRequirement,
} from '../src/index.ts';
import { listChecked } from './invariant.ts';

const H = (c: string) => `h1:${c.repeat(43)}=`;

const WORK = `go 1.22

toolchain go1.22.4

use ./api

use (
	./worker // the queue consumer
	../shared
	.
)

replace example.com/forked v1.0.0 => example.com/fork v1.0.1
`;

const ROOT = `module example.com/app

go 1.22

require (
	example.com/shared v0.0.0
	github.com/pkg/errors v0.9.1
)
`;

const API = `module example.com/app/api

go 1.22

require (
	example.com/shared v0.0.0-00010101000000-000000000000
	github.com/google/uuid v1.4.0
	golang.org/x/text v0.13.0 // indirect
	example.com/forked v1.0.0
)
`;

const WORKER = `module example.com/app/worker

go 1.21

require (
	github.com/google/uuid v1.6.0
	golang.org/x/text v0.14.0
	example.com/app/api v0.1.0
)

require github.com/pkg/errors v0.9.1 // indirect
`;

const SHARED = `module example.com/shared

go 1.22

require github.com/google/uuid v1.4.0
`;

const sum = (...lines: [string, string][]) =>
  `${lines
    .flatMap(([path, version], i) => [
      `${path} ${version} ${H(String.fromCharCode(65 + i))}`,
      `${path} ${version}/go.mod ${H(String.fromCharCode(97 + i))}`,
    ])
    .join('\n')}\n`;

const files: Record<string, string> = {
  'go.work': WORK,
  'go.work.sum': `golang.org/x/sys v0.1.0/go.mod ${H('z')}\n`,
  'go.mod': ROOT,
  'api/go.mod': API,
  'api/go.sum': sum(['github.com/google/uuid', 'v1.4.0'], ['golang.org/x/text', 'v0.13.0']),
  'worker/go.mod': WORKER,
  'worker/go.sum': sum(['github.com/google/uuid', 'v1.6.0'], ['golang.org/x/text', 'v0.14.0']),
  '../shared/go.mod': SHARED,
};
const use = (f: Record<string, string>, name: string) => goModules.findDependency(f, name) as DependencyUse;

describe('go.work: files', () => {
  it('takes a directory with go.mod or go.work, and reads each used module’s go.mod and go.sum in a second round', () => {
    expect(goModules.files.required).toEqual([['go.mod', 'go.work']]);
    expect(unmetRequirement(goModules.files.required, ['go.work'])).toBeUndefined();
    expect(goModules.files.optional).toContain('go.work.sum');
    expect(goModules.files.related?.({ 'go.work': WORK })).toEqual([
      'api/go.mod',
      'api/go.sum',
      'worker/go.mod',
      'worker/go.sum',
      '../shared/go.mod',
      '../shared/go.sum',
      'go.mod',
      'go.sum',
    ]);
    expect(relatedFiles(goModules.files, { 'go.work': WORK, 'go.mod': ROOT }, '/services')).toEqual([
      'api/go.mod',
      'api/go.sum',
      'worker/go.mod',
      'worker/go.sum',
      '../shared/go.mod',
      '../shared/go.sum',
      'go.sum',
    ]);
    expect(goModules.files.related?.({ 'go.mod': ROOT })).toEqual([]);
  });

  it('reads go.work: go, toolchain, use lines and blocks, replace; refuses unknown directives with the line', () => {
    expect(readGoWork('go.work', WORK)).toEqual({
      go: '1.22',
      toolchain: 'go1.22.4',
      uses: ['./api', './worker', '../shared', '.'],
      replaces: [{ path: 'example.com/forked', version: 'v1.0.0', newPath: 'example.com/fork', newVersion: 'v1.0.1', local: false }],
    });
    expect(() => goModules.listDependencies({ ...files, 'go.work': 'go 1.22\nrequire x v1\n' })).toThrow(
      expect.objectContaining({ file: 'go.work', reason: 'line 2: unknown directive: require' }),
    );
    expect(() => goModules.listDependencies({ ...files, 'go.work': 'use ./a ./b\n' })).toThrow(ManifestParseError);
    expect(() => goModules.listDependencies({ ...files, 'api/go.sum': 'not a sum line\n' })).toThrow(
      expect.objectContaining({ file: 'api/go.sum' }),
    );
  });
});

describe('go.work: reading', () => {
  it("lists the used modules' direct requires, without the workspace's own modules or go.work's replacements", () => {
    expect(listChecked(goModules, files).map((u) => [u.name, u.version, u.manifest])).toEqual([
      ['github.com/pkg/errors', 'v0.9.1', 'go.mod'],
      ['github.com/google/uuid', 'v1.6.0', 'api/go.mod'],
      ['golang.org/x/text', 'v0.14.0', 'worker/go.mod'],
    ]);
    expect(use(files, 'example.com/shared')).toBeUndefined();
    expect(use(files, 'example.com/app/api')).toBeUndefined();
    expect(use(files, 'example.com/forked')).toMatchObject({ version: null, manifest: 'api/go.mod' });
  });

  it('reads a go.work without go.mod in the directory, and reads go.work.sum as optional', () => {
    const { 'go.mod': _root, 'go.work.sum': _sum, ...rest } = files;
    const onlyWork = { ...rest, 'go.work': WORK.replace('\t.\n', '') };
    expect(listChecked(goModules, onlyWork).map((u) => u.name)).toEqual(['github.com/google/uuid', 'golang.org/x/text']);
    expect(goModules.listDependencies({ 'go.work': 'go 1.22\n' })).toEqual([]);
  });
});

/** The registry's description of a module version, with h1 digests and its go.mod's requirements. */
const details = (name: string, version: string, go = '1.21'): RegistryVersionDetails => ({
  name,
  version,
  dependencies: [],
  artifacts: [
    {
      filename: `${version}.zip`,
      url: 'https://proxy.golang.org/x.zip',
      digests: [{ algorithm: 'h1', value: H('N'), encoding: 'prefixed' }],
    },
    {
      filename: `${version}.mod`,
      url: 'https://proxy.golang.org/x.mod',
      digests: [{ algorithm: 'h1', value: H('n'), encoding: 'prefixed' }],
      attributes: { go },
    },
  ],
});

describe('go.work: updates', () => {
  it('rewrites each used go.mod that requires the module, and each go.sum beside a changed go.mod', async () => {
    const dependency = use(files, 'github.com/google/uuid');
    const update = goModules.updateManifest(files, dependency, 'v1.7.0');
    expect(update).toEqual({
      files: {
        'api/go.mod': API.replace('uuid v1.4.0', 'uuid v1.7.0'),
        'worker/go.mod': WORKER.replace('uuid v1.6.0', 'uuid v1.7.0'),
        '../shared/go.mod': SHARED.replace('uuid v1.4.0', 'uuid v1.7.0'),
      },
      requirement: null,
    });
    const request: LockfileRequest = {
      files,
      updated: { ...files, ...('files' in update ? update.files : {}) },
      use: dependency,
      target: details('github.com/google/uuid', 'v1.7.0'),
      registries: [],
    };
    expect(await goModules.updateLockfiles?.(request)).toEqual({
      files: {
        'api/go.sum': (files['api/go.sum'] ?? '').replace(
          `github.com/google/uuid v1.4.0 ${H('A')}\ngithub.com/google/uuid v1.4.0/go.mod ${H('a')}`,
          `github.com/google/uuid v1.7.0 ${H('N')}\ngithub.com/google/uuid v1.7.0/go.mod ${H('n')}`,
        ),
        'worker/go.sum': (files['worker/go.sum'] ?? '').replace(
          `github.com/google/uuid v1.6.0 ${H('A')}\ngithub.com/google/uuid v1.6.0/go.mod ${H('a')}`,
          `github.com/google/uuid v1.7.0 ${H('N')}\ngithub.com/google/uuid v1.7.0/go.mod ${H('n')}`,
        ),
      },
    });
    expect(await goModules.updateLockfiles?.({ ...request, target: details('github.com/google/uuid', 'v1.7.0', '1.23') })).toEqual({
      needsResolution: expect.stringContaining("above go.work's go 1.22"),
    });
  });

  it('refuses a module go.work replaces, a lower target, and leaves go.mod files that require the target already', () => {
    expect(goModules.updateManifest(files, use(files, 'example.com/forked'), 'v1.1.0')).toEqual({
      cannot: expect.stringContaining('go.work replaces example.com/forked v1.0.0 by example.com/fork v1.0.1'),
    });
    expect(goModules.updateManifest(files, use(files, 'github.com/google/uuid'), 'v1.5.0')).toEqual({
      cannot: expect.stringContaining('worker/go.mod requires github.com/google/uuid v1.6.0, above v1.5.0'),
    });
    const text = use(files, 'golang.org/x/text');
    expect(goModules.updateManifest(files, text, 'v0.14.0')).toEqual({
      files: { 'api/go.mod': API.replace('text v0.13.0', 'text v0.14.0') },
      requirement: null,
    });
    expect(goModules.updateManifest(files, use(files, 'github.com/pkg/errors'), 'v0.9.1')).toEqual({
      unchanged: 'go.mod requires github.com/pkg/errors v0.9.1 already; worker/go.mod requires github.com/pkg/errors v0.9.1 already',
    });
    expect(goModules.updateManifest(files, text, 'v0.15.0')).toEqual({
      files: { 'api/go.mod': API.replace('text v0.13.0', 'text v0.15.0'), 'worker/go.mod': WORKER.replace('text v0.14.0', 'text v0.15.0') },
      requirement: null,
    });
  });
});
