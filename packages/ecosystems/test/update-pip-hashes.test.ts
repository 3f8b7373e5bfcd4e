import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type DependencyUse, pip, type RegistryVersionDetails } from '../src/index.ts';
import { fixture } from './fixtures.ts';
import { checkedUpdate } from './update-check.ts';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

/** The registry's description of `name` `version` with one artifact per file name, each with its sha256 (and an md5). */
function described(name: string, version: string, filenames: readonly string[]): RegistryVersionDetails {
  return {
    name,
    version,
    dependencies: [],
    artifacts: filenames.map((filename) => ({
      filename,
      url: `https://files.example.org/${filename}`,
      digests: [
        { algorithm: 'md5', value: sha(filename).slice(0, 32), encoding: 'hex' },
        { algorithm: 'sha256', value: sha(filename), encoding: 'hex' },
      ],
    })),
  };
}

const sorted = (filenames: readonly string[]) => filenames.map(sha).sort();

describe('pip updateManifest: hash-pinned requirements (--hash)', () => {
  const files = fixture('pip-hashes');
  const text = files['requirements.txt'] ?? '';
  const use = (name: string) => pip.findDependency(files, name) as DependencyUse;
  /** The fixture's lines from the one starting with `from` up to (not including) the one starting with `to`. */
  const block = (from: string, to: string) => text.slice(text.indexOf(from), text.indexOf(to));

  it('rewrites the pin and its hash lines, one per artifact, keeping the continuation style and the # via comment', () => {
    const names = ['certifi-2024.7.4.tar.gz', 'certifi-2024.7.4-py3-none-any.whl'];
    const result = checkedUpdate(pip, files, 'certifi', '2024.7.4', undefined, described('certifi', '2024.7.4', names));
    const [a, b] = sorted(names);
    expect(result).toEqual({
      files: {
        'requirements.txt': text.replace(
          block('certifi==', '    # via requests'),
          `certifi==2024.7.4 \\\n    --hash=sha256:${a} \\\n    --hash=sha256:${b}\n`,
        ),
      },
      requirement: '==2024.7.4',
    });
  });
  it('writes as many hash lines as the target has artifacts, the last one without a continuation', () => {
    const names = ['idna-3.7.tar.gz', 'idna-3.7-py3-none-any.whl', 'idna-3.7-py2-none-any.whl'];
    const result = checkedUpdate(pip, files, 'idna', '3.7', undefined, described('idna', '3.7', names));
    const [a, b, c] = sorted(names);
    expect(result).toMatchObject({
      files: {
        'requirements.txt': text.replace(
          block('idna==', 'requests['),
          `idna==3.7 \\\n  --hash=sha256:${a} \\\n  --hash=sha256:${b} \\\n  --hash=sha256:${c}\n`,
        ),
      },
    });
  });
  it('keeps hashes on the pin line when they were written there, and a marker and extras before them', () => {
    const one = checkedUpdate(
      pip,
      files,
      'charset-normalizer',
      '3.3.3',
      undefined,
      described('charset-normalizer', '3.3.3', ['c.tar.gz', 'c.whl']),
    );
    const [a, b] = sorted(['c.tar.gz', 'c.whl']);
    expect(one).toMatchObject({
      files: {
        'requirements.txt': text.replace(
          block('charset-normalizer==', 'idna=='),
          `charset-normalizer==3.3.3 --hash=sha256:${a} --hash=sha256:${b}\n`,
        ),
      },
    });
    const two = checkedUpdate(pip, files, 'requests', '2.32.3', undefined, described('requests', '2.32.3', ['r.tar.gz']));
    expect(two).toMatchObject({
      files: {
        'requirements.txt': text.replace(
          block('requests[socks]==', 'urllib3=='),
          `requests[socks]==2.32.3 ; python_version >= "3.8" \\\n    --hash=sha256:${sha('r.tar.gz')}\n`,
        ),
      },
    });
  });
  it('keeps CRLF line breaks in the separators', () => {
    const crlf = { 'requirements.txt': text.replace(/\n/g, '\r\n') };
    const result = checkedUpdate(
      pip,
      crlf,
      'certifi',
      '2024.7.4',
      undefined,
      described('certifi', '2024.7.4', ['x.whl', 'y.whl', 'z.whl']),
    );
    const [a, b, c] = sorted(['x.whl', 'y.whl', 'z.whl']);
    expect((result as { files: Record<string, string> }).files['requirements.txt']).toContain(
      `certifi==2024.7.4 \\\r\n    --hash=sha256:${a} \\\r\n    --hash=sha256:${b} \\\r\n    --hash=sha256:${c}\r\n    # via requests\r\n`,
    );
  });
  it('cannot move a hash pin without the registry description of the target, or with one it cannot use', () => {
    expect(pip.updateManifest(files, use('certifi'), '2024.7.4')).toEqual({
      cannot: expect.stringMatching(
        /^requirements\.txt \(line 3\): 'certifi' is pinned with --hash: the registry's description of 2024\.7\.4/,
      ),
    });
    expect(pip.updateManifest(files, use('certifi'), '2024.7.4', described('certifi', '2024.6.2', ['a.whl']))).toEqual({
      cannot: expect.stringContaining('description is of 2024.6.2, not 2024.7.4'),
    });
    const md5Only = described('certifi', '2024.7.4', ['a.whl']);
    for (const artifact of md5Only.artifacts) artifact.digests = artifact.digests.filter((d) => d.algorithm === 'md5');
    expect(pip.updateManifest(files, use('certifi'), '2024.7.4', md5Only)).toEqual({
      cannot: expect.stringContaining('no sha256 digest of a.whl'),
    });
    expect(pip.updateManifest(files, use('certifi'), '2024.7.4', described('certifi', '2024.7.4', []))).toEqual({
      cannot: expect.stringContaining('lists no files'),
    });
  });
  it('leaves a hash pin that is already the target as it is, without the registry description', () => {
    expect(pip.updateManifest(files, use('certifi'), '2024.2.2')).toEqual({ unchanged: expect.stringContaining('already allows') });
  });
  it('still updates a package without hashes in a hash-pinned file', () => {
    expect(checkedUpdate(pip, files, 'urllib3', '2.2.2')).toMatchObject({
      files: { 'requirements.txt': text.replace('urllib3==2.2.1', 'urllib3==2.2.2') },
    });
  });
  it('cannot rewrite hashes mixed with other options of the requirement', () => {
    const mixed = { 'requirements.txt': 'pkg==1.0 \\\n    --hash=sha256:aa \\\n    --config-settings=x=y \\\n    --hash=sha256:bb\n' };
    expect(pip.updateManifest(mixed, pip.findDependency(mixed, 'pkg') as DependencyUse, '2.0', described('pkg', '2.0', ['p.whl']))).toEqual(
      {
        cannot: expect.stringContaining('mixed with other text'),
      },
    );
  });
});
