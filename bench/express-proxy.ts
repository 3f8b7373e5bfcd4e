/**
 * A common way to put a proxy in front of a service in Node.js, for `pnpm bench:gateway`: express 5 with
 * `http-proxy-middleware` forwarding every path to the upstream over keep-alive connections (a `node:http` `Agent`),
 * setting `X-Forwarded-*` (`xfwd`) as the gateway does. A peer the gateway is compared with; it is not a service.
 *
 * Environment: PORT, UPSTREAM_URL, CONNECTIONS (64: the agent's most sockets to the upstream).
 */

import { Agent } from 'node:http';
import express from 'express';
import { createProxyMiddleware } from 'http-proxy-middleware';

const agent = new Agent({ keepAlive: true, maxSockets: Number(process.env.CONNECTIONS ?? 64) });
const app = express();
app.disable('x-powered-by');
app.use(createProxyMiddleware({ target: String(process.env.UPSTREAM_URL), agent, xfwd: true }));
app.listen(Number(process.env.PORT), '127.0.0.1');
