#!/usr/bin/env bash
# scripts/cluster, briefly: it prints its URL, answers /health and a render through nginx
# (the repeat served by nginx's cache), and on SIGINT stops every process it started and
# removes its directory. Each failed check prints FAIL and the script exits 1.
set -uo pipefail
root="${IMPRINT_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}"
work="$(mktemp -d /tmp/tst-cluster.XXXXXX)"
chmod 0755 "$work"
run="$work/run"
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# Job control on: a background job of a plain script ignores SIGINT, and Ctrl-C is the point.
set -m
IMPRINT_CLUSTER_DIR="$run" IMPRINT_CLUSTER_PORT="$port" "$root/scripts/cluster" >"$work/out.log" 2>&1 &
script=$!
for _ in $(seq 1 600); do
  grep -q '^Imprint cluster: ' "$work/out.log" && break
  kill -0 "$script" 2>/dev/null || break
  sleep 0.1
done
if ! grep -q "^Imprint cluster: http://127.0.0.1:$port " "$work/out.log"; then
  cat "$work/out.log"
  kill -INT "$script" 2>/dev/null; wait "$script"; rm -rf "$work"
  echo "FAIL: scripts/cluster did not print its URL"
  exit 1
fi

# Everything it started, to check afterwards that none of it survives.
started=()
read -r -a started < "$run/pids" || true
started+=("$(cat "$run/nginx/nginx.pid")" "$(head -n1 "$run/pg/data/postmaster.pid")")
[ "${#started[@]}" -eq 5 ] || fail "expected 3 instances, nginx and PostgreSQL, found ${started[*]}"

base="http://127.0.0.1:$port"
status="$(curl -s -o "$work/health.json" -w '%{http_code}' "$base/api/v1/health")"
[ "$status" = 200 ] || fail "GET /api/v1/health through nginx: $status"
render="/api/v1/render?pattern=waves-sunset&width=40&height=20&format=png&output=binary"
status="$(curl -s -D "$work/h1" -o "$work/r1.png" -w '%{http_code}' "$base$render")"
[ "$status" = 200 ] || fail "render through nginx: $status"
head -c 8 "$work/r1.png" | od -An -c | grep -q 'P   N   G' || fail "the render is not a PNG"
grep -qi '^X-Cache-Status: MISS' "$work/h1" || fail "first render not a cache MISS: $(cat "$work/h1")"
curl -s -D "$work/h2" -o "$work/r2.png" "$base$render"
grep -qi '^X-Cache-Status: HIT' "$work/h2" || fail "repeat render not a cache HIT: $(cat "$work/h2")"
cmp -s "$work/r1.png" "$work/r2.png" || fail "the cached render differs"

kill -INT "$script"
wait "$script"
for pid in "${started[@]}"; do
  # A zombie has exited (PostgreSQL's postmaster is reparented to an init that may reap late).
  state="$(ps -o stat= -p "$pid" 2>/dev/null || true)"
  if [ -n "$state" ] && [ "${state#Z}" = "$state" ]; then fail "still running after Ctrl-C: $(ps -o pid=,args= -p "$pid")"; fi
done
[ ! -e "$run" ] || fail "$run was not removed"
grep -q '^cluster stopped' "$work/out.log" || fail "no 'cluster stopped' line"
[ "$failures" -eq 0 ] || cat "$work/out.log"
rm -rf "$work"
[ "$failures" -eq 0 ] && echo "PASS" || exit 1
