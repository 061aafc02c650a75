#include "lds.h"

#include <algorithm>

#include "../common/pc_profile.h"

namespace dcusim {

void LdsStats::report(StatMap& m) const {
    add_stat(m, "lds.instructions", instructions);
    add_stat(m, "lds.loads", loads);
    add_stat(m, "lds.stores", stores);
    add_stat(m, "lds.atomics", atomics);
    add_stat(m, "lds.cycles", cycles);
    add_stat(m, "lds.bank_conflict_cycles", bank_conflict_cycles);
    add_stat(m, "lds.load_cycles", load_cycles);
    add_stat(m, "lds.load_conflict_cycles", load_conflict_cycles);
    add_stat(m, "lds.store_cycles", store_cycles);
    add_stat(m, "lds.store_conflict_cycles", store_conflict_cycles);
    add_stat(m, "lds.groups", groups);
    add_stat(m, "lds.bytes", bytes);
    add_stat(m, "lds.queue_cycles", queue_cycles);
}

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
    pipe_free_ = start + c.cycles;
    return pipe_free_ + p_.latency + c.conflict_cycles * p_.replay_latency;
}

}  // namespace dcusim
