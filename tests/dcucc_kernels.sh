#!/usr/bin/env bash
# Every validation kernel, and a program with __constant__ data, LDS, a private
# array that stays in scratch and atomics (tests/data/dcucc/features.hip),
# builds with dcucc for gfx906 (Debian's hipcc), and its device code has more
# memory instructions than hipcc's plain build, plus the kernels' exported
# parameter counts (the pass's mark). The device code is compared as the LLVM IR
# that leaves the optimiser (-emit-llvm: the pass has run, the backend has not,
# which would take most of the time); the features program is also built whole
# and linked, with the HIP host runtime. Usage: dcucc_kernels.sh DCUCC REPO_ROOT
set -uo pipefail
dcucc=$1 root=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mem='^\s+(%\S+ = )?(load|store|atomicrmw|cmpxchg) '
check() {
    local src=$1 name
    name=$(basename "$src" .hip)
    hipcc -O3 --offload-arch=gfx906 --cuda-device-only -S -emit-llvm "$src" -o "$work/$name.plain.ll" 2>/dev/null ||
        { echo "FAIL $name: plain hipcc build failed"; return 1; }
    "$dcucc" -O3 --offload-arch=gfx906 --cuda-device-only -S -emit-llvm "$src" -o "$work/$name.ll" 2>"$work/$name.err" ||
        { echo "FAIL $name: dcucc build failed: $(grep -m1 error "$work/$name.err")"; return 1; }
    local plain inst marks
    if ! grep -q '^define .*amdgpu_kernel' "$work/$name.plain.ll"; then
        echo "ok $name: no kernels (host code only), builds with dcucc"
        return 0
    fi
    plain=$(grep -cE "$mem" "$work/$name.plain.ll")
    inst=$(grep -cE "$mem" "$work/$name.ll")
    marks=$(grep -c '^@__dcucc_nparams_' "$work/$name.ll")
    if [ "$inst" -le "$plain" ] || [ "$marks" -eq 0 ]; then
        echo "FAIL $name: $inst memory instructions against $plain plain, $marks kernels marked"
        return 1
    fi
    echo "ok $name: $plain -> $inst memory instructions, $marks kernels"
}
export -f check
export dcucc work mem
ls "$root"/validation/kernels/*.hip "$root"/tests/data/dcucc/features.hip |
    xargs -P "$(nproc)" -I{} bash -c 'check {}' >"$work/log"
cat "$work/log"
fails=$(grep -c '^FAIL' "$work/log")
"$dcucc" -O3 --offload-arch=gfx906 "$root/tests/data/dcucc/features.hip" -o "$work/features" 2>"$work/link.err" ||
    { echo "FAIL: features.hip does not link: $(grep -m1 -E 'error|undefined' "$work/link.err")"; fails=$((fails + 1)); }
[ -x "$work/features" ] && echo "ok features.hip links with the HIP host runtime"
echo "$(grep -c '^ok' "$work/log") passed, $fails failed"
[ "$fails" -eq 0 ]
