export * from './catalog/book.ts';
export * from './dependency/index.ts';
export * from './event-catalogue.ts';
export * from './events.ts';
export * from './openapi.ts';
export * from './peer/events.ts';
export * from './problem.ts';
