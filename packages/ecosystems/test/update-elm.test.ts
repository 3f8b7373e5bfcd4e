import { describe, expect, it } from 'vitest';
import { type DependencyUse, elm, type RegistryVersionDetails } from '../src/index.ts';
import { fixture } from './fixtures.ts';

const app = fixture('elm');
const pkg = fixture('elm-package');
const use = (f: Record<string, string>, name: string) => elm.findDependency(f, name) as DependencyUse;
const details = (name: string, version: string, dependencies: Record<string, string>): RegistryVersionDetails => ({
  name,
  version,
  dependencies: Object.entries(dependencies).map(([n, requirement]) => ({ name: n, requirement, kind: 'runtime' })),
  artifacts: [],
});
const core = { 'elm/core': '1.0.0 <= v < 2.0.0' };

describe('elm updateManifest (application)', () => {
  it("sets the exact version when the target's dependencies are met by the pinned ones", () => {
    const target = details('elm/http', '2.0.1', { ...core, 'elm/bytes': '1.0.0 <= v < 2.0.0', 'elm/json': '1.0.0 <= v < 2.0.0' });
    expect(elm.updateManifest(app, use(app, 'elm/http'), '2.0.1', target)).toEqual({
      files: { 'elm.json': (app['elm.json'] ?? '').replace('"elm/http": "2.0.0"', '"elm/http": "2.0.1"') },
      requirement: '2.0.1',
    });
  });
  it('updates a test dependency against dependencies and test-dependencies', () => {
    const target = details('elm-explorations/test', '2.2.0', {
      ...core,
      'elm/random': '1.0.0 <= v < 2.0.0',
      'elm/html': '1.0.0 <= v < 2.0.0',
    });
    expect(elm.updateManifest(app, use(app, 'elm-explorations/test'), '2.2.0', target)).toMatchObject({ requirement: '2.2.0' });
  });
  it('needs resolution when the target needs an indirect dependency moved or added', () => {
    const moved = details('elm/http', '3.0.0', { 'elm/core': '1.0.6 <= v < 2.0.0' });
    expect(elm.updateManifest(app, use(app, 'elm/http'), '3.0.0', moved)).toEqual({
      cannot: 'needs resolution: elm/http 3.0.0 needs elm/core 1.0.6 <= v < 2.0.0 (pinned at 1.0.5)',
    });
    const added = details('elm/http', '3.0.0', { 'elm/regex': '1.0.0 <= v < 2.0.0' });
    expect(elm.updateManifest(app, use(app, 'elm/http'), '3.0.0', added)).toEqual({
      cannot: expect.stringContaining('elm/regex 1.0.0 <= v < 2.0.0 (not in elm.json)'),
    });
    // runtime dependencies cannot be met by test-only pins
    const testOnly = details('elm/http', '3.0.0', { 'elm/random': '1.0.0 <= v < 2.0.0' });
    expect(elm.updateManifest(app, use(app, 'elm/http'), '3.0.0', testOnly)).toHaveProperty('cannot');
    expect(elm.updateManifest(app, use(app, 'elm/http'), '3.0.0')).toEqual({ cannot: expect.stringContaining('are needed') });
  });
  it('keeps CRLF and the four-space indentation elm writes', () => {
    const crlf = { 'elm.json': (app['elm.json'] ?? '').replace(/^ +/gm, (spaces) => spaces.repeat(2)).replaceAll('\n', '\r\n') };
    const result = elm.updateManifest(crlf, use(crlf, 'elm/json'), '1.1.4', details('elm/json', '1.1.4', core));
    expect(result).toEqual({
      files: { 'elm.json': (crlf['elm.json'] ?? '').replace('"elm/json": "1.1.3"', '"elm/json": "1.1.4"') },
      requirement: '1.1.4',
    });
  });
});

describe('elm updateManifest (package)', () => {
  it("widens a range's upper bound to the target's next major", () => {
    expect(elm.updateManifest(pkg, use(pkg, 'elm/http'), '2.0.0')).toEqual({
      files: {
        'elm.json': (pkg['elm.json'] ?? '').replace('"elm/http": "1.0.0 <= v < 2.0.0"', '"elm/http": "1.0.0 <= v < 3.0.0"'),
      },
      requirement: '1.0.0 <= v < 3.0.0',
    });
    expect(elm.updateManifest(pkg, use(pkg, 'elm/json'), '1.2.0')).toMatchObject({ requirement: '1.1.0 <= v < 2.0.0' });
    expect(elm.updateManifest(pkg, use(pkg, 'elm/core'), '1.0.5')).toHaveProperty('unchanged');
    expect(elm.updateManifest(pkg, use(pkg, 'elm/core'), '0.9.0')).toHaveProperty('cannot');
  });
});
