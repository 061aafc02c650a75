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

const trace::KernelInfo kNone{};  // a kernel without a carve-out preference

// A kernel preferring pct % whose workgroups ask `lds` bytes of their own.
trace::KernelInfo preferring(uint64_t pct, uint64_t lds = 4096) {
    trace::KernelInfo k;
    k.carveout_pct = pct;
    k.lds_bytes = lds;
    k.present = trace::KernelInfo::HasCarveout | trace::KernelInfo::HasLds;
    return k;
}

Occupancy occupancy(uint32_t workgroups, uint64_t lds_bytes) {
    Occupancy o;
    o.workgroups_per_cu = workgroups;
    o.lds_alloc_bytes = lds_bytes;
    return o;
}

// Workgroups of `lds_bytes` that waves or registers limit to `others` on a CU of 32 workgroups at most.
Occupancy limited_by_others(uint32_t others, uint64_t lds_bytes) {
    Occupancy o = occupancy(others, lds_bytes);
    o.by_waves = others;
    o.by_vgprs = o.by_sgprs = 1u << 30;
    o.by_workgroups = 32;
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
    CHECK(Launch::carveout_for(p, kNone, occupancy(8, 5 * 1024)) == 64 * 1024);
    // None at all: the smallest, 0.
    CHECK(Launch::carveout_for(p, kNone, occupancy(8, 0)) == 0);
    // Exactly 100 KiB: 100 KiB.
    CHECK(Launch::carveout_for(p, kNone, occupancy(4, 25 * 1024)) == 100 * 1024);
    // The minimum wins over a smaller need.
    p.min_carveout = 32 * 1024;
    CHECK(Launch::carveout_for(p, kNone, occupancy(1, 1024)) == 32 * 1024);
    // More than the largest: the largest (occupancy was limited by lds.size_bytes already).
    CHECK(Launch::carveout_for(p, kNone, occupancy(16, 64 * 1024)) == 228 * 1024);
}

TEST_CASE("launch: the driver's headroom: room for twice the workgroups up to 132 KiB") {
    LaunchParams p = h200_like();
    p.min_carveout = 32 * 1024;
    // 8 workgroups of 5,504 B (lds_read<float>: 4,480 + 1 KiB) need 44,032 B: 64 KiB without headroom.
    CHECK(Launch::carveout_for(p, kNone, limited_by_others(8, 5504)) == 64 * 1024);
    p.carveout_headroom = 2;
    p.carveout_headroom_max = 132 * 1024;
    // With it, room for 16: 88,064 B, the 100 KiB carve-out (ncu: 100 KiB).
    CHECK(Launch::carveout_for(p, kNone, limited_by_others(8, 5504)) == 100 * 1024);
    // 8 of 9,984 B need 79,872 (100 KiB); 16 would need 159,744 (164 KiB), past the 132 KiB cap: 132 KiB.
    CHECK(Launch::carveout_for(p, kNone, limited_by_others(8, 9984)) == 132 * 1024);
    // 8 of 18,944 B need 151,552 (164 KiB) themselves: the cap does not take room from them.
    CHECK(Launch::carveout_for(p, kNone, limited_by_others(8, 18944)) == 164 * 1024);
    // 32 workgroups of 1,152 B: twice is past the CU's 32, so 36,864 B: 64 KiB (l1_geometry's, measured).
    CHECK(Launch::carveout_for(p, kNone, limited_by_others(32, 1152)) == 64 * 1024);
    // 8 of 2,048 B (reduce_tree): 16 need 32 KiB, the minimum anyway (ncu: 32 KiB).
    CHECK(Launch::carveout_for(p, kNone, limited_by_others(8, 2048)) == 32 * 1024);
    // No headroom cap, no headroom.
    p.carveout_headroom_max = 0;
    CHECK(Launch::carveout_for(p, kNone, limited_by_others(8, 5504)) == 64 * 1024);
}

TEST_CASE("launch: a carve-out preference counts blocks of the kernel's own LDS in the largest carve-out") {
    LaunchParams p = h200_like();
    p.min_carveout = 32 * 1024;  // the driver's floor without a preference: not one with shared memory
    // 4 KiB blocks (5 KiB with the reserved share), the H100's choices (results/h100-appscarveout).
    // 0 %: one block, the 8 KiB carve-out, whatever the 8 resident would need.
    CHECK(Launch::preferred_carveout(p, preferring(0), 5 * 1024) == 8 * 1024);
    CHECK(Launch::carveout_for(p, preferring(0), occupancy(8, 5 * 1024)) == 8 * 1024);
    // 28 % of 228 KiB is 65,372 B, 15 blocks of 4 KiB: 76,800 B with their reserve, 100 KiB.
    CHECK(Launch::preferred_carveout(p, preferring(28), 5 * 1024) == 100 * 1024);
    // 43 %: 24 blocks, 122,880 B: 132. 57 %: 32 blocks, 163,840 B: 164. 71 %: 40 blocks, 204,800 B: 228.
    CHECK(Launch::preferred_carveout(p, preferring(43), 5 * 1024) == 132 * 1024);
    CHECK(Launch::preferred_carveout(p, preferring(57), 5 * 1024) == 164 * 1024);
    CHECK(Launch::preferred_carveout(p, preferring(71), 5 * 1024) == 228 * 1024);
    // 100 %: 57 blocks, past the largest: 228 KiB, the L1 left 28 KiB.
    CHECK(Launch::carveout_for(p, preferring(100), occupancy(8, 5 * 1024)) == 228 * 1024);
    // 57 % of 10 KiB blocks (11 KiB each): 12 blocks, 135,168 B, exactly 132 KiB (measured 132).
    CHECK(Launch::preferred_carveout(p, preferring(57, 10240), 11 * 1024) == 132 * 1024);
    // 25 % of 70 KiB blocks is none: one block all the same, 71 KiB: 100 KiB.
    CHECK(Launch::preferred_carveout(p, preferring(25, 70 * 1024), 71 * 1024) == 100 * 1024);
    // No shared memory: that share of the largest, at least the minimum: 0 % 32 KiB, 100 % 228 KiB.
    CHECK(Launch::preferred_carveout(p, preferring(0, 0), 1024) == 32 * 1024);
    CHECK(Launch::preferred_carveout(p, preferring(100, 0), 1024) == 228 * 1024);
    p.min_carveout = 0;
    CHECK(Launch::preferred_carveout(p, preferring(0, 0), 0) == uint64_t(0));
    // No preference: none, and the rule's 64 KiB for 8 x 5 KiB.
    CHECK(!Launch::preferred_carveout(p, kNone, 5 * 1024));
    CHECK(Launch::carveout_for(p, kNone, occupancy(8, 5 * 1024)) == 64 * 1024);
    // Without a unified storage a preference means nothing.
    CHECK(!Launch::preferred_carveout(LaunchParams{}, preferring(0), 5 * 1024));
}

TEST_CASE("launch: a unified storage is split, then the constant caches and L1s invalidated") {
    Launch launch(h200_like(), 128);
    Recorder r;
    launch.begin(kNone, occupancy(8, 5 * 1024), r);
    // The L1 gets 256 - 64 = 192 KiB.
    CHECK(r.calls == std::vector<std::string>{"resize 196608", "const", "l1"});
    CHECK(launch.carveout() == 64 * 1024);
    CHECK(launch.l1_bytes() == 192 * 1024);
    CHECK(r.dirty.empty());
}

TEST_CASE("launch: separate L1s are not resized and the L2 is flushed and given dirty lines when asked") {
    LaunchParams p;  // the defaults: no unified storage, no flush, no dirty lines
    Recorder r;
    Launch(p, 128).begin(kNone, occupancy(8, 0), r);
    CHECK(r.calls == std::vector<std::string>{"const", "l1"});
    p.flush_l2 = true;
    p.dirty_lines = 3;
    Recorder f;
    Launch(p, 128).begin(kNone, occupancy(8, 0), f);
    CHECK(f.calls == std::vector<std::string>{"const", "l1", "l2"});
    // Three lines of 128 bytes from 2^56, above any trace's addresses.
    const uint64_t base = uint64_t(1) << 56;
    CHECK(f.dirty == std::vector<uint64_t>{base, base + 128, base + 256});
}

TEST_CASE("launch: with l1.invalidate_at_launch off the L1s keep their lines") {
    LaunchParams p;
    p.invalidate_l1 = false;
    Recorder r;
    Launch(p, 128).begin(kNone, occupancy(8, 0), r);
    CHECK(r.calls == std::vector<std::string>{"const"});  // the constant caches still are
}
