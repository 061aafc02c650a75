#include "bank_model.h"

#include <algorithm>
#include <vector>

namespace dcusim {

namespace {

// Per-group scratch: a generation-stamped open-addressing set of the
// (word, lane tag) pairs seen, and per-bank counts of distinct words. Stamps
// avoid clearing between groups; the sizes cover the largest group
// (64 lanes x 16 bytes / 1-byte banks would be 1024 words).
struct Scratch {
    static constexpr uint32_t kSlots = 4096;  // power of two, > 2x the most touches of one group
    uint64_t key[kSlots];
    uint32_t key_gen[kSlots] = {};
    std::vector<uint32_t> count, count_gen;
    uint32_t gen = 0;

    void next_group(uint32_t banks) {
        if (count.size() < banks) {
            count.assign(banks, 0);
            count_gen.assign(banks, 0);
        }
        if (++gen == 0) {  // wrapped: forget every stamp
            std::fill(std::begin(key_gen), std::end(key_gen), 0);
            std::fill(count_gen.begin(), count_gen.end(), 0);
            gen = 1;
        }
    }
    // Returns true the first time `k` is seen in this group.
    bool insert(uint64_t k) {
        uint32_t h = uint32_t((k * 0x9e3779b97f4a7c15ull) >> 52) & (kSlots - 1);
        while (key_gen[h] == gen) {
            if (key[h] == k) return false;
            h = (h + 1) & (kSlots - 1);
        }
        key_gen[h] = gen;
        key[h] = k;
        return true;
    }
    uint32_t bump(uint32_t bank) {
        if (count_gen[bank] != gen) {
            count_gen[bank] = gen;
            count[bank] = 0;
        }
        return ++count[bank];
    }
};

// One address in every lane (not an atomic): each active group reads the same few consecutive
// words, on distinct banks: 1 cycle per group.
LdsCost uniform_cost(uint64_t mask, uint32_t group_lanes) {
    LdsCost c;
    while (mask) {
        unsigned lane = unsigned(__builtin_ctzll(mask));
        unsigned first = lane / group_lanes * group_lanes;
        unsigned last = first + group_lanes;  // clear this whole group
        mask &= last >= 64 ? 0 : ~0ull << last;
        ++c.groups;
    }
    c.cycles = c.groups;
    return c;
}

// Affine lanes that tile words exactly (stride = the lane's width in words, aligned, no wrap) with
// contiguous active lanes in each group: the group's n lanes cover n*wpl consecutive words, so the
// busiest bank serves ceil(n*wpl / banks). With one word per lane and any stride sw, lane i reads
// word w0 + i*sw: the banks repeat with period P = banks / gcd(sw mod banks, banks), so the group
// costs ceil(n / P). False (and `f` to be ignored) when the lanes are not of that kind.
bool tiled_cost(const LdsGeometry& g, const trace::Instr& in, uint32_t group_lanes, uint64_t wpl, LdsCost& f) {
    const bool aligned_affine = in.mode == trace::AddrMode::Affine && in.stride != 0 &&
                                in.stride % int64_t(g.bank_bytes) == 0 && in.base % g.bank_bytes == 0 &&
                                (in.stride > 0 ? in.base + 63 * uint64_t(in.stride) >= in.base
                                               : in.base >= 63 * (0 - uint64_t(in.stride)));
    const int64_t sw = in.stride / int64_t(g.bank_bytes);
    if (!aligned_affine || !(wpl == 1 || sw == int64_t(wpl))) return false;
    uint64_t r = uint64_t(((sw % int64_t(g.banks)) + int64_t(g.banks)) % int64_t(g.banks));
    uint64_t a = r, b = g.banks;
    while (b) { uint64_t t = a % b; a = b; b = t; }  // gcd(r, banks); gcd(0, banks) = banks
    const uint64_t period = g.banks / a;
    bool contiguous = true;
    for (unsigned first = 0; first < 64 && contiguous; first += group_lanes) {
        uint64_t span = group_lanes >= 64 ? ~0ull : ((1ull << group_lanes) - 1) << first;
        uint64_t seg = (in.mask & span) >> first;
        if (!seg) continue;
        seg >>= __builtin_ctzll(seg);
        contiguous = (seg & (seg + 1)) == 0;
        uint64_t n = uint64_t(__builtin_popcountll(seg));
        uint32_t cost = uint32_t(wpl == 1 ? (n + period - 1) / period : (n * wpl + g.banks - 1) / g.banks);
        f.cycles += cost;
        f.conflict_cycles += cost - 1;
        f.groups += 1;
    }
    return contiguous;
}

// Any other lanes, lane by lane: per group, the distinct words each bank serves.
LdsCost lane_cost(const LdsGeometry& g, const trace::Instr& in, const trace::WaveTrace& w, uint32_t group_lanes, uint64_t wpl) {
    thread_local Scratch s;
    LdsCost c;
    const bool atomic = in.op == trace::Op::Atomic;
    const bool pow2 = (g.banks & (g.banks - 1)) == 0;
    const uint64_t bank_mask = g.banks - 1;
    // When no two touches can name the same word, every touch is a distinct
    // word and the per-bank counts need no de-duplication: atomics (each
    // lane's update counts on its own), and affine lanes whose word ranges
    // cannot overlap (aligned, stride at least one lane's width in words).
    const uint64_t abs_stride = in.stride < 0 ? 0 - uint64_t(in.stride) : uint64_t(in.stride);  // INT64_MIN too
    const bool distinct = atomic || (in.mode == trace::AddrMode::Affine && in.stride % int64_t(g.bank_bytes) == 0 &&
                                     in.base % g.bank_bytes + in.bytes <= wpl * g.bank_bytes &&
                                     abs_stride / g.bank_bytes >= wpl);
    uint32_t worst = 0;
    int64_t group = -1;
    auto close = [&] {
        if (group < 0) return;
        c.cycles += worst;
        c.conflict_cycles += worst - 1;
        c.groups += 1;
    };
    // Shifts instead of divisions when the widths are powers of two (the usual case).
    const bool bb_pow2 = (g.bank_bytes & (g.bank_bytes - 1)) == 0, gl_pow2 = (group_lanes & (group_lanes - 1)) == 0;
    const unsigned bb_shift = unsigned(__builtin_ctz(g.bank_bytes)), gl_shift = unsigned(__builtin_ctz(group_lanes));
    w.for_each_lane(in, [&](unsigned lane, uint64_t addr) {
        int64_t gi = gl_pow2 ? lane >> gl_shift : lane / group_lanes;
        if (gi != group) {
            close();
            group = gi;
            worst = 0;
            s.next_group(g.banks);
        }
        const uint64_t end = addr + in.bytes - 1;
        uint64_t first = bb_pow2 ? addr >> bb_shift : addr / g.bank_bytes;
        uint64_t last = bb_pow2 ? end >> bb_shift : end / g.bank_bytes;
        for (uint64_t word = first; word <= last; ++word) {
            // Atomics: every lane's update is its own access (no broadcast).
            if (!distinct && !s.insert(word)) continue;
            uint32_t bank = uint32_t(pow2 ? word & bank_mask : word % g.banks);
            worst = std::max(worst, s.bump(bank));
        }
    });
    close();
    return c;
}

}  // namespace

// The fast paths first (checked against the lane-by-lane rule in tests/unit/test_lds_cost.cpp).
LdsCost lds_cost(const LdsGeometry& g, const trace::Instr& in, const trace::WaveTrace& w) {
    const uint32_t step = std::max<uint32_t>(in.bytes, g.bank_bytes);
    const uint32_t group_lanes = std::max<uint32_t>(1, uint32_t(uint64_t(g.banks) * g.bank_bytes / step));
    const bool atomic = in.op == trace::Op::Atomic;
    if (in.mode == trace::AddrMode::Affine && in.stride == 0 && !atomic && uint64_t(in.bytes) <= uint64_t(g.banks) * g.bank_bytes)
        return uniform_cost(in.mask, group_lanes);
    const uint64_t wpl = (uint64_t(in.bytes) + g.bank_bytes - 1) / g.bank_bytes;
    LdsCost f;
    if (!atomic && tiled_cost(g, in, group_lanes, wpl, f)) return f;
    return lane_cost(g, in, w, group_lanes, wpl);
}

}  // namespace dcusim
