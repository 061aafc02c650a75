#!/usr/bin/env bash
# Builds TARGETS into DIR with clang, AddressSanitizer, UndefinedBehaviorSanitizer and libFuzzer's
# coverage (DCUSIM_FUZZ): one build serves the sanitizer test run and the fuzz harnesses (fuzz/run.sh).
# Asserts stay on; -O1 keeps the suite fast enough to run whole. Usage: sanitizer_build.sh DIR TARGET...
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$1
shift
cxx=$(command -v clang++-19 || true)
[ -n "$cxx" ] || { echo "sanitizer_build.sh: no clang++-19 with its sanitizer runtimes (scripts/setup.sh installs them)" >&2; exit 2; }
# SystemC switches its threads' stacks without telling ASan, whose fake stacks (use-after-return
# detection) then hand one frame to two owners.
uar=-fsanitize-address-use-after-return=never
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_COMPILER="$cxx" -DDCUSIM_FUZZ=ON \
    -DCMAKE_CXX_FLAGS="-O1 -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer $uar" \
    >/dev/null
cmake --build "$dir" -j"$(nproc)" --target "$@" >/dev/null
