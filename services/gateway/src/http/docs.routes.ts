import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { openApiDocument } from '@switchyard/contracts';
import { onlyMethods } from '@switchyard/service-kit';
import express, { Router } from 'express';

const swaggerUiDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const page = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>switchyard API</title><link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head>
<body><div id="ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body></html>`;

const init = `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#ui' });`;

/** `GET /openapi.json` (the OpenAPI 3.1 document of the contracts) and `GET /docs` (Swagger UI, served locally). */
export function docsRouter(): Router {
  const router = Router();
  const document = JSON.stringify(openApiDocument());
  router.get('/openapi.json', (_req, res) => {
    res.type('application/json').send(document);
  });
  router.get('/docs', (_req, res) => {
    res.setHeader('content-security-policy', "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'");
    res.type('html').send(page);
  });
  router.get('/docs/init.js', (_req, res) => {
    res.type('application/javascript').send(init);
  });
  // express.static answers other methods 405 with an empty body itself: they get the gateway's problem instead.
  router.use('/docs/assets', onlyMethods(['GET']), express.static(swaggerUiDir, { index: false, fallthrough: false }));
  return router;
}
