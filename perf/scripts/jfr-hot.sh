#!/usr/bin/env bash
# Profiles one launch with JFR and prints each rank's hottest frames (share of execution samples).
# usage: perf/scripts/jfr-hot.sh OUTDIR MPJRUN-ARGS...   e.g.
#   perf/scripts/jfr-hot.sh /tmp/jfr-pp -np 2 -cp 'perf/target/lib/*' org.hympj.perf.PingPong blocking 1 heap $(printf '8 %.0s' {1..200})
# The JVM's own sampler (jdk.ExecutionSample, 'profile' settings: every 10 ms of a running thread)
# is not biased to safepoints. Top frame, and the top three frames, per rank JVM.
set -euo pipefail
out=$1; shift
here=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$out" && mkdir -p "$out"
JAVA_TOOL_OPTIONS="-XX:StartFlightRecording=filename=$out/,settings=profile" "$here/bin/mpjrun" "$@" \
  > "$out/run.out" 2>&1 || { cat "$out/run.out"; exit 1; }
grep -v "jfr,startup\|Picked up" "$out/run.out" | grep "^hympj\|^\[0\] hympj" | head -5 || true
for f in "$out"/*.jfr; do
  jfr print --events jdk.ExecutionSample "$f" > "$f.txt"
  n=$(grep -c "jdk.ExecutionSample" "$f.txt" || true)
  # skip the launcher's own JVM: it has no HyMPJ progress frames
  grep -q "org.hympj.shm.pml" "$f.txt" || continue
  echo "== $(basename "$f"): $n samples; top frames"
  awk '/stackTrace = \[/{getline; sub(/^[ \t]+/, ""); sub(/[ \t]+line:.*/, ""); print}' "$f.txt" \
    | sort | uniq -c | sort -rn | head -12 | awk -v n="$n" '{c=$1; $1=""; printf "%5.1f%% %s\n", 100*c/n, $0}'
done
