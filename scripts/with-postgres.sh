#!/usr/bin/env bash
# Runs a command against a throwaway PostgreSQL cluster:
#
#   scripts/with-postgres.sh CMD ARGS...
#
# Starts a cluster in a fresh temp dir (scripts/pg-cluster.sh), exports
# PROSE_STATE_TEST_PG_URL=postgresql://postgres@127.0.0.1:PORT/postgres, runs the command, and always stops the
# cluster and removes the dir (also when the command fails or is interrupted). Exits with the command's status.
set -euo pipefail

[ $# -ge 1 ] || { echo "usage: $0 CMD ARGS..." >&2; exit 2; }

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
dir=$(mktemp -d "${TMPDIR:-/tmp}/prose-pg.XXXXXX")

cleanup() { "$here/pg-cluster.sh" stop "$dir" || echo "with-postgres: could not remove $dir" >&2; }
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

url=$("$here/pg-cluster.sh" start "$dir")
export PROSE_STATE_TEST_PG_URL="$url"
echo "with-postgres: PostgreSQL on ${url#*@} (dir $dir)" >&2

status=0
"$@" || status=$?
exit "$status"
