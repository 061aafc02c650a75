# README command 1 runs the bundled example; --help lists every key with its default and unit.
source "$(dirname "$0")/lib.bash"

expect_ok "$DCUSIM" run --quiet --json "$WORK/ex.json" --csv "$WORK/ex.csv"
grep -q "transpose_tile32" "$WORK/out" || fail "summary lacks the example's kernel"
# traces/examples/README.md works these out: 16 waves x 4 column reads x 62
[ "$(json_stat "$WORK/ex.json" lds.bank_conflict_cycles)" = "3968" ] || fail "example: tile32 conflict cycles"
grep -A3 '"transpose_tile33_padded"' "$WORK/ex.json" >/dev/null || fail "example: padded kernel missing"
head -1 "$WORK/ex.csv" | grep -q "^kernel,name,.*lds.bank_conflict_cycles" || fail "csv header"
[ "$(wc -l <"$WORK/ex.csv")" -eq 4 ] || fail "csv: 2 kernels + total + header"
# The preset in the JSON: a list key as its list (empty where the default is none).
expect_ok "$DCUSIM" run --quiet --lds.carveouts 0,8K,64K --l2.partitions 2 --l2.side_bits 12,15 --json "$WORK/list.json"
tr -d ' \n' <"$WORK/list.json" | grep -q '"lds.carveouts":\[0,8192,65536\]' || fail "json: lds.carveouts not its list"
tr -d ' \n' <"$WORK/list.json" | grep -q '"l2.side_bits":\[12,15\]' || fail "json: l2.side_bits not its list"
tr -d ' \n' <"$WORK/ex.json" | grep -q '"l2.side_bits":\[\]' || fail "json: an unset l2.side_bits not an empty list"

expect_ok "$DCUSIM" --help
for key in cu.wave_size lds.banks lds.bank_bytes const.divergent lds.size_bytes mem.latency; do
    grep -Eq -- "--$key .*\[default [^]]+\]" "$WORK/out" || fail "--help lacks $key with its default"
done
grep -q "default 64K bytes" "$WORK/out" || fail "--help: size default with unit"
expect_ok "$DCUSIM" run --help
grep -q -- "--lds.banks" "$WORK/out" || fail "run --help lacks keys"

# Nine kernels: one line per kernel, then the total's column (16 + 16 transpose barriers).
expect_ok "$DCUSIM" run --quiet "$SRC/traces/examples/constant_divergence.trace" "$SRC/traces/examples/transpose64.trace"
grep -Eq "^8:transpose_tile33_padded +[0-9]+ +16 +0 " "$WORK/out" || fail "per-kernel line of the padded transpose"
grep -Eq "^barriers +32$" "$WORK/out" || fail "total column"

# Same inputs, same outputs, bit for bit.
expect_ok "$DCUSIM" run --quiet --json "$WORK/ex2.json"
cmp -s "$WORK/ex.json" "$WORK/ex2.json" || fail "two runs differ"
finish
