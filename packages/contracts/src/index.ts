export * from './catalog/book.ts';
export * from './problem.ts';
