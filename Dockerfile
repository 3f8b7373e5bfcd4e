# One image for every service of the stack, built from the repository root. SERVICE names the workspace folder
# whose program the image runs, MAIN that program inside it, PORT the port its health check asks:
#
#   docker build --build-arg SERVICE=services/catalog-svc --build-arg PORT=8083 -t switchyard/catalog-svc .
#   docker build --build-arg SERVICE=services/release-svc --build-arg MAIN=src/worker-main.ts --build-arg PORT=8085 \
#                -t switchyard/release-worker .
#
# | image          | SERVICE                    | MAIN               | PORT |
# |----------------|----------------------------|--------------------|------|
# | gateway        | services/gateway           | src/main.ts        | 8080 |
# | config-svc     | services/config-svc        | src/main.ts        | 8081 |
# | release-svc    | services/release-svc       | src/main.ts        | 8082 |
# | release-worker | services/release-svc       | src/worker-main.ts | 8085 |
# | catalog-svc    | services/catalog-svc       | src/main.ts        | 8083 |
# | peer-svc       | services/peer-svc          | src/main.ts        | 8084 |
# | code-host      | packages/github-emulator   | src/main.ts        | 8090 | (the GitHub emulator, for demos and tests)
# | registries     | packages/registry-emulator | src/main.ts        | 8091 | (the package-registry emulator, likewise)
#
# No compile step: Node.js 24 runs the TypeScript sources as they are (type stripping). The runtime stage holds
# the sources and the production dependencies of SERVICE and the workspace packages it uses, owned by root and
# run as the unprivileged `node` user.
#
# The gateway's image also holds the dashboard (apps/dashboard), built here with its dev dependencies (Vite, Preact),
# which no image holds: its files are in /app/services/gateway/dashboard, which the gateway serves at /ui/ when
# DASHBOARD_DIR names it (docker-compose.yml and deploy/kubernetes do). The other images hold nothing of it.

ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS deps
WORKDIR /app
RUN npm install --global --no-fund --no-audit --loglevel=error pnpm@11.28.11
# The lockfile alone decides what is downloaded: this layer is shared by every service's image and reused until
# the lockfile changes.
COPY pnpm-lock.yaml pnpm-workspace.yaml ./
RUN pnpm fetch --prod && rm -rf node_modules

# The dashboard's build: the lockfile's dev dependencies too (a layer of its own, reused until the lockfile changes),
# then `node apps/dashboard/build.ts` into apps/dashboard/dist. It depends on no build argument, so every image's
# build shares it.
FROM deps AS dashboard
RUN pnpm fetch --dev && rm -rf node_modules
COPY . .
RUN pnpm install --offline --frozen-lockfile --filter "{./apps/dashboard}..." && node apps/dashboard/build.ts

FROM deps AS build
COPY . .
ARG SERVICE
RUN test -n "$SERVICE" && test -f "$SERVICE/package.json" || { echo "SERVICE must name a workspace folder, e.g. --build-arg SERVICE=services/catalog-svc" >&2; exit 1; }
RUN pnpm install --offline --frozen-lockfile --prod --filter "{./$SERVICE}..."
COPY --from=dashboard /app/apps/dashboard/dist /tmp/dashboard
RUN if [ "$SERVICE" = services/gateway ]; then cp -R /tmp/dashboard "$SERVICE/dashboard"; fi && rm -rf /tmp/dashboard

FROM ${NODE_IMAGE} AS runtime
ARG SERVICE
ARG MAIN=src/main.ts
ARG PORT
RUN test -n "$PORT" || { echo "PORT must be given, e.g. --build-arg PORT=8083" >&2; exit 1; }
ENV NODE_ENV=production SERVICE_MAIN=${SERVICE}/${MAIN} HEALTH_PORT=${PORT}
WORKDIR /app
COPY --from=build /app/package.json /app/pnpm-workspace.yaml ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/packages ./packages
COPY --from=build /app/${SERVICE} ./${SERVICE}
# The only writable places: the embedded database (or an emulator's state), and the GitHub emulator's demo App key
# (a volume compose shares with release-worker; a new volume takes this folder's owner).
RUN mkdir .data app-key && chown node:node .data app-key
USER node
EXPOSE ${PORT}
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.HEALTH_PORT}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# `exec` leaves node as the container's first process, so it receives SIGTERM and closes gracefully.
CMD ["sh", "-c", "exec node \"$SERVICE_MAIN\""]
