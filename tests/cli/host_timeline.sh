# A trace's host statements through dcusim run (DCU preset: PCIe 4.0 x16 at 28,807 MB/s): the
# timeline's figures in the total, worked out by hand, and --timeline's trace-event file.
source "$(dirname "$0")/lib.bash"
cd "$WORK" || exit 1
# 28,807,000 bytes at 28,807 MB/s take exactly 1 ms, after the direction's fixed cost (8,573 ns h2d,
# 7,507 ns d2h). Stream 1: h2d, then the kernel; stream 2: a d2h of its own, on the other engine.
cat >host.trace <<'T'
dcusim-trace 1
wave_size 64
copy h2d 28807000 pinned stream 1 async
copy d2h 28807000 pinned stream 2 async
kernel k grid 4 1 1 block 64 1 1 stream 1
wave 0 0
ld global 4 0x10 all affine 0x100000 4
wave 1 0
ld global 4 0x10 all affine 0x200000 4
end
sync
T
expect_ok "$DCUSIM" run -q --json out.json --timeline t.json host.trace
grep -q "^host timeline: " "$WORK/out" || fail "no host timeline line: $(cat "$WORK/out")"
python3 - out.json t.json <<'PY' || fail "host figures or timeline file"
import json, sys
out, tl = (json.load(open(p)) for p in sys.argv[1:3])
t = out["total"]
kernel_ns = round(out["kernels"][0]["stats"]["cycles"] * 1e6 / 1500) / 1e3   # 1500 MHz: cycles to ps, rounded, in ns
h2d, d2h = 1008573, 1007507
want = {"copy.h2d_bytes": 28807000, "copy.d2h_bytes": 28807000, "copy.d2d_bytes": 0, "copy.ns": h2d + d2h,
        "kernel.ns": kernel_ns, "timeline.ns": h2d + kernel_ns, "overlap.ns": d2h}   # the d2h runs under the h2d
bad = {k: (t.get(k), v) for k, v in want.items() if abs(t.get(k, -1) - v) > 1e-6}
if bad: sys.exit("figures (got, want): %s" % bad)
x = [e for e in tl["traceEvents"] if e["ph"] == "X"]
if len(x) != 6: sys.exit("%d complete events, want 6 (3 pieces of work on 2 tracks each)" % len(x))
k = [e for e in x if e["name"] == "k" and e["pid"] == 1]
if len(k) != 1 or k[0]["tid"] != 1 or abs(k[0]["ts"] - h2d / 1e3) > 1e-9: sys.exit("kernel event: %s" % k)
PY
# Without host statements: no host figures, and an empty timeline but for the kernels.
grep -v "^copy\|^sync" host.trace | sed 's/ stream 1$//' >kernels.trace
expect_ok "$DCUSIM" run -q --json k.json --timeline k_t.json kernels.trace
grep -q '"timeline.ns"' k.json && fail "timeline.ns without host statements"
grep -q "^host timeline" "$WORK/out" && fail "host timeline line without host statements"
[ "$(grep -c '"ph": "X"' k_t.json)" -eq 2 ] || fail "the kernel on its stream's and the GPU's track: $(cat k_t.json)"
# Outputs all or none: an unwritable --timeline leaves no --json behind.
expect_error 2 "^dcusim run: " "$DCUSIM" run -q --json none.json --timeline /nonexistent/dir/t.json host.trace
[ ! -e none.json ] || fail "--json written although --timeline failed"
finish
