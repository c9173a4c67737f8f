#!/usr/bin/env bash
# A single-node OpenStack Swift ("all in one") on 127.0.0.1 for tests and benchmarks.
#
#   scripts/swift-saio.sh start   [BASE]   install if missing, configure, start, print credentials
#   scripts/swift-saio.sh stop    [BASE]   stop exactly the processes this script started
#   scripts/swift-saio.sh status  [BASE]   exit 3 if anything is stopped
#   scripts/swift-saio.sh env     [BASE]   print the credentials again
#   scripts/swift-saio.sh restart [BASE]
#
# BASE defaults to $SWIFT_SAIO_BASE or ./.swift-saio. Everything (config, rings, data, pids,
# logs) lives under BASE. `start` prints shell-sourceable lines on stdout
# (eval "$(scripts/swift-saio.sh start BASE)"); progress goes to stderr.
# Follows the verified setup in the project's reference notes (Debian 12, Swift 2.30.1):
# Debian's swift lives in the system python, reads a hard-coded /etc/swift/swift.conf unless
# started through a launcher, logs to syslog unless --verbose, and needs memcached for tempauth.
set -euo pipefail

PROXY_PORT=${SWIFT_SAIO_PROXY_PORT:-16280}
OBJECT_PORT=${SWIFT_SAIO_OBJECT_PORT:-16200}
CONTAINER_PORT=${SWIFT_SAIO_CONTAINER_PORT:-16201}
ACCOUNT_PORT=${SWIFT_SAIO_ACCOUNT_PORT:-16202}
MEMCACHED_PORT=${SWIFT_SAIO_MEMCACHED_PORT:-16211}
ACCOUNT=${SWIFT_SAIO_ACCOUNT:-test}
USER_NAME=${SWIFT_SAIO_USER:-tester}
USER_KEY=${SWIFT_SAIO_KEY:-testing}
CORS_ALLOW_ORIGIN=${SWIFT_SAIO_CORS_ALLOW_ORIGIN:-}
CORS_EXPOSE_HEADERS=${SWIFT_SAIO_CORS_EXPOSE_HEADERS:-}
SLO_RATE_LIMIT_AFTER_SEGMENT=${SWIFT_SAIO_SLO_RATE_LIMIT_AFTER_SEGMENT:-10}
SLO_RATE_LIMIT_UNDER_SIZE=${SWIFT_SAIO_SLO_RATE_LIMIT_UNDER_SIZE:-1048576}
HEALTH_TIMEOUT=${SWIFT_SAIO_HEALTH_TIMEOUT:-60}

# A pyenv or venv python first on PATH cannot import Debian's swift.
PY=/usr/bin/python3
SERVERS=(account-server container-server object-server proxy-server)
PACKAGES=(python3-swift swift memcached python3-swiftclient)

log() { printf 'swift-saio: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

resolve_base() {
  local base=${1:-${SWIFT_SAIO_BASE:-./.swift-saio}}
  mkdir -p "$base"
  BASE=$(cd "$base" && pwd -P)
}

packages_present() {
  [[ -x $PY ]] && "$PY" -c 'import swift, swiftclient' 2>/dev/null &&
    command -v swift-ring-builder >/dev/null && command -v memcached >/dev/null &&
    command -v swift >/dev/null
}

install_packages() {
  packages_present && return 0
  local sudo=()
  if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null || die "missing ${PACKAGES[*]} and not root (no sudo)"
    sudo=(sudo -n)
  fi
  log "installing ${PACKAGES[*]} with apt-get (log: $BASE/log/apt.log)"
  mkdir -p "$BASE/log"
  # Package postinst scripts would start system-wide services (memcached on 11211);
  # a policy-rc.d that exits 101 stops that. Only ours is removed afterwards.
  local own_policy=0
  if [[ ! -e /usr/sbin/policy-rc.d ]]; then
    printf '#!/bin/sh\nexit 101\n' | "${sudo[@]}" tee /usr/sbin/policy-rc.d >/dev/null
    "${sudo[@]}" chmod 755 /usr/sbin/policy-rc.d
    own_policy=1
  fi
  local apt=("${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -y -q
    -o DPkg::Lock::Timeout=300)
  local ok=0
  if [[ -z $(find /var/lib/apt/lists -maxdepth 1 -name '*_Packages*' -print -quit 2>/dev/null) ]]; then
    "${apt[@]}" update >>"$BASE/log/apt.log" 2>&1 || true
  fi
  if "${apt[@]}" install --no-install-recommends "${PACKAGES[@]}" >>"$BASE/log/apt.log" 2>&1; then
    ok=1
  else
    log "apt-get install failed; updating the package lists and retrying once"
    "${apt[@]}" update >>"$BASE/log/apt.log" 2>&1 || true
    "${apt[@]}" install --no-install-recommends "${PACKAGES[@]}" >>"$BASE/log/apt.log" 2>&1 && ok=1
  fi
  if [[ $own_policy -eq 1 ]]; then "${sudo[@]}" rm -f /usr/sbin/policy-rc.d; fi
  [[ $ok -eq 1 ]] || { tail -n 20 "$BASE/log/apt.log" >&2; die "apt-get install failed"; }
  packages_present || die "packages installed but swift is still not importable by $PY"
}

random_hex() { od -An -N16 -tx1 /dev/urandom | tr -d ' \n'; }

kept_value() { # file default-generator: a value chosen once per BASE
  local file=$1
  [[ -s $file ]] || "$2" >"$file"
  tr -d '\n' <"$file"
}

write_server_conf() { # name port app
  local name=$1 port=$2 app=$3
  cat <<EOF
[DEFAULT]
bind_port = $port
bind_ip = 127.0.0.1
workers = 0
user = $RUN_USER
swift_dir = $BASE/etc
devices = $BASE/srv/node
mount_check = false
log_level = INFO
recon_cache_path = $BASE/cache
log_name = $name

[pipeline:main]
pipeline = healthcheck $name

[app:$name]
use = egg:swift#$app

[filter:healthcheck]
use = egg:swift#healthcheck
EOF
}

write_proxy_conf() {
  cat <<EOF
[DEFAULT]
bind_ip = 127.0.0.1
bind_port = $PROXY_PORT
workers = 0
user = $RUN_USER
swift_dir = $BASE/etc
log_name = proxy-server
log_level = INFO
expose_info = true

[pipeline:main]
# formpost must come before tempauth; tempurl before auth; slo after auth.
pipeline = catch_errors gatekeeper healthcheck proxy-logging cache listing_formats bulk tempurl formpost tempauth copy slo dlo proxy-logging proxy-server

[app:proxy-server]
use = egg:swift#proxy
account_autocreate = true
# Empty: CORS is decided per container (X-Container-Meta-Access-Control-Allow-Origin), as on
# a provider's Swift, so the app's own container setup is what the tests exercise.
cors_allow_origin = $CORS_ALLOW_ORIGIN
strict_cors_mode = true
cors_expose_headers = $CORS_EXPOSE_HEADERS

[filter:tempauth]
use = egg:swift#tempauth
reseller_prefix = AUTH
user_admin_admin = admin .admin .reseller_admin
user_${ACCOUNT}_${USER_NAME} = $USER_KEY .admin

[filter:tempurl]
use = egg:swift#tempurl
methods = GET HEAD PUT POST DELETE
allowed_digests = sha1 sha256 sha512
# A grant may not make its object expire: a sender could make a sent file vanish.
incoming_remove_headers = x-timestamp x-open-expired x-delete-at x-delete-after

[filter:formpost]
use = egg:swift#formpost
allowed_digests = sha1 sha256 sha512

[filter:slo]
use = egg:swift#slo
max_manifest_segments = 1000
max_manifest_size = 8388608
rate_limit_after_segment = $SLO_RATE_LIMIT_AFTER_SEGMENT
rate_limit_under_size = $SLO_RATE_LIMIT_UNDER_SIZE
rate_limit_segments_per_sec = 1

[filter:dlo]
use = egg:swift#dlo

[filter:bulk]
use = egg:swift#bulk

[filter:copy]
use = egg:swift#copy

[filter:healthcheck]
use = egg:swift#healthcheck

[filter:cache]
use = egg:swift#memcache
memcache_servers = 127.0.0.1:$MEMCACHED_PORT

[filter:catch_errors]
use = egg:swift#catch_errors

[filter:gatekeeper]
use = egg:swift#gatekeeper

[filter:proxy-logging]
use = egg:swift#proxy_logging

[filter:listing_formats]
use = egg:swift#listing_formats
EOF
}

# Writes every file into a staging dir and reports (exit 0) whether anything changed.
write_config() {
  RUN_USER=$(id -un)
  mkdir -p "$BASE"/{etc,srv/node/d1,run,log,cache}
  local suffix tmp changed=1
  suffix=$(kept_value "$BASE/etc/hash.suffix" random_hex)
  TEMPURL_KEY=${SWIFT_SAIO_TEMPURL_KEY:-$(kept_value "$BASE/etc/tempurl.key" random_hex)}
  tmp=$(mktemp -d "$BASE/etc/.new.XXXXXX")
  printf '[swift-hash]\nswift_hash_path_prefix = saio\nswift_hash_path_suffix = %s\n\n' \
    "$suffix" >"$tmp/swift.conf"
  printf '[storage-policy:0]\nname = Policy-0\ndefault = yes\n\n' >>"$tmp/swift.conf"
  printf '[swift-constraints]\nmax_file_size = 5368709122\n' >>"$tmp/swift.conf"
  write_proxy_conf >"$tmp/proxy-server.conf"
  write_server_conf account-server "$ACCOUNT_PORT" account >"$tmp/account-server.conf"
  write_server_conf container-server "$CONTAINER_PORT" container >"$tmp/container-server.conf"
  write_server_conf object-server "$OBJECT_PORT" object >"$tmp/object-server.conf"
  local f
  for f in "$tmp"/*.conf; do
    if ! cmp -s "$f" "$BASE/etc/${f##*/}"; then changed=0; fi
    mv -f "$f" "$BASE/etc/${f##*/}"
  done
  rmdir "$tmp"
  return $changed
}

build_rings() {
  local params="account:$ACCOUNT_PORT container:$CONTAINER_PORT object:$OBJECT_PORT"
  if [[ -f $BASE/etc/object.ring.gz && $(cat "$BASE/etc/rings.params" 2>/dev/null) == "$params" ]]; then
    return 0
  fi
  log "building rings ($params)"
  local r name port rc
  for r in $params; do
    name=${r%%:*} port=${r#*:}
    rm -f "$BASE/etc/$name.builder" "$BASE/etc/$name.ring.gz"
    (cd "$BASE/etc" &&
      swift-ring-builder "$name.builder" create 10 1 1 &&
      swift-ring-builder "$name.builder" add --region 1 --zone 1 --ip 127.0.0.1 \
        --port "$port" --device d1 --weight 100) >>"$BASE/log/rings.log" 2>&1 ||
      die "ring $name: see $BASE/log/rings.log"
    rc=0
    (cd "$BASE/etc" && swift-ring-builder "$name.builder" rebalance) >>"$BASE/log/rings.log" 2>&1 || rc=$?
    [[ $rc -le 1 ]] || die "ring $name rebalance failed: see $BASE/log/rings.log"
  done
  echo "$params" >"$BASE/etc/rings.params"
}

# Sets the module variable Swift reads swift.conf from before the WSGI runner is imported.
LAUNCHER='import sys
from swift.common import utils
utils.SWIFT_CONF_FILE = sys.argv[1]
server = sys.argv[2]
sys.argv = [sys.argv[0]] + sys.argv[3:]
from swift.common.wsgi import run_wsgi
conf_file, options = utils.parse_options()
sys.exit(run_wsgi(conf_file, server, **options))'

# A pid is ours only if the process names BASE on its command line or in its environment,
# so a recycled pid is never signalled.
pid_is_ours() {
  local pid=$1
  [[ -r /proc/$pid/cmdline ]] || return 1
  is_zombie "$pid" && return 1
  { tr '\0' '\n' <"/proc/$pid/cmdline"; } 2>/dev/null | grep -qF "$BASE" && return 0
  { tr '\0' '\n' <"/proc/$pid/environ"; } 2>/dev/null | grep -qxF "SWIFT_SAIO_BASE=$BASE"
}

# Stopped children linger as zombies until PID 1 reaps them: kill -0 still succeeds then.
is_zombie() {
  local state
  state=$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null) || return 0
  [[ -z $state || $state == Z || $state == X ]]
}

running_pid() { # name -> prints the pid when that process of ours is alive
  local file=$BASE/run/$1.pid pid
  [[ -f $file ]] || return 1
  pid=$(cat "$file")
  [[ $pid =~ ^[0-9]+$ ]] && pid_is_ours "$pid" || return 1
  echo "$pid"
}

port_taken() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

launch() { # name port command...
  local name=$1 port=$2
  shift 2
  running_pid "$name" >/dev/null && return 0
  port_taken "$port" && die "port $port (for $name) is already in use by another process"
  SWIFT_SAIO_BASE=$BASE setsid "$@" >>"$BASE/log/$name.log" 2>&1 </dev/null &
  echo $! >"$BASE/run/$name.pid"
}

server_port() {
  case $1 in
    proxy-server) echo "$PROXY_PORT" ;; object-server) echo "$OBJECT_PORT" ;;
    container-server) echo "$CONTAINER_PORT" ;; account-server) echo "$ACCOUNT_PORT" ;;
  esac
}

wait_healthy() {
  local deadline=$((SECONDS + HEALTH_TIMEOUT)) name pending
  while :; do
    pending=()
    for name in memcached "${SERVERS[@]}"; do
      if ! running_pid "$name" >/dev/null; then
        log "$name exited during start-up; last lines of $BASE/log/$name.log:"
        tail -n 20 "$BASE/log/$name.log" >&2 || true
        stop_all
        die "start failed"
      fi
      [[ $name == memcached ]] && continue
      curl -fs -o /dev/null --max-time 2 "http://127.0.0.1:$(server_port "$name")/healthcheck" ||
        pending+=("$name")
    done
    [[ ${#pending[@]} -eq 0 ]] && return 0
    if ((SECONDS >= deadline)); then
      stop_all
      die "not healthy after ${HEALTH_TIMEOUT}s: ${pending[*]}"
    fi
    sleep 0.2
  done
}

credentials() {
  cat <<EOF
SWIFT_AUTH_URL=http://127.0.0.1:$PROXY_PORT/auth/v1.0
SWIFT_STORAGE_URL=http://127.0.0.1:$PROXY_PORT/v1/AUTH_$ACCOUNT
SWIFT_ACCOUNT=AUTH_$ACCOUNT
SWIFT_USER=$ACCOUNT:$USER_NAME
SWIFT_KEY=$USER_KEY
SWIFT_TEMPURL_KEY=$TEMPURL_KEY
EOF
}

# The first authenticated POST also creates the account (account_autocreate).
set_tempurl_key() {
  local headers token
  headers=$(curl -fsS -D- -o /dev/null --max-time 10 -H "X-Auth-User: $ACCOUNT:$USER_NAME" \
    -H "X-Auth-Key: $USER_KEY" "http://127.0.0.1:$PROXY_PORT/auth/v1.0") || die "tempauth login failed"
  token=$(printf '%s' "$headers" | tr -d '\r' | awk -F': ' 'tolower($1)=="x-auth-token"{print $2}')
  [[ -n $token ]] || die "no X-Auth-Token from tempauth"
  curl -fsS -o /dev/null --max-time 10 -X POST -H "X-Auth-Token: $token" \
    -H "X-Account-Meta-Temp-URL-Key: $TEMPURL_KEY" \
    "http://127.0.0.1:$PROXY_PORT/v1/AUTH_$ACCOUNT" || die "setting the Temp-URL key failed"
}

start() {
  install_packages
  local changed=1
  write_config && changed=0
  build_rings
  if [[ $changed -eq 0 ]] && running_pid proxy-server >/dev/null; then
    log "configuration changed: restarting"
    stop_all
  fi
  local t0=$SECONDS name
  launch memcached "$MEMCACHED_PORT" memcached -l 127.0.0.1 -p "$MEMCACHED_PORT" -U 0 -m 64 \
    -u "$RUN_USER"
  for name in "${SERVERS[@]}"; do
    launch "$name" "$(server_port "$name")" "$PY" -c "$LAUNCHER" "$BASE/etc/swift.conf" \
      "$name" "$BASE/etc/$name.conf" --verbose
  done
  wait_healthy
  set_tempurl_key
  credentials | tee "$BASE/etc/credentials.env"
  log "running (healthy after $((SECONDS - t0)) s); stop with: $0 stop $BASE"
}

stop_one() {
  local name=$1 pid waited=0
  if pid=$(running_pid "$name"); then
    kill -TERM "$pid" 2>/dev/null || true
    while pid_is_ours "$pid" && ((waited < 100)); do sleep 0.1; waited=$((waited + 1)); done
    if pid_is_ours "$pid"; then
      log "$name ($pid) ignored SIGTERM for 10 s; sending SIGKILL"
      kill -KILL "$pid" 2>/dev/null || true
    fi
  fi
  rm -f "$BASE/run/$name.pid"
}

stop_all() {
  local name
  for name in proxy-server object-server container-server account-server memcached; do
    stop_one "$name"
  done
}

status() {
  local name rc=0 pid
  for name in memcached "${SERVERS[@]}"; do
    if pid=$(running_pid "$name"); then log "$name running ($pid)"; else log "$name stopped"; rc=3; fi
  done
  return $rc
}

main() {
  local cmd=${1:-}
  [[ $# -gt 0 ]] && shift
  case $cmd in
    start) resolve_base "${1:-}"; start ;;
    stop) resolve_base "${1:-}"; stop_all; log "stopped" ;;
    restart) resolve_base "${1:-}"; stop_all; start ;;
    status) resolve_base "${1:-}"; status ;;
    env)
      resolve_base "${1:-}"
      [[ -f $BASE/etc/credentials.env ]] || die "not started yet under $BASE"
      cat "$BASE/etc/credentials.env"
      ;;
    *)
      echo "usage: $0 start|stop|restart|status|env [BASE]" >&2
      exit 2
      ;;
  esac
}

main "$@"
