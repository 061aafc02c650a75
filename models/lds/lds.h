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
    uint64_t vector_data_cycles = 0;  // cycles shared accesses lost to returning vector load data (in the conflicts)
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
    // A vector load's data takes the data stage at `at`, one cycle per 128-byte line it touches
    // (LdsParams::vector_data): a shared access served then, or issued into those cycles, waits.
    void vector_data(const MemRequest& req, Cycle at) override { vector_return(*req.instr, *req.wave, at); }
    void vector_return(const trace::Instr& in, const trace::WaveTrace& w, Cycle at);
    const LdsStats& stats() const { return stats_; }
    void reset_stats() { stats_ = {}; }

private:
    LdsParams p_;
    LdsStats stats_;
    Cycle pipe_free_ = 0;
    // The last instruction the pipe serves (the one a returning load can find in service), and the
    // cycles returning vector data holds the stage.
    struct Served {
        Cycle start = 0, end = 0;
        uint64_t pc = 0;
        trace::Op op = trace::Op::Load;
    } last_;
    Cycle stage_from_ = 0, stage_until_ = 0;
    bool loses_cycles(trace::Op op) const;
    void count_lost(trace::Op op, uint64_t pc, Cycle n);
};

}  // namespace dcusim
