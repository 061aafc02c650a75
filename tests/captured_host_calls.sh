# validation/kernels/host_kinds.hip as dcutrace and dcucc captured it on the H200
# (validation/results/h200-hostcapture/host_kinds.trace, host_kinds_dcucc.trace): each one's host statements against what the
# program's source does, and `dcusim run --timeline` on it, whose file must keep to the trace-event
# format (trace_event_check: the unit tests' check) and hold copy times worked out by hand. Then the
# copy benchmark transfers.hip captured there with no kernel traced (transfers.trace): its copies and
# waits counted from the source, and its copy times predicted within 10 % (MAPE, 64 KiB and up) of
# those measured in the same device call (issue "transfers", acceptance 3).
# Usage: captured_host_calls.sh DCUSIM TRACE_EVENT_CHECK SRC
set -u
DCUSIM=$1 CHECK=$2 SRC=$3
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK" || exit 1
check_host_kinds() {  # check_host_kinds TRACE
TRACE=$1
echo "== $TRACE"
"$DCUSIM" trace dump "$TRACE" >dump.txt || { echo "FAIL: trace dump"; return 1; }
# The statements between kernels, and each kernel's loads and stores, for the checks below.
python3 - dump.txt <<'PY' || return 1
import re, sys
lines = open(sys.argv[1]).read().splitlines()
host = [l for l in lines if re.match(r"(map|copy|sync|host|kernel) ", l) or l == "sync"]
MiB8, MiB4 = 8 << 20, 4 << 20
# From the source: phase 1 copies kBytes (8 MiB) h2d from pageable, pinned, wc, mapped, then d2h into
# each, on the default stream, and waits for its last event (recorded on stream 0); phase 2 copies
# kHalf (4 MiB) on streams 1 (pinned both ways) and 2 (wc in, mapped out) around `scale`, the host
# sums, then waits for stream 1 and 2; phase 3 runs read_mapped on the default stream and waits for
# the device. hipHostMalloc(mapped) of 8 MiB gives the one map; setup ends with hipDeviceSynchronize.
want = (["map * %d" % MiB8, "sync"]
        + ["copy h2d %d %s" % (MiB8, k) for k in ("pageable", "pinned", "wc", "mapped")]
        + ["copy d2h %d %s" % (MiB8, k) for k in ("pageable", "pinned", "wc", "mapped")]
        + ["sync stream 0",
           "copy h2d %d pinned stream 1 async" % MiB4, "kernel scale stream 1", "copy d2h %d pinned stream 1 async" % MiB4,
           "copy h2d %d wc stream 2 async" % MiB4, "kernel scale stream 2", "copy d2h %d mapped stream 2 async" % MiB4,
           "sync stream 1", "sync stream 2", "kernel read_mapped", "sync"])
def shape(l):
    if l.startswith("map "): return "map * " + l.split()[2]
    if l.startswith("kernel "):
        name = "scale" if "scale(" in l else "read_mapped" if "read_mapped(" in l else l.split()[1]
        m = re.search(r" stream (\d+)$", l)
        return "kernel " + name + (" stream " + m.group(1) if m else "")
    return l
got = [shape(l) for l in host if not l.startswith("host ")]
if got != want:
    sys.exit("FAIL: host statements\n got: %s\nwant: %s" % (got, want))
# Host time: every `host` is positive, and the host's sum comes between the last copy and the waits.
ns = [int(l.split()[1]) for l in host if l.startswith("host ")]
if not ns or min(ns) <= 0: sys.exit("FAIL: host times %s" % ns)
i = host.index("sync stream 1")
if not host[i - 1].startswith("host "): sys.exit("FAIL: no host time before 'sync stream 1': %s" % host[i - 1])
# read_mapped loads h[i] from the mapped buffer and stores d[i] to device memory: its loads lie in
# the mapped range, its stores outside it.
base = int([l for l in host if l.startswith("map ")][0].split()[1], 16)
k = max(j for j, l in enumerate(lines) if l.startswith("kernel ") and "read_mapped(" in l)
body = [l.split() for l in lines[k:] if re.match(r"(ld|st) global ", l)]
addr = lambda f: int(f[f.index("affine") + 1], 16) if "affine" in f else int(f[f.index("list") + 1], 16)
loads = [addr(f) for f in body if f[0] == "ld"]
stores = [addr(f) for f in body if f[0] == "st"]
# Bytes, not instructions: a capture may record a float4 as one 16-byte access (dcutrace, the SASS's
# LDG.128) or as two 8-byte ones (dcucc, where its joins cannot prove the alignment).
lanes = lambda f: 32 if f[4] == "all" else bin(int(f[4], 16)).count("1")
moved = lambda op: sum(int(f[2]) * lanes(f) for f in body if f[0] == op)
if moved("ld") != MiB4 or moved("st") != MiB4:  # 262,144 float4 read, as many written
    sys.exit("FAIL: read_mapped loads %d and stores %d bytes, want %d each" % (moved("ld"), moved("st"), MiB4))
if not all(base <= a < base + MiB8 for a in loads): sys.exit("FAIL: a read_mapped load outside the mapped range")
if any(base <= a < base + MiB8 for a in stores): sys.exit("FAIL: a read_mapped store inside the mapped range")
PY
"$DCUSIM" run -q --config "$SRC/configs/h200.ini" --json out.json --timeline t.json "$TRACE" >run.txt 2>&1 ||
    { echo "FAIL: dcusim run: $(cat run.txt)"; return 1; }
"$CHECK" t.json || { echo "FAIL: t.json is not a trace-event file"; return 1; }
python3 - out.json t.json <<'PY'
import json, sys
out, tl = (json.load(open(p)) for p in sys.argv[1:3])
t = out["total"]
MiB8, MiB4 = 8 << 20, 4 << 20
# Bytes each way, from the source: 4 copies of 8 MiB and 2 of 4 MiB in each direction.
want = {"copy.h2d_bytes": 4 * MiB8 + 2 * MiB4, "copy.d2h_bytes": 4 * MiB8 + 2 * MiB4, "copy.d2d_bytes": 0}
bad = {k: (t.get(k), v) for k, v in want.items() if t.get(k) != v}
if bad: sys.exit("FAIL: bytes (got, want): %s" % bad)
x = [e for e in tl["traceEvents"] if e["ph"] == "X" and e["pid"] == 1]
per = {s: sum(1 for e in x if e["tid"] == s) for s in (0, 1, 2)}
if len(x) != 15 or per != {0: 9, 1: 3, 2: 3}:  # 12 copies and 3 kernels, on their streams
    sys.exit("FAIL: %d spans on the streams' tracks, per stream %s; want 15, {0: 9, 1: 3, 2: 3}" % (len(x), per))
# configs/h200.ini: h2d 55,357 MB/s after 8,573 ns, d2h 55,232 MB/s after 7,507 ns, write-combined
# gains nothing; pinned, wc and mapped copies move at the link's rate (ps, rounded up; ts in us).
def dur(latency_ns, mbps, b): return (latency_ns * 1000 + -(-b * 10**6 // mbps)) / 1e6
for name, stream, want_us in [
        ("h2d %d B pinned" % MiB8, 0, dur(8573, 55357, MiB8)), ("h2d %d B wc" % MiB8, 0, dur(8573, 55357, MiB8)),
        ("h2d %d B mapped" % MiB8, 0, dur(8573, 55357, MiB8)), ("d2h %d B pinned" % MiB8, 0, dur(7507, 55232, MiB8)),
        ("d2h %d B wc" % MiB8, 0, dur(7507, 55232, MiB8)), ("d2h %d B mapped" % MiB8, 0, dur(7507, 55232, MiB8)),
        ("h2d %d B pinned" % MiB4, 1, dur(8573, 55357, MiB4)), ("d2h %d B pinned" % MiB4, 1, dur(7507, 55232, MiB4)),
        ("h2d %d B wc" % MiB4, 2, dur(8573, 55357, MiB4)), ("d2h %d B mapped" % MiB4, 2, dur(7507, 55232, MiB4))]:
    e = [e for e in x if e["name"] == name and e["tid"] == stream]
    if len(e) != 1 or abs(e[0]["dur"] - want_us) > 1e-6:
        sys.exit("FAIL: %s on stream %d: %s, want one of %.6f us" % (name, stream, [v["dur"] for v in e], want_us))
# Pageable copies stage through the host: slower than pinned ones of the same size.
pg = {e["name"]: e["dur"] for e in x if "pageable" in e["name"]}
if not (pg["h2d %d B pageable" % MiB8] > dur(8573, 55357, MiB8) and pg["d2h %d B pageable" % MiB8] > dur(7507, 55232, MiB8)):
    sys.exit("FAIL: pageable copies %s" % pg)
# Stream 2's h2d runs while stream 1's kernel or d2h does: the two streams overlap.
if not t["overlap.ns"] > 0: sys.exit("FAIL: no overlap: %s" % t["overlap.ns"])
PY
}
for t in host_kinds.trace host_kinds_dcucc.trace; do
    check_host_kinds "$SRC/validation/results/h200-hostcapture/$t" || exit 1
done
T2=$SRC/validation/results/h200-hostcapture/transfers.trace
"$DCUSIM" trace dump "$T2" >dump2.txt || { echo "FAIL: trace dump $T2"; exit 1; }
python3 - dump2.txt <<'PY' || exit 1
import collections, re, sys
lines = open(sys.argv[1]).read().splitlines()
if any(l.startswith("kernel ") for l in lines): sys.exit("FAIL: a kernel in a capture that traced none")
# transfers.hip: sizes 4 KiB to 1 GiB by 4; a copy's median takes a warm-up and reps_for(bytes) more: 21
# under 16 MiB (6 sizes), 11 to 256 MiB (16, 64 MiB), 5 from 256 MiB (256 MiB, 1 GiB): 6*22 + 2*12 + 2*6.
each = 6 * 22 + 2 * 12 + 2 * 6
# The pipeline adds pinned copies: 12 runs (a warm-up and 11) of 1, 2, 4 and 8 parts each way, and 12
# timed pieces each way per stream count.
pinned = each + 12 * (1 + 2 + 4 + 8) + 12 * 4
n = collections.Counter(" ".join(l.split()[1:4:2]) for l in lines if l.startswith("copy "))
want = {"h2d pageable": each, "d2h pageable": each, "h2d wc": each, "d2h wc": each, "h2d mapped": each,
        "d2h mapped": each, "d2d device": each, "h2d pinned": pinned, "d2h pinned": pinned}
if dict(n) != want: sys.exit("FAIL: copies (got, want): %s %s" % (dict(n), want))
# Waits: each d2d copy's, each mapped kernel's (7 sizes 64 KiB to 256 MiB, read and write: 4*22 + 2*12 + 6
# each), each pipeline run's and each timed pipeline kernel's (12 per stream count).
syncs = sum(1 for l in lines if l == "sync")
want_syncs = each + 2 * (4 * 22 + 2 * 12 + 6) + 12 * 4 + 12 * 4
if syncs != want_syncs: sys.exit("FAIL: %d device syncs, want %d" % (syncs, want_syncs))
# Stream k carries the async copies of every run of at least k parts: 12 runs x 2 directions each.
per = collections.Counter(int(m.group(1)) for l in lines for m in [re.search(r"stream (\d+) async$", l)] if m)
want_per = {k: 24 * sum(1 for parts in (1, 2, 4, 8) if parts >= k) for k in range(1, 9)}
if dict(per) != want_per: sys.exit("FAIL: async copies per stream %s, want %s" % (dict(per), want_per))
PY
python3 "$SRC/validation/transfers_compare.py" "$DCUSIM" "$SRC/configs/h200.ini" "$T2" \
    "$SRC/validation/results/h200-hostcapture/transfers.txt" --gate 10 >cmp.txt ||
    { echo "FAIL: transfers: $(tail -2 cmp.txt)"; exit 1; }
echo "all checks passed"
