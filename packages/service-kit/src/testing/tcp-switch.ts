import { once } from 'node:events';
import { createServer, type Socket, connect as tcpConnect } from 'node:net';

/** A TCP forwarder on loopback in front of a real server, which a test can cut and restore. */
export interface TcpSwitch {
  /** `targetUrl` with its host and port replaced by the forwarder's (`amqp://guest:guest@127.0.0.1:PORT`). */
  url: string;
  /** Connections refused while the switch was off. */
  refused: () => number;
  /** Forwards new connections from now on. */
  switchOn: () => void;
  /** Cuts every forwarded connection and refuses new ones until {@link TcpSwitch.switchOn}. */
  switchOff: () => void;
  /** Cuts everything and stops listening; idempotent. */
  close: () => Promise<void>;
}

/**
 * Starts a {@link TcpSwitch} to the host and port of `targetUrl` (default port 5672, RabbitMQ's): a broker the test
 * can take away and bring back without touching the machine's shared server. Starts off unless `on` is true.
 */
export async function startTcpSwitch(targetUrl: string, options: { on?: boolean } = {}): Promise<TcpSwitch> {
  const target = new URL(targetUrl);
  const sockets = new Set<Socket>();
  let on = options.on ?? false;
  let refused = 0;
  let closed = false;
  const server = createServer((client) => {
    if (!on) {
      refused += 1;
      client.destroy();
      return;
    }
    const upstream = tcpConnect(Number(target.port || 5672), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => {
        sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const url = new URL(targetUrl);
  url.hostname = '127.0.0.1';
  url.port = String(typeof address === 'object' && address ? address.port : 0);
  const switchOff = () => {
    on = false;
    for (const socket of sockets) socket.destroy();
  };
  return {
    url: url.toString().replace(/\/$/, ''),
    refused: () => refused,
    switchOn: () => {
      if (!closed) on = true;
    },
    switchOff,
    close: async () => {
      if (closed) return;
      closed = true;
      switchOff();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
