import type {} from 'vitest';

/** Values the integration and end-to-end projects' global setup provides to every test file (`inject(...)`). */
declare module 'vitest' {
  export interface ProvidedContext {
    /** An admin URL of the PostgreSQL server the integration and end-to-end suites use. */
    databaseUrl: string;
    /** The URL of the RabbitMQ broker the integration and end-to-end suites use (isolate with unique exchange and queue names). */
    amqpUrl: string;
  }
}
