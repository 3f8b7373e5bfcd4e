import amqplib from 'amqplib';

/** The part of an amqplib `ConfirmChannel` peer-svc uses. */
export interface AmqpConfirmChannel {
  assertQueue(queue: string, options: { durable: boolean }): Promise<unknown>;
  sendToQueue(
    queue: string,
    content: Buffer,
    options: { persistent: boolean; contentType?: string },
    callback: (error: unknown) => void,
  ): boolean;
  waitForConfirms(): Promise<void>;
  get(queue: string, options?: { noAck?: boolean }): Promise<false | { content: Buffer; properties: { deliveryMode?: number } }>;
  deleteQueue(queue: string): Promise<unknown>;
  on(event: 'error' | 'close', listener: (error?: unknown) => void): unknown;
  close(): Promise<void>;
}

/** The part of an amqplib connection peer-svc uses. */
export interface AmqpConnection {
  createConfirmChannel(): Promise<AmqpConfirmChannel>;
  on(event: 'error' | 'close', listener: (error?: unknown) => void): unknown;
  close(): Promise<void>;
}

/** Connects to RabbitMQ with amqplib. @throws the connection error */
export async function connectAmqp(url: string, timeoutMs = 5_000): Promise<AmqpConnection> {
  return (await amqplib.connect(url, { timeout: timeoutMs })) as unknown as AmqpConnection;
}
