/**
 * The practical ceiling of a Node.js `GET /books/{id}` on this database, for `pnpm bench:catalog`: bare `node:http` and
 * `pg` with one named (prepared) statement, no framework, no logging, no validation beyond the id's digits. It is what
 * catalog-svc's answer to the same request is compared with; it is not a service.
 *
 * Environment: PORT, DATABASE_URL (a database holding `catalog.book`), POOL_SIZE (10).
 */

import { createServer } from 'node:http';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.POOL_SIZE ?? 10) });
const query = { name: 'book-by-id', text: 'select id, name, author, price, year from catalog.book where id = $1' };

const server = createServer(async (req, res) => {
  const match = /^\/books\/(\d{1,9})$/.exec(req.url ?? '');
  if (req.url === '/readyz') {
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    return;
  }
  if (!match) {
    res.writeHead(404).end();
    return;
  }
  try {
    const { rows } = await pool.query({ ...query, values: [Number(match[1])] });
    const row = rows[0];
    if (!row) {
      res.writeHead(404).end();
      return;
    }
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ Id: row.id, Name: row.name, Author: row.author, Price: row.price, Year: row.year }));
  } catch {
    res.writeHead(500).end();
  }
});

server.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
const stop = () => server.close(() => void pool.end().then(() => process.exit(0)));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
