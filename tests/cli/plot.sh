# dcusim plot writes PNG and SVG pictures of a sweep (docs/SWEEPS.md shows them).
source "$(dirname "$0")/lib.bash"
command -v gnuplot >/dev/null || { echo "gnuplot missing: scripts/setup.sh installs it"; exit 1; }
expect_ok "$DCUSIM" sweep --quiet --vary lds.banks=16,32,64 --out "$WORK/b.csv" "$SRC/traces/examples/transpose64.trace"
expect_ok "$DCUSIM" plot "$WORK/b.csv" --x lds.banks --y lds.bank_conflict_cycles --group kernel --out "$WORK/b.png"
[ "$(head -c 8 "$WORK/b.png" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ] || fail "not a PNG"
[ "$(stat -c %s "$WORK/b.png")" -gt 5000 ] || fail "PNG too small to hold a chart"
expect_ok "$DCUSIM" plot "$WORK/b.csv" --x lds.banks --y lds.bank_conflict_cycles --group kernel --out "$WORK/b.svg"
grep -q "<svg" "$WORK/b.svg" || fail "not an SVG"
grep -q "transpose_tile33_padded" "$WORK/b.svg" || fail "SVG lacks the legend"
expect_ok "$DCUSIM" plot "$WORK/b.csv" --x kernel --y lds.bank_conflict_cycles --group lds.banks --out "$WORK/bars.svg"
expect_ok "$DCUSIM" plot "$WORK/b.csv" --x lds.banks --y lds.bank_conflict_cycles --group kernel --heatmap --out "$WORK/h.svg"
grep -q ">3968<" "$WORK/h.svg" || fail "heat map lacks its cell labels"
expect_error 2 "b.csv:1: no column 'lds.bankz'" "$DCUSIM" plot "$WORK/b.csv" --x lds.bankz --y cycles --out "$WORK/x.png"
expect_error 2 "must end in .png or .svg" "$DCUSIM" plot "$WORK/b.csv" --x lds.banks --y cycles --out "$WORK/x.jpg"
[ ! -e "$WORK/x.png" ] || fail "no picture from a refused plot"
finish
