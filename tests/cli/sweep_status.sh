# dcusim sweep --slurm and --status against stand-ins for sbatch, squeue and sacct (no cluster):
# each state a point can be in, worked out from the rows Slurm gives, and what a resume submits.
source "$(dirname "$0")/lib.bash"
bin=$WORK/bin
mkdir -p "$bin"
printf '#!/bin/sh\necho 7\n' >"$bin/sbatch"
# Job 7: task 1 runs, task 2 waits; tasks 0 and 3 are gone from squeue (task 0 finished its point).
printf '#!/bin/sh\nprintf "7_1|RUNNING|None|n1\\n7_2|PENDING|Priority|\\n"\n' >"$bin/squeue"
# Accounting remembers task 3: past its time limit.
printf '#!/bin/sh\nprintf "7_3|TIMEOUT|None|n2\\n7_0|COMPLETED|None|n1\\n"\n' >"$bin/sacct"
chmod +x "$bin"/*
printf 'dcusim-trace 1\nwave_size 64\nkernel k grid 1 1 1 block 64 1 1\nwave 0 0\nld lds 4 0x10 all affine 0 128\nend\n' >"$WORK/one.trace"
cd "$WORK" || exit 1
sweep=(--vary lds.banks=8,16,32,64 one.trace)
expect_ok "$DCUSIM" sweep --quiet --out l.csv "${sweep[@]}"
PATH=$bin:$PATH "$DCUSIM" sweep --slurm --out s.csv "${sweep[@]}" >sub.out 2>sub.err || fail "submit: $(cat sub.err)"
grep -q "^dcusim sweep: submitted job 7: 4 points in 4 array tasks (s.csv.parts/slurm-1.sh); dcusim sweep --status s.csv$" sub.out ||
    fail "submission: $(cat sub.out)"
grep -q "^dcusim sweep: 4 points, 0 done or failed, 0 queued or running, 4 submitted$" sub.err || fail "counts: $(cat sub.err)"
# What the tasks would have left: point 0's part (the local run's: the same point), point 1's error file.
ids=($(cat s.csv.parts/slurm-1.tasks))
[ "${#ids[@]}" -eq 4 ] || fail "4 tasks of one point: $(cat s.csv.parts/slurm-1.tasks)"
cp "l.csv.parts/${ids[0]}.csv" s.csv.parts/
: >"s.csv.parts/${ids[1]}.err"
PATH=$bin:$PATH "$DCUSIM" sweep --status s.csv >st.out || fail "status exited $?"
cat >want.out <<WANT
s.csv: 4 points: 1 done, 1 running, 0 failed, 1 pending, 1 lost (submitted again by the same command)
running ${ids[1]} one.trace lds.banks=16 [task 7_1]: RUNNING
pending ${ids[2]} one.trace lds.banks=32 [task 7_2]: PENDING, Priority
lost ${ids[3]} one.trace lds.banks=64 [task 7_3]: task 7_3 ended TIMEOUT without finishing it
WANT
diff want.out st.out >/dev/null || fail "status: $(diff want.out st.out)"
# Resume: only the lost point is submitted; the one done and the two queued are not.
PATH=$bin:$PATH "$DCUSIM" sweep --slurm --out s.csv "${sweep[@]}" >sub2.out 2>sub2.err || fail "resume: $(cat sub2.err)"
grep -q "^dcusim sweep: 4 points, 1 done or failed, 2 queued or running, 1 submitted$" sub2.err || fail "resume counts: $(cat sub2.err)"
[ "$(cat s.csv.parts/slurm-2.tasks)" = "${ids[3]}" ] || fail "resubmitted: $(cat s.csv.parts/slurm-2.tasks)"
[ ! -e s.csv ] || fail "no CSV while points are out"
expect_error 1 "^dcusim sweep: 3 of 4 points not done yet: s.csv not written" env PATH="$bin:$PATH" "$DCUSIM" sweep --collect --out s.csv "${sweep[@]}"
# A controller that does not answer: one line, exit 2, nothing submitted.
printf '#!/bin/sh\necho "slurm_load_jobs error: Unable to contact slurm controller (connect failure)"\nexit 1\n' >"$bin/squeue"
expect_error 2 "^dcusim sweep: cannot ask Slurm about job 7: squeue: slurm_load_jobs error: Unable to contact slurm controller" \
    env PATH="$bin:$PATH" "$DCUSIM" sweep --slurm --out s.csv "${sweep[@]}"
[ ! -e s.csv.parts/slurm-3.tasks ] || fail "submitted without Slurm's word"
# No sbatch, and a fresh sweep: one line, exit 2, no CSV.
expect_error 2 "^dcusim sweep: --slurm: no sbatch on the PATH" env PATH=/nonexistent "$DCUSIM" sweep --slurm --out n.csv "${sweep[@]}"
[ ! -e n.csv ] || fail "no CSV without sbatch"
expect_error 2 "^dcusim sweep: .*nope.csv.parts/slurm-points.tsv: no sweep submitted with --slurm there$" "$DCUSIM" sweep --status nope.csv
finish
