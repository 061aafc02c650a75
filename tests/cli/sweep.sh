# dcusim sweep: the acceptance table, resuming after a kill, failing points.
source "$(dirname "$0")/lib.bash"
GEN="$(dirname "$DCUSIM")/dcusim-tracegen"

printf 'dcusim-trace 1\nwave_size 64\nkernel k grid 1 1 1 block 64 1 1\nwave 0 0\nld lds 4 0x10 all affine 0 128\nend\n' >"$WORK/one.trace"
expect_ok "$DCUSIM" sweep --quiet --vary lds.banks=16,32,64 --out "$WORK/s.csv" --json "$WORK/s.json" "$WORK/one.trace"
[ "$(wc -l <"$WORK/s.csv")" -eq 4 ] || fail "3 rows and a header"
head -1 "$WORK/s.csv" | grep -q "^trace,kernel,lds.banks,.*lds.bank_conflict_cycles" || fail "header"
col=$(head -1 "$WORK/s.csv" | tr ',' '\n' | grep -n '^lds.bank_conflict_cycles$' | cut -d: -f1)
[ "$(cut -d, -f3,"$col" "$WORK/s.csv" | tail -3 | tr '\n' ' ')" = "16,60 32,62 64,31 " ] || fail "conflict cycles 60, 62, 31: $(cut -d, -f3,"$col" "$WORK/s.csv")"
grep -q '"lds.banks": "64"' "$WORK/s.json" || fail "json"

# Bad keys and values are refused before anything runs.
expect_error 2 "unknown key 'lds.bankz'" "$DCUSIM" sweep --vary lds.bankz=1,2 --out "$WORK/x.csv" "$WORK/one.trace"
expect_error 2 "key 'lds.banks': must be at least 1, not 0" "$DCUSIM" sweep --vary lds.banks=0,1 --out "$WORK/x.csv" "$WORK/one.trace"
# So are combinations that make no preset: 1M is a whole number of sets at 4 ways (16 channels x 128 x 4
# = 8K) but not at 48 (16 x 128 x 48 = 96K), so 1 of the 2 combinations; nothing runs.
expect_error 2 "^dcusim sweep: 1 of 2 combinations make no valid preset, the first \(l2.size_bytes=1M l2.assoc=48: --vary l2.size_bytes: .*nearest: 960K or 1056K\)$" \
    "$DCUSIM" sweep --vary l2.size_bytes=1M --vary l2.assoc=4,48 --out "$WORK/x.csv" "$WORK/one.trace"
[ ! -e "$WORK/x.csv" ] && [ ! -e "$WORK/x.csv.parts" ] || fail "no CSV from a refused sweep"

# A failing point is reported; the others go on.
"$DCUSIM" sweep --quiet --vary lds.size_bytes=1K,64K --out "$WORK/f.csv" "$SRC/traces/examples/transpose64.trace" 2>"$WORK/f.err"
[ $? -eq 1 ] || fail "a sweep with a failed point exits 1"
grep -q "point failed (.*lds.size_bytes=1K): dcusim run: kernel 'transpose_tile32': workgroup needs" "$WORK/f.err" || fail "failure report: $(cat "$WORK/f.err")"
[ "$(wc -l <"$WORK/f.csv")" -eq 3 ] || fail "the two kernels of the good point"

# Kill a sweep half-way, run it again: only the missing points run, and the
# CSV equals an uninterrupted run's.
"$GEN" stream --bytes $((1 << 20)) --blocks 64 --waves 4 -o "$WORK/st.dctrace"
args=(--vary l2.size_bytes=256K,512K,1M,2M,4M,8M -j 1 --out "$WORK/k.csv" "$WORK/st.dctrace")
"$DCUSIM" sweep --quiet "${args[@]}" &
pid=$!
# (up to 5 minutes: a sanitizer build is slow)
for _ in $(seq 1 6000); do
    [ "$(ls "$WORK/k.csv.parts" 2>/dev/null | grep -c '\.csv$')" -ge 1 ] && break
    sleep 0.05
done
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
done_before=$(ls "$WORK/k.csv.parts" | grep -c '\.csv$')
[ "$done_before" -ge 1 ] && [ "$done_before" -lt 6 ] || fail "the kill should leave some points done ($done_before)"
"$DCUSIM" sweep "${args[@]}" 2>"$WORK/resume.err" || fail "resumed sweep failed"
grep -q "6 points, $done_before done already, $((6 - done_before)) to run" "$WORK/resume.err" || fail "resume: $(head -1 "$WORK/resume.err")"
expect_ok "$DCUSIM" sweep --quiet --vary l2.size_bytes=256K,512K,1M,2M,4M,8M -j 2 --out "$WORK/u.csv" "$WORK/st.dctrace"
cmp -s "$WORK/k.csv" "$WORK/u.csv" || fail "resumed CSV differs from an uninterrupted run's"
finish
