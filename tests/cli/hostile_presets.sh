# Issue 22, presets: values users found (each a one-line error naming the key or FILE:LINE, exit 2,
# within a second, no output left), then every key at and past its declared bounds, then the
# watchdog that ends a run without progress or past its memory limit.
source "$(dirname "$0")/lib.bash"
GEN="$(dirname "$DCUSIM")/dcusim-tracegen"
J="$WORK/out.json"
C="$WORK/out.csv"
good="$WORK/good.trace"
ex="$SRC/traces/examples/transpose64.trace"
printf 'dcusim-trace 1\nwave_size 64\nkernel a grid 2 1 1 block 64 1 1\nwave 0 0\nld lds 4 0 all affine 0 4\nwave 1 0\nld lds 4 0 all affine 0 4\nend\n' >"$good"

# hostile NAME REGEX ARGS...: `dcusim run` refuses ARGS at once.
hostile() {
    local name=$1 regex=$2
    shift 2
    local t0=$(date +%s%N)
    expect_error 2 "$regex" timeout 20 "$DCUSIM" run --quiet --json "$J" --csv "$C" "$@"
    local ms=$((($(date +%s%N) - t0) / 1000000))
    [ "$ms" -lt 1000 ] || fail "$name: took $ms ms"
    [ ! -e "$J" ] && [ ! -e "$C" ] || fail "$name: an output file was left behind"
    rm -f "$J" "$C"
}

# Found by users: SIGFPE, hangs, 6.9 GB, bad_alloc.
hostile clock-tiny "^dcusim run: --cu.clock_mhz: key 'cu.clock_mhz': must be at least 1, not 1e-300$" --cu.clock_mhz 1e-300 "$good"
hostile clock-small "key 'cu.clock_mhz': must be at least 1, not 1e-10" --cu.clock_mhz 1e-10 "$good"
hostile dram-clock "key 'dram.clock_mhz': must be at least 1, not 1e-300" --dram.clock_mhz 1e-300 "$good"
hostile dispatch "key 'cu.dispatch_cycles': must be at most 100000, not 1e300" --cu.dispatch_cycles 1e300 "$good"
hostile simds "key 'cu.simds': must be at most 64 \(GPUs have 1 to 4\), not 2147483648" --cu.simds 2147483648 "$good"
hostile simds-max "key 'cu.simds': must be at most 64" --cu.simds 4294967295 "$good"
hostile banks-max "key 'lds.banks': must be at most 1024, not 4294967295" --lds.banks 4294967295 "$good"
hostile tRCD "key 'dram.tRCD': must be at most 4096 \(memory cycles\), not 65536" --dram.tRCD 65536 "$good"
# Inside the timing range but past the refresh window: 14 + 220 + (4000 + 17 + 2) = 4253 > tREFI 3900.
hostile tRCD-refresh "^dcusim run: --dram.tRCD: key 'dram.tRCD': dram.tREFI must be 0 \(no refresh\) or more than tRP \+ tRFC \+ one access \(4253\)" \
    --dram.tRCD 4000 "$good"
hostile dev-zero "^dcusim run: /dev/zero: larger than 1 MiB: not a preset file$" --config /dev/zero "$good"
hostile folder "^dcusim run: $WORK: is a folder, not a preset file$" --config "$WORK" "$good"
printf '[lds]\nbanks = 32\n\n[cu]\nsimds = 4\n\n[lds]\nbanks = 64\n' >"$WORK/twice.ini"
hostile duplicate "^dcusim run: $WORK/twice.ini:8: key 'lds.banks' is set twice, first at line 2$" --config "$WORK/twice.ini" "$good"
printf '[dram]\ntRCD = 65536\n' >"$WORK/trcd.ini"
hostile file-line "^dcusim run: $WORK/trcd.ini:2: key 'dram.tRCD': must be at most 4096" --config "$WORK/trcd.ini" "$good"
# A tRCD that fits, with the rest of the row cycle raised to match, runs (the 2,500-cycle example: under a second).
t0=$(date +%s%N)
expect_ok timeout 20 "$DCUSIM" run --quiet --dram.tRCD 3600 "$SRC/traces/examples/transpose64.trace"
[ $((($(date +%s%N) - t0) / 1000000)) -lt 1000 ] || fail "tRCD 3600: over a second"

# Every key: its bounds from --help ("; MIN to MAX]"); past the upper bound it is refused naming the
# key; at it, the run of the example (LDS and global memory) ends within seconds (a result, or a one-line error: values against each other).
"$DCUSIM" --help | sed -nE 's/^  --([a-z0-9_.A-Za-z]+) N .*; (0 or )?([0-9.]+[KMG]?) to ([0-9.]+[KMG]?)\]$/\1 \3 \4/p' >"$WORK/ranges"
[ "$(wc -l <"$WORK/ranges")" -ge 95 ] || fail "--help lists the range of $(wc -l <"$WORK/ranges") keys only"
while read -r key lo hi; do
    expect_error 2 "key '$key': must be (at most|0 or between)" "$DCUSIM" run --quiet --"$key" 99999999999999 "$good"
    # UInt and Size keys past the bound by one (sizes as bytes).
    case $hi in
        *K) n=$((${hi%K} * 1024 + 1)) ;; *M) n=$((${hi%M} * 1048576 + 1)) ;; *G) n=$((${hi%G} * 1073741824 + 1)) ;;
        *.*|*e*) n="" ;; *) n=$((hi + 1)) ;;
    esac
    [ -n "$n" ] && expect_error 2 "key '$key': must be (at most|0 or between)" "$DCUSIM" run --quiet --"$key" "$n" "$good"
    timeout 20 "$DCUSIM" run --quiet --"$key" "$hi" "$ex" >"$WORK/out" 2>"$WORK/err"
    rc=$?
    { [ $rc -eq 0 ] || { [ $rc -eq 2 ] && [ "$(wc -l <"$WORK/err")" -eq 1 ]; }; } || fail "--$key $hi: exit $rc: $(head -c 300 "$WORK/err")"
    if [ "$lo" != 0 ]; then
        timeout 20 "$DCUSIM" run --quiet --"$key" "$lo" "$ex" >"$WORK/out" 2>"$WORK/err"
        rc=$?
        { [ $rc -eq 0 ] || { [ $rc -eq 2 ] && [ "$(wc -l <"$WORK/err")" -eq 1 ]; }; } || fail "--$key $lo: exit $rc: $(head -c 300 "$WORK/err")"
    fi
done <"$WORK/ranges"

# The watchdog. Simulated time stops at cycle 5000 in the stream's only kernel; two seconds later
# the run ends, naming the kernel and the CUs' latest cycle (at most 5000). (Two seconds: a
# sanitizer build on a loaded host must not take that long between two instructions of a valid run.)
"$GEN" stream --bytes 8M --blocks 64 --waves 4 -o "$WORK/st.dctrace" || fail "tracegen"
kernel=stream_read  # dcusim trace stats: its only kernel
t0=$(date +%s%N)
expect_error 2 "^dcusim run: kernel $kernel, cycle [0-9]+: the run made no progress for 2\.[0-9] s \(sim.stall_seconds\)" \
    env DCUSIM_TEST_LIVELOCK_AT=5000 timeout 20 "$DCUSIM" run --quiet --sim.stall_seconds 2 --json "$J" "$WORK/st.dctrace"
[ $((($(date +%s%N) - t0) / 1000000)) -lt 10000 ] || fail "watchdog: over 10 s"
cycle=$(sed -n 's/.*, cycle \([0-9]*\):.*/\1/p' "$WORK/err")
[ -n "$cycle" ] && [ "$cycle" -gt 0 ] && [ "$cycle" -le 5000 ] || fail "watchdog: cycle '$cycle', expected 1 to 5000"
[ ! -e "$J" ] || fail "watchdog: output left"
# The same run without the livelock finishes.
expect_ok "$DCUSIM" run --quiet --sim.stall_seconds 2 "$WORK/st.dctrace"
# Sampling skips most of a large kernel's workgroups without issuing an instruction: those count as
# progress. 8,388,608 one-wave workgroups, all but ~16,000 skipped (seconds of reading and warming):
# the run ends well, with no verdict of a stall.
"$GEN" stream --bytes 2G --blocks 8388608 --waves 1 -o "$WORK/big.dctrace" || fail "tracegen (large)"
expect_ok "$DCUSIM" run --quiet --sample.mode auto --sim.stall_seconds 0.5 --json "$J" "$WORK/big.dctrace"
grep -q '"sample.workgroups_total": 8388608' "$J" || fail "sampled stall: no sampled report"
rm -f "$J" "$WORK/big.dctrace"
# Memory: 4096 CUs' L1 tags (4096 x 4096 lines) pass the 64 MiB limit while the GPU is built.
expect_error 2 "^dcusim run: before the first kernel, cycle 0: the run uses [0-9]+ MiB of memory, past sim.memory_limit_bytes \(64 MiB\)$" \
    "$DCUSIM" run --quiet --sim.memory_limit_bytes 64M --cu.count 4096 --l1.size_bytes 256K --json "$J" "$good"
[ ! -e "$J" ] || fail "memory limit: output left"
finish
