import { isIP } from 'node:net';
import { CODE_HOST_VIEW_DEFAULTS } from '@switchyard/code-host';
import { z } from 'zod';

/**
 * Which proxies in front of the API are trusted to say who the client is in `X-Forwarded-For`, as express's
 * `trust proxy` setting takes it (https://expressjs.com/en/guide/behind-proxies.html): `false`, none (the connection's
 * peer is the client); a number of hops (`1`: exactly one proxy, the peer, whose rightmost `X-Forwarded-For` entry is
 * the client); or the proxies' addresses, subnets (CIDR) and the names `loopback`, `linklocal`, `uniquelocal`.
 */
export type TrustProxy = false | number | readonly string[];

/** The names express's `trust proxy` (proxy-addr) accepts for groups of addresses. */
const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** Is `entry` an address, a subnet (address/prefix length) or one of {@link PROXY_NAMES}? */
function isProxyEntry(entry: string): boolean {
  if (PROXY_NAMES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

const TRUST_PROXY_HINT =
  'must be off (false), a number of proxy hops (1: one proxy in front), or a comma-separated list of proxy addresses, ' +
  'subnets (10.0.0.0/8) and the names loopback, linklocal, uniquelocal; trusting every address (true) is not offered';

/** `TRUST_PROXY`'s text as a {@link TrustProxy}; unset, `false`, `off`, `no` and `0` are `false`. */
const trustProxy = z
  .string()
  .optional()
  .transform((value, ctx): TrustProxy => {
    const text = value?.trim().toLowerCase() ?? '';
    if (['', 'false', 'off', 'no', '0'].includes(text)) return false;
    if (/^\d+$/.test(text)) return Number(text);
    const entries = text.split(',').map((entry) => entry.trim());
    if (entries.every((entry) => entry !== '' && isProxyEntry(entry))) return entries;
    ctx.addIssue({ code: 'custom', message: TRUST_PROXY_HINT });
    return z.NEVER;
  });

/** Milliseconds of a limit's window: a second to a day. */
const windowMs = (fallback: number) => z.coerce.number().int().min(1_000).max(86_400_000).default(fallback);

/**
 * The environment variables of the dependency update API's protection against token guessing and against one caller
 * spending the code host (config-svc and release-svc spread these into their schemas; every one is optional):
 *
 * - `AUTH_REJECTED_TTL_MS` (60 000): how long a token the code host rejected is answered 401 from memory (its
 *   SHA-256 only), without asking the code host again; 0 turns it off.
 * - `AUTH_FAILURE_LIMIT` (20) per `AUTH_FAILURE_WINDOW_MS` (60 000): failed authentications (no header, another
 *   scheme, a rejected token) a client address may make in a window before it is answered 429; 0 turns it off.
 * - `TRUST_PROXY` (off): which proxies may name the client in `X-Forwarded-For` ({@link TrustProxy}).
 * - `CODE_HOST_TOKEN_BUDGET` (5 000) per `CODE_HOST_TOKEN_BUDGET_WINDOW_MS` (3 600 000): code-host calls one token
 *   may cause in a window before its requests are answered 429; 0 turns it off, otherwise at least 3 (authenticating
 *   a token takes three calls: the user, the organisations and the app installations).
 */
export const dependencyApiLimitsEnv = {
  AUTH_REJECTED_TTL_MS: z.coerce.number().int().min(0).max(3_600_000).default(CODE_HOST_VIEW_DEFAULTS.rejectedTokenTtlMs),
  AUTH_FAILURE_LIMIT: z.coerce.number().int().min(0).max(1_000_000).default(CODE_HOST_VIEW_DEFAULTS.failedAuthentications.limit),
  AUTH_FAILURE_WINDOW_MS: windowMs(CODE_HOST_VIEW_DEFAULTS.failedAuthentications.windowMs),
  TRUST_PROXY: trustProxy,
  CODE_HOST_TOKEN_BUDGET: z.coerce
    .number()
    .int()
    .min(0)
    .max(10_000_000)
    .refine(
      (calls) => calls === 0 || calls >= 3,
      'must be 0 (no budget) or at least 3: authenticating a token takes three calls (user, organisations, app installations)',
    )
    .default(CODE_HOST_VIEW_DEFAULTS.tokenBudget.limit),
  CODE_HOST_TOKEN_BUDGET_WINDOW_MS: windowMs(CODE_HOST_VIEW_DEFAULTS.tokenBudget.windowMs),
};

/** The variables of {@link dependencyApiLimitsEnv}, as read. */
export interface DependencyApiLimitsConfig {
  AUTH_REJECTED_TTL_MS: number;
  AUTH_FAILURE_LIMIT: number;
  AUTH_FAILURE_WINDOW_MS: number;
  TRUST_PROXY: TrustProxy;
  CODE_HOST_TOKEN_BUDGET: number;
  CODE_HOST_TOKEN_BUDGET_WINDOW_MS: number;
}
