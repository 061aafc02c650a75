// One compute unit: resident workgroups, their waves, the SIMDs that issue
// them, and the ports to the LDS, the constant cache and global memory.
// One SC_METHOD steps the waves whose next instruction may issue now and then
// sleeps until the earliest cycle any wave can go on (or a response wakes it).
#pragma once

#include <systemc>

#include <deque>
#include <memory>
#include <queue>
#include <vector>

#include "../../traces/replay/workgroup_mix.h"
#include "../common/progress.h"
#include "../common/request.h"
#include "../common/slot_pool.h"
#include "../common/stats.h"
#include "occupancy.h"
#include "wave_state.h"

namespace dcusim {

class WorkgroupListener {
public:
    virtual ~WorkgroupListener() = default;
    // tag: the retired workgroup's WorkgroupTrace::tag
    virtual void workgroup_retired(uint32_t cu, uint64_t tag, Cycle when) = 0;
};

struct CuStats {
    uint64_t workgroups = 0, waves = 0, instructions = 0, compute_instructions = 0;
    uint64_t mem_instructions = 0, global_instructions = 0, local_instructions = 0, barriers = 0, waits = 0;
    uint64_t simd_busy_cycles = 0;
    uint64_t barrier_stall_cycles = 0, wait_stall_cycles = 0, outstanding_stall_cycles = 0;
    void report(StatMap& m) const;
    // What issuing `in` adds (its stalls aside), each SIMD instruction busy `issue_cycles`: the one
    // rule for the waves a CU runs and for the workgroups sampling skips.
    void issued(const trace::Instr& in, Cycle issue_cycles) {
        switch (in.kind) {
            case trace::RecKind::Wait: ++waits, ++instructions; break;
            case trace::RecKind::Compute:
                compute_instructions += in.count, instructions += in.count;
                simd_busy_cycles += in.count * issue_cycles;
                break;
            case trace::RecKind::Barrier: ++barriers, ++instructions, simd_busy_cycles += issue_cycles; break;
            case trace::RecKind::Mem:
                ++instructions, ++mem_instructions, simd_busy_cycles += issue_cycles;
                global_instructions += in.space == trace::Space::Global;
                local_instructions += in.space == trace::Space::Local;
                break;
            default: break;
        }
    }
    // A whole workgroup, as it would run at the CU's wave size: its counts that the trace decides, from its
    // mix (the sums of what issued() adds for each of its instructions; tests/unit/test_sampler.cpp).
    void workgroup(const trace::WorkgroupMix& m, Cycle issue_cycles) {
        const uint64_t mem = m.memory(trace::Space::Global) + m.memory(trace::Space::Lds) + m.memory(trace::Space::Const) +
                             m.memory(trace::Space::Local);
        ++workgroups, waves += m.waves;
        waits += m.waits, barriers += m.barriers, compute_instructions += m.compute, mem_instructions += mem;
        instructions += m.waits + m.barriers + m.compute + mem;
        simd_busy_cycles += (m.compute + m.barriers + mem) * issue_cycles;
        global_instructions += m.memory(trace::Space::Global), local_instructions += m.memory(trace::Space::Local);
    }
};

// Its counters, declared in cu_counters.cpp.
const CounterTable<CuStats>& cu_counter_table();

class ComputeUnit : public sc_core::sc_module, public MemResponder {
public:
    // Its three memories, reached alike (WaveMemIf): the LDS, the constant cache, the vector-memory path.
    sc_core::sc_port<WaveMemIf> lds;
    sc_core::sc_port<WaveMemIf> constant;
    sc_core::sc_port<WaveMemIf> mem;

    ComputeUnit(sc_core::sc_module_name name, uint32_t id, const CuParams& p, const Clock& clk, WorkgroupListener* l);

    void set_kernel(const Occupancy& occ) { occ_ = occ; }
    bool can_accept() const;
    // Takes the workgroup; its waves may issue from cycle `now`.
    void launch(std::unique_ptr<trace::WorkgroupTrace> wg, Cycle now);
    bool idle() const { return resident_ == 0; }

    void mem_response(MemRequest& req) override;

    const CuStats& stats() const { return stats_; }
    const Progress& progress() const { return progress_; }  // read by the watchdog's thread
    void reset_stats() { stats_ = {}; }

private:
    void run();
    void step(uint32_t slot, Cycle now);
    void schedule(uint32_t slot, Cycle at);
    // How long a compute record holds its wave: its stall cycles where the trace gives them, else each
    // instruction wave_issue_cycles (dependent-issue latency), long_issue_cycles after a long-latency one
    // (a conversion, a transcendental), mid_issue_cycles after a middle one (a wide multiply).
    Cycle compute_hold(const trace::Instr& in) const;
    void issue_mem(WaveState& w, uint32_t slot, const trace::Instr& in, Cycle now);
    bool issue_empty_lds(WaveState& w, uint32_t slot, const trace::Instr& in, Cycle now);
    void release_barrier_if_complete(uint32_t wg, Cycle now);
    void retire(uint32_t slot, Cycle now);
    MemRequest& new_request(const WaveState& w, uint32_t slot, const trace::Instr& in, Cycle now);
    void send_vector(WaveState& w, MemRequest& r, Cycle now);  // through the vector-memory path (mem)
    void mem_complete(uint32_t slot, uint64_t seq, Cycle when);
    bool wait_done(WaveState& w, uint32_t slot, const trace::Instr& in, Cycle now);  // false: the wave waits
    void stall(WaveState& w, WaveState::Stall why, Cycle now);
    void end_stall(WaveState& w, Cycle now, uint64_t pc);  // pc: the instruction the wave stalled at
    // The wave waits for outstanding memory: at a known cycle, or parked until a response.
    void wait_memory(WaveState& w, uint32_t slot, WaveState::Stall why, Cycle now);

    uint32_t id_;
    CuParams p_;
    const Clock& clk_;
    WorkgroupListener* listener_;
    CuStats stats_;
    Progress progress_;
    Occupancy occ_;

    SlotPool<WaveState> waves_;
    SlotPool<WorkgroupSlot> wgs_;
    std::vector<uint32_t> simd_waves_;   // resident waves per SIMD
    std::vector<Cycle> simd_free_;       // cycle each SIMD can issue again
    Cycle barrier_unit_free_ = 0;        // when the CU's barrier unit takes its next arrival, in 1/1024 cycles
    uint32_t resident_ = 0;              // resident workgroups

    struct Ready {
        Cycle at;
        uint64_t seq;
        uint32_t slot;
        uint64_t gen;
        bool operator>(const Ready& o) const { return at != o.at ? at > o.at : seq > o.seq; }
    };
    // Waves that may go on at a future cycle, then per SIMD the waves that may
    // issue now, oldest-ready first.
    std::priority_queue<Ready, std::vector<Ready>, std::greater<Ready>> ready_;
    std::vector<Ready> due_;  // run()'s: the waves due this cycle, off the heap
    std::vector<std::deque<std::pair<uint32_t, uint64_t>>> simd_queue_;
    uint64_t seq_ = 0;
    sc_core::sc_event wake_;
    bool in_run_ = false;
    Cycle next_wake_ = ~Cycle(0);
    SlotPool<MemRequest> reqs_;  // requests in flight to the CU's memories
    std::vector<uint64_t> req_seq_;  // per request slot: its wave's issue number (WaveState::order)
};

}  // namespace dcusim
