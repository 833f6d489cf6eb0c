#!/usr/bin/env bash
# Set up a local PostgreSQL for converge's tests (Debian 12, as root).
#
# Idempotent: installs postgresql if needed, makes the newest installed major
# version's "main" cluster listen on 127.0.0.1:5432 only, starts it, ensures
# role converge/converge (LOGIN, CREATEROLE: a test makes a read-only role) and database
# converge_test (owned by converge), and
# writes CONVERGE_TEST_PG_URL to /tmp/converge-pg-env (override: PG_ENV_FILE).
set -euo pipefail

ROLE=converge
PASSWORD=converge
DB=converge_test
PORT=5432
CLUSTER=main
ENV_FILE=${PG_ENV_FILE:-/tmp/converge-pg-env}
URL="postgres://$ROLE:$PASSWORD@127.0.0.1:$PORT/$DB"

export DEBIAN_FRONTEND=noninteractive

log() { printf '[pg-test-env] %s\n' "$*"; }
run() { printf '[pg-test-env] + %s\n' "$*"; "$@"; }
die() { printf '[pg-test-env] ERROR: %s\n' "$*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "must run as root"
cd /   # so psql run as postgres does not complain about the cwd

# --- 1. packages ------------------------------------------------------------
if dpkg-query -W -f='${Status}' postgresql 2>/dev/null | grep -q 'install ok installed'; then
  log "postgresql already installed"
else
  run apt-get update
  run apt-get install -y postgresql
fi

# --- 2. cluster ---------------------------------------------------------------
VER=$(ls /usr/lib/postgresql | sort -V | tail -n1)
[ -x "/usr/lib/postgresql/$VER/bin/postgres" ] || die "no PostgreSQL server binaries found"
log "PostgreSQL major version: $VER"

if ! pg_lsclusters -h | awk -v v="$VER" -v c="$CLUSTER" '$1==v && $2==c{f=1} END{exit !f}'; then
  run pg_createcluster "$VER" "$CLUSTER" -p "$PORT"
fi

# Settings go into a conf.d drop-in (Debian's postgresql.conf has include_dir
# 'conf.d' at its end, so these win); the main file is left untouched.
CONF_DROPIN=/etc/postgresql/$VER/$CLUSTER/conf.d/converge-test.conf
want_conf=$(printf "# written by converge scripts/pg-test-env.sh\nlisten_addresses = '127.0.0.1'\nport = %s\n" "$PORT")
changed=0
if [ "$(cat "$CONF_DROPIN" 2>/dev/null || true)" != "$want_conf" ]; then
  log "writing $CONF_DROPIN (listen_addresses='127.0.0.1', port=$PORT)"
  mkdir -p "$(dirname "$CONF_DROPIN")"
  printf '%s\n' "$want_conf" >"$CONF_DROPIN"
  chown postgres:postgres "$CONF_DROPIN"
  changed=1
else
  log "$CONF_DROPIN up to date (listen_addresses='127.0.0.1', port=$PORT)"
fi

status=$(pg_lsclusters -h | awk -v v="$VER" -v c="$CLUSTER" '$1==v && $2==c{print $4}')
if [ "$status" = online ]; then
  if [ "$changed" = 1 ]; then run pg_ctlcluster "$VER" "$CLUSTER" restart; else log "cluster $VER/$CLUSTER already online"; fi
else
  run pg_ctlcluster "$VER" "$CLUSTER" start
fi
for _ in $(seq 1 60); do
  runuser -u postgres -- pg_isready -q -h 127.0.0.1 -p "$PORT" && break
  sleep 0.5
done
runuser -u postgres -- pg_isready -h 127.0.0.1 -p "$PORT" || die "PostgreSQL is not accepting connections on 127.0.0.1:$PORT"

# --- 3. role + database ---------------------------------------------------------
psql_admin() { runuser -u postgres -- psql -p "$PORT" -v ON_ERROR_STOP=1 -qtAX "$@"; }
if [ "$(psql_admin -c "SELECT 1 FROM pg_roles WHERE rolname = '$ROLE'")" = 1 ]; then
  log "role $ROLE exists; re-asserting LOGIN, CREATEROLE and password"
  psql_admin -c "ALTER ROLE $ROLE WITH LOGIN CREATEROLE PASSWORD '$PASSWORD'"
else
  log "+ CREATE ROLE $ROLE LOGIN CREATEROLE PASSWORD '***'"
  psql_admin -c "CREATE ROLE $ROLE WITH LOGIN CREATEROLE PASSWORD '$PASSWORD'"
fi
if [ "$(psql_admin -c "SELECT 1 FROM pg_database WHERE datname = '$DB'")" = 1 ]; then
  owner=$(psql_admin -c "SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = '$DB'")
  if [ "$owner" != "$ROLE" ]; then
    log "+ ALTER DATABASE $DB OWNER TO $ROLE"
    psql_admin -c "ALTER DATABASE $DB OWNER TO $ROLE"
  else
    log "database $DB exists, owned by $ROLE"
  fi
else
  log "+ CREATE DATABASE $DB OWNER $ROLE"
  psql_admin -c "CREATE DATABASE $DB OWNER $ROLE"
fi

# --- 4. verify over TCP with password auth, write the env file -------------------
got=$(psql "$URL" -v ON_ERROR_STOP=1 -qtAX -c "SELECT current_user || '@' || current_database()")
[ "$got" = "$ROLE@$DB" ] || die "verification query returned '$got'"
log "verified: psql $URL -> $got"

echo "CONVERGE_TEST_PG_URL=$URL" >"$ENV_FILE"
log "wrote $ENV_FILE:"
sed 's/^/    /' "$ENV_FILE"
echo "CONVERGE_TEST_PG_URL=$URL"
