#!/bin/sh
# Scaling on a many-core machine that has no Node.js (the lead's device machine): unpacks the node
# binary and the built tree that bench/device/pack.sh put in .device-pack/ (carried), generates the
# RMAT data itself and runs `ocelot bench scaling` for PageRank, WCC and 3-hop reach at 1, 2, 4, 8
# and 16 threads, each pinned to that many cores, against Kùzu pinned the same way. Writes
# scaling.log and scaling.json under $OUT. Bounded: the bench stops after $LIMIT_S seconds (420),
# and the log shows each thread count as it ends.
#   sh bench/device/run.sh [SCALE] [THREAD_LIST]     (defaults: 20 and 1,2,4,8,16)
set -eu
pack=$(pwd)/.device-pack
out=${OUT:-/tmp/ocelot-device-out}
scale=${1:-20}
list=${2:-1,2,4,8,16}
limit=${LIMIT_S:-420}
work=${TMPDIR:-/tmp}/ocelot-device
mkdir -p "$out"
rm -rf "$work" && mkdir -p "$work/node"
unxz() {
  if command -v xz >/dev/null 2>&1; then xz -dc "$1"
  else python3 -c 'import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), sys.stdout.buffer)' "$1"
  fi
}
unxz "$pack/node.xz" >"$work/node/node"
chmod +x "$work/node/node"
unxz "$pack/tree.tar.xz" | tar -x -C "$work"
export PATH="$work/node:$PATH"
{
  echo "node $(node --version); $(nproc) cores; $(grep -m1 'model name' /proc/cpuinfo || true)"
  echo "taskset: $(command -v taskset || echo 'missing: runs are not pinned')"
  echo "scale $scale, threads $list, limit ${limit}s"
} | tee "$out/machine.txt"
cd "$work/tree"
status=0
timeout "$limit" node bin/ocelot bench scaling --scale "$scale" --runs 2 --thread-list "$list" \
  --json "$out/scaling.json" >"$out/scaling.log" 2>&1 || status=$?
tail -n 60 "$out/scaling.log"
rm -rf "$work"
exit "$status"
