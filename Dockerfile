# converter-site-api: the standalone server in a container.
#   docker build -t converter-site-api .
#   docker run -p 8080:8080 -v site-api-data:/data converter-site-api
# Replayed step by step, without a Docker engine, by test/deploy/dockerfile.test.ts (docs/deploy.md says
# what that covers and what it does not).

# Build: the whole developer install, then the program and library into dist/ (no .d.ts: the image
# does not need them). --ignore-scripts: the Deno, Bun and workerd binaries are for tests only.
FROM node:20-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
RUN npm run build -- --no-dts

# Runtime dependencies only, exactly as locked. --omit=optional drops typescript, which the lockfile
# marks as an optional peer of valibot (23 MB the server never loads).
FROM node:20-bookworm-slim AS production-dependencies
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --omit=optional --ignore-scripts --no-audit --no-fund

FROM node:20-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080 DATA_DIR=/data
# The embedded database (PGlite) and, unless LICENSE_SIGNING_KEY is set, the license signing key.
WORKDIR /data
RUN chown 1000:1000 .
WORKDIR /app
COPY package.json ./
COPY --from=production-dependencies /app/node_modules ./node_modules
COPY --from=build /src/dist ./dist
COPY --from=build /src/example ./example
# The image's "node" user; numeric, so that Kubernetes' runAsNonRoot can check it.
USER 1000:1000
VOLUME /data
EXPOSE 8080
# Liveness only (the process serves); node's fetch, as the slim image has no curl.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node itself as PID 1 receives SIGTERM, drains, and exits 0.
CMD ["node", "dist/cli.js", "serve"]
