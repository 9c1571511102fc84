# syntax=docker/dockerfile:1
# Build from the repository root:  docker build -f infra/docker/replacement.Dockerfile -t trackline-replacement .
# (BuildKit reads infra/docker/replacement.Dockerfile.dockerignore for this build.)

ARG NODE_IMAGE=node:20.19-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /src
# pnpm at the version package.json pins (packageManager), through corepack.
RUN corepack enable
# Dependencies first, from the lockfile alone: this layer is reused until the lockfile changes.
COPY pnpm-lock.yaml pnpm-workspace.yaml package.json ./
RUN pnpm fetch
COPY . .
RUN pnpm install --offline --frozen-lockfile \
 && pnpm exec tsc -b services/replacement
# Keep only what @trackline/replacement needs at run time: its production dependencies and the workspace
# packages it uses (with their dist). pnpm deploy is not used because it packs workspace packages
# by their .gitignore, which excludes dist. Switching to --prod reinstalls node_modules (dist stays).
# Of each package only package.json, node_modules, dist and the Lua scripts go in: no sources and no
# test code (tsconfig.json builds dist without it, docs/testing.md).
# docs/openapi goes beside services/: the service reads its API document from there at start (GET /docs).
RUN pnpm install --offline --frozen-lockfile --prod --config.confirmModulesPurge=false --filter @trackline/replacement... \
 && mkdir /out \
 && cp -a package.json node_modules /out/ \
 && for dir in packages/domain packages/contracts packages/platform services/replacement; do \
      mkdir -p /out/$dir && cp -a $dir/package.json $dir/dist /out/$dir/ \
      && for part in node_modules lua; do if [ -e $dir/$part ]; then cp -a $dir/$part /out/$dir/; fi; done; \
    done \
 && mkdir -p /out/docs && cp -a docs/openapi /out/docs/

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build --chown=root:root /out/ ./
# The image's unprivileged user; nothing under /app is writable by it (the service keeps no files).
USER node
EXPOSE 8080
# SIGTERM from the orchestrator reaches node directly (exec form), which drains and exits.
CMD ["node", "services/replacement/dist/main.js"]
