#!/usr/bin/env bash
# `run.py device` through a command runner that sends this tree to the GPU machine and brings back the
# files left in $OUT (at most 8, 16 MiB each, no deeper than two folders): runs it into a scratch folder
# under a time limit, then packs that folder into $OUT/runs.tar.gz (15 MiB parts runs.tar.gz.partNN when
# larger) beside $OUT/device.log. Unpack here with
#   cat runs.tar.gz* | tar -xz -C validation/results/runs
# Usage: OUT=DIR [LIMIT_S=540] validation/device_call.sh [NAME...] --vendor nvidia|amd [run.py options]
# LIMIT_S: run.py is stopped after that many seconds (an experiment cut short keeps a manifest saying
# "running"), leaving time to pack; give run.py a --deadline well inside it.
set -uo pipefail
OUT=${OUT:?set OUT to the folder whose files come back}
LIMIT_S=${LIMIT_S:-540}
export PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
HERE=$(cd "$(dirname "$0")" && pwd)
RUNS=$(mktemp -d)
timeout -s INT "$LIMIT_S" python3 "$HERE/run.py" device "$@" --out "$RUNS" 2>&1 | tee "$OUT/device.log"
rc=${PIPESTATUS[0]}
echo "run.py device: exit $rc" | tee -a "$OUT/device.log"
tar -C "$RUNS" --sort=name -czf "$OUT/runs.tar.gz" .
if [ "$(stat -c %s "$OUT/runs.tar.gz")" -gt $((15 << 20)) ]; then
    split -b 15M -d "$OUT/runs.tar.gz" "$OUT/runs.tar.gz.part" && rm "$OUT/runs.tar.gz"
fi
du -sh "$RUNS"/*/* 2>/dev/null | sort -h | tail -8
ls -la "$OUT"
exit "$rc"
