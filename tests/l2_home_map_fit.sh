#!/usr/bin/env bash
# validation/l2_home_map_fit.py on pages made from a known map: page 0 side = parity of bits 12, 15 and 20,
# XOR 1, with one line unclassified; page 1 the same map XOR 0 with 16 lines flipped (explained 16,368 of
# 16,384); then a BITS line of the wrong length, which must be an error naming the file and line.
set -uo pipefail
root=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
python3 - "$work/map.txt" <<'PY'
import sys
mask = (1 << 12) | (1 << 15) | (1 << 20)
side = lambda line, c: (bin((line << 7) & mask).count("1") & 1) ^ c
p0 = [str(side(i, 1)) for i in range(16384)]
p0[5] = "?"
p1 = [str(side(i, 0)) for i in range(16384)]
for i in range(3, 16384, 1024):  # 16 lines, none a power of two
    p1[i] = "1" if p1[i] == "0" else "0"
with open(sys.argv[1], "w") as f:
    f.write("SIDE 66 82\nMAP 0 66 1 2 3 4 5\n")
    f.write("BITS 0 66 " + "".join(p0) + "\nBITS 1 82 " + "".join(p1) + "\n")
PY
out=$(python3 "$root/validation/l2_home_map_fit.py" "$work/map.txt") || fail "fit exited $?: $out"
echo "$out"
echo "$out" | grep -Eq '^ +0 +66 +0x109000 \(12,15,20 +\) +1 +16383/16383 \(100.00 %\)$' || fail "page 0: not bits 12, 15, 20, constant 1, all explained"
echo "$out" | grep -Eq '^ +1 +82 +0x109000 \(12,15,20 +\) +0 +16368/16384 \(99.90 %\)$' || fail "page 1: not 16,368 of 16,384 explained"
printf 'BITS 0 66 0101\n' >"$work/bad.txt"
err=$(python3 "$root/validation/l2_home_map_fit.py" "$work/bad.txt" 2>&1) && fail "a short BITS line was accepted"
[ "$(echo "$err" | wc -l)" -eq 1 ] && echo "$err" | grep -q "bad.txt:1: " || fail "not a one-line error naming the file and line: $err"
echo ok
