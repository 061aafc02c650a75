// Occupancy limits worked out by hand for the dcu-z100 defaults
// (4 SIMDs x 10 waves, 256 VGPRs/lane per SIMD in units of 4, 800 SGPRs in
// units of 16, 64 KiB LDS in units of 512 B, 16 workgroups).
#include <catch2/catch.hpp>

#include "models/cu/occupancy.h"

using namespace dcusim;

namespace {
trace::KernelInfo kernel(uint32_t threads, uint32_t vgprs, uint32_t sgprs, uint64_t lds) {
    trace::KernelInfo k;
    k.name = "k";
    k.block = {threads, 1, 1};
    k.vgprs = vgprs;
    k.sgprs = sgprs;
    k.lds_bytes = lds;
    return k;
}
}  // namespace

TEST_CASE("VGPRs and LDS both limit to 4 workgroups of 4 waves", "[occupancy]") {
    auto o = compute_occupancy(CuParams{}, 65536, 512, kernel(256, 64, 32, 16384));
    CHECK(o.waves_per_workgroup == 4);
    CHECK(o.waves_per_simd == 4);  // 256 / 64
    CHECK(o.by_waves == 10);       // 40 wave slots / 4
    CHECK(o.by_vgprs == 4);
    CHECK(o.by_sgprs == 25);       // 800 / 32 = 25 per SIMD
    CHECK(o.by_lds == 4);
    CHECK(o.by_workgroups == 16);
    CHECK(o.workgroups_per_cu == 4);
}

TEST_CASE("register counts round up to their granule", "[occupancy]") {
    auto o = compute_occupancy(CuParams{}, 65536, 512, kernel(64, 65, 17, 0));
    CHECK(o.waves_per_simd == 3);  // 65 -> 68 VGPRs: 256 / 68 = 3
    CHECK(o.by_vgprs == 12);       // 3 x 4 SIMDs, 1-wave workgroups
    CHECK(o.by_sgprs == 100);      // 17 -> 32 SGPRs: 25 per SIMD
    CHECK(o.by_workgroups == 16);
    CHECK(o.workgroups_per_cu == 12);
}

TEST_CASE("LDS rounds up to its allocation granule", "[occupancy]") {
    auto o = compute_occupancy(CuParams{}, 65536, 512, kernel(64, 0, 0, 4097));
    CHECK(o.lds_alloc_bytes == 4608);
    CHECK(o.by_lds == 14);
}

TEST_CASE("a workgroup that can never fit is an error naming the kernel", "[occupancy][bad-input]") {
    CHECK_THROWS_WITH(compute_occupancy(CuParams{}, 65536, 512, kernel(64, 0, 0, 70000)),
                      "kernel 'k': workgroup needs 70144 bytes of LDS, the preset has 65536 (lds.size_bytes)");
    CHECK_THROWS_WITH(compute_occupancy(CuParams{}, 65536, 512, kernel(64, 300, 0, 0)),
                      "kernel 'k': 300 VGPRs per lane exceed the preset's cu.max_vgprs 256");
    // 1024 threads = 16 waves; at 128 VGPRs only 2 waves per SIMD = 8 per CU
    CHECK_THROWS_WITH(compute_occupancy(CuParams{}, 65536, 512, kernel(1024, 128, 0, 0)),
                      "kernel 'k': a workgroup of 16 waves does not fit on a CU (4 SIMDs x 2 waves at this register use)");
}
