import { describe, expect, it } from 'vitest';
import { composeExec, managementApi, psql } from './stack.ts';

/**
 * What the compose stack's credentials allow: each service's PostgreSQL role uses only its own schema, and each
 * service's RabbitMQ user only its own exchanges and queues (deploy/postgres/init-roles.sh,
 * deploy/rabbitmq/entrypoint.sh). Checked from inside the stack, with the services' own credentials.
 */

const roles = {
  catalog: { role: 'catalog_svc', passwordVariable: 'CATALOG_DB_PASSWORD', schema: 'catalog', table: 'book' },
  config: { role: 'config_svc', passwordVariable: 'CONFIG_DB_PASSWORD', schema: 'config', table: 'account' },
  release: { role: 'release_svc', passwordVariable: 'RELEASE_DB_PASSWORD', schema: 'release', table: 'notification' },
} as const;

describe('PostgreSQL roles of the compose stack', () => {
  for (const own of Object.values(roles)) {
    it(`${own.role} reads its own schema ${own.schema} and no other service's`, async () => {
      const mine = await psql('switchyard', `select count(*) >= 0 from ${own.schema}.${own.table}`, own);
      expect(mine.stderr).toBe('');
      expect(mine.stdout.trim()).toBe('t');
      for (const other of Object.values(roles).filter((r) => r !== own)) {
        const theirs = await psql('switchyard', `select count(*) from ${other.schema}.${other.table}`, own);
        expect(theirs.code).not.toBe(0);
        expect(theirs.stderr).toContain(`permission denied for schema ${other.schema}`);
      }
      const newSchema = await psql('switchyard', 'create schema intruder', own);
      expect(newSchema.stderr).toContain('permission denied for database switchyard');
    });
  }

  it("peer-a's role can neither connect to peer-b's database nor to the shared one", async () => {
    const peerA = { role: 'peer_a_svc', passwordVariable: 'PEER_A_DB_PASSWORD' };
    expect((await psql('peer_a', 'select count(*) >= 0 from peer.peer', peerA)).stdout.trim()).toBe('t');
    for (const database of ['peer_b', 'switchyard']) {
      const refused = await psql(database, 'select 1', peerA);
      expect(refused.stderr).toContain(`permission denied for database "${database}"`);
    }
  });
});

/** Tries, inside `service`'s container with its own AMQP_URL, to consume `queue` passively; prints `ok` or the error. */
async function tryConsume(service: string, queue: string) {
  const script = `
    const amqplib = require(require('node:module').createRequire('/app/packages/messaging/package.json').resolve('amqplib'));
    (async () => {
      const connection = await amqplib.connect(process.env.AMQP_URL);
      const channel = await connection.createChannel();
      channel.on('error', () => {});
      try { await channel.checkQueue(${JSON.stringify(queue)}); const { consumerTag } = await channel.consume(${JSON.stringify(queue)}, () => {}); await channel.cancel(consumerTag); console.log('ok'); }
      catch (error) { console.log(error.message); }
      await connection.close().catch(() => {});
    })();`;
  const { stdout, stderr, code } = await composeExec(service, ['node', '-e', script]);
  expect(code, stderr).toBe(0);
  return stdout.trim();
}

describe('RabbitMQ users of the compose stack', () => {
  it('has no guest user, and one user per service', async () => {
    expect((await managementApi('GET', '/users/guest')).status).toBe(404);
    const users = (await managementApi('GET', '/users')).body as Array<{ name: string }>;
    expect(users.map((user) => user.name).sort()).toEqual(['admin', 'config-svc', 'peer-a', 'peer-b', 'release-svc', 'release-worker']);
  });

  it("lets the release worker consume its scan queue, and refuses config-svc's user the same queue", async () => {
    expect(await tryConsume('release-worker', 'release-svc.scans')).toBe('ok');
    expect(await tryConsume('config-svc', 'release-svc.scans')).toMatch(/ACCESS_REFUSED/);
  });
});
