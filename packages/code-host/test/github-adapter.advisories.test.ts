import {
  DEMO_TOKEN_ALICE as ALICE,
  DEMO_TOKENS_ALICE as ALICE_TOKENS,
  DEMO_TOKEN_BOB as BOB,
  createGitHubEmulator,
  type EmulatorFault,
  loadDemoSeed,
  type SeedAdvisoryInput,
} from '@switchyard/github-emulator';
import { type Listening, listen } from '@switchyard/service-kit';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitHubCodeHost, type GitHubCodeHost } from '../src/index.ts';
import { codeHostError } from './code-host-error.ts';

/** GHSA ids use 20 characters; the n-th id of a generated advisory in that alphabet. */
const GHSA_ALPHABET = '23456789cfghjmpqrvwx';
function ghsaId(n: number): string {
  const group = (k: number) =>
    Array.from({ length: 4 }, (_, i) => GHSA_ALPHABET[Math.floor(k / GHSA_ALPHABET.length ** i) % GHSA_ALPHABET.length]).join('');
  return `GHSA-${group(n)}-${group(n + 1)}-xxxx`;
}

/** `count` reviewed advisories of the npm package `many`, one a day from 2020-01-01, each fixed in `1.<n>.0`. */
function manyAdvisories(count: number): SeedAdvisoryInput[] {
  return Array.from({ length: count }, (_, n) => {
    const day = new Date(Date.UTC(2020, 0, 1 + n)).toISOString().replace('.000Z', 'Z');
    return {
      ghsaId: ghsaId(n * 7),
      summary: `Generated advisory ${n} of many`,
      severity: 'low' as const,
      publishedAt: day,
      updatedAt: day,
      vulnerabilities: [
        { ecosystem: 'npm' as const, package: 'many', vulnerableVersionRange: `< 1.${n}.0`, firstPatchedVersion: `1.${n}.0` },
      ],
    };
  });
}

describe('GitHub adapter: advisories and app installations against the emulator', () => {
  const requests: string[] = [];
  const faults: EmulatorFault[] = [];
  const logger = pino({ level: 'silent' });
  let server: Listening;
  let host: GitHubCodeHost;

  beforeAll(async () => {
    const demo = loadDemoSeed();
    const app = createGitHubEmulator({ seed: { ...demo, advisories: [...demo.advisories, ...manyAdvisories(250)] }, logger, faults });
    server = await listen(
      (req, res) => {
        requests.push(req.url ?? '');
        app(req, res);
      },
      0,
      '127.0.0.1',
    );
    host = createGitHubCodeHost({ baseUrl: server.url, timeoutMs: 2_000, retryBaseDelayMs: 1, maxRateLimitWaitSeconds: 0, logger });
  });
  afterAll(() => server.close(100));

  it('listAdvisories: the reviewed advisories of a package, mapped, newest first', async () => {
    const lodash = await host.listAdvisories(ALICE, { ecosystem: 'npm', packageName: 'lodash' });
    expect(lodash.map((a) => a.ghsaId)).toEqual(['GHSA-29mw-wpgm-hmr9', 'GHSA-35jh-r3h4-6jhm', 'GHSA-p6mc-m468-83gw']);
    expect(lodash[1]).toEqual({
      ghsaId: 'GHSA-35jh-r3h4-6jhm',
      cveId: 'CVE-2021-23337',
      summary: 'Command Injection in lodash',
      severity: 'high',
      publishedAt: '2021-05-06T16:05:51Z',
      updatedAt: '2024-03-15T12:00:00Z',
      withdrawnAt: null,
      htmlUrl: 'https://github.com/advisories/GHSA-35jh-r3h4-6jhm',
      vulnerabilities: [{ ecosystem: 'npm', packageName: 'lodash', vulnerableVersionRange: '< 4.17.21', firstPatchedVersion: '4.17.21' }],
    });
    // name@version: only the advisories whose range holds that version (lodash 4.17.19 is past the prototype pollution fix).
    expect((await host.listAdvisories(ALICE, { ecosystem: 'npm', packageName: 'lodash@4.17.19' })).map((a) => a.ghsaId)).toEqual([
      'GHSA-29mw-wpgm-hmr9',
      'GHSA-35jh-r3h4-6jhm',
    ]);
    expect(await host.listAdvisories(ALICE, { ecosystem: 'pip', packageName: 'lodash' })).toEqual([]);
    const withdrawn = await host.listAdvisories(BOB, { ecosystem: 'npm', packageName: 'uuid' });
    expect(withdrawn.map((a) => [a.ghsaId, a.withdrawnAt])).toEqual([['GHSA-4444-5555-6666', '2021-04-08T12:00:00Z']]);
    const flask = await host.listAdvisories(ALICE, { ecosystem: 'pip', packageName: 'flask@1.1.2' });
    expect(flask.map((a) => [a.ghsaId, a.cveId, a.severity])).toEqual([['GHSA-m2qf-hxjv-5gpq', 'CVE-2023-30861', 'high']]);
    expect(flask[0]?.vulnerabilities.map((v) => v.firstPatchedVersion)).toEqual(['2.2.5', '2.3.2']);
  });

  it('listAdvisories follows the cursor Link pages: 250 advisories in 3 requests, each once, newest first', async () => {
    const start = requests.length;
    const many = await host.listAdvisories(ALICE, { ecosystem: 'npm', packageName: 'many' });
    const made = requests.slice(start);
    expect(many).toHaveLength(250);
    expect(new Set(many.map((a) => a.ghsaId)).size).toBe(250);
    expect(many[0]?.summary).toBe('Generated advisory 249 of many');
    expect(made).toHaveLength(3);
    expect(made[0]).toMatch(/^\/advisories\?.*type=reviewed/);
    expect(made[0]).toMatch(/ecosystem=npm/);
    expect(made[0]).toMatch(/affects=many/);
    expect(made[1]).toMatch(/after=/);
    expect((await host.listAdvisories(ALICE, { ecosystem: 'npm', packageName: 'many@1.200.0' })).length).toBe(49);
  });

  it('listAdvisories refuses a package list or an empty name without a request; maps failures to CodeHostErrors', async () => {
    const start = requests.length;
    await expect(host.listAdvisories(ALICE, { ecosystem: 'npm', packageName: 'lodash,express' })).rejects.toBeInstanceOf(RangeError);
    await expect(host.listAdvisories(ALICE, { ecosystem: 'npm', packageName: ' ' })).rejects.toBeInstanceOf(RangeError);
    expect(requests.length).toBe(start);
    const revoked = await codeHostError(host.listAdvisories('revoked-token', { ecosystem: 'npm', packageName: 'lodash' }));
    expect([revoked.kind, revoked.status]).toEqual(['unauthorized', 401]);
    // The second page is rate limited: the whole list fails, never a short one.
    faults.push({ kind: 'pass' }, { kind: 'rate-limit', resetInSeconds: 3_600 });
    expect((await codeHostError(host.listAdvisories(ALICE, { ecosystem: 'npm', packageName: 'many' }))).kind).toBe('rate_limited');
  });

  it('listInstallations: the installations on the accounts the user reaches, mapped', async () => {
    expect(await host.listInstallations(ALICE)).toEqual([
      { id: 5001, accountLogin: 'acme', accountId: 2001, repositorySelection: 'all' },
      { id: 5002, accountLogin: 'globex', accountId: 2002, repositorySelection: 'selected' },
      { id: 5003, accountLogin: 'alice', accountId: 1001, repositorySelection: 'selected' },
    ]);
    expect(await host.listInstallations(BOB)).toEqual([{ id: 5004, accountLogin: 'initech', accountId: 2003, repositorySelection: 'all' }]);
    expect(await host.listInstallations(ALICE_TOKENS.contentsRead)).toHaveLength(3);
    expect((await codeHostError(host.listInstallations('revoked-token'))).kind).toBe('unauthorized');
  });
});
