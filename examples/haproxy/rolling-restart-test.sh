#!/bin/bash
# The service behind a real HAProxy, restarted instance by instance under
# load, losing nothing:
#
#   examples/haproxy/rolling-restart-test.sh [SECONDS]   # default 20 s of load
#
# Installs Debian's haproxy when missing (root, or sudo), builds sudokit,
# starts three `sudokit serve` instances on 127.0.0.1:9991-9993 (metrics on
# 9191-9193) and HAProxy with examples/haproxy/haproxy.cfg on 127.0.0.1:9980,
# drives it with `sudokit load --reconnect` (closed loop, 16 connections ×
# 8 in flight), and while the load runs restarts each instance in turn
# (SIGTERM, wait for it to exit, start it again, wait for HAProxy to see it
# healthy). Passes when every request got a right answer: none wrong, none
# missing. Prints the requests/s and how many requests were sent again.
set -euo pipefail

seconds=${1:-20}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
sudo=()
if [ "$(id -u)" -ne 0 ]; then
    sudo=(sudo)
fi
say() { echo "haproxy test: $*"; }
fail() { echo "haproxy test: FAILED: $*" >&2; exit 1; }

if ! command -v haproxy > /dev/null; then
    say "installing haproxy"
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q > /dev/null
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q haproxy > /dev/null
fi
(cd "$repo" && cargo build --release -q -p sudokit-cli)
sudokit="$repo/target/release/sudokit"
work=$(mktemp -d /tmp/sudokit-haproxy.XXXXXX)
declare -A servers=()
haproxy_pid=""
passed=false
cleanup() {
    for pid in "${servers[@]}" $haproxy_pid; do
        kill "$pid" 2> /dev/null || true
    done
    wait 2> /dev/null || true
    if $passed; then
        rm -rf "$work"
    else
        echo "haproxy test: logs kept in $work" >&2
    fi
}
trap cleanup EXIT

# Whether something listens on 127.0.0.1:$1.
listening() {
    (exec 3<> "/dev/tcp/127.0.0.1/$1") 2> /dev/null
}

# Waits until 127.0.0.1:$1 listens, at most 10 s.
await_port() {
    for _ in $(seq 100); do
        if listening "$1"; then
            return 0
        fi
        sleep 0.1
    done
    fail "nothing listens on port $1 (logs in $work)"
}

# Starts instance $1 (1 to 3).
start_server() {
    "$sudokit" serve --listen "127.0.0.1:999$1" --metrics "127.0.0.1:919$1" \
        --max-connections-per-peer 10000 --log warn >> "$work/serve-$1.log" 2>&1 &
    servers[$1]=$!
    await_port "999$1"
    await_port "919$1"
}

# HAProxy's view of server s$1 (UP, DOWN …) from its statistics page.
status_of() {
    {
        exec 4<> /dev/tcp/127.0.0.1/9970 || return 0
        printf 'GET /;csv HTTP/1.0\r\n\r\n' >&4
        awk -F, -v s="s$1" '$1 == "solvers" && $2 == s { print $18 }' <&4
        exec 4>&-
    } 2> /dev/null
}

for i in 1 2 3; do
    start_server "$i"
done
haproxy -f "$here/haproxy.cfg" > "$work/haproxy.log" 2>&1 &
haproxy_pid=$!
await_port 9980
for _ in $(seq 50); do
    if [ "$(status_of 1)$(status_of 2)$(status_of 3)" = "UPUPUP" ]; then
        break
    fi
    sleep 0.1
done
say "3 instances behind HAProxy, all UP"

"$sudokit" generate -q -n 300 --seed 11 > "$work/puzzles.txt"
"$sudokit" load --addr 127.0.0.1:9980 -c 16 -p 8 --duration "$seconds" --reconnect 10 \
    --format jsonl "$work/puzzles.txt" > "$work/report.jsonl" 2> "$work/load.log" &
load_pid=$!

# One instance after another: SIGTERM, wait until it has exited, start it
# again, wait until HAProxy sees it UP.
pause=$(( seconds / 4 ))
for i in 1 2 3; do
    sleep "$pause"
    kill -TERM "${servers[$i]}"
    wait "${servers[$i]}" || true
    say "instance $i stopped (SIGTERM), HAProxy sees it $(status_of "$i")"
    start_server "$i"
    for _ in $(seq 50); do
        [ "$(status_of "$i")" = "UP" ] && break
        sleep 0.1
    done
    say "instance $i started again, HAProxy sees it $(status_of "$i")"
done
wait "$load_pid" || true
report=$(cat "$work/report.jsonl")
say "load: $report"
field() {
    echo "$report" | tr ',{}' '\n\n\n' | awk -F: -v k="\"$1\"" '$1 == k { print $2 }'
}
[ "$(field status)" = '"passed"' ] || fail "the load did not pass: $(cat "$work/load.log")"
[ "$(field errors)" = 0 ] && [ "$(field wrong)" = 0 ] || fail "answers lost or wrong"
[ "$(field reconnects)" -gt 0 ] || fail "no connection was lost: the restarts did not reach the clients"
say "$(field requests_per_second) requests/s; $(field sent) sent, $(field ok) right, 0 wrong, 0 lost; $(field reconnects) reconnects, $(field resent) requests sent again"
passed=true
say "PASSED"
