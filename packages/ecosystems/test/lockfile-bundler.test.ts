import { describe, expect, it } from 'vitest';
import { lockRequirement } from '../src/bundler/gemfile-lock-update.ts';
import type { RegistryDependency, RegistryVersionDetails } from '../src/index.ts';
import { bundler, type DependencyUse, type LockfileRequest, ManifestParseError, readGemfileLock } from '../src/index.ts';
import { CORPUS_PRESENT, corpusDirectories } from './corpus.ts';

const SHA = 'a'.repeat(64);
const NEW_SHA = 'b'.repeat(64);

const GEMFILE = `source "https://rubygems.org"

gem "rails", "~> 7.1.2"
gem "rack", "~> 2.2"
gem "puma", git: "https://github.com/puma/puma"
`;

const LOCK = `GIT
  remote: https://github.com/puma/puma
  revision: 0123456789abcdef0123456789abcdef01234567
  specs:
    puma (6.4.0)
      nio4r (~> 2.0)

GEM
  remote: https://rubygems.org/
  specs:
    actionpack (7.1.2)
      rack (>= 2.2.4)
      rack-test (>= 0.6.3)
    i18n (1.14.1)
      concurrent-ruby (~> 1.0)
    concurrent-ruby (1.2.2)
    nio4r (2.5.9)
    rack (2.2.8)
      webrick (~> 1.8)
    rack-test (2.1.0)
      rack (>= 1.3)
    rails (7.1.2)
      actionpack (= 7.1.2)
      i18n (>= 1.6, < 2)
    webrick (1.8.1)

PLATFORMS
  ruby

DEPENDENCIES
  puma!
  rack (~> 2.2)
  rails (~> 7.1.2)

CHECKSUMS
  actionpack (7.1.2) sha256=${SHA}
  concurrent-ruby (1.2.2) sha256=${SHA}
  i18n (1.14.1) sha256=${SHA}
  nio4r (2.5.9) sha256=${SHA}
  puma (6.4.0)
  rack (2.2.8) sha256=${SHA}
  rack-test (2.1.0) sha256=${SHA}
  rails (7.1.2) sha256=${SHA}
  webrick (1.8.1) sha256=${SHA}

BUNDLED WITH
   2.5.3
`;

const files = { Gemfile: GEMFILE, 'Gemfile.lock': LOCK };

/** A Gemfile.lock's text without the entries of the gems `names` (lowercase): spec blocks, DEPENDENCIES and CHECKSUMS lines. */
function withoutGems(text: string, names: ReadonlySet<string>): string {
  let section = '';
  let skipping = false;
  const named = (line: string, indent: number) => names.has((new RegExp(`^ {${indent}}([^\\s(!]+)`).exec(line)?.[1] ?? '').toLowerCase());
  return text
    .split('\n')
    .filter((line) => {
      if (/^\S/.test(line)) section = line.trim();
      if (/^ {4}\S/.test(line)) skipping = named(line, 4);
      else if (!/^ {6}/.test(line)) skipping = false;
      if (/^ {4}\S|^ {6}/.test(line)) return !skipping;
      return !(['DEPENDENCIES', 'CHECKSUMS'].includes(section) && /^ {2}\S/.test(line) && named(line, 2));
    })
    .join('\n');
}

/**
 * Compares a Gemfile.lock before and after an update of `name`: `rest` is whether everything outside the gem's own
 * entries and those of the gems the update removed is unchanged; `stillNeeded` lists removed gems something still names.
 */
function lockEntriesOutside(before: string, after: string, name: string): { rest: boolean; stillNeeded: string[] } {
  const own = name.toLowerCase();
  const names = (text: string) => new Set(readGemfileLock('Gemfile.lock', text).map((gem) => gem.name.toLowerCase()));
  const kept = names(after);
  const removed = [...names(before)].filter((gem) => gem !== own && !kept.has(gem));
  const named = new Set(
    [...after.matchAll(/^(?: {6}| {2})([^\s(!]+)/gm)].map((match) => (match[1] ?? '').toLowerCase()).filter((gem) => gem !== 'remote:'),
  );
  return {
    rest: withoutGems(before, new Set([own, ...removed])) === withoutGems(after, new Set([own])),
    stillNeeded: removed.filter((gem) => named.has(gem)),
  };
}

/** The registry's description of `name` `version`: runtime dependencies and the `.gem` with its SHA-256. */
function details(name: string, version: string, dependencies: [string, string][] | null = []): RegistryVersionDetails {
  return {
    name,
    version,
    dependencies: dependencies?.map(([dep, requirement]): RegistryDependency => ({ name: dep, requirement, kind: 'runtime' })) ?? null,
    artifacts: [
      {
        filename: `${name}-${version}.gem`,
        url: `https://rubygems.org/gems/${name}-${version}.gem`,
        digests: [{ algorithm: 'sha256', value: NEW_SHA, encoding: 'hex' }],
      },
    ],
  };
}

function request(target: RegistryVersionDetails, input: Record<string, string> = files, updated = input): LockfileRequest {
  const use = bundler.findDependency(input, target.name) as DependencyUse;
  return { files: input, updated, use, target, registries: [{ url: 'https://rubygems.org/' }] };
}

const lockOf = async (req: LockfileRequest): Promise<string> => {
  const result = await bundler.updateLockfiles?.(req);
  if (!result || !('files' in result)) throw new Error(`no files: ${JSON.stringify(result)}`);
  return result.files['Gemfile.lock'] ?? '';
};

describe('bundler updateLockfiles', () => {
  it('rewrites the spec, its dependency lines and its CHECKSUMS line, and nothing else', async () => {
    const out = await lockOf(request(details('rack', '2.2.9', [['webrick', '~> 1.8']])));
    expect(out).toBe(
      LOCK.replace('    rack (2.2.8)\n', '    rack (2.2.9)\n').replace(`  rack (2.2.8) sha256=${SHA}`, `  rack (2.2.9) sha256=${NEW_SHA}`),
    );
    expect(readGemfileLock('Gemfile.lock', out).find((gem) => gem.name === 'rack')?.version).toBe('2.2.9');
    expect(bundler.findDependency({ ...files, 'Gemfile.lock': out }, 'rack')?.version).toBe('2.2.9');
  });

  it('writes the target dependencies as Bundler does: sorted by name, requirement parts sorted and reversed, >= 0 left out', async () => {
    const out = await lockOf(
      request(
        details('rack', '2.2.9', [
          ['webrick', '~> 1.8'],
          ['rack-test', '>= 0'],
          ['i18n', '< 2, >= 1.6'],
          ['concurrent-ruby', '>= 1.0.2, ~> 1.0'],
        ]),
      ),
    );
    expect(out).toContain(
      '    rack (2.2.9)\n      concurrent-ruby (~> 1.0, >= 1.0.2)\n      i18n (>= 1.6, < 2)\n      rack-test\n      webrick (~> 1.8)\n    rack-test (2.1.0)\n',
    );
  });

  it('keeps CRLF line breaks', async () => {
    const crlf = { Gemfile: GEMFILE.replaceAll('\n', '\r\n'), 'Gemfile.lock': LOCK.replaceAll('\n', '\r\n') };
    const out = await lockOf(
      request(
        details('rack', '2.2.9', [
          ['webrick', '~> 1.8'],
          ['i18n', '>= 1'],
        ]),
        crlf,
      ),
    );
    expect(out).toBe(
      LOCK.replace('    rack (2.2.8)\n      webrick (~> 1.8)\n', '    rack (2.2.9)\n      i18n (>= 1)\n      webrick (~> 1.8)\n')
        .replace(`  rack (2.2.8) sha256=${SHA}`, `  rack (2.2.9) sha256=${NEW_SHA}`)
        .replaceAll('\n', '\r\n'),
    );
  });

  it('updates the DEPENDENCIES entry when the Gemfile requirement changed, and removes gems only the old version needed', async () => {
    const target = details('rack', '3.0.8');
    const manifest = bundler.updateManifest(files, bundler.findDependency(files, 'rack') as DependencyUse, '3.0.8');
    if (!('files' in manifest)) throw new Error('manifest not updated');
    const gemfile = manifest.files.Gemfile ?? '';
    expect(gemfile).toContain('gem "rack", "~> 3.0"');
    const out = await lockOf(request(target, files, { ...files, Gemfile: gemfile }));
    // webrick was needed by rack 2.2.8 alone.
    expect(out).toBe(
      LOCK.replace('    rack (2.2.8)\n      webrick (~> 1.8)\n', '    rack (3.0.8)\n')
        .replace('    webrick (1.8.1)\n', '')
        .replace('  rack (~> 2.2)\n', '  rack (~> 3.0)\n')
        .replace(`  rack (2.2.8) sha256=${SHA}`, `  rack (3.0.8) sha256=${NEW_SHA}`)
        .replace(`  webrick (1.8.1) sha256=${SHA}\n`, ''),
    );
  });

  it('keeps a CHECKSUMS line without checksum without one when the registry gives none, and rewrites a `!` entry', async () => {
    const lock = LOCK.replace(`  rack (2.2.8) sha256=${SHA}`, '  rack (2.2.8)').replace('  rack (~> 2.2)\n', '  rack (~> 2.2)!\n');
    const gemfile = GEMFILE.replace('"~> 2.2"', '"~> 2.2", ">= 2.2.9"');
    const target = { ...details('rack', '2.2.9', [['webrick', '~> 1.8']]), artifacts: [] };
    const out = await lockOf(request(target, { Gemfile: GEMFILE, 'Gemfile.lock': lock }, { Gemfile: gemfile, 'Gemfile.lock': lock }));
    expect(out).toBe(
      lock
        .replace('    rack (2.2.8)\n', '    rack (2.2.9)\n')
        .replace('  rack (2.2.8)\n', '  rack (2.2.9)\n')
        .replace('  rack (~> 2.2)!', '  rack (~> 2.2, >= 2.2.9)!'),
    );
    const checked = await bundler.updateLockfiles?.(request(target));
    expect(checked).toEqual({ needsResolution: expect.stringContaining('no SHA-256') });
  });

  it.each([
    [
      'a dependency that is not locked',
      details('rack', '2.2.9', [
        ['webrick', '~> 1.8'],
        ['rackup', '>= 2'],
      ]),
      /rackup '>= 2' \(not locked\)/,
    ],
    [
      'a dependency locked at a version it does not allow',
      details('rack', '2.2.9', [['webrick', '~> 2.0']]),
      /webrick '~> 2.0' \(locked at 1.8.1\)/,
    ],
    ['an unreadable requirement', details('rack', '2.2.9', [['webrick', 'soon']]), /cannot read/],
    ['no published dependencies', details('rack', '2.2.9', null), /does not list the dependencies/],
  ])('needs resolution for %s', async (_, target, reason) => {
    const result = await bundler.updateLockfiles?.(request(target));
    expect(result).toEqual({ needsResolution: expect.stringMatching(reason) });
  });

  it('needs resolution when the version in use is not the one locked', async () => {
    const req = request(details('rails', '7.1.3'));
    const result = await bundler.updateLockfiles?.({ ...req, use: { ...req.use, version: '7.0.0' } });
    expect(result).toEqual({ needsResolution: 'rails is not locked at 7.0.0' });
  });

  it('needs resolution when another locked gem does not allow the target, for platform gems and for git gems', async () => {
    const pinned = LOCK.replace('      rack (>= 1.3)\n', '      rack (>= 1.3, < 3)\n');
    const major = await bundler.updateLockfiles?.(request(details('rack', '3.0.8'), { ...files, 'Gemfile.lock': pinned }));
    expect(major).toEqual({ needsResolution: 'rack-test 2.1.0 requires rack (>= 1.3, < 3), which 3.0.8 does not meet' });
    const platforms = LOCK.replace('    rack (2.2.8)\n', '    rack (2.2.8)\n    rack (2.2.8-java)\n');
    const platform = await bundler.updateLockfiles?.(request(details('rack', '2.2.9'), { ...files, 'Gemfile.lock': platforms }));
    expect(platform).toEqual({ needsResolution: expect.stringContaining('specific platforms (java)') });
    const gemfile = `${GEMFILE}gem "nio4r"\n`;
    const lock = LOCK.replace('  puma!\n', '  nio4r\n  puma!\n');
    const git = await bundler.updateLockfiles?.(
      request(details('puma', '6.4.1'), {
        Gemfile: gemfile.replace('gem "puma", git:', 'gem "puma", "6.4.0", git:'),
        'Gemfile.lock': lock,
      }),
    );
    expect(git).toEqual({ needsResolution: expect.stringContaining('GIT source') });
  });

  it('updates nothing without a Gemfile.lock and throws ManifestParseError on a broken one', async () => {
    expect(await bundler.updateLockfiles?.(request(details('rack', '2.2.9'), { Gemfile: GEMFILE }))).toEqual({ files: {} });
    const broken = { ...files, 'Gemfile.lock': `${LOCK}<<<<<<< HEAD\n` };
    await expect(bundler.updateLockfiles?.({ ...request(details('rack', '2.2.9')), files: broken })).rejects.toThrow(ManifestParseError);
  });

  it('formats requirements as Gem::Dependency#to_lock does', () => {
    expect(lockRequirement('>= 1.15.7, != 1.16.7, != 1.16.0.rc1, != 1.16.0')).toBe('>= 1.15.7, != 1.16.7, != 1.16.0.rc1, != 1.16.0');
    expect(lockRequirement('< 3.1, >= 2.0')).toBe('>= 2.0, < 3.1');
    expect(lockRequirement('>= 1.2.3, ~> 1.2')).toBe('~> 1.2, >= 1.2.3');
    expect(lockRequirement('1.0')).toBe('= 1.0');
    expect(lockRequirement('>= 1.0-rc1')).toBe('>= 1.0.pre.rc1');
    expect(lockRequirement('>= 0')).toBeNull();
    expect(lockRequirement('~> 2.0, ~> 2.0')).toBe('~> 2.0');
  });
});

describe.runIf(CORPUS_PRESENT)('bundler updateLockfiles over the real-world corpus', () => {
  it('every locked direct dependency moved to its next patch (no dependencies) changes only its own entries', async () => {
    const counts = { files: 0, needsResolution: 0 };
    const reasons = new Map<string, number>();
    for (const directory of corpusDirectories(bundler)) {
      const lock = directory.files['Gemfile.lock'];
      if (lock === undefined) continue;
      for (const use of bundler.listDependencies(directory.files)) {
        if (use.version === null || !bundler.versions.isValid(use.version) || !bundler.versions.release) continue;
        const [major, minor, patch] = bundler.versions.release(use.version);
        const target = details(use.name, `${major}.${minor}.${patch + 1}`);
        const manifest = bundler.updateManifest(directory.files, use, target.version);
        if ('cannot' in manifest) continue;
        const updated = 'files' in manifest ? { ...directory.files, ...manifest.files } : directory.files;
        const result = await bundler.updateLockfiles?.({ ...request(target, directory.files, updated), use });
        if (!result || !('files' in result)) {
          counts.needsResolution++;
          const reason = (result?.needsResolution ?? 'no answer').replaceAll(use.name, 'X').replace(/\([^)]*\)|'[^']*'|\d\S*/g, '…');
          reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
          continue;
        }
        counts.files++;
        const out = result.files['Gemfile.lock'] ?? '';
        const label = `${directory.label} ${use.name}`;
        const locked = readGemfileLock('Gemfile.lock', out).filter((gem) => gem.name.toLowerCase() === use.name.toLowerCase());
        expect(
          locked.map((gem) => gem.version),
          label,
        ).toEqual([target.version]);
        const removed = lockEntriesOutside(lock, out, use.name);
        expect(removed.rest, label).toBe(true);
        expect(removed.stillNeeded, label).toEqual([]);
        expect(out.includes('\r\n'), label).toBe(lock.includes('\r\n'));
      }
    }
    process.stdout.write(`bundler lockfiles over the corpus: ${JSON.stringify(counts)}; ${JSON.stringify(Object.fromEntries(reasons))}\n`);
    expect(counts.files).toBeGreaterThan(counts.needsResolution);
  }, 120_000);
});
