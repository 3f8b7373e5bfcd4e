export * from './catalog/book.ts';
export * from './openapi.ts';
export * from './problem.ts';
