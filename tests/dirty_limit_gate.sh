# CI's gate on the L2's dirty data: a write-only stream on the H200 preset, as
# validation/kernels/write_stream.hip stores it (256-thread blocks, one float4
# a thread, once), under the suite's measurement conditions (the profiler
# leaves 2,380,672 B of dirty data at launch). The H200 wrote 6,389,760 and
# 39,959,296 B to DRAM for 32 and 64 MiB (validation/results/h200-writes): it
# ends every size from 32 MiB on holding ~29.5 MB dirty, its own and the
# leftover. The model must stay within 3 % of both; a limit that leaves out
# the leftover (27.16 MB) writes 37 % and 6 % too much.
source "$(dirname "$0")/cli/lib.bash"
GEN="$(dirname "$DCUSIM")/dcusim-tracegen"
for case in "32 6389760" "64 39959296"; do
    set -- $case
    mib=$1 measured=$2
    "$GEN" stream --bytes $((mib << 20)) --blocks $(((mib << 20) / 4096)) --waves 8 --lane-bytes 16 --wave-size 32 \
        --store -o "$WORK/writes.dctrace" >/dev/null || fail "tracegen failed"
    "$DCUSIM" run -q --config "$SRC/configs/h200.ini" --l2.flush_at_launch on --l2.dirty_at_launch_bytes 2380672 \
        --json "$WORK/out.json" "$WORK/writes.dctrace" >/dev/null 2>"$WORK/err" ||
        fail "dcusim run failed: $(cat "$WORK/err")"
    written=$(json_stat "$WORK/out.json" dram.write_bytes)
    within "$written" "$measured" 0.03 ||
        fail "write stream of $mib MiB: DRAM writes $written B, measured $measured (more than 3 % off)"
    echo "write stream of $mib MiB: DRAM writes $written B, measured $measured B"
done
finish
