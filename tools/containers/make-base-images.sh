#!/usr/bin/env bash
# Makes the two base images the Dockerfile builds on, on machines where Docker Hub's node images
# cannot be pulled: a minimal Debian root file system (debootstrap from the Debian mirror this machine
# uses) with this machine's Node copied in, `docker import`ed.
#   platform-node-base:local        what the app image runs on: Debian minbase, node, user node (uid 1000)
#   platform-node-build-base:local  the build stage's: the above plus npm, python3, make, g++, Node's headers
# The machine's CA bundle and npm settings (cafile, nodedir) go into the build base, so that npm and
# node-gyp work inside it as they do on this machine (outbound TLS may be re-signed by a local authority).
# Idempotent: an image that exists is kept (REBUILD=1 makes both again).
set -euo pipefail
RUNTIME_IMAGE="${RUNTIME_IMAGE:-platform-node-base:local}"
BUILD_IMAGE="${BUILD_IMAGE:-platform-node-build-base:local}"
SUITE="${DEBIAN_SUITE:-bookworm}"
MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
NODE_BIN="$(command -v node)"
NODE_PREFIX="$(dirname "$(dirname "$NODE_BIN")")"

have() { docker image inspect "$1" >/dev/null 2>&1 && [ -z "${REBUILD:-}" ]; }

if ! command -v debootstrap >/dev/null 2>&1; then
  echo "installing debootstrap (Debian package)"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
fi

work="$(mktemp -d /tmp/platform-base-XXXXXX)"
trap 'rm -rf "$work"' EXIT

if ! have "$RUNTIME_IMAGE"; then
  echo "making $RUNTIME_IMAGE: debootstrap --variant=minbase $SUITE (a minute or two)"
  rootfs="$work/rootfs"
  debootstrap --variant=minbase "$SUITE" "$rootfs" "$MIRROR" >"$work/debootstrap.log" 2>&1 || {
    tail -20 "$work/debootstrap.log" >&2
    exit 1
  }
  install -m 0755 "$NODE_BIN" "$rootfs/usr/local/bin/node"
  cp /etc/ssl/certs/ca-certificates.crt "$rootfs/etc/ssl/certs/ca-certificates.crt" 2>/dev/null ||
    { mkdir -p "$rootfs/etc/ssl/certs" && cp /etc/ssl/certs/ca-certificates.crt "$rootfs/etc/ssl/certs/"; }
  chroot "$rootfs" /usr/sbin/groupadd --gid 1000 node
  chroot "$rootfs" /usr/sbin/useradd --uid 1000 --gid node --shell /bin/bash --create-home node
  # What a runtime image never reads: documentation, translations, apt's package lists and caches.
  rm -rf "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/* "$rootfs"/usr/share/locale/* \
    "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/* "$rootfs"/var/cache/debconf/*-old "$rootfs"/var/log/*
  tar -C "$rootfs" -c . | docker import \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt' \
    --change 'CMD ["node"]' - "$RUNTIME_IMAGE" >/dev/null
  rm -rf "$rootfs"
fi

if ! have "$BUILD_IMAGE"; then
  echo "making $BUILD_IMAGE: $RUNTIME_IMAGE + npm, python3, make, g++ and Node's headers"
  ctx="$work/build-base"
  mkdir -p "$ctx"
  cp -a "$NODE_PREFIX/lib/node_modules/npm" "$ctx/npm"
  cp -a "$NODE_PREFIX/include/node" "$ctx/node-include"
  cp /etc/ssl/certs/ca-certificates.crt "$ctx/ca-certificates.crt"
  cat >"$ctx/Dockerfile" <<DOCKERFILE
FROM $RUNTIME_IMAGE
RUN apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3 make g++ >/dev/null \\
 && rm -rf /var/lib/apt/lists/*
COPY npm /usr/local/lib/node_modules/npm
COPY node-include /usr/local/include/node
# After apt: installing ca-certificates would rewrite the bundle.
COPY ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \\
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \\
 && printf 'cafile=/etc/ssl/certs/ca-certificates.crt\nnodedir=/usr/local\nupdate-notifier=false\n' > /usr/local/etc/npmrc
DOCKERFILE
  docker build -q -t "$BUILD_IMAGE" "$ctx" >/dev/null
fi
docker image ls --format '{{.Repository}}:{{.Tag}} {{.Size}}' | grep -E "^(${RUNTIME_IMAGE}|${BUILD_IMAGE}) " || true
