import { describe, expect, it } from 'vitest';
import { requireEcosystem } from '../src/index.ts';
import { CORPUS_PACKAGE_MANAGERS, CORPUS_PRESENT, corpusDirectories } from './corpus.ts';
import { listChecked } from './invariant.ts';

describe.runIf(CORPUS_PRESENT)('listDependencies over the real-world corpus', () => {
  describe.each(CORPUS_PACKAGE_MANAGERS)('%s', (packageManager) => {
    const ecosystem = requireEcosystem(packageManager);
    const directories = corpusDirectories(ecosystem);
    it('has manifests to read, most of which declare dependencies', () => {
      expect(directories.length).toBeGreaterThan(0);
      const declaring = directories.filter((d) => ecosystem.listDependencies(d.files).length > 0);
      expect(declaring.length).toBeGreaterThan(directories.length / 2);
    });
    it.each(directories.map((d) => [d.label, d] as const))('%s: every listed dependency is what findDependency finds', (_, directory) => {
      listChecked(ecosystem, directory.files);
    });
  });
});
