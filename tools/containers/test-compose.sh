#!/usr/bin/env bash
# `npm run test:compose`: the compose stack in containers. Skips (exit 0, saying why) where no Docker
# engine answers; otherwise makes the base and stand-in images locally (Docker Hub's cannot be pulled
# on every machine), builds the app image, and runs tools/containers/compose-test.ts.
set -euo pipefail
cd "$(dirname "$0")/../.."
# The file itself, with each compose that is here (neither needs an engine): Docker's plugin and Debian's
# docker-compose 1.29 (v1 syntax: no top-level name, conditions it knows). A file one of them refuses fails the test.
validated=""
for compose in "docker compose" "docker-compose"; do
  if $compose version >/dev/null 2>&1; then
    ENCRYPTION_KEYS=check:config $compose -f docker-compose.yml -f tools/containers/compose.test.yml config -q
    ENCRYPTION_KEYS=check:config $compose -f docker-compose.yml config -q
    validated="$validated, $compose ($($compose version --short 2>/dev/null || echo '?'))"
  fi
done
echo "docker-compose.yml is valid for: ${validated:2}"
if ! command -v docker >/dev/null 2>&1; then
  echo "test:compose skipped: no docker command (install Debian's docker.io and start dockerd)"
  exit 0
fi
if ! info_error="$(docker info 2>&1 >/dev/null)"; then
  echo "test:compose skipped: no Docker engine answers: $(echo "$info_error" | tail -1)"
  exit 0
fi
if ! docker compose version >/dev/null 2>&1 && ! command -v docker-compose >/dev/null 2>&1; then
  echo "installing docker-compose (Debian package)"
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq docker-compose >/dev/null
fi
source tools/ensure-deps.sh
npm run --silent build

export BASE_IMAGE="${BASE_IMAGE:-platform-node-base:local}" BUILD_IMAGE="${BUILD_IMAGE:-platform-node-build-base:local}"
export PLATFORM_IMAGE="${PLATFORM_IMAGE:-bot-platform:compose-test}"
export POSTGRES_IMAGE="${POSTGRES_IMAGE:-platform-postgres:local}" REDIS_IMAGE="${REDIS_IMAGE:-platform-redis:local}"
if [ "$BASE_IMAGE" = platform-node-base:local ] || [ "$BUILD_IMAGE" = platform-node-build-base:local ]; then
  RUNTIME_IMAGE="$BASE_IMAGE" BUILD_IMAGE="$BUILD_IMAGE" bash tools/containers/make-base-images.sh
fi
bash tools/containers/make-stand-in-images.sh
echo "building $PLATFORM_IMAGE (Dockerfile, on $BUILD_IMAGE and $BASE_IMAGE)"
docker build -q --build-arg BUILD_IMAGE="$BUILD_IMAGE" --build-arg BASE_IMAGE="$BASE_IMAGE" -t "$PLATFORM_IMAGE" . >/dev/null
docker image ls --format '{{.Repository}}:{{.Tag}} {{.Size}}' "$PLATFORM_IMAGE"
exec node dist/tools/containers/compose-test.js
