# CI's barrier gate: a loop of __syncthreads on the H200 preset, as
# validation/kernels/barrier_latency.hip runs it (each iteration VIADD,
# BAR.SYNC, ISETP, BRA), one block of 256 threads alone and one SM full of
# them (8 blocks). The H200 takes 39 and 97 cycles an iteration
# (validation/results/h200-barrier). The model, one CU of each (two: the
# preset's two L2 sides), must stay within 10 % of both; without the barrier
# unit (cu.barrier_arrive_cycles, cu.barrier_cycles) it takes 15 and 64.
source "$(dirname "$0")/cli/lib.bash"
# trace BLOCKS ITERATIONS: blocks of 8 waves of 32 lanes.
trace() {
    awk -v blocks="$1" -v iters="$2" 'BEGIN {
        printf "dcusim-trace 1\nwave_size 32\nkernel bar grid %d 1 1 block 256 1 1 vgprs 8\n", blocks
        for (b = 0; b < blocks; ++b) for (w = 0; w < 8; ++w) {
            printf "wave %d %d\ncompute 3\n", b, w
            for (i = 0; i < iters; ++i) printf "compute 1\nbar 0x40\ncompute 2\n"
            printf "compute 4\n"
        }
        print "end"
    }' >"$WORK/bar.trace"
}
cycles() {  # BLOCKS ITERATIONS
    trace "$1" "$2"
    "$DCUSIM" run -q --config "$SRC/configs/h200.ini" --cu.count 2 --cu.launch_cycles 0 --json "$WORK/out.json" \
        "$WORK/bar.trace" >/dev/null 2>"$WORK/err" || fail "dcusim run failed: $(cat "$WORK/err")"
    json_stat "$WORK/out.json" cycles
}
for case in "one 1 39" "full 16 97"; do
    set -- $case
    name=$1 blocks=$2 measured=$3
    a=$(cycles "$blocks" 256) b=$(cycles "$blocks" 512)
    per=$(awk -v a="$a" -v b="$b" 'BEGIN { print (b - a) / 256 }')
    within "$per" "$measured" 0.10 ||
        fail "$name: $per cycles an iteration, measured $measured (more than 10 % off)"
    echo "$name: $per cycles an iteration, measured $measured"
done
finish
