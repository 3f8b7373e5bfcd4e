/**
 * The upstream of `pnpm bench:gateway`: `node:http` answering every request at once with the same small JSON
 * document (about 130 bytes, with `Content-Length` and an `ETag`, as catalog-svc answers `GET /books/{id}`), so that
 * what a proxy in front of it costs is all there is to measure. It is not a service.
 *
 * Environment: PORT.
 */

import { createServer } from 'node:http';

const body = JSON.stringify({
  data: {
    type: 'books',
    id: '123',
    attributes: { name: 'The Left Hand of Darkness', author: 'Ursula K. Le Guin', price: 12.5, year: 1969 },
  },
});
const headers = { 'content-type': 'application/vnd.api+json', 'content-length': Buffer.byteLength(body), etag: 'W/"82-bench"' };

createServer((req, res) => {
  req.resume();
  res.writeHead(200, headers).end(body);
}).listen(Number(process.env.PORT), '127.0.0.1');
