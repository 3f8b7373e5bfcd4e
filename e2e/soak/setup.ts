import { GatewayApi, GitHubApi } from './clients.ts';
import type { Journal } from './journal.ts';
import type { SoakUrls } from './system.ts';
import { ACCOUNTS, ALICE, CONFIGS, fixtureText, REPOS } from './world.ts';

/**
 * The world at the start of a run, made as its people would: the e2e fixtures of Maven, Cargo and Composer committed
 * into acme/polyglot as alice, another branch on each repository (for configs retargeted later), acme's run time and
 * weekly day, and the update configs of `world.ts` through the gateway with the demo users' tokens.
 */

/**
 * Makes the world and records every config and account setting in `journal`.
 * @throws Unexpected / Unreachable when a step is refused (the run cannot go on without its world)
 */
export async function setUpWorld(urls: () => SoakUrls, journal: Journal): Promise<void> {
  const githubAs = (token: string) => new GitHubApi(() => urls().codeHost, token);
  const gatewayAs = (token: string) => new GatewayApi(() => urls().gateway, token);

  // The fixture directories, one commit per repository.
  const byRepo = new Map<string, Record<string, string>>();
  for (const config of CONFIGS) {
    if (!config.fixture) continue;
    const files = byRepo.get(config.repo.fullName) ?? {};
    byRepo.set(config.repo.fullName, files);
    for (const file of config.fixture.files) files[`${config.directory.slice(1)}/${file}`] = fixtureText(config.fixture.name, file);
  }
  for (const [fullName, files] of byRepo) {
    const repo = REPOS.find((r) => r.fullName === fullName);
    if (!repo) continue;
    const sha = await githubAs(repo.person.token).commit(fullName, repo.defaultBranch, files, 'Add the Maven, Cargo and Composer tools');
    journal.log(`setup: committed ${Object.keys(files).length} fixture files to ${fullName} (${sha.slice(0, 7)})`);
  }

  for (const repo of REPOS) {
    if (repo.otherBranch.existing) continue;
    const github = githubAs(repo.person.token);
    const head = await github.head(repo.fullName, repo.defaultBranch);
    await github.ok('POST', `/repos/${repo.fullName}/git/refs`, { ref: `refs/heads/${repo.otherBranch.name}`, sha: head });
    journal.log(`setup: branch ${repo.otherBranch.name} of ${repo.fullName} at ${head?.slice(0, 7)}`);
  }

  for (const account of ACCOUNTS) {
    const person = account.admin ?? REPOS.find((r) => r.accountId === account.id)?.person ?? ALICE;
    if (account.admin) {
      const answer = await gatewayAs(account.admin.token).patchAccount(account.id, account.settings);
      if (answer.status !== 200) throw new Error(`PATCH /accounts/${account.id}: ${answer.status} ${answer.text}`);
      journal.log(`setup: account ${account.login} ${JSON.stringify(account.settings)}`);
    }
    const found = (await gatewayAs(person.token).accounts()).find((a) => a.id === account.id);
    journal.accountSettings.set(account.id, { ...found?.attributes });
  }

  for (const plan of CONFIGS) {
    // A rule is in force from when it was asked for (the answer may come after the worker already has it).
    const since = Date.now();
    const created = await gatewayAs(plan.repo.person.token).createConfig({
      'repo-id': plan.repo.id,
      'account-id': plan.repo.accountId,
      'account-type': 'org',
      directory: plan.directory,
      'update-schedule': plan.schedule,
      'package-manager': plan.packageManager,
      'automerge-rule-runtime-deps': plan.automerge.runtime,
      'automerge-rule-development-deps': plan.automerge.development,
      ...(plan.groups ? { groups: plan.groups } : {}),
    });
    journal.configs.push({
      plan,
      id: created.id,
      person: plan.repo.person,
      schedule: plan.schedule,
      targetBranch: null,
      automerge: [{ since, runtime: plan.automerge.runtime, development: plan.automerge.development }],
      source: 'api',
    });
    journal.log(
      `setup: config ${created.id} ${plan.key} ${plan.schedule}, automerge ${plan.automerge.runtime}/${plan.automerge.development}${plan.groups ? `, groups ${plan.groups.map((g) => g.name).join(', ')}` : ''}`,
    );
  }
}
