#!/usr/bin/env bash
# FileRunner as a cluster on one machine: N stateless app nodes on one PostgreSQL database and
# one OpenStack Swift, behind nginx as the load balancer, as it runs across real machines.
#
#   scripts/cluster.sh start DIR [N]       N app nodes (default 3); the balancer's URL is the last line
#   scripts/cluster.sh stop DIR            stops exactly what `start` started
#   scripts/cluster.sh stop-node DIR I     SIGTERM to node I (it drains, then exits)
#   scripts/cluster.sh start-node DIR I    starts node I again with the cluster's settings
#
# Everything lives under DIR: nodes/I.pid, nodes/I/ (each node's data folder: captured mail and
# texts), logs/, nginx.conf (the example configuration for a real balancer), swift/.
# Settings: DATABASE_URL (a PostgreSQL server; default postgres://postgres@127.0.0.1:5432/postgres)
# and CLUSTER_DATABASE (the database made on it when missing, `filerunner_cluster`), CLUSTER_PORT (the balancer, 18080),
# CLUSTER_NODE_PORT (node 1; node I listens on it + I - 1), DEMO_PASSWORD (as `npm start`).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd -P)
LB_PORT=${CLUSTER_PORT:-18080}
FIRST_NODE_PORT=${CLUSTER_NODE_PORT:-18081}
SERVER_URL=${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}
DATABASE=${CLUSTER_DATABASE:-filerunner_cluster}
# Its own Swift ports, so the cluster runs beside the test suite's Swift.
export SWIFT_SAIO_PROXY_PORT=${SWIFT_SAIO_PROXY_PORT:-17280}
export SWIFT_SAIO_OBJECT_PORT=${SWIFT_SAIO_OBJECT_PORT:-17200}
export SWIFT_SAIO_CONTAINER_PORT=${SWIFT_SAIO_CONTAINER_PORT:-17201}
export SWIFT_SAIO_ACCOUNT_PORT=${SWIFT_SAIO_ACCOUNT_PORT:-17202}
export SWIFT_SAIO_MEMCACHED_PORT=${SWIFT_SAIO_MEMCACHED_PORT:-17211}

log() { printf 'cluster: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

as_root() {
  if [[ $(id -u) -eq 0 ]]; then "$@"
  elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then sudo -n "$@"
  else die "run: sudo apt-get install -y nginx-light"
  fi
}

install_nginx() {
  command -v nginx >/dev/null && return 0
  [[ -x /usr/sbin/nginx ]] && return 0
  log "installing nginx-light with apt-get"
  as_root apt-get install -y -q nginx-light >"$DIR/logs/apt.log" 2>&1 ||
    { as_root apt-get update -q >>"$DIR/logs/apt.log" 2>&1 &&
      as_root apt-get install -y -q nginx-light >>"$DIR/logs/apt.log" 2>&1; } ||
    die "installing nginx failed (see $DIR/logs/apt.log)"
}

node_port() { echo $((FIRST_NODE_PORT + $1 - 1)); }

wait_healthy() { # url pid what
  local deadline=$((SECONDS + 120))
  until curl -fsS -o /dev/null --max-time 2 "$1/healthcheck" 2>/dev/null; do
    kill -0 "$2" 2>/dev/null || die "$3 exited (see its log under $DIR/logs)"
    ((SECONDS < deadline)) || die "$3 not healthy after 120 s"
    sleep 0.3
  done
}

start_node() { # index [seed]
  local i=$1 seed=${2:-false} port pid
  port=$(node_port "$i")
  mkdir -p "$DIR/nodes/$i"
  # The settings every node shares (written by `start`), then this node's own.
  (
    set -a
    # shellcheck disable=SC1091
    source "$DIR/cluster.env"
    set +a
    export PORT=$port DATA_DIR="$DIR/nodes/$i" SEED_DEMO=$seed
    cd "$ROOT/apps/server"
    # The flag: see apps/server/src/node-flags.ts.
    exec node --initial-old-space-size=256 --import tsx src/main.ts >>"$DIR/logs/node-$i.log" 2>&1
  ) &
  pid=$!
  echo "$pid" >"$DIR/nodes/$i.pid"
  wait_healthy "http://127.0.0.1:$port" "$pid" "node $i"
  log "node $i listening on 127.0.0.1:$port (pid $pid)"
}

stop_pid_file() { # file what
  [[ -f $1 ]] || return 0
  local pid
  pid=$(cat "$1")
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid"
    for _ in $(seq 1 300); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && { log "$2 did not stop in 30 s: killing it"; kill -KILL "$pid"; }
  fi
  rm -f "$1"
}

write_nginx_conf() { # nodes
  local upstreams="" i
  for ((i = 1; i <= $1; i++)); do
    upstreams+="    server 127.0.0.1:$(node_port "$i") max_fails=1 fail_timeout=5s;"$'\n'
  done
  mkdir -p "$DIR/nginx"
  cat >"$DIR/nginx.conf" <<EOF
# FileRunner behind nginx: round robin over stateless app nodes (sessions, rate limits, jobs
# and realtime fan-out live in PostgreSQL, files in Swift, so any node serves any request).
$( [[ $(id -u) -eq 0 ]] && echo "user root;  # this test cluster runs as root; a real one runs as its own user" )
worker_processes 1;
pid $DIR/nginx.pid;
error_log $DIR/logs/nginx-error.log warn;
events { worker_connections 4096; }

http {
  # The log shows the path without its query (an external link's key travels there) and with the
  # token of a download or an account link replaced, as the nodes' own logs do: a log must not
  # let its reader download a package or take over an account. Which node answered, with what
  # and how fast, is what an operator reads it for.
  map \$uri \$logged_path {
    ~^(/api/downloads/)[^/]+(.*)\$ \$1[secret]\$2;
    ~^(.*/(?:activate|resetpassword)/[^/]+/)[^/]+(.*)\$ \$1[secret]\$2;
    default \$uri;
  }
  log_format filerunner '\$remote_addr [\$time_local] "\$request_method \$logged_path" \$status '
    '\$body_bytes_sent \$request_time upstream=\$upstream_addr '
    'upstream_status=\$upstream_status upstream_time=\$upstream_response_time';
  access_log $DIR/logs/nginx-access.log filerunner;
  client_body_temp_path $DIR/nginx/client-body;
  proxy_temp_path $DIR/nginx/proxy;
  fastcgi_temp_path $DIR/nginx/fastcgi;
  uwsgi_temp_path $DIR/nginx/uwsgi;
  scgi_temp_path $DIR/nginx/scgi;

  # Realtime sockets upgrade; other requests keep the upstream connection alive.
  map \$http_upgrade \$connection_upgrade {
    default upgrade;
    '' '';
  }

  upstream filerunner {
$upstreams    keepalive 32;
  }

  server {
    listen 127.0.0.1:$LB_PORT;

    # The product enforces its own limits (package sizes, quotas, body caps per route).
    client_max_body_size 0;
    # Bodies stream to the node as they arrive, and answers to the client as the node sends
    # them: an upload or a download is never held whole on the balancer's disk.
    proxy_request_buffering off;
    proxy_buffering off;
    proxy_http_version 1.1;
    # A chunk may take minutes on a slow line (the engines' own timeouts are 300-360 s).
    proxy_read_timeout 360s;
    proxy_send_timeout 360s;
    # A node that is stopping refuses connections or answers 503 before handling the request;
    # either is safe to send to another node, whatever the method.
    proxy_next_upstream error http_502 http_503 non_idempotent;
    proxy_next_upstream_tries 3;

    location / {
      proxy_pass http://filerunner;
      proxy_set_header Host \$http_host;
      proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto \$scheme;
      proxy_set_header Upgrade \$http_upgrade;
      proxy_set_header Connection \$connection_upgrade;
    }

    # Readiness for a balancer that polls (nginx Plus, HAProxy, a cloud balancer): 503 while a
    # node starts, drains (DRAIN_SECONDS) or cannot reach the database or storage.
    location = /readyz {
      proxy_pass http://filerunner;
    }
  }
}
EOF
}

make_database() {
  (
    cd "$ROOT/apps/server"
    SERVER_URL=$SERVER_URL DATABASE=$DATABASE node --input-type=module -e '
      import pg from "pg";
      const client = new pg.Client({ connectionString: process.env.SERVER_URL });
      await client.connect();
      const name = process.env.DATABASE;
      const found = await client.query("select 1 from pg_database where datname = $1", [name]);
      if (found.rowCount === 0) await client.query(`create database "${name}"`);
      await client.end();
    '
  ) || die "cannot create the database $DATABASE on $SERVER_URL"
}

cmd=${1:-}
[[ -n ${2:-} ]] || die "usage: scripts/cluster.sh start|stop|stop-node|start-node DIR [N|I]"
mkdir -p "$2"
DIR=$(cd "$2" && pwd -P)
mkdir -p "$DIR/logs" "$DIR/nodes"

case $cmd in
  start)
    nodes=${3:-3}
    [[ $nodes =~ ^[1-9][0-9]?$ ]] || die "N must be 1 to 99"
    install_nginx
    [[ -f $ROOT/apps/web/dist/index.html ]] || {
      log "building the web app"
      (cd "$ROOT" && npm run build -w apps/web >"$DIR/logs/web-build.log" 2>&1) ||
        die "building the web app failed (see $DIR/logs/web-build.log)"
    }
    make_database
    lb="http://127.0.0.1:$LB_PORT"
    swift_env=$(SWIFT_SAIO_CORS_ALLOW_ORIGIN=$lb "$ROOT/scripts/swift-saio.sh" start "$DIR/swift")
    db_url=$(node -e 'const u = new URL(process.argv[1]); u.pathname = "/" + process.argv[2]; console.log(u.href)' "$SERVER_URL" "$DATABASE")
    {
      echo "$swift_env"
      echo "STORAGE_DRIVER=swift"
      echo "DATABASE_URL=$db_url"
      echo "PUBLIC_URL=$lb"
      echo "HOST=127.0.0.1"
      # Client addresses (rate limits, download records) come from the balancer's header.
      echo "TRUST_PROXY=127.0.0.1"
      echo "LOG_LEVEL=${LOG_LEVEL:-info}"
      [[ -n ${DEMO_PASSWORD:-} ]] && echo "DEMO_PASSWORD=$DEMO_PASSWORD"
      [[ -n ${METRICS_TOKEN:-} ]] && echo "METRICS_TOKEN=$METRICS_TOKEN"
      [[ -n ${DRAIN_SECONDS:-} ]] && echo "DRAIN_SECONDS=$DRAIN_SECONDS"
      [[ -n ${OBJECT_SWEEP_SECONDS:-} ]] && echo "OBJECT_SWEEP_SECONDS=$OBJECT_SWEEP_SECONDS"
      true
    } >"$DIR/cluster.env"
    echo "$nodes" >"$DIR/nodes/count"
    # Node 1 alone first: it migrates the database and seeds the demo contract once.
    start_node 1 true
    sed -n '/Demo contract created/,/password/p' "$DIR/logs/node-1.log" >&2
    for ((i = 2; i <= nodes; i++)); do start_node "$i" false; done
    write_nginx_conf "$nodes"
    nginx -t -q -c "$DIR/nginx.conf" -p "$DIR/nginx" 2>>"$DIR/logs/nginx-error.log" ||
      die "nginx refused $DIR/nginx.conf (see $DIR/logs/nginx-error.log)"
    nginx -c "$DIR/nginx.conf" -p "$DIR/nginx"
    wait_healthy "$lb" "$(cat "$DIR/nginx.pid")" "nginx"
    log "$nodes nodes behind nginx; stop with: scripts/cluster.sh stop $DIR"
    echo "$lb"
    ;;
  stop)
    stop_pid_file "$DIR/nginx.pid" nginx
    for pid_file in "$DIR"/nodes/*.pid; do
      [[ -e $pid_file ]] && stop_pid_file "$pid_file" "node $(basename "$pid_file" .pid)"
    done
    "$ROOT/scripts/swift-saio.sh" stop "$DIR/swift" >&2 || true
    ;;
  stop-node)
    [[ -n ${3:-} ]] || die "which node?"
    stop_pid_file "$DIR/nodes/$3.pid" "node $3"
    ;;
  start-node)
    [[ -n ${3:-} ]] || die "which node?"
    [[ -f $DIR/cluster.env ]] || die "no cluster in $DIR: start it first"
    start_node "$3" false
    ;;
  *)
    die "usage: scripts/cluster.sh start|stop|stop-node|start-node DIR [N|I]"
    ;;
esac
