#!/usr/bin/env bash
# Stand-ins for Docker Hub's postgres and redis images, built on the locally made base
# (tools/containers/stand-ins/). An image that exists is kept (REBUILD=1 makes them again).
set -euo pipefail
cd "$(dirname "$0")/stand-ins"
BASE_IMAGE="${BASE_IMAGE:-platform-node-base:local}"
for name in postgres redis; do
  var="$(echo "$name" | tr a-z A-Z)_IMAGE"
  image="${!var:-platform-$name:local}"
  if docker image inspect "$image" >/dev/null 2>&1 && [ -z "${REBUILD:-}" ]; then continue; fi
  echo "making $image (Debian's $name on $BASE_IMAGE)"
  docker build -q --build-arg BASE_IMAGE="$BASE_IMAGE" -f "$name.Dockerfile" -t "$image" . >/dev/null
done
