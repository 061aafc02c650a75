#!/usr/bin/env bash
# validation/run.py sweep: one entry's model at several values of one preset key, each compared figure's
# error a column per value. On the barrier microbenchmark (cheap: a few thousand cycles a case): the
# column of the preset's own value is `run.py model barrier`'s figures, a larger barrier cost makes every
# `one N` case (one block an SM) slower, and a bad --vary is a one-line usage error, exit 2.
source "$(dirname "$0")/lib.bash"
RUN="python3 $SRC/validation/run.py"
CFG="$SRC/configs/h200.ini"
preset=$(awk -F'[ =#]+' '/^barrier_cycles/ { print $2; exit }' "$CFG")
$RUN sweep barrier --dcusim "$DCUSIM" --config "$CFG" --vary "cu.barrier_cycles=$preset,$((preset * 2))" \
    >"$WORK/sweep" 2>"$WORK/err" || fail "the sweep exited $?: $(cat "$WORK/err")"
$RUN model barrier --dcusim "$DCUSIM" --config "$CFG" --out "$WORK/model" >/dev/null 2>&1 || fail "run.py model barrier failed"
grep -q "^| case | metric | $preset | $((preset * 2)) |$" "$WORK/sweep" || fail "no column per value: $(head -5 "$WORK/sweep")"
# The preset's column against the model run's CSV (case,metric,measured,model,error), in percent to 0.1.
while IFS=, read -r case metric _ _ err; do
    [ "$case" = case ] && continue
    want=$(awk -v e="$err" 'BEGIN { printf "%+.1f %%", 100 * e }')
    got=$(awk -F' [|] ' -v c="$case" -v m="$metric" '$1 == "| " c && $2 == m { print $3 }' "$WORK/sweep")
    n=$((${n:-0} + 1))
    [ "$got" = "$want" ] || fail "$case $metric: the sweep's $preset column has '$got', run.py model '$want'"
done <"$WORK/model/barrier.csv"
[ "${n:-0}" -ge 10 ] || fail "only ${n:-0} figures compared"
# A barrier twice as long: every case of one block an SM comes out slower than at the preset.
awk -F' [|] ' '$1 ~ /^\| one / { sub(/ %/, "", $3); sub(/ %/, "", $4); if ($4 + 0 <= $3 + 0) bad = bad " " $1 }
    END { if (bad) { print bad; exit 1 } }' "$WORK/sweep" >"$WORK/bad" || fail "not slower at twice the cost:$(cat "$WORK/bad")"
expect_error 2 '^run.py: sweep takes one experiment and --vary KEY=V1,V2,...$' $RUN sweep barrier --dcusim "$DCUSIM"
expect_error 2 '^run.py: --vary wants KEY=V1,V2,..., not cu.barrier_cycles=$' $RUN sweep barrier --vary cu.barrier_cycles=
expect_error 2 "^run.py: no experiment 'nope' with a model side in experiments.toml$" $RUN sweep nope --vary a=1
finish
