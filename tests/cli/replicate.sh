# bench/replicate.py (the sampling benchmarks' kernels grown without a GPU): a kernel of 2 workgroups
# copied 3 times. Each wave loads 32 lanes x 4 bytes at IN + 128 x block and stores them at OUT + 128 x
# block; one copy covers 256 bytes of each buffer, so copy c's workgroup b loads at IN + 128 b + 256 c.
# The output buffer sits right after the input: the input's copies reach 768 bytes past IN, so the
# output's move up by whole 2 MiB (to OUT + 2 MiB). The result must read back as a valid trace.
source "$(dirname "$0")/lib.bash"
IN=$((0x10000000)) OUT=$((0x10000000 + 256)) MiB2=$((2 << 20))
{
    printf 'dcusim-trace 1\nwave_size 32\nkernel k grid 2 1 1 block 32 1 1\n'
    for b in 0 1; do
        printf 'wave %d 0\nld global 4 0x10 all affine 0x%x 0x4\nwait\nst global 4 0x20 all affine 0x%x 0x4\n' \
            "$b" $((IN + 128 * b)) $((OUT + 128 * b))
    done
    echo end
} >"$WORK/k.txt"
python3 "$SRC/bench/replicate.py" "$WORK/k.txt" k 3 ld:256 st:256 >"$WORK/r.txt" 2>"$WORK/err" ||
    fail "replicate.py exited $?: $(cat "$WORK/err")"
grep -q '^kernel k grid 6 1 1 block 32 1 1$' "$WORK/r.txt" || fail "the grid is not 6 workgroups: $(grep '^kernel' "$WORK/r.txt")"
for c in 0 1 2; do
    for b in 0 1; do
        blk=$((b + 2 * c))
        ld=$(printf '0x%x' $((IN + 128 * b + 256 * c)))
        st=$(printf '0x%x' $((OUT + MiB2 + 128 * b + 256 * c)))
        grep -A3 "^wave $blk 0$" "$WORK/r.txt" | grep -q "^ld global 4 0x10 all affine $ld 0x4$" ||
            fail "workgroup $blk: no load at $ld"
        grep -A3 "^wave $blk 0$" "$WORK/r.txt" | grep -q "^st global 4 0x20 all affine $st 0x4$" ||
            fail "workgroup $blk: no store at $st"
    done
done
expect_ok "$DCUSIM" trace convert "$WORK/r.txt" "$WORK/r.dctrace" --to binary
# A gather cannot be grown by shifts: refused, naming the record.
printf 'dcusim-trace 1\nwave_size 32\nkernel g grid 1 1 1 block 32 1 1\nwave 0 0\nld global 4 0x10 0x3 list 0x100 0x900\nend\n' >"$WORK/g.txt"
python3 "$SRC/bench/replicate.py" "$WORK/g.txt" g 2 ld:256 >"$WORK/out" 2>"$WORK/err" && fail "a listed access was grown"
grep -q "not an affine load or store" "$WORK/err" || fail "the refusal does not say why: $(cat "$WORK/err")"
finish
