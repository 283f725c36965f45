#!/bin/sh
# The official image turns protected mode off (it has no password and is reached over the container
# network); Debian's redis-server keeps it on unless told.
if [ "${1:-}" = redis-server ]; then
  shift
  exec redis-server --protected-mode no "$@"
fi
exec "$@"
