#!/usr/bin/env bash
# One IR test of the pass: every `; RUN-PASSES: P` line of TEST.ll names an opt
# pipeline; the output of `opt -passes=P` is checked against TEST.ll's
# `CHECK-P:` lines (FileCheck prefix P with '-' for ',').
# `CHECK-META:` lines, if any, check what the first pipeline writes to $DCUCC_META_FILE.
# Usage: run_ir_test.sh OPT FILECHECK PLUGIN TEST.ll
set -euo pipefail
opt=$1 filecheck=$2 plugin=$3 test=$4
mapfile -t pipelines < <(sed -n 's/^; RUN-PASSES: *//p' "$test")
[ ${#pipelines[@]} -gt 0 ] || { echo "$test: no RUN-PASSES line"; exit 1; }
# `; CHECK-META:` lines check the metadata the pass writes to $DCUCC_META_FILE (the first pipeline's).
if grep -q '^; CHECK-META' "$test"; then
    meta=$(mktemp)
    trap 'rm -f "$meta"' EXIT
    DCUCC_META_FILE=$meta "$opt" -load-pass-plugin="$plugin" -passes="${pipelines[0]}" -S "$test" -o /dev/null
    echo "== $test: metadata (CHECK-META)"
    "$filecheck" --check-prefix=CHECK-META "$test" <"$meta"
fi
for p in "${pipelines[@]}"; do
    prefix=CHECK-$(echo "$p" | tr ',' '-' | tr '[:lower:]' '[:upper:]')
    echo "== $test: $p ($prefix)"
    DCUCC_META_FILE= "$opt" -load-pass-plugin="$plugin" -passes="$p" -S "$test" -o - |
        "$filecheck" --check-prefix="$prefix" "$test"
done
