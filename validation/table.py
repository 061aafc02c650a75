#!/usr/bin/env python3
"""Prints the per-kernel markdown table of docs/VALIDATION.md from the
validation.csv that `dcusim validate ... --out DIR` writes.
Usage: validation/table.py DIR/validation.csv"""
import csv
import sys


def main(path):
    rows = {}
    order = []
    for r in csv.DictReader(open(path)):
        if r["kernel"] not in rows:
            order.append(r["kernel"])
        rows.setdefault(r["kernel"], {})[r["metric"]] = r

    def pair(k, metric, scale=1.0, digits=1):
        r = rows[k].get(metric)
        if not r or r["compared"] != "1":
            return "-"
        return "%.*f / %.*f" % (digits, float(r["measured"]) / scale, digits, float(r["predicted"]) / scale)

    print("| kernel | cycles measured | predicted | error | LDS conflicts m (/ p where they differ) | L1 hit % m / p "
          "| L2 hit % (TEX) m / p | DRAM read MB m / p | DRAM write MB m / p | instructions: error |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for k in order:
        c = rows[k]["cycles"]
        m, p = float(c["measured"]), float(c["predicted"])
        conflicts = rows[k]["lds_bank_conflicts"]
        cm, cp = float(conflicts["measured"]), float(conflicts["predicted"])
        conflict_text = "%.0f" % cm if cm == cp else "%.0f / %.0f" % (cm, cp)
        ins = rows[k].get("instructions")
        ins_err = "-"
        if ins and ins["compared"] == "1":
            im, ip = float(ins["measured"]), float(ins["predicted"])
            ins_err = "%+.1f %%" % (100 * (ip - im) / im)
        print("| %s | %.0f | %.0f | %+.1f %% | %s | %s | %s | %s | %s | %s |" % (
            k, m, p, 100 * (p - m) / m, conflict_text, pair(k, "l1_hit_rate"), pair(k, "l2_hit_rate"),
            pair(k, "dram_read_bytes", 1e6, 2), pair(k, "dram_write_bytes", 1e6, 2), ins_err))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
