# cu.launch_cycles and cu.wave_issue_cycles, run against run (one simulation per process):
# one wave of 10 instructions with issue_cycles 1 takes 10 cycles of issue; if the wave may
# issue only every 4th cycle, 40 (30 more); a launch overhead of 1000 adds exactly 1000.
source "$(dirname "$0")/lib.bash"
printf 'dcusim-trace 1\nwave_size 64\nkernel k grid 1 1 1 block 64 1 1\nwave 0 0\ncompute 10\nend\n' >"$WORK/c.trace"
cycles() { "$DCUSIM" run -q --cu.issue_cycles 1 "$@" --csv "$WORK/c.csv" "$WORK/c.trace" >/dev/null || fail "run $*";
           csv_stat "$WORK/c.csv" cycles; }
base=$(cycles)
spaced=$(cycles --cu.wave_issue_cycles 4)
launched=$(cycles --cu.launch_cycles 1000)
[ $((spaced - base)) -eq 30 ] || fail "wave_issue_cycles 4: $spaced cycles against $base (expected 30 more)"
[ $((launched - base)) -eq 1000 ] || fail "launch_cycles 1000: $launched cycles against $base (expected 1000 more)"
# cu.dispatch_cycles: 8 one-wave workgroups of `compute 1`, one per CU. At 10 cycles between
# dispatches the last starts at 70: 70 cycles more. At 2.5, dispatches land on whole cycles
# 0, 3, 5, 8, 10, 13, 15, 18 (the lost fraction is carried): 18 more.
{ printf 'dcusim-trace 1\nwave_size 64\nkernel k grid 8 1 1 block 64 1 1\n'
  for b in 0 1 2 3 4 5 6 7; do printf 'wave %d 0\ncompute 1\n' $b; done
  echo end; } >"$WORK/d8.trace"
d8() { "$DCUSIM" run -q "$@" --csv "$WORK/d8.csv" "$WORK/d8.trace" >/dev/null || fail "run $*";
       csv_stat "$WORK/d8.csv" cycles; }
free=$(d8)
[ $(($(d8 --cu.dispatch_cycles 10) - free)) -eq 70 ] || fail "dispatch_cycles 10: expected 70 more cycles"
[ $(($(d8 --cu.dispatch_cycles 2.5) - free)) -eq 18 ] || fail "dispatch_cycles 2.5: expected 18 more cycles"
# cu.wait_stores: a store, a wait, then a load. Off (NVIDIA), the wait does not count the store:
# the kernel takes exactly as long as with a compute instruction in the store's place. On (GCN's
# vmcnt), the load starts only after the store's round trip: exactly what the store alone takes
# more than one compute instruction alone.
one() { printf 'dcusim-trace 1\nwave_size 64\nkernel k grid 1 1 1 block 64 1 1\nwave 0 0\n%b\nend\n' "$1" >"$WORK/w.trace"
        "$DCUSIM" run -q "${@:2}" --csv "$WORK/w.csv" "$WORK/w.trace" >/dev/null || fail "run $1 ${*:2}"
        csv_stat "$WORK/w.csv" cycles; }
ST='st global 4 0x10 all affine 0x1000 4\nwait'
LD='\nld global 4 0x18 all affine 0x2000 4\nwait'
store_off=$(one "$ST$LD" --cu.wait_stores off)
store_on=$(one "$ST$LD" --cu.wait_stores on)
compute=$(one "compute 1\nwait$LD")
[ "$store_off" -eq "$compute" ] || fail "wait_stores off: $store_off cycles, expected $compute (the store does not hold the wait)"
rtt=$(( $(one "$ST") - $(one 'compute 1') ))
[ "$rtt" -gt 0 ] && [ $((store_on - compute)) -eq "$rtt" ] ||
    fail "wait_stores on: $store_on cycles, expected $compute + the store's round trip $rtt"
# l1.data_banks: on the H200 preset with 4 lookups a cycle, 16 lanes read offset 0 of 16 lines (stride
# 128): 16 words in one 8-byte bank of 16, so 16 cycles against 16 / 4 = 4 of tag lookups: 12 more,
# after the same warm-up load. At stride 132 the 16 words spread two to a bank: 2 cycles, under the
# 4 of the tags: nothing more.
h200() { printf 'dcusim-trace 1\nwave_size 32\nkernel k grid 1 1 1 block 32 1 1\nwave 0 0\n%b\nend\n' "$1" >"$WORK/b.trace"
         "$DCUSIM" run -q --config "$SRC/configs/h200.ini" --l1.lookups_per_cycle 4 "${@:2}" --csv "$WORK/b.csv" "$WORK/b.trace" \
             >/dev/null || fail "run $1 ${*:2}"; }
WARM='ld global 4 0x10 0xffff affine 0x10000 132\nwait\n'
h200 "${WARM}ld global 4 0x18 0xffff affine 0x10000 128\nwait" --l1.data_banks 0
plain=$(csv_stat "$WORK/b.csv" cycles)
h200 "${WARM}ld global 4 0x18 0xffff affine 0x10000 128\nwait" --l1.data_banks 16 --l1.data_bank_bytes 8
[ $(($(csv_stat "$WORK/b.csv" cycles) - plain)) -eq 12 ] || fail "one bank, 16 words: expected 12 cycles more than without banks"
[ "$(csv_stat "$WORK/b.csv" l1.data_bank_cycles)" = 12 ] || fail "one bank, 16 words: l1.data_bank_cycles should be 12"
h200 "ld global 4 0x18 0xffff affine 0x10000 132\nwait" --l1.data_banks 16 --l1.data_bank_bytes 8
[ "$(csv_stat "$WORK/b.csv" l1.data_bank_cycles)" = 0 ] || fail "two words a bank: l1.data_bank_cycles should be 0"
# l2.xor_hash with a single L2 channel: nothing to hash. The fold once never ended; the same
# trace must give the same L2 traffic as without the hash.
xor1() { timeout 60 "$DCUSIM" run -q --l2.channels 1 --l2.size_bytes 2K --l2.assoc 16 "$@" --csv "$WORK/x.csv" \
             "$SRC/traces/examples/transpose64.trace" >/dev/null || fail "one L2 channel, $*: no result in 60 s";
         csv_stat "$WORK/x.csv" l2.sectors; }
[ "$(xor1 --l2.xor_hash on)" = "$(xor1 --l2.xor_hash off)" ] || fail "l2.xor_hash on one channel changed the L2 traffic"
finish
