#!/bin/sh
# A throwaway PostgreSQL for the store tests: its own data directory under /tmp, loopback only, trust
# authentication. Idempotent: `start` on a running server just prints its URL again.
#
#   scripts/postgres-local.sh start|stop|status|url
#
# PG_PORT (default 55432) picks the port; PG_DATA (default /tmp/strand-postgres-$PG_PORT) the data directory;
# PG_BIN (default /usr/lib/postgresql/15/bin, else the first initdb on PATH) the server binaries.
set -eu

PG_PORT="${PG_PORT:-55432}"
PG_DATA="${PG_DATA:-/tmp/strand-postgres-$PG_PORT}"
if [ -z "${PG_BIN:-}" ]; then
  if [ -x /usr/lib/postgresql/15/bin/initdb ]; then
    PG_BIN=/usr/lib/postgresql/15/bin
  elif command -v initdb >/dev/null 2>&1; then
    PG_BIN="$(dirname "$(command -v initdb)")"
  else
    echo "postgres-local: no PostgreSQL server binaries (set PG_BIN or install postgresql)" >&2
    exit 2
  fi
fi
URL="postgres://postgres@127.0.0.1:$PG_PORT/postgres"
LOG="$PG_DATA.log"

# initdb and the server refuse to run as root, so root runs them as the postgres user.
as_owner() {
  if [ "$(id -u)" = 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

running() {
  [ -f "$PG_DATA/PG_VERSION" ] && as_owner "$PG_BIN/pg_ctl" -D "$PG_DATA" status >/dev/null 2>&1
}

start() {
  if running; then
    echo "$URL"
    return 0
  fi
  if [ ! -f "$PG_DATA/PG_VERSION" ]; then
    rm -rf "$PG_DATA"
    mkdir -p "$PG_DATA"
    [ "$(id -u)" = 0 ] && chown postgres:postgres "$PG_DATA"
    chmod 700 "$PG_DATA"
    # The superuser is named postgres whoever runs this, so the URL is the same for root and non-root.
    as_owner "$PG_BIN/initdb" -D "$PG_DATA" -A trust -U postgres --no-sync -E UTF8 >/dev/null
  fi
  touch "$LOG"
  [ "$(id -u)" = 0 ] && chown postgres:postgres "$LOG"
  # fsync off: the data is thrown away, and tests create many small transactions.
  as_owner "$PG_BIN/pg_ctl" -D "$PG_DATA" -l "$LOG" -w -t 30 \
    -o "-c listen_addresses=127.0.0.1 -p $PG_PORT -k $PG_DATA -c fsync=off -c synchronous_commit=off -c max_connections=200" \
    start >/dev/null 9>&-
  echo "$URL"
}

stop() {
  if running; then
    as_owner "$PG_BIN/pg_ctl" -D "$PG_DATA" -m fast -w stop >/dev/null 9>&-
  fi
  echo "stopped"
}

cmd="${1:-}"
case "$cmd" in
  start | stop)
    # Test files start the server concurrently: one initdb at a time.
    exec 9>"/tmp/strand-postgres-$PG_PORT.lock"
    flock 9
    "$cmd"
    ;;
  status)
    if running; then echo "running $URL"; else echo "stopped"; exit 1; fi
    ;;
  url)
    echo "$URL"
    ;;
  *)
    echo "usage: $0 start|stop|status|url" >&2
    exit 2
    ;;
esac
