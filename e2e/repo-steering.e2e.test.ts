import { ReposDocument, UpdateConfigDocument } from '@switchyard/contracts';
import { parseConfigFile } from '@switchyard/repo-config';
import { ProcessStack, waitFor } from '@switchyard/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitHubApi } from './support/github-api.ts';
import { LAUNCHER_READY_MS, type LauncherUrls, startLauncherWithEmulators } from './support/launcher.ts';
import { releaseApi } from './support/release-api.ts';

/**
 * Repositories steer the service, through the gateway of the one-process launcher and its GitHub emulator: a
 * `.github/dependabot.yml` (version 2) pushed by alice to acme/web-storefront and a `.dependabot/config.yml` (version 1)
 * pushed by bob to initech/office-space become those repos' update configs and drive their runs; an invalid file
 * opens Preview's issue, fixed it closes it; every `@dependabot` command of a pull-request comment is carried out and
 * answered for a writer (alice on web-storefront, bob on office-space), and refused for a reader (alice on the public
 * office-space, where initech's members write and others read).
 */

/** How long a webhook's effect may take to show (a worker round, an event through the bus, a pull request opened). */
const SETTLE_MS = 60_000;
const ALICE = 'demo-token-alice';
const BOB = 'demo-token-bob';
const STOREFRONT = { id: 3101, fullName: 'acme/web-storefront', account: '2001' };
const OFFICE = { id: 3303, fullName: 'initech/office-space', account: '2003' };
const PIPELINE = { id: 3103, fullName: 'acme/data-pipeline', account: '2001' };
const V2 = '.github/dependabot.yml';
const V1 = '.dependabot/config.yml';
/** The worker's login on the launcher: the demo App's bot user (App mode). */
const BOT = 'switchyard[bot]';

const V2_FILE = `version: 2
updates:
  - package-ecosystem: npm
    directory: "/"
    schedule:
      interval: weekly
      day: tuesday
      time: "04:30"
    labels: [deps, javascript]
    commit-message:
      prefix: chore
      include: scope
    open-pull-requests-limit: 10
`;

const V1_FILE = `version: 1
update_configs:
  - package_manager: "ruby:bundler"
    directory: "/"
    update_schedule: "daily"
    default_labels: ["ruby-deps"]
`;

/** acme/data-pipeline's v2 file: numpy and pandas in one group; a directory pattern that matches no directory of pip's. */
const GROUPED_FILE = `version: 2
updates:
  - package-ecosystem: pip
    directories: ["/", "/services/*"]
    schedule:
      interval: daily
    groups:
      science:
        patterns:
          - numpy
          - pandas
`;

type Repos = ReturnType<typeof ReposDocument.parse>;

describe('repositories steer the service: config files and pull-request commands', { timeout: 6 * SETTLE_MS }, () => {
  const processes = new ProcessStack();
  let urls: LauncherUrls;
  const api = releaseApi(() => urls.gateway, ALICE);
  const alice = gitHubApi(() => urls.codeHost, ALICE);
  const bob = gitHubApi(() => urls.codeHost, BOB);

  beforeAll(async () => {
    // The worker's loops (config files, commands, pull requests) run every second.
    urls = await startLauncherWithEmulators(processes, { SCHEDULER_INTERVAL_MS: '1000' });
  }, LAUNCHER_READY_MS + 10_000);
  afterAll(() => processes.disposeAsync(), 60_000);

  /** Creates or replaces `path` on the default branch as the owner of `token` (a push: its webhook follows). */
  const putFile = async (token: string, repo: string, path: string, text: string) => {
    const found = await fetch(`${urls.codeHost}/repos/${repo}/contents/${path}`, {
      headers: { authorization: `token ${token}`, accept: 'application/vnd.github+json' },
    });
    const sha = found.status === 200 ? ((await found.json()) as { sha: string }).sha : undefined;
    await gitHubApi(() => urls.codeHost, token).call('PUT', `/repos/${repo}/contents/${path}`, {
      message: `Update ${path}`,
      content: Buffer.from(text).toString('base64'),
      ...(sha ? { sha } : {}),
    });
  };
  /** The account's repos, active and inactive (the first page: the demo organisations have fewer than 100). */
  const repos = async (account: string, token: string): Promise<Repos> => {
    const listed = await Promise.all(
      ['active', 'inactive'].map(async (state) => {
        const res = await api.send('GET', `/repos?account-id=${account}&account-type=org&installation-state=${state}`, { token });
        expect(res.status, res.text).toBe(200);
        return ReposDocument.parse(JSON.parse(res.text));
      }),
    );
    return { data: listed.flatMap((doc) => doc.data), included: listed.flatMap((doc) => doc.included), meta: { pages: { next: null } } };
  };
  /** Waits until the repo's listing shows a config file at `path` that is valid (or not), and returns the repo and its configs. */
  const fileApplied = (repo: { id: number; account: string }, token: string, path: string, valid: boolean) =>
    waitFor(async () => {
      const doc = await repos(repo.account, token);
      const found = doc.data.find((r) => r.id === String(repo.id));
      const file = found?.attributes['config-file'];
      if (!found || file?.path !== path || file.valid !== valid) return undefined;
      const configs = doc.included.filter((c) => c.relationships.repo.data.id === String(repo.id));
      return valid && !configs.some((c) => c.attributes.source === path) ? undefined : { repo: found, configs };
    }, SETTLE_MS);
  const openJobsOf = (repoId: number, token: string, count: number) =>
    waitFor(async () => {
      const open = (await api.jobs(`repo-id=${repoId}`, token)).filter((j) => j.attributes.status === 'open');
      return open.length >= count ? open : undefined;
    }, SETTLE_MS);
  /** The comments on pull request `number` of `repo` by the bot. */
  const botComments = async (as: typeof alice, repo: string, number: number): Promise<string[]> =>
    (
      (await as.call('GET', `/repos/${repo}/issues/${number}/comments?per_page=100`)).body as Array<{
        user: { login: string };
        body: string;
      }>
    )
      .filter((c) => c.user.login === BOT)
      .map((c) => c.body);
  /** Comments `@dependabot <command>` as `as` and waits for the bot's answer that contains (or matches) `expected`. */
  const command = async (as: typeof alice, repo: string, number: number, text: string, expected: string | RegExp) => {
    const before = (await botComments(as, repo, number)).length;
    await as.call('POST', `/repos/${repo}/issues/${number}/comments`, { body: `@dependabot ${text}` });
    return waitFor(async () => {
      const answers = (await botComments(as, repo, number)).slice(before);
      return answers.find((a) => (typeof expected === 'string' ? a.includes(expected) : expected.test(a)));
    }, SETTLE_MS).catch(async (error: unknown) => {
      throw new Error(`no answer with "${expected}" to "${text}": ${JSON.stringify(await botComments(as, repo, number))}`, {
        cause: error,
      });
    });
  };
  const pull = async (repo: string, number: number) => (await alice.call('GET', `/repos/${repo}/pulls/${number}`)).body;
  /** The bot's issue about an invalid `path` in `repo`, once it is there. */
  const invalidFileIssue = (as: typeof alice, repo: string, path: string) =>
    waitFor(async () => {
      const issues = (await as.call('GET', `/repos/${repo}/issues?state=all&creator=${BOT}`)).body as Array<{
        number: number;
        title: string;
        state: string;
        body: string;
        pull_request?: unknown;
      }>;
      return issues.find((i) => !i.pull_request && i.title === `Your ${path} contained invalid details`);
    }, SETTLE_MS);
  /** Waits until issue `number` of `repo` is closed. */
  const closedIssue = (as: typeof alice, repo: string, number: number) =>
    waitFor(async () => {
      const now = (await as.call('GET', `/repos/${repo}/issues/${number}`)).body as { state: string };
      return now.state === 'closed' ? now : undefined;
    }, SETTLE_MS);

  let storefrontConfig = '';

  it('a v2 file pushed to the default branch becomes the repo setup, refuses API writes, and drives runs whose pull requests follow it', async () => {
    await putFile(ALICE, STOREFRONT.fullName, V2, V2_FILE);
    const { repo, configs } = await fileApplied(STOREFRONT, ALICE, V2, true);
    expect(repo.attributes['using-config-file']).toBe(true);
    expect(configs).toHaveLength(1);
    const config = configs[0] as (typeof configs)[number];
    expect(config.attributes).toMatchObject({ 'package-manager': 'npm_and_yarn', directory: '/', 'update-schedule': 'weekly', source: V2 });
    storefrontConfig = config.id;
    const refused = await api.send('PATCH', `/update_configs/${config.id}`, { json: { 'update-schedule': 'daily' } });
    expect(refused.status).toBe(409);
    expect(refused.text).toContain(V2);

    const run = await api.finishedRun((await api.bumpNow(config.id)).id);
    expect(run.attributes.status).toBe('done');
    // The account limits a config's first run to 5 jobs (`limit-initial-update-runs`).
    const open = await openJobsOf(STOREFRONT.id, ALICE, 5);
    const first = await pull(STOREFRONT.fullName, open[0]?.attributes['pull-request-number'] as number);
    expect(first.title).toMatch(/^chore\(deps(-dev)?\): bump /);
    expect(first.labels.map((l: { name: string }) => l.name).sort()).toEqual(['deps', 'javascript']);
    expect(first.body).toContain('<summary>Dependabot commands and options</summary>');
  });

  it('an invalid file keeps the setup, opens the issue Preview opened, and the fix closes it', async () => {
    await putFile(ALICE, STOREFRONT.fullName, V2, V2_FILE.replace('interval: weekly', 'interval: hourly'));
    const { repo, configs } = await fileApplied(STOREFRONT, ALICE, V2, false);
    expect(configs.map((c) => c.id)).toEqual([storefrontConfig]);
    expect(repo.attributes['config-file']?.problems[0]?.pointer).toBe('#/updates/0/schedule/interval');
    const issue = await invalidFileIssue(alice, STOREFRONT.fullName, V2);
    expect(issue.state).toBe('open');
    expect(issue.body).toContain("The property '#/updates/0/schedule/interval'");

    await putFile(ALICE, STOREFRONT.fullName, V2, V2_FILE);
    await fileApplied(STOREFRONT, ALICE, V2, true);
    expect((await closedIssue(alice, STOREFRONT.fullName, issue.number)).state).toBe('closed');
    expect((await botComments(alice, STOREFRONT.fullName, issue.number)).join('\n')).toContain('is valid now');
  });

  it("a writer's commands are carried out and answered; a closed pull request's ignore is undone by reopening it", async () => {
    const repo = STOREFRONT.fullName;
    // A second run proposes the sixth outdated dependency the first run's limit left.
    await api.finishedRun((await api.bumpNow(storefrontConfig)).id);
    const open = await openJobsOf(STOREFRONT.id, ALICE, 6);
    const byName = new Map(open.map((j) => [j.attributes['dependency-name'], j.attributes['pull-request-number'] as number]));
    expect([...byName.keys()].sort()).toEqual(['express', 'jest', 'lodash', 'react', 'react-dom', 'typescript']);
    const number = (name: string) => byName.get(name) as number;

    // Up to date already, or rebased now if the file's pushes moved main after the pull request was made and the
    // automatic rebase has not come yet.
    await command(alice, repo, number('express'), 'rebase', /already up-to-date with main|I've rebased this PR on the latest `main`/);
    await command(alice, repo, number('express'), 'recreate', "OK, I've recreated this PR");
    await command(alice, repo, number('express'), 'cancel merge', "OK, I won't merge this PR automatically.");
    await command(alice, repo, number('express'), 'merge', "OK, I'll merge this PR once its checks pass.");
    await waitFor(async () => ((await pull(repo, number('express'))).merged ? true : undefined), SETTLE_MS);
    await command(alice, repo, number('lodash'), 'squash and merge', "OK, I'll squash and merge this PR");
    await waitFor(async () => ((await pull(repo, number('lodash'))).merged ? true : undefined), SETTLE_MS);

    await command(alice, repo, number('jest'), 'close', "OK, I won't notify you about jest");
    expect((await pull(repo, number('jest'))).state).toBe('closed');
    await command(alice, repo, number('jest'), 'reopen', "OK, I've reopened this PR.");
    expect((await pull(repo, number('jest'))).state).toBe('open');
    await command(alice, repo, number('jest'), 'ignore this patch version', "OK, I won't notify you about version");
    await command(alice, repo, number('typescript'), 'ignore this minor version', "OK, I won't notify you about version");
    await command(alice, repo, number('react'), 'ignore this major version', "OK, I won't notify you about version");
    await command(alice, repo, number('react-dom'), 'ignore this dependency', "OK, I won't notify you about react-dom again");
    for (const name of ['jest', 'typescript', 'react', 'react-dom']) expect((await pull(repo, number(name))).state).toBe('closed');

    // The next run leaves the ignored versions out: a dependency ignored whole is skipped, saying why; for an ignored
    // line, the newest version outside it is proposed (dependabot-core's ignore conditions), never one inside it.
    const ignoredTargets = new Map(open.map((j) => [j.attributes['dependency-name'], j.attributes['target-version']]));
    const run = await api.finishedRun((await api.bumpNow(storefrontConfig)).id);
    const checked = new Map(run.attributes.dependencies.map((d) => [d.name, d]));
    expect(checked.get('react-dom')).toMatchObject({
      outcome: 'skipped',
      reason: expect.stringContaining('ignored on the code host: react-dom'),
    });
    const line = (version: string, width: number) => version.split('.').slice(0, width).join('.');
    for (const [name, width] of [
      ['jest', 3],
      ['typescript', 2],
      ['react', 1],
    ] as const) {
      const proposed = checked.get(name)?.['latest-allowed-version'] ?? null;
      if (proposed !== null) expect(line(proposed, width)).not.toBe(line(ignoredTargets.get(name) as string, width));
    }

    // The ignores are listed on the config with their source, and one removed through the API is no longer applied.
    type Ignore = { id: string | null; source: string; 'dependency-name': string; versions: string[] };
    const listed = await waitFor(async () => {
      const res = await api.send('GET', `/update_configs/${storefrontConfig}`);
      const ignores = (JSON.parse(res.text) as { data: { attributes: { ignores: Ignore[] } } }).data.attributes.ignores;
      return ignores.length >= 4 ? ignores : undefined;
    }, SETTLE_MS);
    expect(listed.map((i) => [i['dependency-name'], i.source]).sort(), JSON.stringify(listed)).toEqual([
      ['jest', 'command'],
      ['react', 'command'],
      ['react-dom', 'command'],
      ['typescript', 'command'],
    ]);
    expect(listed.find((i) => i['dependency-name'] === 'react')?.versions).toEqual([
      `>= ${(ignoredTargets.get('react') as string).split('.')[0]}.a, < ${Number((ignoredTargets.get('react') as string).split('.')[0]) + 1}`,
    ]);
    const typescript = listed.find((i) => i['dependency-name'] === 'typescript') as Ignore;
    const removed = await api.send('DELETE', `/update_configs/${storefrontConfig}/ignores/${typescript.id}`);
    expect(removed.status, removed.text).toBe(204);
    const afterRemoval = await api.finishedRun((await api.bumpNow(storefrontConfig)).id);
    expect(afterRemoval.attributes.dependencies.find((d) => d.name === 'typescript')?.reason ?? '').not.toContain(
      'ignored on the code host',
    );

    // A person reopening the closed pull request undoes the ignore it made.
    await alice.call('PATCH', `/repos/${repo}/pulls/${number('react-dom')}`, { state: 'open' });
    await waitFor(async () => {
      const job = (await api.jobs(`repo-id=${STOREFRONT.id}`)).find((j) => j.attributes['pull-request-number'] === number('react-dom'));
      return job?.attributes.status === 'open' ? job : undefined;
    }, SETTLE_MS);
    const again = await api.finishedRun((await api.bumpNow(storefrontConfig)).id);
    const reactDom = again.attributes.dependencies.find((d) => d.name === 'react-dom');
    expect(reactDom?.reason ?? '').not.toContain('ignored on the code host');
    expect(reactDom?.outcome).toBe('pr-open');
  });

  it("a v1 file drives the repo's runs, its invalid version opens and closes the issue, and every command of a reader is refused", async () => {
    await putFile(BOB, OFFICE.fullName, V1, V1_FILE.replace('update_schedule: "daily"', 'update_schedule: "hourly"'));
    const invalid = await fileApplied(OFFICE, BOB, V1, false);
    expect(invalid.repo.attributes['config-file']?.problems[0]?.message).toContain(
      'The property \'#/update_configs/0/update_schedule\' value "hourly" did not match one of the following values: live, daily, weekly, monthly',
    );
    const issue = await invalidFileIssue(bob, OFFICE.fullName, V1);
    expect(issue.state).toBe('open');
    await putFile(BOB, OFFICE.fullName, V1, V1_FILE);
    expect((await closedIssue(bob, OFFICE.fullName, issue.number)).state).toBe('closed');
    const { configs } = await fileApplied(OFFICE, BOB, V1, true);
    expect(configs.map((c) => c.attributes)).toEqual([
      expect.objectContaining({ 'package-manager': 'bundler', language: 'ruby', 'update-schedule': 'daily', source: V1 }),
    ]);
    const config = UpdateConfigDocument.shape.data.parse(configs[0]);
    const run = await api.finishedRun((await api.bumpNow(config.id, BOB)).id, 60_000, BOB);
    expect(run.attributes.status).toBe('done');
    const [job] = await openJobsOf(OFFICE.id, BOB, 1);
    const number = job?.attributes['pull-request-number'] as number;
    expect((await pull(OFFICE.fullName, number)).labels.map((l: { name: string }) => l.name)).toEqual(['ruby-deps']);
    for (const text of [
      'rebase',
      'recreate',
      'merge',
      'squash and merge',
      'cancel merge',
      'close',
      'reopen',
      'ignore this dependency',
      'ignore this major version',
      'ignore this minor version',
      'ignore this patch version',
    ]) {
      await command(alice, OFFICE.fullName, number, text, 'Sorry, only users with push access can use that command.');
    }
    expect((await pull(OFFICE.fullName, number)).state).toBe('open');
    // An unknown command from a writer is refused with the list of those known.
    await command(bob, OFFICE.fullName, number, 'frobnicate', "Sorry, I don't know how to `frobnicate`");
  });

  it('the upgrade pull request replaces the v1 file with an equivalent v2 file, which drives the repo once merged', async () => {
    const asked = await api.send('POST', `/repos/${OFFICE.id}/upgrade`, { token: BOB });
    expect(asked.status, asked.text).toBe(202);
    const upgrade = await waitFor(async () => {
      const res = await api.send('GET', `/repos/${OFFICE.id}/upgrade`, { token: BOB });
      const data = (JSON.parse(res.text) as { data: { attributes: { status: string; 'pull-request-number': number | null } } }).data;
      return data.attributes.status === 'opened' ? data.attributes : undefined;
    }, SETTLE_MS);
    const number = upgrade['pull-request-number'] as number;
    const pr = await pull(OFFICE.fullName, number);
    expect(pr).toMatchObject({ title: 'Upgrade to GitHub-native Dependabot', head: { ref: 'dependabot/add-v2-config-file' } });
    expect(pr.body).toContain('it replaces `.dependabot/config.yml` with `.github/dependabot.yml`');
    const files = (await bob.call('GET', `/repos/${OFFICE.fullName}/pulls/${number}/files`)).body as Array<{
      filename: string;
      status: string;
    }>;
    expect(files.map((f) => [f.filename, f.status]).sort()).toEqual([
      [V1, 'removed'],
      [V2, 'added'],
    ]);
    const text = (await bob.fileAt(OFFICE.fullName, V2, 'dependabot/add-v2-config-file')) ?? '';
    const parsed = parseConfigFile(V2, text);
    expect(parsed.problems).toEqual([]);
    expect(parsed.configs).toEqual([
      expect.objectContaining({
        packageManager: 'bundler',
        directory: '/',
        updateSchedule: 'daily',
        labels: ['ruby-deps'],
        openPullRequestsLimit: 10,
      }),
    ]);
    // Merged, the v2 file governs the repo: the same config, now from it.
    await bob.call('PUT', `/repos/${OFFICE.fullName}/pulls/${number}/merge`, { merge_method: 'merge' });
    const { configs } = await fileApplied(OFFICE, BOB, V2, true);
    expect(configs.map((c) => c.attributes)).toEqual([
      expect.objectContaining({ 'package-manager': 'bundler', 'update-schedule': 'daily', source: V2 }),
    ]);
  });
  it("a v2 file's group makes one pull request for its updates, with the requirements of both", async () => {
    await putFile(ALICE, PIPELINE.fullName, V2, GROUPED_FILE);
    const { repo, configs } = await fileApplied(PIPELINE, ALICE, V2, true);
    // The pattern is expanded over the repository's tree, where no directory matches it.
    expect(repo.attributes['config-file']?.skipped).toEqual([
      {
        pointer: '#/updates/0/directories/1',
        reason: expect.stringContaining('the directory pattern /services/* matches no directory holding'),
      },
    ]);
    expect(configs).toHaveLength(1);
    const config = configs[0] as (typeof configs)[number];
    expect(config.attributes.groups).toEqual([expect.objectContaining({ name: 'science', patterns: ['numpy', 'pandas'] })]);
    const run = await api.finishedRun((await api.bumpNow(config.id)).id);
    const grouped = run.attributes.dependencies.filter((d) => d.group === 'science').map((d) => d.name);
    expect(grouped).toEqual(['numpy', 'pandas']);
    const job = await waitFor(async () => {
      const jobs = await api.jobs(`repo-id=${PIPELINE.id}&dependency-name=science`);
      return jobs.find((j) => j.attributes.group !== null && j.attributes.status === 'open');
    }, SETTLE_MS);
    const updates = new Map(job.attributes.group?.updates.map((u) => [u['dependency-name'], u['target-version']]));
    const pr = await pull(PIPELINE.fullName, job.attributes['pull-request-number'] as number);
    expect(pr.title).toBe('Bump the science group with 2 updates');
    const requirements = (await alice.fileAt(PIPELINE.fullName, 'requirements.txt', pr.head.ref)) ?? '';
    expect(requirements).toContain(`numpy==${updates.get('numpy')}\n`);
    expect(requirements).toContain(`pandas==${updates.get('pandas')}\n`);
  });
});
