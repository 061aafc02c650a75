# dcusim measure against stand-ins for ncu, dcutrace and rocprof that replay real outputs: the
# H200 run's (validation/results/h200-measure, ncu and dcutrace) and, for the AMD path, a
# rocprof CSV written here in rocprof's format (we have no DCU: no real rocprof output exists).
# Checks the layout written (byte for byte against the H200 run's), that dcusim validate reads
# it, and every error path: exit 2, one line, and no pairs.csv left to pass for a measurement.
source "$(dirname "$0")/lib.bash"
REAL=$SRC/validation/results/h200-measure/three_kernels_h200
bin=$WORK/bin
mkdir -p "$bin"
# dcutrace -o TRACE --times CSV [--kernel R] -- PROGRAM ARGS: runs the program, then gives the real capture.
cat >"$bin/dcutrace" <<STUB
#!/bin/sh
while [ "\$1" != "--" ]; do case "\$1" in -o) out=\$2; shift ;; --times) times=\$2; shift ;; esac; shift; done
shift
"\$@" || exit 3
cp "$REAL/traces/three_kernels.trace" "\$out" && cp "$REAL/capture.csv" "\$times"
[ -z "\${STUB_BAD_TRACE:-}" ] || echo "dcusim-trace 1 garbage" >"\$out"
exit 0
STUB
# ncu --csv --clock-control none --metrics LIST [--kernel-name R] PROGRAM ARGS: the real report.
cat >"$bin/ncu" <<STUB
#!/bin/sh
echo "\$@" >"$WORK/ncu.args"
while :; do case "\$1" in --csv) shift ;; --clock-control | --metrics | --kernel-name) shift 2 ;; *) break ;; esac; done
"\$@" || exit 1
if [ -n "\${STUB_NCU_DROP:-}" ]; then grep -v '^"2",' "$REAL/profile.log"
elif [ -n "\${STUB_NCU_RENAME:-}" ]; then sed 's/"gather(/"scatter(/' "$REAL/profile.log"
elif [ -n "\${STUB_NCU_EMPTY:-}" ]; then echo "==PROF== No kernels were profiled."
else cat "$REAL/profile.log"; fi
STUB
# rocprof -i INPUT -o CSV PROGRAM ARGS: three dispatches in rocprof's per-dispatch layout.
cat >"$bin/rocprof" <<STUB
#!/bin/sh
cp "\$2" "$WORK/rocprof.input"
out=\$4
shift 4
"\$@" || exit 1
printf 'Index,KernelName,gpu-id,grd,GRBM_GUI_ACTIVE,SQ_WAVES,TCC_HIT_sum\n' >"\$out"
printf '0,"saxpy(float, float const*, float*, int) [clone .kd]",1,262144,5000,4096,100\n' >>"\$out"
printf '1,"block_sum(float const*, float*, int) [clone .kd]",1,262144,6000,4096,200\n' >>"\$out"
printf '2,"gather(float const*, float*, int) [clone .kd]",1,262144,7000,4096,300\n' >>"\$out"
STUB
# The program: exits with PROG_RC; built with dcucc, it writes its own trace where DCUCC_TRACE says.
cat >"$bin/three_kernels" <<STUB
#!/bin/sh
[ -z "\${DCUCC_TRACE:-}" ] || cp "$REAL/traces/three_kernels.trace" "\$DCUCC_TRACE"
exit \${PROG_RC:-0}
STUB
chmod +x "$bin"/*
cd "$WORK" || exit 1
export PATH=$bin:/usr/bin:/bin
H200=(--config "$SRC/configs/h200.ini")
measure() { "$DCUSIM" measure "$@"; }

expect_ok measure -o ok "${H200[@]}" -- three_kernels
grep -q "^dcusim measure: 3 launches of three_kernels captured (dcutrace) and profiled (ncu) into ok$" "$WORK/out" ||
    fail "summary: $(cat "$WORK/out")"
for f in pairs.csv measurements.csv replay.ini capture.csv profile.log traces/three_kernels.trace; do
    cmp -s "ok/$f" "$REAL/$f" || fail "ok/$f differs from the H200 run's"
done
# The counters the H200 preset's report.profiler (ncu) names, and nothing else: the same set as the
# H200 run asked for (its measurements' metrics).
grep -q -- "^--csv --clock-control none --metrics [^ ]* three_kernels$" "$WORK/ncu.args" || fail "ncu command line: $(cat "$WORK/ncu.args")"
asked=$(sed 's/.*--metrics \([^ ]*\) .*/\1/' "$WORK/ncu.args" | tr ',' '\n' | sort)
measured=$(grep -o ',,[a-z0-9]*__[a-z0-9_.]*,' "$REAL/measurements.csv" | tr -d , | sort -u)  # ncu's names hold "__"
[ "$asked" = "$measured" ] || fail "ncu asked for $(echo $asked), the H200 run measured $(echo $measured)"
expect_ok "$DCUSIM" validate ok "${H200[@]}" --out report -q
cmp -s report/validation.csv "$SRC/validation/results/h200-measure/report/validation.csv" || fail "validate's table differs from the H200 run's"

# Errors: exit 2, one line, no pairs.csv.
no_pairs() { [ ! -e "$1/pairs.csv" ] || fail "$1/pairs.csv written by a failed measure"; }
expect_error 2 "^dcusim measure: ok exists and is not an empty folder$" measure -o ok "${H200[@]}" -- three_kernels
expect_error 2 "^dcusim measure: no program \(dcusim measure -o DIR -- PROGRAM ARGS...\)$" measure -o d0 "${H200[@]}"
expect_error 2 "^dcusim measure: ./nothing_here: no such program$" measure -o d1 "${H200[@]}" -- ./nothing_here
expect_error 2 "^dcusim measure: --capture nvbit: say dcutrace, dcucc or auto$" measure -o d1 --capture nvbit -- three_kernels
PROG_RC=5 expect_error 2 "^dcusim measure: dcutrace running three_kernels exited with status 3 \(d2/capture.log\)$" \
    measure -o d2 "${H200[@]}" -- three_kernels
no_pairs d2
STUB_NCU_DROP=1 expect_error 2 "^dcusim measure: 2 launches under ncu but 3 captured by dcutrace \(d3/profile.log, d3/capture.log\)$" \
    measure -o d3 "${H200[@]}" -- three_kernels
no_pairs d3
STUB_NCU_RENAME=1 expect_error 2 "^dcusim measure: launch 2 is scatter\(const float \*, float \*, int\) under ncu but gather\(floatconst\*,float\*,int\) in the capture" \
    measure -o d4 "${H200[@]}" -- three_kernels
no_pairs d4
STUB_NCU_EMPTY=1 expect_error 2 "^d5/profile.log: no CSV report of ncu" measure -o d5 "${H200[@]}" -- three_kernels
no_pairs d5
STUB_BAD_TRACE=1 expect_error 2 "^dcusim measure: the capture is unreadable: d6/traces/three_kernels.trace" \
    measure -o d6 "${H200[@]}" -- three_kernels
no_pairs d6
PATH=/usr/bin:/bin expect_error 2 "^dcusim measure: ncu is not on the PATH \(.*h200.ini reports ncu counters" \
    measure -o d7 "${H200[@]}" -- "$bin/three_kernels"
mkdir nodcutrace && cp "$bin/ncu" nodcutrace/
PATH=$WORK/nodcutrace:/usr/bin:/bin expect_error 2 "^dcusim measure: dcutrace is not on the PATH" \
    measure -o d8 "${H200[@]}" -- "$bin/three_kernels"

# AMD: the built-in (DCU) preset names rocprof counters; the program captures itself (dcucc).
expect_ok measure -o amd -- three_kernels
grep -q "captured (dcucc) and profiled (rocprof)" "$WORK/out" || fail "amd summary: $(cat "$WORK/out")"
grep -q "^pmc: GRBM_GUI_ACTIVE$" "$WORK/rocprof.input" || fail "rocprof input: $(cat "$WORK/rocprof.input")"
grep -q '^three_kernels,2:gather,"gather(float const\*, float\*, int) \[clone .kd\]",run,,TCC_HIT,300,$' amd/measurements.csv ||
    fail "rocprof measurements: $(cat amd/measurements.csv)"
[ "$(grep -c ',GRBM_GUI_ACTIVE,' amd/measurements.csv)" -eq 3 ] || fail "3 launches of GRBM_GUI_ACTIVE"
finish
