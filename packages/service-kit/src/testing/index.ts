import './provided-context.ts';

export * from './consumer-queues.ts';
export * from './event-tap.ts';
export * from './http-client.ts';
export * from './private-rabbitmq.ts';
export * from './process.ts';
export * from './process-stack.ts';
export * from './tcp-switch.ts';
export * from './test-database.ts';
