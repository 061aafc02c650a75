// dcucc's matching of record sites to SASS anchors (runtime/host/machine.h)
// where the backend laid the code out in another order than the IR's: each
// case a hand-written SASS snippet and its matches worked by hand.
#include <catch2/catch.hpp>

#include "traces/capture/llvm/runtime/host/machine.h"

using namespace dcucc::host;
using Matches = std::map<uint32_t, int>;

namespace {

const char* const kLoop = R"(
.text._Z1kv:
	//## File "/src/k.cu", line 4
        /*0000*/                   LDC R1, c[0x0][0x28] ;
	//## File "/src/k.cu", line 5
        /*0010*/                   LDG.E R3, desc[UR4][R2.64] ;
        /*0020*/                   LDG.E R5, desc[UR4][R4.64] ;
        /*0030*/                   LDG.E R7, desc[UR4][R6.64] ;
        /*0040*/               @P0 BRA `(.L_x_0) ;
        /*0050*/                   LDG.E R9, desc[UR4][R8.64] ;
.L_x_0:
	//## File "/src/k.cu", line 6
        /*0060*/                   STG.E desc[UR4][R2.64], R9 ;
        /*0070*/                   EXIT ;
)";

const char* const kSwapped = R"(
.text._Z1kv:
	//## File "/src/k.cu", line 2
        /*0000*/                   STS [R4], RZ ;
	//## File "/src/k.cu", line 3
        /*0010*/                   BAR.SYNC.DEFER_BLOCKING 0x0 ;
        /*0020*/                   EXIT ;
)";

Site site(const char* line, const char* what) { return {0, line, "_Z1kv", what}; }

}  // namespace

TEST_CASE("dcucc matching: an unrolled body and its remainder match by run length", "[dcucc]") {
    // The IR: the remainder's load (16), the exit's store (32), then the body
    // unrolled three times (48-80); ptxas lays the body first (1-3), then the
    // remainder (5) and the store (6). In order alone, 16 would take the
    // body's first load and the store none.
    const auto mod = dcutrace::parse_sass(kLoop);
    const SiteMap s{{16, site("k.cu:5", "ld generic")}, {32, site("k.cu:6", "st generic")},
                    {48, site("k.cu:5", "ld generic")}, {64, site("k.cu:5", "ld generic")},
                    {80, site("k.cu:5", "ld generic")}};
    CHECK(match_sites(s, "_Z1kv", mod.at("_Z1kv")) == Matches{{48, 1}, {64, 2}, {80, 3}, {16, 5}, {32, 6}});
}

TEST_CASE("dcucc matching: sites out of the SASS's order still match by line", "[dcucc]") {
    // The pass numbers the barrier (16) before the LDS store (32); the SASS
    // stores first. The ordered match takes one; the other is taken by line.
    const auto mod = dcutrace::parse_sass(kSwapped);
    const SiteMap s{{16, site("k.cu:3", "bar")}, {32, site("k.cu:2", "st generic")}};
    CHECK(match_sites(s, "_Z1kv", mod.at("_Z1kv")) == Matches{{16, 1}, {32, 0}});
}

TEST_CASE("dcucc matching: constant loads are left out on purpose", "[dcucc]") {
    // A parameter load at entry (16, what ptxas reads with LDC c[0x0][...])
    // and an LDC-like line 4 site would otherwise count as unmatched sites.
    const auto mod = dcutrace::parse_sass(kLoop);
    CHECK(excluded_site(site("k.cu:4", "ld const")));
    CHECK_FALSE(excluded_site(site("k.cu:5", "ld generic")));
    CHECK_FALSE(excluded_site(site("k.cu:3", "bar")));
    const SiteMap s{{16, site("k.cu:4", "ld const")}, {32, site("k.cu:6", "st generic")}};
    CHECK(match_sites(s, "_Z1kv", mod.at("_Z1kv")) == Matches{{32, 6}});
}
