/**
 * json-server (https://github.com/typicode/json-server, 0.17), the CRUD server a user would otherwise pick, serving the
 * same 10,000 books from a JSON file, for `pnpm bench:catalog`'s comparison: its own router and default middlewares,
 * its request logger off (as catalog-svc runs at LOG_LEVEL=warn). Started by the benchmark as its own process.
 *
 * Environment: PORT, DB (the path of the JSON file: `{ "books": [{ "id": 1, ... }] }`).
 */

import jsonServer from 'json-server';

const server = jsonServer.create();
server.use(jsonServer.defaults({ logger: false }));
server.use(jsonServer.router(process.env.DB ?? 'db.json'));
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
