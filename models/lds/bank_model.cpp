#include "bank_model.h"

#include <algorithm>
#include <vector>

namespace dcusim {

namespace {
struct Touch {
    uint64_t word;
    uint32_t lane;  // 0 for loads and stores (broadcast); lane+1 for atomics
    bool operator<(const Touch& o) const { return word != o.word ? word < o.word : lane < o.lane; }
    bool operator==(const Touch& o) const { return word == o.word && lane == o.lane; }
};

uint32_t group_cost(std::vector<Touch>& t, std::vector<uint32_t>& per_bank, uint32_t banks) {
    std::sort(t.begin(), t.end());
    t.erase(std::unique(t.begin(), t.end()), t.end());
    uint32_t worst = 0;
    for (const Touch& x : t) worst = std::max(worst, ++per_bank[x.word % banks]);
    for (const Touch& x : t) per_bank[x.word % banks] = 0;
    return worst;
}
}  // namespace

LdsCost lds_cost(const LdsGeometry& g, const trace::Instr& in, const trace::WaveTrace& w) {
    const uint32_t step = std::max<uint32_t>(in.bytes, g.bank_bytes);
    const uint32_t group_lanes = std::max<uint32_t>(1, uint32_t(uint64_t(g.banks) * g.bank_bytes / step));
    const bool atomic = in.op == trace::Op::Atomic;
    thread_local std::vector<Touch> touches;
    thread_local std::vector<uint32_t> per_bank;
    if (per_bank.size() < g.banks) per_bank.assign(g.banks, 0);
    touches.clear();

    LdsCost c;
    int64_t group = -1;
    auto close = [&] {
        if (group < 0) return;
        uint32_t cost = group_cost(touches, per_bank, g.banks);
        c.cycles += cost;
        c.conflict_cycles += cost - 1;
        c.groups += 1;
        touches.clear();
    };
    w.for_each_lane(in, [&](unsigned lane, uint64_t addr) {
        int64_t gi = lane / group_lanes;
        if (gi != group) {
            close();
            group = gi;
        }
        uint64_t first = addr / g.bank_bytes, last = (addr + in.bytes - 1) / g.bank_bytes;
        for (uint64_t word = first; word <= last; ++word) touches.push_back({word, atomic ? lane + 1 : 0});
    });
    close();
    return c;
}

}  // namespace dcusim
