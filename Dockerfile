# The strand service (`strand serve`) and command line, as an image.
#
#   docker build -t strand:0.1.0 .
#   docker run -d -p 127.0.0.1:8080:8080 -v strand-data:/data -v strand-config:/config strand:0.1.0
#
# The embedded SQLite database and the run workspaces live in /data, the license file and other platform
# configuration in /config. SERVICE_DATABASE_URL=postgres://… switches to PostgreSQL (see compose.yaml).
# This image is also the base of the images `strand export -f docker` writes: strand is installed in
# /opt/strand and on the PATH as `strand`, run by the non-root user `strand` (uid 10001).
#
# Both stages use the same base, so the native addon (better-sqlite3) compiled in the first runs in the second.

# ---------------------------------------------------------------------------------------------------------
# Build: install every dependency, compile TypeScript to dist/, then drop the development dependencies.
FROM node:20.19-bookworm-slim AS build

# Compilers for better-sqlite3 when no prebuilt binary can be downloaded; node-gyp takes Node's headers from
# the image (npm_config_nodedir) instead of downloading them.
RUN apt-get update \
    && apt-get install -y --no-install-recommends python3 make g++ \
    && rm -rf /var/lib/apt/lists/*
ENV npm_config_nodedir=/usr/local \
    npm_config_audit=false \
    npm_config_fund=false \
    npm_config_update_notifier=false

WORKDIR /src
# Dependencies first, so editing the sources keeps this layer cached. Install scripts run only for the
# native addon (the `prepare` script would build before the sources are here).
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts \
    && npm rebuild better-sqlite3

COPY tsconfig.json tsconfig.build.json vite.config.ts ./
COPY src ./src
COPY public ./public
RUN npm run build \
    && npm prune --omit=dev --ignore-scripts

# ---------------------------------------------------------------------------------------------------------
# Runtime: what `npm start` runs (node bin/strand.js serve) and the files it reads: the compiled code, the
# production dependencies, package.json (the version), the built-in templates and the SQL migrations.
FROM node:20.19-bookworm-slim

ARG STRAND_VERSION=0.1.0
ARG STRAND_SOURCE=""
LABEL org.opencontainers.image.title="strand" \
      org.opencontainers.image.description="Control plane and engine for bioinformatics pipelines written as TOML" \
      org.opencontainers.image.version="${STRAND_VERSION}" \
      org.opencontainers.image.source="${STRAND_SOURCE}" \
      org.opencontainers.image.licenses="Apache-2.0" \
      org.opencontainers.image.base.name="docker.io/library/node:20.19-bookworm-slim"

# git fetches pinned includes; tini is PID 1, so the processes of finished runs are reaped, and signals reach
# the service (which stops cleanly on SIGTERM); bubblewrap is the job sandbox of team and hpc modes (it needs
# a container allowed to create user namespaces, e.g. `--security-opt seccomp=unconfined`).
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates git tini bubblewrap \
    && rm -rf /var/lib/apt/lists/* \
    && groupadd --gid 10001 strand \
    && useradd --uid 10001 --gid strand --create-home --home-dir /home/strand --shell /bin/bash strand \
    && mkdir -p /data /config \
    && chown strand:strand /data /config

WORKDIR /opt/strand
COPY --from=build /src/package.json ./package.json
COPY --from=build /src/node_modules ./node_modules
COPY --from=build /src/dist ./dist
COPY bin ./bin
COPY templates ./templates
COPY drizzle ./drizzle
RUN ln -s /opt/strand/bin/strand.js /usr/local/bin/strand

# The service listens on every address of the container; publish the port to 127.0.0.1 on the host unless
# you mean to share it (the personal mode has no sign-in: SERVICE_PERSONAL_ANY_ADDRESS=1 says the port is
# published on loopback only; for a team, set SERVICE_MODE=team and SERVICE_ADMIN_PASSWORD instead).
ENV NODE_ENV=production \
    SERVICE_HOST=0.0.0.0 \
    SERVICE_PERSONAL_ANY_ADDRESS=1 \
    SERVICE_PORT=8080 \
    SERVICE_DATA_DIR=/data \
    SERVICE_CONFIG_DIR=/config

USER 10001:10001
VOLUME ["/data", "/config"]
EXPOSE 8080

# No curl in the slim image: Node's fetch asks the service itself (503 when the database is unreachable).
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.SERVICE_PORT || 8080) + '/api/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "/opt/strand/bin/strand.js", "serve"]
