import { createGitHubCodeHost } from '@switchyard/code-host';
import { UpdateRunResource } from '@switchyard/contracts';
import { request, waitFor } from '@switchyard/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE, BOT, type ReleaseHarness, startReleaseHarness } from './harness.ts';

// Files a config's directory points at (`files.related` of its ecosystem), read and changed where they are: a .NET
// project whose version comes from a Directory.Packages.props two directories up (Central Package Management), and a
// requirements file that includes one in a sibling directory (`-r ../shared/base.txt`).

interface Job {
  attributes: Record<string, unknown> & { status: string; 'pull-request-number': number | null; 'status-reason': string | null };
  relationships: { 'update-config': { data: { id: string } } };
}

const CENTRAL = `<Project>
  <PropertyGroup>
    <ManagePackageVersionsCentrally>true</ManagePackageVersionsCentrally>
  </PropertyGroup>
  <ItemGroup>
    <PackageVersion Include="Newtonsoft.Json" Version="12.0.3" />
  </ItemGroup>
</Project>
`;

const PROJECT = `<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup>
    <TargetFramework>net8.0</TargetFramework>
  </PropertyGroup>
  <ItemGroup>
    <PackageReference Include="Newtonsoft.Json" />
  </ItemGroup>
</Project>
`;

describe('files outside the config directory that its files point at, read and updated in place', { timeout: 60_000 }, () => {
  let h: ReleaseHarness;
  const as = { authorization: `Personal ${ALICE}` };
  const github = async (repo: string, path: string) => {
    const res = await fetch(`${h.codeHostUrl}/repos/${repo}${path}`, {
      headers: { authorization: `token ${BOT}`, accept: 'application/vnd.github+json' },
    });
    expect(res.status, `GET ${path}`).toBe(200);
    return (await res.json()) as Record<string, unknown>;
  };
  const fileAt = async (repo: string, path: string, ref: string) =>
    Buffer.from(((await github(repo, `/contents/${path}?ref=${ref}`)) as { content: string }).content, 'base64').toString('utf8');
  /** The files a pull request changes, as the code host lists them. */
  const pullFiles = async (repo: string, number: number) =>
    ((await github(repo, `/pulls/${number}/files`)) as unknown as Array<{ filename: string }>).map((f) => f.filename).sort();
  const run = async (configId: number) => {
    const started = await request(h.releaseUrl, 'POST', `/update_configs/${configId}/trigger_update_job`, { headers: as });
    expect(started.status).toBe(202);
    const id = UpdateRunResource.parse(started.body.data).id;
    return waitFor(async () => {
      const body = UpdateRunResource.parse((await request(h.releaseUrl, 'GET', `/update_runs/${id}`, { headers: as })).body.data);
      return body.attributes.status === 'done' || body.attributes.status === 'failed' ? body.attributes : undefined;
    }, 20_000);
  };
  const openedJob = (repoId: number, name: string, configId: number) =>
    waitFor(async () => {
      const jobs = (await request(h.releaseUrl, 'GET', `/pull_request_jobs?repo-id=${repoId}&dependency-name=${name}`, { headers: as }))
        .body.data as Job[];
      const job = jobs.find((j) => j.relationships['update-config'].data.id === String(configId));
      return job && !['pending', 'running'].includes(job.attributes.status) ? job : undefined;
    }, 30_000);

  beforeAll(async () => {
    h = await startReleaseHarness('related_files', {
      workerEnv: { PULL_REQUESTS: 'on', SCHEDULER_INTERVAL_MS: '300' },
      repos: { 3106: { accountId: 2001, fullName: 'acme/polyglot', defaultBranch: 'main' } },
    });
    const host = createGitHubCodeHost({ baseUrl: h.codeHostUrl, userAgent: 'test', throttle: false, logger: h.logger });
    for (const [name, files] of [
      ['polyglot', { 'dotnet/Directory.Packages.props': CENTRAL, 'dotnet/src/App/App.csproj': PROJECT }],
      [
        'data-pipeline',
        { 'shared/base.txt': 'Django>=2.2,<3.0\n', 'service/requirements.txt': '-r ../shared/base.txt\nrequests==2.23.0\n' },
      ],
    ] as const) {
      const repo = { owner: 'acme', name };
      const head = (await host.getBranchHead?.(BOT, repo, 'main')) ?? '';
      await host.commitFiles?.(BOT, repo, { branch: 'main', parentSha: head, message: 'Add a project', files: { ...files } });
    }
    await h.configure({ id: 901, repoId: 3106, packageManager: 'nuget', directory: '/dotnet/src/App' });
    await h.configure({ id: 902, repoId: 3103, packageManager: 'pip', directory: '/service' });
  });
  afterAll(() => h?.close());

  it("reads a project's version from the Directory.Packages.props above it and moves it there", async () => {
    const done = await run(901);
    expect(done.status).toBe('done');
    expect(done.dependencies.find((d) => d.name === 'Newtonsoft.Json')).toMatchObject({
      requirement: '12.0.3',
      'version-in-use': '12.0.3',
      outcome: 'job-recorded',
    });
    const job = await openedJob(3106, 'Newtonsoft.Json', 901);
    expect(job.attributes).toMatchObject({ status: 'open', 'target-version': '13.0.3', 'status-reason': null });
    const number = job.attributes['pull-request-number'] as number;
    const pull = (await github('acme/polyglot', `/pulls/${number}`)) as { head: { ref: string } };
    expect(await pullFiles('acme/polyglot', number)).toEqual(['dotnet/Directory.Packages.props']);
    expect(await fileAt('acme/polyglot', 'dotnet/Directory.Packages.props', pull.head.ref)).toBe(
      CENTRAL.replace('Version="12.0.3"', 'Version="13.0.3"'),
    );
  });

  it('follows -r to a file in a sibling directory and moves the range where it is written', async () => {
    const done = await run(902);
    expect(done.status).toBe('done');
    expect(done.dependencies.find((d) => d.name === 'Django')).toMatchObject({ requirement: '>=2.2,<3.0', outcome: 'job-recorded' });
    const job = await openedJob(3103, 'Django', 902);
    expect(job.attributes).toMatchObject({ status: 'open', 'target-version': '4.2.16', 'status-reason': null });
    const number = job.attributes['pull-request-number'] as number;
    const pull = (await github('acme/data-pipeline', `/pulls/${number}`)) as { head: { ref: string } };
    expect(await pullFiles('acme/data-pipeline', number)).toEqual(['shared/base.txt']);
    expect(await fileAt('acme/data-pipeline', 'shared/base.txt', pull.head.ref)).toBe('Django>=4.2.16,<5.0\n');
  });
});
