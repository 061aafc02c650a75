#include "lds.h"

#include <algorithm>

#include "../common/pc_profile.h"

namespace dcusim {

Lds::Lds(sc_core::sc_module_name name, const LdsParams& p) : sc_module(name), p_(p) {}

Cycle Lds::lds_access(const trace::Instr& in, const trace::WaveTrace& w, Cycle now) {
    LdsCost c = lds_cost(p_.geometry, in, w);
    ++stats_.instructions;
    (in.op == trace::Op::Load ? stats_.loads : in.op == trace::Op::Store ? stats_.stores : stats_.atomics) += 1;
    stats_.cycles += c.cycles;
    stats_.bank_conflict_cycles += c.conflict_cycles;
    if (in.op == trace::Op::Load) {
        stats_.load_cycles += c.cycles;
        stats_.load_conflict_cycles += c.conflict_cycles;
    } else if (in.op == trace::Op::Store) {
        stats_.store_cycles += c.cycles;
        stats_.store_conflict_cycles += c.conflict_cycles;
    }
    if (PcProfile* prof = PcProfile::active()) {
        PcCounters& pc = prof->at(in.pc);
        ++pc.lds_instructions;
        pc.lds_conflict_cycles += c.conflict_cycles;
    }
    stats_.groups += c.groups;
    stats_.bytes += uint64_t(trace::popcount64(in.mask)) * in.bytes;
    Cycle start = std::max(now, pipe_free_);
    stats_.queue_cycles += start - now;
    // A launch's cycles go to the next load: the H200 counts them on loads only, stores after a launch
    // none (validation/results/h200-ldsmix: waves8 7,206 load conflicts, 0 store, where every block
    // stores its tile before its reads).
    const uint32_t lost = in.op == trace::Op::Load ? pending_ : 0;
    if (lost) {
        pending_ = 0;
        count_lost(in.pc, lost);
    }
    pipe_free_ = start + lost + c.cycles;
    return pipe_free_ + p_.latency + (c.conflict_cycles + lost) * p_.replay_latency;
}

// A load's launch cycles, counted as its conflicts. Cycles no load takes before the kernel ends are
// counted nowhere.
void Lds::count_lost(uint64_t pc, Cycle n) {
    stats_.launch_cycles += n;
    stats_.bank_conflict_cycles += n;
    stats_.cycles += n;
    stats_.load_cycles += n;
    stats_.load_conflict_cycles += n;
    if (PcProfile* prof = PcProfile::active()) prof->at(pc).lds_conflict_cycles += n;
}

Cycle Lds::empty_issue(Cycle now) {
    ++stats_.empty_instructions;
    if (p_.empty_cycles == 0) return kSkipped;  // a DCU's exec mask: never reaches the LDS
    const Cycle start = std::max(now, pipe_free_);
    stats_.queue_cycles += start - now;
    stats_.empty_cycles += p_.empty_cycles;
    pipe_free_ = start + p_.empty_cycles;
    return pipe_free_ + p_.latency;
}

// A block launched while the LDS serves others' shared accesses (the H200 counts it; why is not
// known): the kernel's first wave of launches, before any shared access, costs nothing. The CU's
// next shared load takes the cycles.
void Lds::workgroup_launched(uint32_t others) {
    if (others > 0 && stats_.instructions > 0) pending_ += p_.launch_conflict_cycles;
}

}  // namespace dcusim
