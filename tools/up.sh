#!/usr/bin/env bash
# The whole platform on this machine (see tools/up/main.ts): installs what it needs, builds, runs.
set -euo pipefail
cd "$(dirname "$0")/.."
source tools/ensure-deps.sh
npm run --silent build
exec node dist/tools/up/main.js
