"""Reads kernels/lds_phases.hip's phases.csv (or .csv.gz): per variant, a block's cycles a round (the median
over blocks of their rounds' median, rounds 8 to the last but 4), and how far apart the blocks of one SM end
the same round (the spread: the last end less the first, over those rounds, as a share of the round; the
median over SMs and rounds). Blocks in step spread little; blocks whose rounds are spread evenly over the
round spread about (n - 1) / n of it, n blocks an SM. Then, for the blocks of an SM in launch order (block
index), when each ends its first and its last round, from the SM's first block's start (medians over SMs
of the first run; the first 16 blocks of an SM): equal for blocks that share the SM evenly, growing with
the index where older blocks go first.
Usage: python3 validation/lds_phases.py PHASES_CSV"""
import csv
import gzip
import statistics
import sys
from collections import defaultdict


def records(path):
    """[(variant, run, block, sm, rank, start, [its rounds' ends from start])], the file read once."""
    with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
        return [(r["variant"], r["run"], int(r["block"]), int(r["sm"]), int(r["rank"]), int(r["start"]),
                 [int(r[f"end{k}"]) for k in range(48) if r.get(f"end{k}") not in (None, "", "0")])
                for r in csv.DictReader(f)]


def summarise(recs):
    blocks = defaultdict(list)  # (variant, run) -> [(sm, [absolute ends])]
    for variant, run, _, sm, _, start, ends in recs:
        blocks[(variant, run)].append((sm, [start + e for e in ends]))
    out = {}
    for (variant, run), bs in blocks.items():
        n = min(len(e) for _, e in bs)
        lo, hi = (8, n - 4) if n > 16 else (2, n - 1)
        lengths = [statistics.median(e[k + 1] - e[k] for k in range(lo, hi)) for _, e in bs]
        t = statistics.median(lengths)
        per_sm = defaultdict(list)
        for sm, e in bs:
            per_sm[sm].append(e)
        spreads = [(max(e[k] for e in es) - min(e[k] for e in es)) / t
                   for es in per_sm.values() if len(es) > 1 for k in range(lo, hi)]
        starts = [max(e[0] for e in es) - min(e[0] for e in es) for es in per_sm.values() if len(es) > 1]
        out.setdefault(variant, []).append((t, statistics.median(spreads) if spreads else 0.0,
                                            len(bs) / len(per_sm), statistics.median(starts) if starts else 0))
    return out


def by_age(recs):
    """variant -> [(first round's end, last round's end)] for the k-th block of an SM in launch order."""
    sms = defaultdict(lambda: defaultdict(list))
    for variant, run, block, sm, _, start, ends in recs:
        if run == "1":
            sms[variant][sm].append((block, start, ends[0], ends[-1]))
    out = {}
    for variant, per_sm in sms.items():
        cols = defaultdict(list)
        for bs in per_sm.values():
            t0 = min(b[1] for b in bs)
            for k, (_, start, first, last) in enumerate(sorted(bs)[:16]):
                cols[k].append((start - t0 + first, start - t0 + last))
        out[variant] = [(statistics.median(a for a, _ in c), statistics.median(b for _, b in c)) for _, c in sorted(cols.items())]
    return out


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    print("| variant | blocks an SM | cycles a round (runs) | spread of an SM's round ends, share of a round (runs) | "
          "first round's ends, spread in cycles |")
    print("|---|---|---|---|---|")
    recs = records(sys.argv[1])
    for variant, runs in summarise(recs).items():
        print(f"| {variant} | {runs[0][2]:.0f} | {', '.join(f'{t:,.0f}' for t, *_ in runs)} | "
              f"{', '.join(f'{s:.2f}' for _, s, *_ in runs)} | {', '.join(f'{x:,.0f}' for *_, x in runs)} |")
    print("\n| variant | each block of an SM in launch order: first round's end / last round's end (cycles) |")
    print("|---|---|")
    for variant, cols in by_age(recs).items():
        print(f"| {variant} | {'; '.join(f'{a:,.0f} / {b:,.0f}' for a, b in cols)} |")


if __name__ == "__main__":
    main()
