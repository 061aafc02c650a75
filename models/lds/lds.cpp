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
    uint32_t lost = 0;  // its first cycle falls where returning vector data holds the stage
    if (loses_cycles(in.op) && start >= stage_from_ && start < stage_until_) {
        lost = uint32_t(stage_until_ - start);
        count_lost(in.op, in.pc, lost);
    }
    pipe_free_ = start + lost + c.cycles;
    last_ = {start, pipe_free_, in.pc, in.op};
    return pipe_free_ + p_.latency + (c.conflict_cycles + lost) * p_.replay_latency;
}

bool Lds::loses_cycles(trace::Op op) const {
    return p_.vector_data == VectorDataStage::All || (p_.vector_data == VectorDataStage::Loads && op == trace::Op::Load);
}

void Lds::count_lost(trace::Op op, uint64_t pc, Cycle n) {
    stats_.vector_data_cycles += n;
    stats_.bank_conflict_cycles += n;
    stats_.cycles += n;
    if (op == trace::Op::Load) {
        stats_.load_cycles += n;
        stats_.load_conflict_cycles += n;
    } else if (op == trace::Op::Store) {
        stats_.store_cycles += n;
        stats_.store_conflict_cycles += n;
    }
    if (PcProfile* prof = PcProfile::active()) prof->at(pc).lds_conflict_cycles += n;
}

// The data stage reads a returning load out one 128-byte line a cycle, the n cycles before its data
// is back at `at`. The shared instruction the pipe serves in those cycles takes one more cycle for
// each, and so does all queued behind it (their answers, already given, stay: a cycle or two of
// latency is not modelled); one issued into them later starts after them.
void Lds::vector_return(const trace::Instr& in, const trace::WaveTrace& w, Cycle at) {
    if (p_.vector_data == VectorDataStage::Off) return;
    uint64_t lines[64];
    uint32_t n = 0;
    w.for_each_lane(in, [&](unsigned, uint64_t a) {
        const uint64_t l = a >> 7;
        if (std::find(lines, lines + n, l) == lines + n) lines[n++] = l;
    });
    if (n == 0) return;
    const Cycle from = at > n ? at - n : 0;
    const Cycle lo = std::max(from, last_.start), hi = std::min(at, last_.end);
    if (hi > lo && loses_cycles(last_.op)) {
        count_lost(last_.op, last_.pc, hi - lo);
        last_.end += hi - lo;
        pipe_free_ += hi - lo;
    }
    if (from >= stage_until_) stage_from_ = from;
    stage_until_ = std::max(stage_until_, at);
}
}  // namespace dcusim
