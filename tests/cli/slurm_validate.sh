# dcusim validate DIR --slurm on a one-node Slurm cluster started here (slurm_cluster.bash): three
# traces' replays in two array tasks; the report's CSV equals a local validation's byte for byte;
# a trace that cannot be replayed fails the validation as locally (one line, exit 2, no report).
source "$(dirname "$0")/lib.bash"
source "$(dirname "$0")/slurm_cluster.bash"
trap 'stop_cluster; rm -rf "$WORK"' EXIT
start_cluster "$WORK/slurm" || { echo "FAIL: no Slurm cluster (see above)"; exit 1; }
cfg="$SRC/configs/h200.ini"

# Three made-up kernels: a wave32 LDS read at a stride of 128, 64 and 4 bytes (31, 15 and 0
# conflicts), each with "measured" counters.
d=$WORK/results
mkdir -p "$d/traces"
echo "trace,kernel,family,variant,scale" >"$d/pairs.csv"
echo "family,variant,kernel,scale,size,metric,value,unit" >"$d/measurements.csv"
for s in 128 64 4; do
    printf 'dcusim-trace 1\nwave_size 32\nkernel k grid 1 1 1 block 32 1 1\nwave 0 0\nld lds 4 0x10 all affine 0 %s\nwait\nend\n' "$s" >"$d/traces/s$s.trace"
    echo "traces/s$s.trace,0,lds,s$s,small" >>"$d/pairs.csv"
    { echo "lds,s$s,k,small,1,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,$((s == 128 ? 31 : s == 64 ? 15 : 0)),"
      echo "lds,s$s,k,small,1,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,0,"
      echo "lds,s$s,k,small,1,gpc__cycles_elapsed.max,1000,cycle"; } >>"$d/measurements.csv"
done
cd "$WORK" || exit 1
expect_ok "$DCUSIM" validate results --config "$cfg" --out local -q
grep -c "lds_bank_conflicts,\(31\|15\|0\).000,\(31\|15\|0\).000,0.000,abs,1$" local/validation.csv | grep -q '^3$' ||
    fail "3 exact conflict rows locally: $(cat local/validation.csv)"

wait_job() {
    local i
    for i in $(seq 1 240); do
        [ -z "$(squeue -h -j "$1" -t PD,R,CF,CG 2>/dev/null)" ] && return 0
        sleep 0.5
    done
    fail "job $1 still queued or running after 2 minutes"
}
args=(results --config "$cfg" --out cl -q --slurm --per-task 2)
"$DCUSIM" validate "${args[@]}" >submit.out 2>&1 || fail "submit: $(cat submit.out)"
echo "submission: $(cat submit.out)"
job=$(sed -n 's/^dcusim validate: submitted job \([0-9]*\):.*/\1/p' submit.out)
grep -q ": 3 points in 2 array tasks" submit.out || fail "3 replays in 2 tasks: $(cat submit.out)"
[ ! -e cl/report.md ] || fail "a report before the replays ran"
wait_job "$job"
for t in 0 1; do echo "task ${job}_$t: $(cat "cl/slurm-runs/slurm-${job}_$t.log")"; done
"$DCUSIM" validate results --config "$cfg" --out cl --status >status.out
echo "status: $(head -1 status.out)"
grep -q "3 points: 3 done, 0 running, 0 failed, 0 pending, 0 lost" status.out || fail "status: $(cat status.out)"
expect_ok "$DCUSIM" validate "${args[@]}"
cmp cl/validation.csv local/validation.csv && echo "cmp: cluster validation.csv equals the local one" || fail "validation.csv differs"
grep -q "cycles MAPE" "$WORK/out" || fail "summary on stdout: $(cat "$WORK/out")"

# A trace the replay refuses: the validation fails with its error, one line, exit 2, no report.
printf 'dcusim-trace 1\nwave_size 32\nkernel k grid 1 1 1 block 32 1 1\nwave 0 0\nld bogus\nend\n' >"$d/traces/s4.trace"
"$DCUSIM" validate "${args[@]}" >submit2.out 2>&1 || fail "submit 2: $(cat submit2.out)"
grep -q ": 1 points in 1 array tasks" submit2.out || fail "only the edited trace runs again: $(cat submit2.out)"
wait_job "$(sed -n 's/^dcusim validate: submitted job \([0-9]*\):.*/\1/p' submit2.out)"
rm -f cl/report.md
expect_error 2 "^dcusim validate: traces/s4.trace: .*s4.trace" "$DCUSIM" validate "${args[@]}"
echo "refused (exit 2): $(cat "$WORK/err")"
[ ! -e cl/report.md ] || fail "no report from a failed validation"
finish
