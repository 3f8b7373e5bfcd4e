import type { ProcessTreeMemory } from './process-tree.ts';

/** What the launcher prints once everything listens. */
export interface BannerFacts {
  gatewayUrl: string;
  /** The address the gateway listens on (`HOST`, loopback when unset). */
  gatewayHost: string;
  database: 'postgres' | 'pglite';
  /** The folder of the embedded database every service shares. */
  dataDir: string;
  /** The launcher's process id. */
  pid: number;
  /**
   * The resident memory of the launcher's process tree once everything listens (itself and any process it started
   * that still runs; see processTreeMemory); undefined where it cannot be read (no `/proc`).
   */
  residentMemory: ProcessTreeMemory | undefined;
  bus: string;
  codeHost: string;
  /** Whether the bundled emulator's demo users and repos are there (their tokens are printed). */
  demoData: boolean;
  /** The code host's API base URL (the emulator's, with demo data: its pull requests are shown). */
  codeHostUrl?: string | undefined;
  /** The package-registry emulator's URL, when the launcher started it (update runs ask it). */
  registryUrl?: string | undefined;
  /** Base URL of peer-svc (its directory place is `<peerUrl>/DirectoryPlace`). */
  peerUrl: string;
  /** Where peer-svc keeps enqueued work bundles: RabbitMQ (AMQP_URL) or its database. */
  workQueue: 'rabbitmq' | 'database';
  /** Whether the gateway serves the dashboard at `/ui/` (false: its build failed, and a warning said why). */
  dashboard: boolean;
  /**
   * The release worker's scheduler clock when `CLOCK_START` or `CLOCK_RATE` set one: its reading as the banner is
   * printed, and its rate (simulated per real millisecond). Absent: the system's clock, and no line for it.
   */
  clock?: { now: Date; rate: number };
}

/** The banner's memory line: the process tree's resident size in MiB, and how many processes it holds. */
function memoryLine(pid: number, memory: ProcessTreeMemory | undefined): string {
  if (!memory) return `unknown (read from /proc, on Linux only; pid ${pid})`;
  const mib = Math.round(memory.residentBytes / 2 ** 20);
  const count = memory.processes.length;
  return count === 1
    ? `${mib} MiB resident at start (one process, pid ${pid})`
    : `${mib} MiB resident at start (${count} processes: pid ${pid} and those it started)`;
}

/** Addresses only this machine can reach. */
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

/** The start-up text: where the stack answers, what it runs on, and requests to try for every API. */
export function banner({
  gatewayUrl: g,
  gatewayHost,
  database,
  dataDir,
  pid,
  residentMemory,
  bus,
  codeHost,
  demoData,
  codeHostUrl,
  registryUrl,
  peerUrl,
  workQueue,
  dashboard,
  clock,
}: BannerFacts): string {
  const storage =
    database === 'postgres'
      ? 'PostgreSQL (DATABASE_URL)'
      : `embedded PGlite in ${dataDir}/, a schema per service (set DATABASE_URL for PostgreSQL)`;
  const token = demoData ? 'demo-token-alice' : '<your GitHub token>';
  const auth = `-H 'Authorization: Personal ${token}'`;
  const demo = demoData
    ? `
Demo users of the emulator: alice (token demo-token-alice; orgs acme 2001 and globex 2002)
                            bob   (token demo-token-bob;   org initech 2003)
`
    : '';
  const dashboardLine = dashboard
    ? `${g}/ui/   (log in with ${demoData ? 'the demo token demo-token-alice' : 'your GitHub token'})`
    : 'not built (see the warning above): /ui answers 404';
  const queueStore = workQueue === 'rabbitmq' ? 'switchyard.demo-pickup on RabbitMQ' : 'kept in the database';
  const reach = LOOPBACK.has(gatewayHost)
    ? 'this machine only; HOST=0.0.0.0 opens it to others'
    : `HOST=${gatewayHost}: other machines can reach it${demoData ? ', and use the demo tokens below' : ''}`;
  return `
switchyard is running
  gateway    ${g}   (${reach})
  database   ${storage}
  events     ${bus}
  code host  ${codeHost}
  registries ${registryUrl ? `package-registry emulator with demo packages at ${registryUrl}` : 'REGISTRY_URLS (or the public registries)'}
  API docs   ${g}/docs
  dashboard  ${dashboardLine}
  memory     ${memoryLine(pid, residentMemory)}
${clock ? `  clock      ${clock.now.toISOString()} at ${clock.rate}× real time (CLOCK_START, CLOCK_RATE: the release worker's schedules)\n` : ''}${demo}
Book catalogue:
  curl ${g}/
  curl -i -X POST ${g}/books -H 'content-type: application/json' \\
       -d '{"Name":"Dune","Author":"Frank Herbert","Price":9.99,"Year":1965}'
  curl ${g}/books
  curl '${g}/books?limit=20&offset=0&sort=-Year'
  curl -i ${g}/books/1
  curl -i -X PUT ${g}/books -H 'content-type: application/json' -H 'If-Match: "1"' \\
       -d '{"Id":1,"Name":"Dune","Author":"Frank Herbert","Price":12.5,"Year":1965}'
  curl -i -X DELETE ${g}/books/1

Dependency update service:
  curl ${g}/accounts ${auth}
  curl '${g}/repos?account-id=2001&account-type=org&installation-state=inactive&page=1' ${auth}
  curl -i -X POST ${g}/update_configs ${auth} -H 'content-type: application/json' \\
       -d '{"repo-id":3101,"account-id":"2001","account-type":"org","directory":"/","update-schedule":"daily","package-manager":"npm_and_yarn"}'
  curl ${g}/update_configs/1 ${auth}
  curl -i -X PATCH ${g}/update_configs/1 ${auth} -H 'content-type: application/json' -d '{"update-schedule":"weekly"}'
  curl -i -X DELETE ${g}/update_configs/1 ${auth}

Private release notifications (after creating an npm_and_yarn config for acme/web-storefront, repo 3101):
  curl -i -X POST ${g}/release_notifications/private ${auth} -H 'content-type: application/json' \\
       -H 'Prefer: return=representation' -d '{"name":"lodash","version":"4.17.21","package-manager":"npm_and_yarn"}'
  curl ${g}/release_notifications/<id from the answer> ${auth}
  curl '${g}/pull_request_jobs?dependency-name=lodash' ${auth}
${
  demoData && codeHostUrl
    ? `  curl ${codeHostUrl}/repos/acme/web-storefront/pulls -H 'Authorization: token demo-token-alice'   (the job's pull request)
`
    : ''
}${
  registryUrl
    ? `
Update runs (config 1 above; a new lodash on the registry emulator, then "bump now", then the run and its jobs):
  curl -i -X POST ${registryUrl}/admin/publish -H 'content-type: application/json' \\
       -d '{"packageManager":"npm_and_yarn","name":"lodash","version":"4.17.22"}'
  curl -i -X POST ${g}/update_configs/1/trigger_update_job ${auth}
  curl ${g}/update_runs/<id from the answer> ${auth}
  curl '${g}/update_runs?update-config-id=1' ${auth}
`
    : ''
}
Peer directory (Digest user emissary / emissary-demo; client place demo-pickup, its queue ${queueStore}):
  curl -X POST ${g}/emissary/Heartbeat.action -H 'X-Requested-By: curl' \\
       --data-urlencode 'hbf=EMISSARY_DIRECTORY_SERVICES.DIRECTORY.STUDY.${peerUrl}/DirectoryPlace' \\
       --data-urlencode 'hbt=${peerUrl}/DirectoryPlace'
  curl --digest -u emissary:emissary-demo ${g}/WorkSpaceClientEnqueue.action -H 'X-Requested-By: curl' \\
       --data-urlencode 'pickUpClientName=demo-pickup' \\
       --data-urlencode 'tpObj={"bundleId":"demo-1","workUnits":[{"fileName":"report.txt"}]}'
  curl --digest -u emissary:emissary-demo '${g}/emissary/client-places/demo-pickup/bundles?take=10'

Ctrl-C stops everything.
`;
}
