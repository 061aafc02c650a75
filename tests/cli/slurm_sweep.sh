# dcusim sweep --slurm on a one-node Slurm cluster started here (slurm_cluster.bash): the cluster's
# CSV equals a local run's byte for byte; a cancelled task's points, and only they, run again on
# resume; --slurm without sbatch, with an unknown partition, or with a parts folder the node cannot
# see fails with one line and exit 2, and no CSV. Where Slurm cannot start, this test fails.
source "$(dirname "$0")/lib.bash"
source "$(dirname "$0")/slurm_cluster.bash"
trap 'stop_cluster; rm -rf "$WORK"' EXIT
start_cluster "$WORK/slurm" || { echo "FAIL: no Slurm cluster (see above)"; exit 1; }
echo "cluster up: $(sinfo -h -o '%P %D %T %c')"

# 12 points: 6 bank counts x 2 constant policies, on a one-wave trace.
printf 'dcusim-trace 1\nwave_size 64\nkernel k grid 1 1 1 block 64 1 1\nwave 0 0\nld lds 4 0x10 all affine 0 128\nend\n' >"$WORK/one.trace"
cd "$WORK" || exit 1
sweep=(--vary lds.banks=1,2,4,8,16,32 --vary const.divergent=serialize,vector one.trace)
expect_ok "$DCUSIM" sweep --quiet -j 2 --out local.csv "${sweep[@]}"
[ "$(wc -l <local.csv)" -eq 13 ] || fail "12 rows and a header locally"

# wait_job JOB: until Slurm has no task of JOB queued or running (2 minutes at most).
wait_job() {
    local i
    for i in $(seq 1 240); do
        [ -z "$(squeue -h -j "$1" -t PD,R,CF,CG 2>/dev/null)" ] && return 0
        sleep 0.5
    done
    fail "job $1 still queued or running after 2 minutes: $(squeue -h -j "$1")"
}
job_of() { sed -n 's/^dcusim sweep: submitted job \([0-9]*\):.*/\1/p' "$1"; }

# The partition is down while the job is submitted, so that task 3 (points 10-12) is cancelled
# before any task starts.
scontrol update PartitionName=debug State=DOWN || fail "partition down"
"$DCUSIM" sweep --slurm --per-task 3 --array-max 1 --out c.csv "${sweep[@]}" >submit1.out 2>submit1.err || fail "submit: $(cat submit1.err)"
job1=$(job_of submit1.out)
echo "first submission: $(cat submit1.out)"
[ -n "$job1" ] || fail "no job id: $(cat submit1.out)"
grep -q ": 12 points in 4 array tasks" submit1.out || fail "12 points in 4 tasks: $(cat submit1.out)"
grep -q '^#SBATCH --array=0-3%1$' c.csv.parts/slurm-1.sh || fail "array line: $(grep array c.csv.parts/slurm-1.sh)"
"$DCUSIM" sweep --status c.csv >status0.out
grep -q "^c.csv: 12 points: 0 done, 0 running, 0 failed, 12 pending, 0 lost" status0.out || fail "status before: $(head -1 status0.out)"
# Run again while all are queued: nothing is submitted twice.
"$DCUSIM" sweep --slurm --per-task 3 --array-max 1 --out c.csv "${sweep[@]}" >again.out 2>&1 || fail "again: $(cat again.out)"
grep -q "^dcusim sweep: 12 points still queued or running; nothing submitted" again.out || fail "again: $(cat again.out)"
[ ! -e c.csv.parts/slurm-2.tasks ] || fail "a second submission while the first is queued"
scancel "${job1}_3" || fail "scancel ${job1}_3"
scontrol update PartitionName=debug State=UP || fail "partition up"
wait_job "$job1"
for t in 0 1 2; do
    echo "task ${job1}_$t: $(cat "c.csv.parts/slurm-${job1}_$t.log" 2>&1)"
    grep -q "task $t on .*: 3 points run, 0 failed" "c.csv.parts/slurm-${job1}_$t.log" || fail "task $t's log"
done
[ ! -e "c.csv.parts/slurm-${job1}_3.log" ] || fail "the cancelled task ran"
[ ! -e c.csv ] || fail "no CSV while points are missing"
"$DCUSIM" sweep --status c.csv >status1.out
echo "status after the cancel: $(head -1 status1.out)"
grep -q "^c.csv: 12 points: 9 done, 0 running, 0 failed, 0 pending, 3 lost" status1.out || fail "status: $(cat status1.out)"
[ "$(grep -c "^lost .* \[task ${job1}_3\]" status1.out)" -eq 3 ] || fail "task 3's points lost: $(cat status1.out)"
expect_error 1 "^dcusim sweep: 3 of 12 points not done yet: c.csv not written" "$DCUSIM" sweep --collect --out c.csv "${sweep[@]}"

# Resume: exactly task 3's points are submitted again; the 9 done are not touched.
stamps() { (cd c.csv.parts && stat -c '%n %Y.%y' ./*.csv); }
stamps >before.txt
"$DCUSIM" sweep --slurm --per-task 3 --array-max 1 --out c.csv "${sweep[@]}" >submit2.out 2>submit2.err || fail "resume: $(cat submit2.err)"
job2=$(job_of submit2.out)
echo "resume: $(cat submit2.err) / $(cat submit2.out)"
grep -q "12 points, 9 done or failed, 0 queued or running, 3 submitted" submit2.err || fail "resume counts: $(cat submit2.err)"
cmp -s c.csv.parts/slurm-2.tasks <(sed -n 4p c.csv.parts/slurm-1.tasks) || fail "resubmitted points are task 3's"
wait_job "$job2"
echo "task ${job2}_0: $(cat "c.csv.parts/slurm-${job2}_0.log")"
stamps | grep -F -f before.txt | cmp -s - before.txt || fail "a done point ran again"
[ "$(ls c.csv.parts/*.csv | wc -l)" -eq 12 ] || fail "12 parts"

# All done: the same command writes the CSV, the local run's byte for byte.
expect_ok "$DCUSIM" sweep --slurm --per-task 3 --array-max 1 --out c.csv "${sweep[@]}"
cmp c.csv local.csv && echo "cmp: cluster CSV equals the local one" || fail "cluster CSV differs from the local run's"
"$DCUSIM" sweep --status c.csv | grep -q "^c.csv: 12 points: 12 done" || fail "status when done"

# A point that fails on the cluster (1K of LDS: the tile does not fit) is listed with its error, and
# the other still counts: exit 1 and the CSV of a local run of the same sweep.
fsweep=(--vary lds.size_bytes=1K,64K "$SRC/traces/examples/transpose64.trace")
"$DCUSIM" sweep --quiet --slurm --out f.csv "${fsweep[@]}" >fsub.out 2>&1 || fail "submit (failing point): $(cat fsub.out)"
jobf=$(job_of fsub.out)
wait_job "$jobf"
"$DCUSIM" sweep --status f.csv >fstatus.out
echo "status with a failed point: $(cat fstatus.out)"
grep -q "^f.csv: 2 points: 1 done, 0 running, 1 failed, 0 pending, 0 lost" fstatus.out || fail "status: $(cat fstatus.out)"
grep -q "^failed .* lds.size_bytes=1K \[task ${jobf}_0\]: dcusim run: kernel 'transpose_tile32': workgroup needs" fstatus.out ||
    fail "the failed point's error: $(cat fstatus.out)"
"$DCUSIM" sweep --quiet --slurm --out f.csv "${fsweep[@]}" 2>ferr.txt
[ $? -eq 1 ] || fail "collect with a failed point exits 1"
grep -q "point failed (.*lds.size_bytes=1K): dcusim run: kernel 'transpose_tile32': workgroup needs" ferr.txt || fail "failure listed: $(cat ferr.txt)"
"$DCUSIM" sweep --quiet --out fl.csv "${fsweep[@]}" 2>/dev/null
cmp -s f.csv fl.csv || fail "the CSV with a failed point differs from the local run's"
[ "$(wc -l <f.csv)" -eq 3 ] || fail "the two kernels of the good point"

# Refusals: one line, exit 2, no CSV.
expect_error 2 "^dcusim sweep: --slurm: no sbatch on the PATH" env PATH=/nonexistent "$DCUSIM" sweep --slurm --out n.csv "${sweep[@]}"
echo "refused (exit 2): $(cat "$WORK/err")"
expect_error 2 "^dcusim sweep: sbatch refused the job \(p.csv.parts\): .*Invalid partition name" \
    "$DCUSIM" sweep --slurm --partition nope --out p.csv "${sweep[@]}"
echo "refused (exit 2): $(cat "$WORK/err")"
[ ! -e n.csv ] && [ ! -e p.csv ] && [ ! -e p.csv.parts/slurm-1.tasks ] || fail "no CSV, no submission from a refused sweep"
if [ "$SLURM_NODE_NS" = 1 ]; then
    # A parts folder the node cannot see: the task fails at launch; the next run and --status say why.
    hidden=$WORK/slurm/node-only
    "$DCUSIM" sweep --slurm --out "$hidden/h.csv" "${sweep[@]}" >submit3.out 2>&1 || fail "submit (hidden): $(cat submit3.out)"
    job3=$(job_of submit3.out)
    wait_job "$job3"
    expect_error 2 "^dcusim sweep: task ${job3}_[0-9]+ on .* could not start: its node cannot open its log in .*node-only/h.csv.parts \(the folder must be on a filesystem every node shares" \
        "$DCUSIM" sweep --slurm --out "$hidden/h.csv" "${sweep[@]}"
    echo "refused (exit 2): $(cat "$WORK/err")"
    "$DCUSIM" sweep --status "$hidden/h.csv" >hidden.status
    echo "status of the hidden sweep: $(head -2 hidden.status)"
    grep -q "12 points: 0 done, 0 running, 12 failed" hidden.status || fail "status of the hidden sweep: $(cat hidden.status)"
    [ ! -e "$hidden/h.csv" ] || fail "no CSV from the hidden sweep"
    # Slurm unreachable is no reason to submit again: one line, exit 2.
    kill "$(cat "$SLURM_DIR/slurmctld.pid")"
    sleep 1
    expect_error 2 "^dcusim sweep: cannot ask Slurm about job ${job3}: squeue: " "$DCUSIM" sweep --slurm --out "$hidden/h.csv" "${sweep[@]}"
    echo "refused (exit 2): $(cat "$WORK/err")"
    expect_error 2 "^dcusim sweep: cannot ask Slurm about job ${job3}: squeue: " "$DCUSIM" sweep --status "$hidden/h.csv"
    echo "refused (exit 2): $(cat "$WORK/err")"
else
    echo "SKIPPED: a parts folder the node cannot see, and Slurm unreachable: no mount namespace on this machine"
fi
finish
