# validation/compare_captures.py on the hand-written traces of tests/data/compare: equal memory
# records whatever the buffer bases, PCs and compute counts; a mask that differs; LDS offsets
# equal only up to their base; unreadable inputs.
source "$(dirname "$0")/lib.bash"
command -v python3 >/dev/null || { echo "python3 missing: the validation scripts need it"; exit 1; }
cmp_py() { python3 "$SRC/validation/compare_captures.py" --dcusim "$DCUSIM" "$@"; }
d="$SRC/tests/data/compare"
# (1) Other bases, PCs, compute: equal. Compute by hand: kernel 0 has 4 waves of 10 + 5 (REF) and
# 12 + 6 (NEW): 72 / 60 = 1.200; kernel 1 has 3 + 2 and 5 + 2: 7 / 5 = 1.400, and 2 waits for 1.
expect_ok cmp_py "$d/ref.trace" "$d/same.trace" --md "$WORK/same.md" --csv "$WORK/same.csv"
grep -Fq '| same.trace | 0 | `stage(float*,floatconst*)` | yes | 4/4 | 1.200 | 1.000 |  |' "$WORK/out" ||
    fail "same: kernel 0 row"
grep -Fq '| same.trace | 1 | `gather(floatconst*)` | yes | 1/1 | 1.400 | 2.000 | name differs (same function) |' \
    "$WORK/out" || fail "same: kernel 1 row (names spelt differently are paired and flagged)"
grep -Fq '| 60 -> 72 | 4 -> 8 |' "$WORK/out" || fail "same: compute and long totals"
[ "$(tail -1 "$WORK/out")" = "2 of 2 kernels: memory records equal" ] || fail "same: last line $(tail -1 "$WORK/out")"
cmp -s "$WORK/out" "$WORK/same.md" || fail "--md differs from stdout"
grep -q '^same.trace,0,"stage(float\*,floatconst\*)","stage(float\*,floatconst\*)",yes,yes,yes,yes,yes,yes,4,4,1.200,1.000,60,72,' \
    "$WORK/same.csv" || fail "same: CSV row: $(sed -n 2p "$WORK/same.csv")"
# A trace against itself.
expect_ok cmp_py "$d/ref.trace" "$d/ref.trace"
[ "$(tail -1 "$WORK/out")" = "2 of 2 kernels: memory records equal" ] || fail "itself: $(tail -1 "$WORK/out")"
# (2) Block 1 wave 0 stores without lane 0: different, and the wave and instruction are named.
expect_ok cmp_py "$d/ref.trace" "$d/mask.trace"
grep -Fq '| mask.trace | 0 | `stage(float*,floatconst*)` | no | 3/4 |' "$WORK/out" || fail "mask: kernel 0 row"
grep -Fq 'streams differ from block 1 wave 0' "$WORK/out" || fail "mask: wave not named"
! grep -Fq 'in order only' "$WORK/out" || fail "mask: another mask is more than order"
grep -Fq 'block 1 wave 0, memory instruction #4 from 0' "$WORK/out" || fail "mask: instruction not named"
grep -Fq 'st global active lanes (value:instructions): REF 16:2 32:2, NEW 16:2 31:1 32:1' "$WORK/out" ||
    fail "mask: active-lane histogram"
[ "$(tail -1 "$WORK/out")" = "1 of 2 kernels: memory records equal" ] || fail "mask: $(tail -1 "$WORK/out")"
# Left out of both sides (a capture blind to a space), the differing global store no longer counts.
expect_ok cmp_py "$d/ref.trace" "$d/mask.trace" --ignore-space global
grep -Fq -- '- global records left out of both sides (--ignore-space global)' "$WORK/out" || fail "ignore: no note"
[ "$(tail -1 "$WORK/out")" = "2 of 2 kernels: memory records equal" ] || fail "ignore: $(tail -1 "$WORK/out")"
# The same records in another order between two barriers: not equal, but said to differ in order only.
expect_ok cmp_py "$d/ref.trace" "$d/order.trace"
grep -Fq '| order.trace | 0 | `stage(float*,floatconst*)` | no | 0/4 | 1.000 | 1.000 | streams differ from block 0 wave 0 (in order only: equal between barriers in any order) |' \
    "$WORK/out" || fail "order: kernel 0 row"
[ "$(tail -1 "$WORK/out")" = "1 of 2 kernels: memory records equal" ] || fail "order: $(tail -1 "$WORK/out")"
# LDS offsets 0x100 higher: equal up to base, not raw.
expect_ok cmp_py "$d/ref.trace" "$d/lds_shift.trace"
grep -Fq '| yes | 4/4 | 1.000 | 1.000 | LDS/local equal up to base only |' "$WORK/out" || fail "lds_shift: row"
grep -Fq 'first stream difference (raw): block 0 wave 0' "$WORK/out" || fail "lds_shift: raw difference"
expect_ok cmp_py "$d/ref.trace" "$d/lds_shift.trace" --csv "$WORK/lds.csv"
grep -q '^lds_shift.trace,0,.*,yes,yes,yes,no,yes,yes,4,4,' "$WORK/lds.csv" || fail "lds_shift: CSV row: $(sed -n 2p "$WORK/lds.csv")"
# Two directories: the NAME.trace in both.
mkdir "$WORK/r" "$WORK/n"
cp "$d/ref.trace" "$WORK/r/a.trace"; cp "$d/same.trace" "$WORK/n/a.trace"
cp "$d/ref.trace" "$WORK/r/b.trace"; cp "$d/mask.trace" "$WORK/n/b.trace"; cp "$d/ref.trace" "$WORK/n/c.trace"
expect_ok cmp_py "$WORK/r" "$WORK/n"
grep -Fq -- '- only in NEW: c.trace' "$WORK/out" || fail "dirs: c.trace not noted"
[ "$(tail -1 "$WORK/out")" = "3 of 4 kernels: memory records equal" ] || fail "dirs: $(tail -1 "$WORK/out")"
# (3) Unreadable input: exit 2, one line naming the file.
expect_error 2 'bad\.trace' cmp_py "$d/ref.trace" "$d/bad.trace"
expect_error 2 'missing\.trace' cmp_py "$WORK/missing.trace" "$d/ref.trace"
"$DCUSIM" trace convert "$d/ref.trace" "$WORK/ref.dctrace" || fail "convert"
head -c 100 "$WORK/ref.dctrace" >"$WORK/cut.dctrace"
expect_error 2 'cut\.dctrace: .*truncated' cmp_py "$WORK/ref.dctrace" "$WORK/cut.dctrace"
finish
