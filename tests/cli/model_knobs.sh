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
finish
