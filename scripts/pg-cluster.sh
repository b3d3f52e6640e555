#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for tests.
#
#   scripts/pg-cluster.sh start DIR   initdb into DIR/data, start on 127.0.0.1 on a free port, socket in DIR,
#                                     print the URL (postgresql://postgres@127.0.0.1:PORT/postgres) on stdout
#   scripts/pg-cluster.sh stop DIR    stop the cluster (if running) and remove DIR
#
# Works as root (initdb and the server run as the `postgres` user; initdb refuses root) and as a normal user.
# Installs Debian's `postgresql` with apt-get when no server binaries are found. Needs no stdin (CI=true).
set -euo pipefail

die() { echo "pg-cluster: $*" >&2; exit 1; }

find_bindir() {
  local d
  for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    if [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ]; then echo "$d"; return 0; fi
  done
  return 1
}

ensure_server() {
  if BINDIR=$(find_bindir); then return 0; fi
  [ "$(id -u)" = 0 ] || die "no PostgreSQL server binaries under /usr/lib/postgresql/*/bin and not root: install the Debian package 'postgresql' first"
  echo "pg-cluster: installing Debian's postgresql (apt-get)" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2 </dev/null
  apt-get install -y -qq --no-install-recommends postgresql >&2 </dev/null
  BINDIR=$(find_bindir) || die "apt-get installed postgresql but no initdb was found under /usr/lib/postgresql/*/bin"
}

# Runs a command as the user that owns the cluster: `postgres` when we are root, else ourselves.
as_owner() {
  if [ "$(id -u)" = 0 ]; then
    id postgres >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin postgres
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

free_port() {
  node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})"
}

start() {
  local dir=$1
  ensure_server
  mkdir -p "$dir"
  [ -z "$(ls -A "$dir")" ] || die "$dir is not empty; give start a new or empty directory"
  if [ "$(id -u)" = 0 ]; then chown postgres: "$dir"; fi
  chmod 700 "$dir"
  as_owner "$BINDIR/initdb" -D "$dir/data" --auth=trust -E UTF8 --locale=C.UTF-8 -U postgres >"$dir/initdb.log" 2>&1 \
    || { cat "$dir/initdb.log" >&2; die "initdb failed"; }
  # Everyone is trusted except the role prose_pw, which must give its password: the credential specs create that
  # role to check that a wrong password is refused and that no password ever shows in output.
  as_owner sh -c "{ echo 'host all prose_pw 127.0.0.1/32 scram-sha-256'; cat '$dir/data/pg_hba.conf'; } > '$dir/data/pg_hba.new' && mv '$dir/data/pg_hba.new' '$dir/data/pg_hba.conf'"
  local port attempt
  # Another process may take the port between picking and binding it: try a few.
  for attempt in 1 2 3 4 5; do
    port=$(free_port)
    if as_owner "$BINDIR/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
        -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c full_page_writes=off -c synchronous_commit=off -c max_connections=200" \
        start >/dev/null 2>&1; then
      echo "$port" >"$dir/port"
      echo "postgresql://postgres@127.0.0.1:$port/postgres"
      return 0
    fi
  done
  cat "$dir/server.log" >&2 || true
  die "the server did not start (see the log above)"
}

stop() {
  local dir=$1
  [ -d "$dir" ] || return 0
  if [ -f "$dir/data/postmaster.pid" ]; then
    BINDIR=$(find_bindir) || die "no pg_ctl found to stop $dir"
    as_owner "$BINDIR/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 \
      || as_owner "$BINDIR/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  rm -rf "$dir"
}

[ $# -eq 2 ] || die "usage: $0 start|stop DIR"
case "$1" in
  start) start "$2" ;;
  stop) stop "$2" ;;
  *) die "usage: $0 start|stop DIR (unknown command '$1')" ;;
esac
