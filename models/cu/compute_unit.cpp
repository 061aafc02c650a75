#include "compute_unit.h"

#include <algorithm>

#include "../common/pc_profile.h"
#include "../common/tick_slot.h"

namespace dcusim {

using trace::Instr;
using trace::RecKind;
using trace::Space;
using Stall = WaveState::Stall;

ComputeUnit::ComputeUnit(sc_core::sc_module_name name, uint32_t id, const CuParams& p, const Clock& clk,
                         WorkgroupListener* l)
    : sc_module(name), id_(id), p_(p), clk_(clk), listener_(l), simd_waves_(p.simds, 0), simd_free_(p.simds, 0),
      simd_queue_(p.simds) {
    SC_HAS_PROCESS(ComputeUnit);
    SC_METHOD(run);
    sensitive << wake_;
    dont_initialize();
}

bool ComputeUnit::can_accept() const {
    if (resident_ >= occ_.workgroups_per_cu) return false;
    uint64_t room = 0;
    for (uint32_t n : simd_waves_) room += n < occ_.waves_per_simd ? occ_.waves_per_simd - n : 0;
    return room >= occ_.waves_per_workgroup;
}

void ComputeUnit::launch(std::unique_ptr<trace::WorkgroupTrace> wg, Cycle now) {
    const uint32_t wi = wgs_.acquire();
    WorkgroupSlot& g = wgs_[wi];
    g.active = true;
    g.trace = std::move(wg);
    g.waves.clear();
    g.live = uint32_t(g.trace->waves.size());
    g.at_barrier = 0;
    g.barrier_release = 0;
    lds->workgroup_launched(resident_);
    ++resident_;
    ++stats_.workgroups;
    stats_.waves += g.live;
    for (const trace::WaveTrace& t : g.trace->waves) {
        // The SIMD with the fewest waves (lowest index on ties); can_accept() said one has room.
        uint32_t s = 0;
        for (uint32_t i = 1; i < p_.simds; ++i)
            if (simd_waves_[i] < simd_waves_[s]) s = i;
        ++simd_waves_[s];
        const uint32_t slot = waves_.acquire();
        WaveState& w = waves_[slot];
        uint64_t gen = w.gen;
        w = WaveState{};
        w.gen = gen;
        w.active = true;
        w.wg = wi;
        w.simd = s;
        w.trace = &t;
        w.instrs = t.instrs.data();
        w.count = t.instrs.size();
        g.waves.push_back(slot);
        schedule(slot, now + p_.workgroup_start_cycles);
    }
}

void ComputeUnit::schedule(uint32_t slot, Cycle at) {
    WaveState& w = waves_[slot];
    w.parked = false;
    ready_.push({at, seq_++, slot, ++w.gen});
    __builtin_prefetch(w.instrs + w.next);  // its next instruction is likely cold by the time it steps
    if (!in_run_ && at < next_wake_) {
        next_wake_ = at;
        wake_.notify(clk_.until(at));
    }
}

void ComputeUnit::run() {
    const Cycle now = clk_.now();
    in_run_ = true;
    for (;;) {
        // The waves due now come off the heap first, so that the host-cache misses on their states,
        // then on their next instructions, overlap rather than follow one another.
        due_.clear();
        for (; !ready_.empty() && ready_.top().at <= now; ready_.pop()) {
            due_.push_back(ready_.top());
            __builtin_prefetch(&waves_[due_.back().slot]);
        }
        for (const Ready& r : due_) {
            const WaveState& w = waves_[r.slot];
            if (!w.active || w.gen != r.gen) continue;
            simd_queue_[w.simd].emplace_back(r.slot, r.gen);
            __builtin_prefetch(w.instrs + w.next);
        }
        bool stepped = false;
        for (uint32_t s = 0; s < p_.simds; ++s) {
            auto& q = simd_queue_[s];
            while (!q.empty() && simd_free_[s] <= now) {
                auto [slot, gen] = q.front();
                q.pop_front();
                if (!waves_[slot].active || waves_[slot].gen != gen) continue;
                step(slot, now);
                stepped = true;
            }
        }
        if (!stepped && (ready_.empty() || ready_.top().at > now)) break;
    }
    in_run_ = false;
    next_wake_ = ready_.empty() ? ~Cycle(0) : ready_.top().at;
    for (uint32_t s = 0; s < p_.simds; ++s) {
        auto& q = simd_queue_[s];
        if (!q.empty()) next_wake_ = std::min(next_wake_, simd_free_[s]);
    }
    if (next_wake_ != ~Cycle(0)) wake_.notify(clk_.until(next_wake_));
}

void ComputeUnit::stall(WaveState& w, Stall why, Cycle now) {
    if (w.stall == Stall::None) {
        w.stall = why;
        w.stall_since = now;
    }
}

void ComputeUnit::end_stall(WaveState& w, Cycle now, uint64_t pc) {
    Cycle d = now - w.stall_since;
    if (w.stall != Stall::None)
        if (PcProfile* prof = PcProfile::active()) prof->at(pc).stall_cycles += d;
    switch (w.stall) {
        case Stall::Barrier: stats_.barrier_stall_cycles += d; break;
        case Stall::Wait: stats_.wait_stall_cycles += d; break;
        case Stall::Outstanding: stats_.outstanding_stall_cycles += d; break;
        default: break;
    }
    w.stall = Stall::None;
}

void ComputeUnit::wait_memory(WaveState& w, uint32_t slot, Stall why, Cycle now) {
    stall(w, why, now);
    if (why == Stall::Drain && w.stores) w.parked = true;  // a store's answer wakes it
    else if (why == Stall::Outstanding ? !w.known.empty() : w.unknown == 0)
        schedule(slot, why == Stall::Outstanding ? w.earliest_known() : w.latest_known());
    else
        w.parked = true;
}

Cycle ComputeUnit::compute_hold(const Instr& in) const {
    const Cycle step = std::max(p_.issue_cycles, p_.wave_issue_cycles);
    auto class_step = [&](uint32_t c) { return c ? std::max<Cycle>(p_.issue_cycles, c) : step; };
    if (in.stall) {
        // The compiler's stall counts hold the wave (1 between independent FFMAs, 4 before a dependent
        // one); long and middle results still come as late as the preset says.
        const Cycle later = in.long_count * (class_step(p_.long_issue_cycles) - step) +
                            in.mid_count * (class_step(p_.mid_issue_cycles) - step);
        return std::max<Cycle>(in.count * p_.issue_cycles, in.stall) + later;
    }
    const uint64_t plain = in.count - in.long_count - in.mid_count;
    return plain * step + in.long_count * class_step(p_.long_issue_cycles) + in.mid_count * class_step(p_.mid_issue_cycles);
}

void ComputeUnit::step(uint32_t slot, Cycle now) {
    progress_.publish(now, stats_.instructions + stats_.workgroups);
    WaveState& w = waves_[slot];
    const Instr* instrs = w.instrs;
    const uint32_t s = w.simd;
    for (;;) {
        if (w.next == w.count) {
            // A wave retires once its last memory operation is back.
            if (w.outstanding(now) == 0 && w.stores == 0) return retire(slot, now);
            return wait_memory(w, slot, Stall::Drain, now);
        }
        const Instr& in = instrs[w.next];
        switch (in.kind) {
            case RecKind::Wait:
                if (!wait_done(w, slot, in, now)) return;
                end_stall(w, now, in.pc);
                if (PcProfile* prof = PcProfile::active()) ++prof->at(in.pc).instructions;
                ++w.next;
                stats_.issued(in, p_.issue_cycles);
                continue;
            case RecKind::Compute: {
                if (in.count == 0) {
                    ++w.next;
                    continue;
                }
                if (!issue_empty_lds(w, slot, in, now)) return;
                ++w.next;
                stats_.issued(in, p_.issue_cycles);
                // The SIMD is busy issue_cycles per instruction; the wave itself can issue its
                // next one only later (compute_hold).
                simd_free_[s] = now + in.count * p_.issue_cycles;
                return schedule(slot, now + compute_hold(in));
            }
            case RecKind::Barrier: {
                ++w.next;
                if (PcProfile* prof = PcProfile::active()) ++prof->at(in.pc).instructions;
                stats_.issued(in, p_.issue_cycles);
                simd_free_[s] = now + p_.issue_cycles;
                WorkgroupSlot& g = wgs_[w.wg];
                ++g.at_barrier;
                Cycle taken = now + p_.issue_cycles;  // the barrier has issued
                if (p_.barrier_arrive_cycles > 0) {  // the CU's barrier unit, one arrival at a time
                    TickSlot::hold(barrier_unit_free_, taken, Cycle(p_.barrier_arrive_cycles * TickSlot::kPerCycle + 0.5));
                    taken = TickSlot::cycle_at(barrier_unit_free_);
                }
                g.barrier_release = std::max(g.barrier_release, taken + p_.barrier_cycles);
                stall(w, Stall::Barrier, now + p_.issue_cycles);  // waiting starts once the barrier has issued
                w.parked = true;
                return release_barrier_if_complete(w.wg, now);
            }
            case RecKind::Mem: {
                if (w.outstanding(now) >= p_.max_outstanding) return wait_memory(w, slot, Stall::Outstanding, now);
                end_stall(w, now, in.pc);
                if (PcProfile* prof = PcProfile::active()) ++prof->at(in.pc).instructions;
                ++w.next;
                stats_.issued(in, p_.issue_cycles);
                simd_free_[s] = now + p_.issue_cycles;
                issue_mem(w, slot, in, now);
                return schedule(slot, now + std::max(p_.issue_cycles, p_.wave_issue_cycles));
            }
            default: ++w.next; continue;
        }
    }
}

// A compute record's LDS instructions with no lane on, issued first (where among the record they
// issued is not known). Each one the LDS takes is in flight as an LDS access is: it needs room under
// cu.max_outstanding and a wait waits for it (the H200: an empty LDS holds its warp as a full one,
// validation/results/h200-ldspredicated). False: the wave stalled, with w.empty_issued of them issued.
bool ComputeUnit::issue_empty_lds(WaveState& w, uint32_t slot, const Instr& in, Cycle now) {
    for (; w.empty_issued < in.lds_count; ++w.empty_issued) {
        if (w.outstanding(now) >= p_.max_outstanding) {
            wait_memory(w, slot, Stall::Outstanding, now);
            return false;
        }
        end_stall(w, now, in.pc);
        const Cycle done = lds->empty_issue(now);
        if (done != WaveMemIf::kSkipped) w.add_known(done);
    }
    w.empty_issued = 0;
    return true;
}

bool ComputeUnit::wait_done(WaveState& w, uint32_t slot, const Instr& in, Cycle now) {
    if (!in.keep) {
        if (w.outstanding(now) == 0) return true;
        wait_memory(w, slot, Stall::Wait, now);
        return false;
    }
    const Cycle at = w.older_back(in.keep);
    if (at <= now) return true;
    stall(w, Stall::Wait, now);
    if (at == WaveState::kPending) w.parked = true;  // an answer wakes it
    else schedule(slot, at);
    return false;
}

void ComputeUnit::issue_mem(WaveState& w, uint32_t slot, const Instr& in, Cycle now) {
    MemRequest& r = new_request(w, slot, in, now);
    const uint32_t ri = uint32_t(r.tag >> 32);
    if (in.space != Space::Lds && in.space != Space::Const) return send_vector(w, r, now);
    ++w.unknown;
    const Cycle at = (in.space == Space::Lds ? lds : constant)->wave_request(r);
    if (at == WaveMemIf::kAnswerLater) {  // a constant miss: answered through mem_response
        req_seq_[ri] = w.push_order(WaveState::kPending, now, in.op == trace::Op::Store);
        return;
    }
    --w.unknown;
    if (at == WaveMemIf::kNotHere) return send_vector(w, r, now);  // divergent under `vector`
    reqs_.release(ri);
    w.add_known(at);
    w.push_order(at, now, in.op == trace::Op::Store);
}

MemRequest& ComputeUnit::new_request(const WaveState& w, uint32_t slot, const Instr& in, Cycle now) {
    const uint32_t ri = reqs_.acquire();
    MemRequest& r = reqs_[ri];
    r = MemRequest{};
    r.op = in.op;
    r.space = in.space;
    r.instr = &in;
    r.wave = w.trace;
    r.size = in.bytes;
    r.issue = now;
    r.reply_to = this;
    r.tag = uint64_t(ri) << 32 | slot;  // request slot, wave slot
    r.wave_id = slot;
    r.pc = in.pc;
    if (req_seq_.size() <= ri) req_seq_.resize(ri + 1);
    return r;
}

void ComputeUnit::send_vector(WaveState& w, MemRequest& r, Cycle now) {
    if (r.op == trace::Op::Store && !p_.wait_stores) {
        ++w.stores;
    } else {
        ++w.unknown;
        req_seq_[uint32_t(r.tag >> 32)] = w.push_order(WaveState::kPending, now, r.op == trace::Op::Store);
    }
    [[maybe_unused]] const Cycle at = mem->wave_request(r);
    sc_assert(at == WaveMemIf::kAnswerLater);  // the vector path's memories answer through mem_response
}

void ComputeUnit::mem_response(MemRequest& req) {
    const uint32_t ri = uint32_t(req.tag >> 32);
    reqs_.release(ri);
    const uint32_t slot = uint32_t(req.tag);
    if (req.op != trace::Op::Store || p_.wait_stores) return mem_complete(slot, req_seq_[ri], req.done);
    // Waits do not count a store: only a wave draining at its end waits for its answer.
    WaveState& w = waves_[slot];
    --w.stores;
    if (w.parked && w.stall == Stall::Drain) schedule(slot, clk_.now());
}

void ComputeUnit::mem_complete(uint32_t slot, uint64_t seq, Cycle when) {
    WaveState& w = waves_[slot];
    --w.unknown;
    w.add_known(when);
    w.complete_order(seq, when);
    if (w.parked && w.stall != Stall::Barrier) schedule(slot, std::max(when, clk_.now()));
}

void ComputeUnit::release_barrier_if_complete(uint32_t wi, Cycle now) {
    WorkgroupSlot& g = wgs_[wi];
    if (g.at_barrier == 0 || g.at_barrier < g.live) return;
    Cycle at = std::max(now, g.barrier_release);
    for (uint32_t slot : g.waves) {
        WaveState& w = waves_[slot];
        if (!w.active || w.stall != Stall::Barrier) continue;
        w.stall_since = std::min(w.stall_since, at);
        end_stall(w, at, w.instrs[w.next - 1].pc);  // the barrier it waited at
        schedule(slot, at);
    }
    g.at_barrier = 0;
    g.barrier_release = 0;
}

void ComputeUnit::retire(uint32_t slot, Cycle now) {
    WaveState& w = waves_[slot];
    w.active = false;
    ++w.gen;
    waves_.release(slot);
    --simd_waves_[w.simd];
    WorkgroupSlot& g = wgs_[w.wg];
    if (--g.live > 0) return release_barrier_if_complete(w.wg, now);
    g.active = false;
    const uint64_t tag = g.trace->tag;
    g.trace.reset();
    wgs_.release(w.wg);
    --resident_;
    listener_->workgroup_retired(id_, tag, now);
}

}  // namespace dcusim
