#!/usr/bin/env bash
# The whole test suite on a fresh machine: installs dependencies (and redis-server, pgbouncer and chromium when missing),
# lints (ESLint with the import boundaries, Prettier), builds, then tools/run-tests.ts starts Postgres and Redis, runs Jest and stops them.
# Extra arguments go to Jest: `npm test -- test/carousel-trigger.e2e-spec.ts`.
set -euo pipefail
cd "$(dirname "$0")/.."
NEEDS_CHROMIUM=1 NEEDS_PGBOUNCER=1 source tools/ensure-deps.sh
npm run --silent lint
npm run --silent build
exec node dist/tools/run-tests.js "$@"
