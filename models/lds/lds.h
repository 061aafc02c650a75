// Local data share of one CU: a banked SRAM behind one in-order pipe shared
// by the CU's waves. Timing is known at issue, so access() answers at once.
#pragma once

#include <systemc>

#include "../common/clock.h"
#include "../common/request.h"
#include "../common/stats.h"
#include "bank_model.h"
#include "lds_params.h"

namespace dcusim {

struct LdsStats {
    uint64_t instructions = 0, loads = 0, stores = 0, atomics = 0;
    uint64_t cycles = 0, bank_conflict_cycles = 0, groups = 0, bytes = 0;
    uint64_t load_cycles = 0, load_conflict_cycles = 0, store_cycles = 0, store_conflict_cycles = 0;
    uint64_t queue_cycles = 0;  // waiting for the pipe behind other waves' instructions
    uint64_t launch_cycles = 0;  // conflict cycles counted for workgroup launches (in the conflicts)
    uint64_t empty_instructions = 0, empty_cycles = 0;  // issued with no lane on: not in instructions or cycles
    void report(StatMap& m) const;
};

// Its counters, declared in lds_counters.cpp.
const CounterTable<LdsStats>& lds_counter_table();

class Lds : public sc_core::sc_module, public WaveMemIf {
public:
    Lds(sc_core::sc_module_name name, const LdsParams& p);
    // Issues one wave instruction at cycle `now`; returns the cycle its data is back.
    Cycle lds_access(const trace::Instr& in, const trace::WaveTrace& w, Cycle now);
    Cycle wave_request(MemRequest& req) override { return lds_access(*req.instr, *req.wave, req.issue); }
    // A launch beside workgroups that already used the LDS this kernel: the next shared load
    // takes launch_conflict_cycles more, counted as conflicts.
    void workgroup_launched(uint32_t others) override;
    // An instruction with no lane on holds the pipe empty_cycles, in issue order with the others, reads
    // no bank, and is done lds.latency later, as an access's data: its warp waits for it as for one.
    Cycle empty_issue(Cycle now) override;
    const LdsStats& stats() const { return stats_; }
    void reset_stats() {
        stats_ = {};
        pending_ = 0;
    }

private:
    LdsParams p_;
    LdsStats stats_;
    Cycle pipe_free_ = 0;
    uint32_t pending_ = 0;  // launch conflict cycles the next shared load takes
    void count_lost(uint64_t pc, Cycle n);
};

}  // namespace dcusim
