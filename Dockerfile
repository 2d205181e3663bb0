# One Dockerfile, one image per app (deploy/README.md):
#   docker build --build-arg APP=books -t commerce-toolkit/books .
# The runtime stage holds only the app's production bundle, made by scripts/bundle-app.mjs, the same
# script CI runs (scripts/check-images.mjs) to start each bundle and check its health.
ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS build
ARG APP
RUN test -n "$APP" || { echo "--build-arg APP=<gateway or a service of packages/shared/src/service/registry.ts> is required" >&2; exit 1; }
RUN npm install -g pnpm@10.34.9
WORKDIR /repo
# The lockfile alone fetches every package, so this layer is reused until the lockfile changes.
COPY pnpm-lock.yaml pnpm-workspace.yaml .pnpmfile.cjs .npmrc ./
RUN pnpm fetch
COPY . .
RUN pnpm install --offline --frozen-lockfile
RUN pnpm exec turbo run build --filter=@ctk/${APP}...
RUN node scripts/bundle-app.mjs ${APP} /bundle

FROM ${NODE_IMAGE}
# Without DATABASE_URL an app keeps an embedded database under CTK_DATA_DIR: /tmp is the one writable
# folder when the root filesystem is read-only, as the manifests mount it.
ENV NODE_ENV=production CTK_DATA_DIR=/tmp/ctk-data
WORKDIR /app
COPY --from=build /bundle /app
# The `node` user of the base image; numeric, so runAsNonRoot can verify it. It owns nothing in /app.
USER 1000:1000
CMD ["node", "dist/server.js"]
