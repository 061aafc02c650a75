# dcusim trace convert / dump / stats, both directions.
source "$(dirname "$0")/lib.bash"
ex="$SRC/traces/examples/transpose64.trace"
expect_ok "$DCUSIM" trace convert "$ex" "$WORK/ex.dctrace"
head -c 8 "$WORK/ex.dctrace" | grep -q DCUTRACE || fail "convert did not write binary"
expect_ok "$DCUSIM" trace convert "$WORK/ex.dctrace" "$WORK/back.trace"
expect_ok "$DCUSIM" trace dump "$ex"
cp "$WORK/out" "$WORK/dump_text"
expect_ok "$DCUSIM" trace dump "$WORK/ex.dctrace"
cmp -s "$WORK/out" "$WORK/dump_text" || fail "dump of binary differs from dump of text"
cmp -s "$WORK/back.trace" "$WORK/dump_text" || fail "binary -> text differs from the canonical text"
expect_ok "$DCUSIM" trace convert "$WORK/back.trace" "$WORK/again.dctrace"
cmp -s "$WORK/again.dctrace" "$WORK/ex.dctrace" || fail "text -> binary is not reproducible"
expect_ok "$DCUSIM" trace stats "$WORK/ex.dctrace"
grep -q "^kernels 2" "$WORK/out" || fail "stats: kernel count"
# 4 blocks x 4 waves x 4 column reads of 64 lanes, each lane its own address;
# per wave 16 memory instructions, 1 bar, 2 waits, compute 8: 27, x 16 waves
grep -Eq "ld lds +64 +4096 +16384 +64:64$" "$WORK/out" || fail "stats: kernel 0 'ld lds' row"
grep -Eq "blocks 4  waves 16  instructions 432" "$WORK/out" || fail "stats: kernel 0 counts"
expect_ok "$DCUSIM" trace stats "$SRC/traces/examples/constant_divergence.trace"
grep -Eq "ld const +64 +4096 +16384 +8:64$" "$WORK/out" || fail "stats: const_k8 has 8 distinct addresses per instruction"
# The simulator gives the same numbers for both formats.
expect_ok "$DCUSIM" run --quiet --json "$WORK/a.json" "$ex"
expect_ok "$DCUSIM" run --quiet --json "$WORK/b.json" "$WORK/ex.dctrace"
diff <(grep -v '"traces"\|dctrace\|\.trace' "$WORK/a.json") <(grep -v '"traces"\|dctrace\|\.trace' "$WORK/b.json") >/dev/null || fail "text and binary simulate differently"
finish
