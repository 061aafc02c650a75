# Kernel names captured from C++ carry commas (`lds_read<1,float>(float*,int,int)`): the CSVs
# of run, sweep and validate quote them, and every reader (sweep, plot) reads them back whole.
source "$(dirname "$0")/lib.bash"
t="$WORK/comma.trace"
printf 'dcusim-trace 1\nwave_size 64\nkernel k<1,float>(float*,int) grid 1 1 1 block 64 1 1\nwave 0 0\nld lds 4 0x10 all affine 0 128\nend\n' >"$t"
expect_ok "$DCUSIM" run -q --csv "$WORK/r.csv" "$t"
grep -q '^0,"k<1,float>(float\*,int)",' "$WORK/r.csv" || fail "run --csv: the name is not one quoted field: $(sed -n 2p "$WORK/r.csv" | cut -c1-60)"
[ "$(csv_stat "$WORK/r.csv" lds.bank_conflict_cycles)" = 62 ] || fail "run --csv: columns shifted"
expect_ok "$DCUSIM" sweep -q --vary lds.banks=16,32 --out "$WORK/s.csv" "$t"
grep -q ',"k<1,float>(float\*,int)",16,' "$WORK/s.csv" || fail "sweep: the name is not one quoted field"
# 64 lanes at a 128-byte stride: 62 conflict cycles on 32 banks; on 16 banks (the first row) 60.
[ "$(csv_stat "$WORK/s.csv" lds.bank_conflict_cycles)" = 60 ] || fail "sweep: columns shifted"
expect_ok "$DCUSIM" plot "$WORK/s.csv" --x lds.banks --y lds.bank_conflict_cycles --kernel 'k<1,float>(float*,int)' --out "$WORK/p.svg"
finish
