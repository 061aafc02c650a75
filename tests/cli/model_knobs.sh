# cu.launch_cycles and cu.wave_issue_cycles, run against run (one simulation per process):
# one wave of 10 instructions with issue_cycles 1 takes 10 cycles of issue; if the wave may
# issue only every 4th cycle, 40 (30 more); a launch overhead of 1000 adds exactly 1000.
source "$(dirname "$0")/lib.bash"
printf 'dcusim-trace 1\nwave_size 64\nkernel k grid 1 1 1 block 64 1 1\nwave 0 0\ncompute 10\nend\n' >"$WORK/c.trace"
cycles() { "$DCUSIM" run -q --cu.issue_cycles 1 "$@" --csv "$WORK/c.csv" "$WORK/c.trace" >/dev/null || fail "run $*";
           awk -F, 'NR==1 {for (i=1;i<=NF;i++) if ($i=="cycles") c=i} NR==2 {print $c}' "$WORK/c.csv"; }
base=$(cycles)
spaced=$(cycles --cu.wave_issue_cycles 4)
launched=$(cycles --cu.launch_cycles 1000)
[ $((spaced - base)) -eq 30 ] || fail "wave_issue_cycles 4: $spaced cycles against $base (expected 30 more)"
[ $((launched - base)) -eq 1000 ] || fail "launch_cycles 1000: $launched cycles against $base (expected 1000 more)"
finish
