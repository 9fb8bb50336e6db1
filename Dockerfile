# The service's container image (contract section 23; docs/operations.md says how to run it).
#   docker build -t skinservice .        (podman: podman build --format docker -t skinservice .)
#   docker run -d -p 8080:8080 -v skins:/data skinservice

# The build stage: the production install and the pages.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
# The README's production install, its scripts run by hand: better-sqlite3 takes its prebuilt binary from its own
# package, and npm's implicit `node-gyp rebuild` for it (which builds nothing then) would want Python, make and Node's
# headers; the root's `prepare` (the page build) needs the sources, copied next.
RUN npm install --omit=dev --ignore-scripts --no-audit --no-fund \
 && node -e "new (require('better-sqlite3'))(':memory:').close()"
COPY locales ./locales
COPY src ./src
COPY web ./web
# Then the packages only the page build uses leave (dependencies for the production install outside a container,
# which builds the pages itself; test/dependencies.test.ts checks this list against what web/ and src/ import), and
# TypeScript, 23 MB that npm keeps as an optional peer of i18next: the service runs its sources through tsx.
RUN npm run build:web \
 && npm uninstall --omit=dev --ignore-scripts --no-audit --no-fund vite preact skinview3d @simplewebauthn/browser \
 && rm -r node_modules/typescript node_modules/.bin/tsc node_modules/.bin/tsserver

# The image: Node, the production install, the service's sources and the built pages; no compiler, no npm cache.
FROM node:24-bookworm-slim
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/web/dist ./web/dist
COPY package.json ./
COPY locales ./locales
COPY src ./src
# DATA_DIR: the database, the textures, the secret files and the outbox; the service's user owns it, and a named
# volume mounted there starts with this folder's owner and mode.
RUN mkdir -m 700 /data && chown node:node /data
# NPM_CONFIG_UPDATE_NOTIFIER: `npm run cli` in the container (backups) asks no registry whether npm is current.
ENV DATA_DIR=/data PORT=8080 NPM_CONFIG_UPDATE_NOTIFIER=false
VOLUME /data
EXPOSE 8080
USER node
# The slim image has no curl: Node asks /healthz itself.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# The service is PID 1 itself (no npm, no shell): `docker stop` sends SIGTERM to it, and it exits 0 within seconds.
CMD ["node", "--import", "./src/stop-while-loading.mjs", "--import", "tsx", "src/main.ts"]
