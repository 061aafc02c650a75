# --report pcs names the instructions to blame, with their source lines:
# the unpadded transpose's column reads at transpose.hip:19 cost 16 waves x 62
# conflict cycles each; the padded kernel's same reads cost none.
source "$(dirname "$0")/lib.bash"
expect_ok "$DCUSIM" run --quiet --report pcs --top 8 --json "$WORK/r.json"
for pc in 0x200 0x208 0x210 0x218; do
    grep -Eq "pc $pc +transpose.hip:19 +992$" "$WORK/out" || fail "unpadded read $pc"
    grep -Eq "pc $pc +transpose_padded.hip:19 +0$" "$WORK/out" || fail "padded read $pc"
done
grep -q '"lds.bank_conflict_cycles": 992' "$WORK/r.json" || fail "per-PC figures in the JSON"
expect_error 2 "unknown report 'lines'" "$DCUSIM" run --quiet --report lines
finish
