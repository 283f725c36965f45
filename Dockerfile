# One image for every app of the platform; docker-compose.yml picks the entry point per service.
# The full image has python3, make and g++ for argon2, which is compiled at install.
FROM node:20-bookworm AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY tools/prisma-generate.mjs tools/prisma-generate.mjs
COPY prisma prisma
COPY prisma.config.ts ./
RUN npm install --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
# NODE_OPTIONS: the same flags as PLATFORM_NODE_OPTIONS in libs/common/src/node-options.ts.
ENV NODE_ENV=production HOST=0.0.0.0 NODE_OPTIONS=--max-semi-space-size=32
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/dist dist
COPY --from=build /app/prisma prisma
USER node
CMD ["node", "dist/apps/gateway/src/main.js"]
