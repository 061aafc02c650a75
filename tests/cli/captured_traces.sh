# The traces dcutrace captured on the H200 (validation/results/h200/traces):
# every one reads, and the constant-memory kernels' loads are `const` with k
# distinct addresses per warp instruction (132 blocks x 8 warps x 64 loads each).
source "$(dirname "$0")/lib.bash"
dir="$SRC/validation/results/h200/traces"
for t in "$dir"/*.trace; do
    expect_ok "$DCUSIM" trace stats "$t"
done
expect_ok "$DCUSIM" trace stats "$dir/constant.trace"
for k in 1 2 4 8 16 32; do
    grep -A3 "const_k<$k>" "$WORK/out" | grep -Eq "ld const +67584 +2162688 +8650752 +$k:67584$" ||
        fail "const_k<$k>: expected 67584 const loads with $k distinct addresses each"
done
# The __constant__ stencil reads its 17 coefficients as const; the __restrict__ one as global loads.
grep -A4 "stencil_constant" "$WORK/out" | grep -Eq "ld const +139264 " || fail "stencil_constant: const loads"
grep -A4 "stencil_restrict" "$WORK/out" | grep -q "ld const" && fail "stencil_restrict: no const loads expected"
# Shared-memory and local (spill) accesses are captured in their spaces.
expect_ok "$DCUSIM" trace stats "$dir/shared_compute.trace"
grep -Eq "^  st local " "$WORK/out" || fail "spill: local stores"
grep -Eq "^  ld lds " "$WORK/out" || fail "reduction/matmul: LDS loads"
finish
