#!/bin/bash
# The RSS of `votal serve` on a data folder (issue #28): start it, wait until it answers,
# let it settle 20 s, print VmRSS and VmHWM (MiB) and the load, stop it. Needs dist/ built.
#   scripts/serve-rss.sh <data folder> <port>
dir=$1; port=$2
VOTAL_DATA_DIR=$dir node bin/votal.js serve --port $port > "${TMPDIR:-/tmp}/votal-serve-$port.log" 2>&1 &
pid=$!
start=$(date +%s.%N)
until curl -s -o /dev/null http://127.0.0.1:$port/healthz 2>/dev/null || curl -s -o /dev/null http://127.0.0.1:$port/ ; do sleep 0.5; if ! kill -0 $pid 2>/dev/null; then echo "serve died"; cat "${TMPDIR:-/tmp}/votal-serve-$port.log" | tail -5; exit 1; fi; done
up=$(echo "$(date +%s.%N) - $start" | bc)
sleep 20
rss=$(awk '/VmRSS/ {print int($2/1024)}' /proc/$pid/status)
hwm=$(awk '/VmHWM/ {print int($2/1024)}' /proc/$pid/status)
echo "dir=$dir up_s=$up rss_mib=$rss peak_mib=$hwm load=$(cut -d' ' -f1-3 /proc/loadavg)"
kill -TERM $pid; wait $pid 2>/dev/null
