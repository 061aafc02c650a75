// The launch policy alone (models/gpu/launch.h), against a recording stand-in for the GPU's units.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "models/gpu/launch.h"

using namespace dcusim;

namespace {

struct Recorder : LaunchTargets {
    std::vector<std::string> calls;
    std::vector<uint64_t> dirty;
    void resize_l1s(uint64_t bytes) override { calls.push_back("resize " + std::to_string(bytes)); }
    void invalidate_constant_caches() override { calls.push_back("const"); }
    void invalidate_l1s() override { calls.push_back("l1"); }
    void invalidate_l2() override { calls.push_back("l2"); }
    void add_l2_foreign_dirty(uint64_t a) override { dirty.push_back(a); }
};

Occupancy occupancy(uint32_t workgroups, uint64_t lds_bytes) {
    Occupancy o;
    o.workgroups_per_cu = workgroups;
    o.lds_alloc_bytes = lds_bytes;
    return o;
}

// The H200's carve-outs (configs/h200.ini): 0, 8, 16, 32, 64, 100, 132, 164, 196, 228 KiB of 256.
LaunchParams h200_like() {
    LaunchParams p;
    p.unified_bytes = 256 * 1024;
    for (uint64_t k : {0, 8, 16, 32, 64, 100, 132, 164, 196, 228}) p.carveouts.push_back(k * 1024);
    p.carveouts.erase(p.carveouts.begin());  // the default {0} replaced
    return p;
}

}  // namespace

TEST_CASE("launch: the smallest carve-out that holds the resident workgroups' LDS") {
    LaunchParams p = h200_like();
    // 8 workgroups of 5 KiB (4 KiB + the 1 KiB reserved) need 40 KiB: the 64 KiB carve-out.
    CHECK(Launch::carveout_for(p, occupancy(8, 5 * 1024)) == 64 * 1024);
    // None at all: the smallest, 0.
    CHECK(Launch::carveout_for(p, occupancy(8, 0)) == 0);
    // Exactly 100 KiB: 100 KiB.
    CHECK(Launch::carveout_for(p, occupancy(4, 25 * 1024)) == 100 * 1024);
    // The minimum wins over a smaller need.
    p.min_carveout = 32 * 1024;
    CHECK(Launch::carveout_for(p, occupancy(1, 1024)) == 32 * 1024);
    // More than the largest: the largest (occupancy was limited by lds.size_bytes already).
    CHECK(Launch::carveout_for(p, occupancy(16, 64 * 1024)) == 228 * 1024);
}

TEST_CASE("launch: a unified storage is split, then the constant caches and L1s invalidated") {
    Launch launch(h200_like(), 128);
    Recorder r;
    launch.begin(occupancy(8, 5 * 1024), r);
    // The L1 gets 256 - 64 = 192 KiB.
    CHECK(r.calls == std::vector<std::string>{"resize 196608", "const", "l1"});
    CHECK(launch.carveout() == 64 * 1024);
    CHECK(launch.l1_bytes() == 192 * 1024);
    CHECK(r.dirty.empty());
}

TEST_CASE("launch: separate L1s are not resized and the L2 is flushed and given dirty lines when asked") {
    LaunchParams p;  // the defaults: no unified storage, no flush, no dirty lines
    Recorder r;
    Launch(p, 128).begin(occupancy(8, 0), r);
    CHECK(r.calls == std::vector<std::string>{"const", "l1"});
    p.flush_l2 = true;
    p.dirty_lines = 3;
    Recorder f;
    Launch(p, 128).begin(occupancy(8, 0), f);
    CHECK(f.calls == std::vector<std::string>{"const", "l1", "l2"});
    // Three lines of 128 bytes from 2^56, above any trace's addresses.
    const uint64_t base = uint64_t(1) << 56;
    CHECK(f.dirty == std::vector<uint64_t>{base, base + 128, base + 256});
}

TEST_CASE("launch: with l1.invalidate_at_launch off the L1s keep their lines") {
    LaunchParams p;
    p.invalidate_l1 = false;
    Recorder r;
    Launch(p, 128).begin(occupancy(8, 0), r);
    CHECK(r.calls == std::vector<std::string>{"const"});  // the constant caches still are
}
