# CI's accuracy gate on both sets (docs/VALIDATION.md, "The gate"): dcusim validate on the calibration
# set (validation/results/h200, the kernels the H200 preset was fitted to: cycles MAPE, DRAM read bytes,
# exact bank conflicts, L1 and L2 (TEX source) hit rates within 3 points on average; DRAM write bytes
# only kept from getting worse, at 20 %) and the test set
# (validation/results/h200-apps, kernels no preset value comes from) prints two blocks, in that order,
# each with its table, worst kernel and cycles MAPE. The test set's limits are its figures of
# 2026-12-07 (docs/VALIDATION.md, "The test set") rounded up: they record today's state so that it
# cannot get worse unseen; they are not a target (issue 25's is 10 % MAPE, no kernel beyond 25 %). Its
# DRAM write bytes (two kernels) went 22.3 -> 26.1 % with the L2 partitions' link rate: spilled_48's
# write-backs come from its private windows aliasing in the L2's sets, which moves with its timing.
source "$(dirname "$0")/cli/lib.bash"
"$DCUSIM" validate "$SRC/validation/results/h200" --test "$SRC/validation/results/h200-apps" --config "$SRC/configs/h200.ini" \
    --out "$WORK/report" -q --gate --max-dram-write-mape 20 --max-l1-error 3 --max-l2-error 3 \
    --test-max-cycles-mape 7 --test-max-dram-error 12 --test-max-dram-write-mape 27 --test-max-l1-error 2 \
    --test-max-l2-error 2 --test-max-inexact-conflicts 7 \
    >"$WORK/out" 2>"$WORK/err" || fail "the gate failed: $(cat "$WORK/err")"
cat "$WORK/out"
[ "$(grep '^== ' "$WORK/out")" = "$(printf '== calibration set: %s\n== test set: %s' "$SRC/validation/results/h200" "$SRC/validation/results/h200-apps")" ] ||
    fail "not the two blocks, calibration then test: $(grep '^== ' "$WORK/out")"
sed -n '/^== calibration set/,/^== test set/p' "$WORK/out" >"$WORK/cal"
sed -n '/^== test set/,$p' "$WORK/out" >"$WORK/test"
for set in cal test; do
    for line in '^cycles +[0-9]+ ' '^lds_bank_conflicts ' '^dram_read_bytes ' '^l2_hit_rate ' '^worst cycles error: [^ ]+ [-+][0-9.]+ %$' \
        '^cycles MAPE: [0-9.]+% over [0-9]+ kernels$'; do
        grep -Eq "$line" "$WORK/$set" || fail "the $set block has no line matching '$line'"
    done
done
grep -Eq '^cycles MAPE: [0-9.]+% over 39 kernels$' "$WORK/cal" || fail "the calibration set is not the suite's 39 kernels"
grep -Eq '^cycles MAPE: [0-9.]+% over 31 kernels$' "$WORK/test" || fail "the test set is not its 31 kernels"
grep -Eq '^lds_bank_conflicts +([0-9]+) .* \1/\1$' "$WORK/cal" || fail "LDS bank conflicts not exact on every calibration kernel"
tail -1 "$WORK/out" | grep -Eq '^cycles MAPE: [0-9.]+% over [0-9]+ kernels$' || fail "stdout does not end with the cycles MAPE"
for f in report.md validation.csv cycles.png cycles_error.png errors.png test/report.md test/validation.csv; do
    [ -s "$WORK/report/$f" ] || fail "no $f"
done
finish
