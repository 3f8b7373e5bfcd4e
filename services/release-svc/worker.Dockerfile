# syntax=docker/dockerfile:1
# release-svc worker (scans repos for release notifications; scale it with --scale release-worker=N):
# built from the repository root (docker build -f services/release-svc/worker.Dockerfile .).
# No compile step: Node.js 24 runs the TypeScript sources directly (type stripping).

FROM node:24-bookworm-slim AS build
WORKDIR /app
RUN npm install --global --no-fund --no-audit pnpm@11.28.11
COPY . .
RUN pnpm install --frozen-lockfile --prod --filter "@switchyard/release-svc..."

FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production WORKER_PORT=8085
WORKDIR /app
COPY --from=build --chown=node:node /app/package.json /app/pnpm-workspace.yaml ./
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/packages ./packages
COPY --from=build --chown=node:node /app/services/release-svc ./services/release-svc
USER node
EXPOSE 8085
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.WORKER_PORT + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "services/release-svc/src/worker-main.ts"]
