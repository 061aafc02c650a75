#!/usr/bin/env python3
"""The H200 preset's link.* and copy.* values from validation/results/h200-transfers/transfers.txt.

Every fit minimises the squared relative error (what the model is judged by) over copies of 64 KiB
and more, with the copy times of the model in models/host/host_link.cpp (mirrored here; the gate
tests/unit/test_host_link.cpp replays the committed measurement through the C++ model itself):
- pinned, each direction, and d2d: T = latency + bytes / rate, a weighted least-squares line;
- pageable: the staging pipeline over buffers of copy.staging_bytes (chosen among a few sizes),
  memcpy rates on a grid (h2d: one for copies the host's cache holds, of at most
  copy.host_cache_bytes, one beyond), and one fixed cost for both directions, solved exactly.
copy.host_cache_bytes itself is not fitted: the measurement has sizes 16 MiB and 64 MiB on either
side of the drop in h2d rate, and the key is set between them.
Usage: validation/fit_link.py [transfers.txt]
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
MIN_BYTES = 64 << 10
HOST_CACHE = 32 << 20
STAGING = (256 << 10, 1 << 20, 2 << 20, 4 << 20)


def read(path):
    rows = {}
    for line in open(path):
        f = line.split()
        if len(f) == 6 and f[:2] == ["RESULT", "copy"] and int(f[4]) >= MIN_BYTES:
            rows.setdefault((f[2], f[3]), []).append((int(f[4]), float(f[5])))
    return rows


def line_fit(points):
    """(intercept us, slope us/byte) minimising sum(((a + b x) / y - 1)^2)."""
    sw = swx = swxx = swy = swxy = 0.0
    for x, y in points:
        w = 1 / (y * y)
        sw, swx, swxx, swy, swxy = sw + w, swx + w * x, swxx + w * x * x, swy + w * y, swxy + w * x * y
    b = (sw * swxy - swx * swy) / (sw * swxx - swx * swx)
    return (swy - b * swx) / sw, b


def ps_at(nbytes, mbps):
    return -(-nbytes * 10**6 // mbps)


def staged_us(nbytes, first, second, staging, buffers=2):
    drained, filled, done = [0] * buffers, 0, 0
    for i, off in enumerate(range(0, nbytes, staging)):
        chunk = min(staging, nbytes - off)
        filled = max(filled, drained[i % buffers]) + ps_at(chunk, first)
        done = max(done, filled) + ps_at(chunk, second)
        drained[i % buffers] = done
    return done / 1e6


def pageable_fit(rows, link):
    """(staging bytes, memcpy rates, fixed us, error) of the best fit over both directions."""
    pts = [("h2d", b, t) for b, t in rows[("h2d", "pageable")]] + [("d2h", b, t) for b, t in rows[("d2h", "pageable")]]
    rates = range(4000, 30001, 250)
    best = None
    for staging in STAGING:
        # Each rate touches only its own points: pick each on its own, then the fixed cost for all.
        chosen = {}
        for name, sel in (("h2d", lambda d, b: d == "h2d" and b <= HOST_CACHE), ("h2d_dram", lambda d, b: d == "h2d" and b > HOST_CACHE),
                          ("d2h", lambda d, b: d == "d2h")):
            mine = [(d, b, t) for d, b, t in pts if sel(d, b)]
            chosen[name] = min(rates, key=lambda m: spread(mine, m, link, staging))
        model = [model_us(d, b, chosen, link, staging) for d, b, _ in pts]
        fixed = sum((1 - x / t) / t for x, (_, _, t) in zip(model, pts)) / sum(1 / t**2 for _, _, t in pts)
        err = sum(((fixed + x) / t - 1) ** 2 for x, (_, _, t) in zip(model, pts))
        if best is None or err < best[3]:
            best = (staging, chosen, fixed, err)
    return best


def model_us(d, b, rates, link, staging):
    m = rates["d2h"] if d == "d2h" else rates["h2d"] if b <= HOST_CACHE else rates["h2d_dram"]
    return staged_us(b, m, link[d], staging) if d == "h2d" else staged_us(b, link[d], m, staging)


def spread(points, m, link, staging):
    """Squared relative error of these points with their best own fixed cost."""
    if not points:
        return 0
    r = {"h2d": m, "h2d_dram": m, "d2h": m}
    x = [model_us(d, b, r, link, staging) for d, b, _ in points]
    fixed = sum((1 - v / t) / t for v, (_, _, t) in zip(x, points)) / sum(1 / t**2 for _, _, t in points)
    return sum(((fixed + v) / t - 1) ** 2 for v, (_, _, t) in zip(x, points))


def main(path):
    rows = read(path)
    out, link = {}, {}
    for d in ("h2d", "d2h"):
        a, b = line_fit(rows[(d, "pinned")])
        link[d] = round(1 / b)  # bytes per us = MB/s
        out[f"link.{d}_mbps"], out[f"link.{d}_latency_ns"] = link[d], round(a * 1000)
    staging, rates, fixed, _ = pageable_fit(rows, link)
    out["copy.memcpy_h2d_mbps"], out["copy.memcpy_h2d_dram_mbps"] = rates["h2d"], rates["h2d_dram"]
    out["copy.memcpy_d2h_mbps"], out["copy.staging_bytes"] = rates["d2h"], staging
    out["copy.staging_latency_ns"] = round(fixed * 1000)
    a, b = line_fit(rows[("d2d", "device")])
    out["copy.d2d_mbps"], out["copy.d2d_latency_ns"] = round(1 / b), round(a * 1000)
    for k, v in out.items():
        print(f"{k} = {v}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "results", "h200-transfers", "transfers.txt"))
