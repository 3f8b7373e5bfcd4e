import { describe, expect, it } from 'vitest';
import { npmAndYarn } from '../src/index.ts';
import { berryHeaderPatterns } from '../src/npm/yarn-lock.ts';
import { fixture } from './fixtures.ts';

describe('npm_and_yarn with a Yarn 2+ lockfile', () => {
  const files = fixture('npm-yarn-berry');
  const find = (name: string) => npmAndYarn.findDependency(files, name);

  it('reads every pattern of a quoted multi-pattern header', () => {
    expect(berryHeaderPatterns('"lodash@npm:^4.17.0, lodash@npm:^4.17.21"')).toEqual(['lodash@npm:^4.17.0', 'lodash@npm:^4.17.21']);
    expect(berryHeaderPatterns('"a@npm:^1", "a@npm:^1.2"')).toEqual(['a@npm:^1', 'a@npm:^1.2']);
    expect(berryHeaderPatterns('typescript@npm:5.3.3')).toEqual(['typescript@npm:5.3.3']);
  });
  it('finds the locked version through the first pattern of a multi-pattern header', () => {
    expect(find('lodash')).toEqual({
      name: 'lodash',
      type: 'runtime',
      requirement: '^4.17.0',
      version: '4.17.21',
      manifest: 'package.json',
    });
    expect(find('react')).toMatchObject({ requirement: '^18.2.0', version: '18.2.0' });
    expect(find('typescript')).toMatchObject({ type: 'development', version: '5.3.3' });
  });
  it('gives workspace, link, portal and file dependencies no version instead of 0.0.0-use.local', () => {
    expect(find('@acme/ui')).toMatchObject({ version: null });
    expect(find('local-tools')).toMatchObject({ version: null });
    expect(find('shared-config')).toMatchObject({ version: null });
    expect(find('vendored')).toMatchObject({ version: null });
  });
  it('lists only the registry dependencies', () => {
    expect(npmAndYarn.listDependencies(files).map((use) => [use.name, use.version])).toEqual([
      ['lodash', '4.17.21'],
      ['react', '18.2.0'],
      ['typescript', '5.3.3'],
    ]);
  });
  it('never reports the placeholder version, even when only the lockfile says it', () => {
    const yarnLock = files['yarn.lock'] as string;
    const manifest = JSON.stringify({ dependencies: { '@acme/ui': '^1.0.0' } });
    expect(npmAndYarn.findDependency({ 'package.json': manifest, 'yarn.lock': yarnLock }, '@acme/ui')).toMatchObject({ version: null });
  });
});
