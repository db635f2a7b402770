#!/usr/bin/env bash
# Starts (or stops) a local Redis Cluster for the tests: 3 masters and 3 replicas on six spare
# loopback ports, with a 2 s node timeout so that a failover takes seconds. Prints the store URL
# (`redis-cluster://127.0.0.1:P1,...`) on success.
#
#   scripts/redis-cluster.sh start   # idempotent: reuses a healthy cluster on the same ports
#   scripts/redis-cluster.sh stop
#
# DECKMATE_CLUSTER_PORT (default 7101) is the first of the six ports; DECKMATE_CLUSTER_DIR
# (default /tmp/deckmate-redis-cluster) holds each node's config and log. Nothing is persisted:
# the nodes run without RDB or AOF, like the tests' single Redis.
set -euo pipefail

first_port="${DECKMATE_CLUSTER_PORT:-7101}"
dir="${DECKMATE_CLUSTER_DIR:-/tmp/deckmate-redis-cluster}"
ports=()
for offset in 0 1 2 3 4 5; do ports+=("$((first_port + offset))"); done

url() {
  local hosts=()
  for port in "${ports[@]}"; do hosts+=("127.0.0.1:$port"); done
  local IFS=,
  echo "redis-cluster://${hosts[*]}"
}

# Ready: slots covered, six nodes connected, and three replicas each in sync with its master
# (the failover tests need a replica to take over).
cluster_ok() {
  redis-cli -h 127.0.0.1 -p "${ports[0]}" cluster info 2>/dev/null | grep -q 'cluster_state:ok' || return 1
  [ "$(redis-cli -h 127.0.0.1 -p "${ports[0]}" cluster nodes 2>/dev/null | grep -c connected)" -eq 6 ] || return 1
  local synced=0
  for port in "${ports[@]}"; do
    if redis-cli -h 127.0.0.1 -p "$port" info replication 2>/dev/null | grep -q 'master_link_status:up'; then
      synced=$((synced + 1))
    fi
  done
  [ "$synced" -eq 3 ]
}

stop() {
  for port in "${ports[@]}"; do
    redis-cli -h 127.0.0.1 -p "$port" shutdown nosave >/dev/null 2>&1 || true
  done
  rm -rf "$dir"
}

start() {
  if cluster_ok; then
    url
    return
  fi
  stop
  for port in "${ports[@]}"; do
    mkdir -p "$dir/$port"
    redis-server --daemonize yes --bind 127.0.0.1 --port "$port" --dir "$dir/$port" \
      --cluster-enabled yes --cluster-config-file "nodes.conf" --cluster-node-timeout 2000 \
      --save "" --appendonly no --logfile "$dir/$port/redis.log" --maxmemory-policy noeviction
  done
  for port in "${ports[@]}"; do
    for _ in $(seq 1 50); do
      redis-cli -h 127.0.0.1 -p "$port" ping 2>/dev/null | grep -q PONG && break
      sleep 0.1
    done
  done
  local nodes=()
  for port in "${ports[@]}"; do nodes+=("127.0.0.1:$port"); done
  redis-cli --cluster create "${nodes[@]}" --cluster-replicas 1 --cluster-yes >"$dir/create.log" 2>&1 || {
    cat "$dir/create.log" >&2
    exit 1
  }
  for _ in $(seq 1 100); do
    cluster_ok && break
    sleep 0.2
  done
  cluster_ok || { echo "the Redis Cluster on ports ${ports[*]} did not become ready" >&2; exit 1; }
  url
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
