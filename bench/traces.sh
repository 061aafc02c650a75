# The replay benchmarks' traces, shared by bench/run.sh and bench/compare.sh (sourced).
# make_traces TRACEGEN DIR: writes DIR/N.dctrace and prints one line per trace,
# "N|what it is|extra arguments for the replay", in the order run.sh reports them.
make_traces() {
    local gen=$1 dir=$2 n=0 blocks
    for blocks in 2560 5120; do
        n=$((n + 1))
        "$gen" lds-const --blocks "$blocks" --waves 4 --iters 140 -o "$dir/$n.dctrace"
        echo "$n|on-chip: $blocks workgroups x 4 waves x 140 iterations|"
    done
    for blocks in 2560 5120; do
        n=$((n + 1))
        "$gen" stream --bytes $((blocks << 13)) --blocks "$blocks" --waves 4 --lane-bytes 4 -o "$dir/$n.dctrace"
        echo "$n|full path: $((blocks >> 7)) MiB stream from DRAM ($blocks workgroups x 8 KiB), 4-byte lanes|"
    done
    n=$((n + 1))
    "$gen" stream --bytes $((2 << 20)) --blocks 256 --waves 4 --lane-bytes 4 --passes 8 -o "$dir/$n.dctrace"
    echo "$n|full path: 2 MiB read 8 times (L2-resident after the first pass), 4-byte lanes|"
    # The H200 preset (the validation runs): wave32, one 128-byte line of four
    # 32-byte bursts per instruction, 132 SMs, 96 L2 slices, 188 DRAM channels.
    n=$((n + 1))
    "$gen" stream --bytes $((32 << 20)) --blocks 1024 --waves 8 --lane-bytes 4 --wave-size 32 -o "$dir/$n.dctrace"
    echo "$n|full path, H200 preset: 32 MiB stream from DRAM (1024 workgroups x 32 KiB), 4-byte lanes|--config $BENCH_ROOT/configs/h200.ini"
}
