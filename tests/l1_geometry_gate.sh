# CI's L1-geometry gate: one lane chases a chain of 128-byte lines on the H200
# preset, 4 passes to warm the L1 and 2 timed, as validation/kernels/l1_geometry.hip
# does; the L1 hits of the timed passes (hits of 6 passes less those of 4) must
# be within 0.10 of the loads of what the H200 hit (validation/results/h200-l1geometry/run2):
#  - 208 KiB and 240 KiB in order, no shared memory (a 32 KiB carve-out, a 224 KiB L1): 3,197 of 3,328
#    and 1,731 of 3,840 hit;
#  - 192 KiB in order, 16 bytes of shared memory a block (a 64 KiB carve-out, a 192 KiB L1): 2,057 of 3,072;
#  - 48 lines 256 KiB apart: 96 of 96 (hashed sets).
# A 256 KiB L1 of unhashed sets (the preset before these were measured) hits all of the first three and
# none of the last.
source "$(dirname "$0")/cli/lib.bash"
# chase FILE LINES STRIDE_BYTES PASSES LDS: one wave of a 32-thread block, lane 0 loading each line in order.
chase() {
    awk -v lines="$2" -v stride="$3" -v passes="$4" -v lds="$5" 'BEGIN {
        printf "dcusim-trace 1\nwave_size 32\nkernel geometry grid 1 1 1 block 32 1 1%s\nwave 0 0\n", lds ? " lds " lds : ""
        for (p = 0; p < passes; ++p)
            for (k = 0; k < lines; ++k) printf "ld global 4 0x40 0x1 affine %.0f 0\nwait\ncompute 2\n", 4294967296 + k * stride
        print "end"
    }' >"$1"
}
hits() {  # hits LINES STRIDE PASSES LDS: the L1 hits of a replay
    chase "$WORK/c.trace" "$1" "$2" "$3" "$4"
    "$DCUSIM" run -q --config "$SRC/configs/h200.ini" --json "$WORK/out.json" "$WORK/c.trace" >/dev/null 2>"$WORK/err" ||
        fail "dcusim run failed: $(cat "$WORK/err")"
    json_stat "$WORK/out.json" l1.hits
}
for case in "208K 1664 128 0 3197" "240K 1920 128 0 1731" "192K-shared 1536 128 16 2057" "48x256K 48 262144 0 96"; do
    set -- $case
    name=$1 lines=$2 stride=$3 lds=$4 measured=$5
    timed=$(( $(hits "$lines" "$stride" 6 "$lds") - $(hits "$lines" "$stride" 4 "$lds") ))
    loads=$((2 * lines))
    awk -v p="$timed" -v m="$measured" -v n="$loads" 'BEGIN { d = (p - m) / n; exit !(d <= 0.10 && d >= -0.10) }' ||
        fail "$name: $timed of $loads timed loads hit, the H200 $measured (more than 0.10 of the loads off)"
    echo "$name: $timed of $loads timed loads hit, the H200 $measured"
done
finish
