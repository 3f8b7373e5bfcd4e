import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { parseEnv, promisify } from 'node:util';

/**
 * What the compose smoke suite knows of the running stack (`docker compose up`): the gateway's URL from
 * COMPOSE_GATEWAY_URL, and the stack's secrets and ports from the environment or, failing that, from the `.env`
 * file the stack was started with (COMPOSE_ENV_FILE, default `.env` at the repository root).
 */

const root = new URL('../../', import.meta.url).pathname;
const envFile = process.env.COMPOSE_ENV_FILE ?? `${root}.env`;
const fileEnv: Record<string, string | undefined> = existsSync(envFile) ? parseEnv(readFileSync(envFile, 'utf8')) : {};

/**
 * A setting of the stack: the process environment first, then the stack's `.env`, then `fallback`.
 * @throws Error naming the variable when none of them has it
 */
export function stackSetting(name: string, fallback?: string): string {
  const value = process.env[name] || fileEnv[name] || fallback;
  if (value === undefined) throw new Error(`the compose smoke suite needs ${name} (in the environment or in ${envFile})`);
  return value;
}

/** The gateway of the stack, e.g. `http://127.0.0.1:8080` (no trailing slash). */
export const gatewayUrl = stackSetting('COMPOSE_GATEWAY_URL').replace(/\/$/, '');

/** RabbitMQ's management API of the stack (published on loopback), with the `admin` user's credentials. */
export const management = {
  url: stackSetting('COMPOSE_RABBITMQ_MANAGEMENT_URL', `http://127.0.0.1:${stackSetting('RABBITMQ_MANAGEMENT_PORT', '15672')}`),
  authorization: `Basic ${Buffer.from(`admin:${stackSetting('RABBITMQ_ADMIN_PASSWORD')}`).toString('base64')}`,
};

/** Calls RabbitMQ's management HTTP API as `admin`: `path` below `/api`. Returns the status and parsed JSON body. */
export async function managementApi(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${management.url}/api${path}`, {
    method,
    headers: { authorization: management.authorization, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

const run = promisify(execFile);
/** `docker-compose` (v1) when it is on the PATH, else `docker compose`; COMPOSE_COMMAND overrides (e.g. `docker compose`). */
const composeCommand = (
  process.env.COMPOSE_COMMAND ??
  ((process.env.PATH ?? '').split(':').some((dir) => dir && existsSync(`${dir}/docker-compose`)) ? 'docker-compose' : 'docker compose')
).split(' ');

/**
 * Runs `docker compose exec -T <service> <command…>` in the stack's project (the repository root, honouring
 * COMPOSE_PROJECT_NAME and COMPOSE_FILE as compose does).
 * @returns stdout, stderr and the exit code (a non-zero exit does not throw)
 */
export async function composeExec(service: string, command: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  const [bin = 'docker-compose', ...pre] = composeCommand;
  try {
    const { stdout, stderr } = await run(bin, [...pre, 'exec', '-T', service, ...command], { cwd: root, maxBuffer: 4 * 1024 * 1024 });
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; code?: number | string };
    if (typeof failed.code !== 'number') throw error;
    return { stdout: failed.stdout ?? '', stderr: failed.stderr ?? '', code: failed.code };
  }
}

/**
 * Runs one SQL statement with psql inside the postgres container, as `role` (password from the container's own
 * environment variable `passwordVariable`; the superuser when both are omitted), on `database`.
 * @returns psql's unaligned, tuples-only output and its exit code
 */
export function psql(database: string, statement: string, as?: { role: string; passwordVariable: string }) {
  const login = as ? `PGPASSWORD="$${as.passwordVariable}" psql -h 127.0.0.1 -U ${as.role}` : 'psql -U postgres';
  return composeExec('postgres', ['sh', '-c', `${login} -d ${database} -v ON_ERROR_STOP=1 -tAc "$0"`, statement]);
}
