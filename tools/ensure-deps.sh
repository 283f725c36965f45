# Sourced by tools/test.sh and tools/up.sh: dependencies the two commands need on a fresh Debian machine.
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "installing npm dependencies"
  # `npm install` keeps the locked versions; npm 11's `npm ci` rejects lockfiles it wrote itself when
  # they omit other platforms' optional binaries (e.g. @msgpackr-extract/*-darwin-*).
  npm install --no-audit --no-fund
fi
# The build imports the generated Prisma client, which a pulled or merged schema change leaves stale.
if [ -d node_modules/prisma ] && [ prisma/schema.prisma -nt libs/database/src/generated/client.ts ]; then
  echo "regenerating the Prisma client (prisma/schema.prisma changed)"
  npm run --silent prisma:generate
fi
if ! command -v redis-server >/dev/null 2>&1 && [ -z "${REDIS_URL:-}${TEST_REDIS_URL:-}" ]; then
  echo "installing redis-server (Debian package)"
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq redis-server >/dev/null
fi
# The pooler suite (test/postgres-pgbouncer.e2e-spec.ts) runs Debian's PgBouncer. Only `npm test` asks for it.
if [ -n "${NEEDS_PGBOUNCER:-}" ] && ! command -v pgbouncer >/dev/null 2>&1 && [ ! -x /usr/sbin/pgbouncer ]; then
  echo "installing pgbouncer (Debian package, for the pooler tests)"
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq pgbouncer >/dev/null
fi
# The console's and the chat page's browser tests drive Debian's chromium; playwright-core cannot
# download one here. Only `npm test` asks for it (NEEDS_CHROMIUM), not `npm run up`.
if [ -n "${NEEDS_CHROMIUM:-}" ] && ! command -v chromium >/dev/null 2>&1 && [ -z "${CHROMIUM_PATH:-}" ]; then
  echo "installing chromium (Debian package, for the browser tests)"
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi
