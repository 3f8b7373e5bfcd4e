import { privateRabbitMQUnavailable, startPrivateRabbitMQ, startTcpSwitch } from '@switchyard/service-kit/testing';

/** A broker the test may take down and bring back, without touching the machine's shared RabbitMQ. */
export interface RestartableBroker {
  /** `amqp://…` of this broker. */
  url: string;
  /** `private node`: a RabbitMQ node of its own; `tcp proxy`: a proxy in front of the shared broker that cuts connections. */
  kind: 'private node' | 'tcp proxy';
  /** Why a private node could not be used, when `kind` is `tcp proxy`. */
  fallbackReason?: string;
  /** Stops the node (SIGTERM, as an orchestrator does), or cuts every connection and refuses new ones. */
  stop: () => Promise<void>;
  /** Starts it again and waits until it accepts AMQP connections. */
  start: () => Promise<void>;
  /** Stops whatever runs and removes what was created (the node's folder); idempotent. */
  close: () => Promise<void>;
  /** The node's console output so far (for failure messages). */
  output: () => string;
}

/**
 * A RabbitMQ node of the test's own (Debian's rabbitmq-server, run directly as a child process), else a
 * cuttable TCP proxy in front of `sharedUrl` when no node can be started here (`FAULTS_BROKER=proxy` forces it).
 */
export async function startRestartableBroker(sharedUrl: string): Promise<RestartableBroker> {
  let reason = 'FAULTS_BROKER=proxy';
  if (process.env.FAULTS_BROKER !== 'proxy') {
    const unavailable = privateRabbitMQUnavailable();
    if (unavailable) reason = unavailable;
    else {
      try {
        return await startPrivateRabbitNode();
      } catch (error) {
        reason = `the private node did not start: ${(error as Error).message.slice(0, 2_000)}`;
      }
    }
  }
  return { ...(await startCuttableProxy(sharedUrl)), fallbackReason: reason };
}

/** A RabbitMQ node of the test's own (service-kit's `startPrivateRabbitMQ`), as a {@link RestartableBroker}. */
export async function startPrivateRabbitNode(): Promise<RestartableBroker> {
  const node = await startPrivateRabbitMQ({ namePrefix: 'sy-test' });
  return { url: node.url, kind: 'private node', stop: node.stop, start: node.start, close: node.close, output: node.output };
}

/**
 * A TCP proxy on 127.0.0.1 in front of the broker at `targetUrl`: `stop()` destroys every proxied connection
 * and refuses new ones (clients see the broker vanish), `start()` lets them through again.
 */
export async function startCuttableProxy(targetUrl: string): Promise<RestartableBroker> {
  const proxy = await startTcpSwitch(targetUrl, { on: true });
  let closed = false;
  return {
    url: proxy.url,
    kind: 'tcp proxy',
    stop: async () => proxy.switchOff(),
    start: async () => {
      if (closed) throw new Error('the proxy was closed');
      proxy.switchOn();
    },
    output: () => '',
    close: async () => {
      closed = true;
      await proxy.close();
    },
  };
}
