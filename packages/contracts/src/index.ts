export * from './catalog/book.ts';
export * from './events.ts';
export * from './openapi.ts';
export * from './problem.ts';
