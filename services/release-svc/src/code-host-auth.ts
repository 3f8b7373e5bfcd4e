import { readFile } from 'node:fs/promises';
import {
  appInstallationTokens,
  type CodeHost,
  type CodeHostTokens,
  createGitHubApp,
  type GitHubApp,
  type GitHubCodeHostOptions,
  personalToken,
} from '@switchyard/code-host';
import { ConfigError } from '@switchyard/service-kit';
import type { ReleaseConfig } from './config.ts';

/** How the worker acts on the code host: its tokens, and the App when it runs as one. */
export interface WorkerCodeHostAuth {
  tokens: CodeHostTokens;
  /** App mode's App (its installations drive the accounts' and repos' installation state); undefined in personal-token mode. */
  app: GitHubApp | undefined;
}

/**
 * The worker's code-host credentials from its configuration: App mode when `GITHUB_APP_ID` is set (with
 * `GITHUB_APP_PRIVATE_KEY`, PEM or a file's path), else personal-token mode with `CODE_HOST_TOKEN`.
 * `clientOptions` are the adapter's (base URL, timeouts, logger), used for the App's own requests too.
 * @throws ConfigError when neither mode is configured, the App has no key, or the key's file cannot be read
 */
export async function workerCodeHostAuth(config: ReleaseConfig, clientOptions: GitHubCodeHostOptions): Promise<WorkerCodeHostAuth> {
  if (config.GITHUB_APP_ID === undefined) {
    if (!config.CODE_HOST_TOKEN) {
      throw new ConfigError('release-worker', [
        'CODE_HOST_TOKEN or GITHUB_APP_ID: the worker needs a token (personal-token mode) or a GitHub App to act as',
      ]);
    }
    return { tokens: personalToken(config.CODE_HOST_TOKEN), app: undefined };
  }
  const privateKey = await privateKeyOf(config.GITHUB_APP_PRIVATE_KEY);
  const app = createGitHubApp({ ...clientOptions, appId: config.GITHUB_APP_ID, privateKey });
  return { tokens: appInstallationTokens(app), app };
}

/**
 * How the worker reads its own login on the code host, the `sender` of the webhooks about what it does: the App's bot
 * user (`<slug>[bot]`, `GitHubApp.botLogin`) in App mode, else the personal token's user (`GET /user`).
 * @returns a function that throws CodeHostError when the code host cannot say
 */
export function botLoginReader(auth: WorkerCodeHostAuth, codeHost: Pick<CodeHost, 'currentUser'>): () => Promise<string> {
  const { app, tokens } = auth;
  if (app) return () => app.botLogin();
  return async () => (await codeHost.currentUser(await tokens.anyToken())).account.login;
}

/** The PEM of `GITHUB_APP_PRIVATE_KEY`: the value itself (`\n` written out allowed) or the content of the file it names. */
async function privateKeyOf(setting: string | undefined): Promise<string> {
  if (setting === undefined) throw new ConfigError('release-worker', ['GITHUB_APP_PRIVATE_KEY: required with GITHUB_APP_ID']);
  const value = setting.trim();
  if (value.startsWith('-----BEGIN')) return value.replaceAll('\\n', '\n');
  try {
    const pem = await readFile(value, 'utf8');
    if (!pem.includes('-----BEGIN')) throw new Error('no PEM block in it');
    return pem;
  } catch (error) {
    throw new ConfigError('release-worker', [
      `GITHUB_APP_PRIVATE_KEY: neither a PEM key nor a readable key file (${(error as Error).message})`,
    ]);
  }
}
