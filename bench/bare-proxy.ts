/**
 * The practical floor of an HTTP/1.1 proxy hop in Node.js, for `pnpm bench:gateway`: `node:http` in front of an undici
 * `Pool` (its low-level `dispatch`, as the gateway uses it), forwarding method, path and the answer as they come, with
 * no header rewriting, request id, metrics, routing or error format. What the gateway's forwarding is compared with;
 * it is not a service.
 *
 * Environment: PORT, UPSTREAM_URL, CONNECTIONS (64).
 */

import { createServer } from 'node:http';
import { type Dispatcher, Pool } from 'undici';

const pool = new Pool(String(process.env.UPSTREAM_URL), { connections: Number(process.env.CONNECTIONS ?? 64), pipelining: 1 });

createServer((req, res) => {
  pool.dispatch(
    { path: req.url ?? '/', method: req.method as Dispatcher.HttpMethod, headers: [], body: null },
    {
      // Without `onRequestStart`, undici takes a handler for one of its older API.
      onRequestStart: () => {},
      onResponseStart: (_controller, status, headers) => {
        res.writeHead(status, headers);
      },
      onResponseData: (_controller, chunk) => {
        res.write(chunk);
      },
      onResponseEnd: () => {
        res.end();
      },
      onResponseError: (_controller, error) => {
        res.destroy(error);
      },
    },
  );
}).listen(Number(process.env.PORT), '127.0.0.1');
