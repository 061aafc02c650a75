// Constant cache shared by `cus_per_cache` CUs. A wave instruction whose
// active lanes read one address is one broadcast request. With k distinct
// addresses: `serialize` issues k requests one after another through the
// cache port (CUDA's constant cache); `vector` hands the instruction back to
// the CU for the vector-memory path (GCN's scalar cache serves only uniform
// loads). Misses fetch the line through the global-memory port; misses to a
// line already being fetched wait on its MSHR.
#pragma once

#include <systemc>

#include <unordered_map>
#include <vector>

#include "../cache/tag_array.h"
#include "../common/request.h"
#include "../common/slot_pool.h"
#include "../common/stats.h"
#include "const_params.h"

namespace dcusim {

struct ConstStats {
    uint64_t instructions = 0, requests = 0, hits = 0, misses = 0, mshr_merges = 0;
    uint64_t vector_instructions = 0, serialization_cycles = 0, queue_cycles = 0, fills = 0;
    void report(StatMap& m) const;
};

// Its counters, declared in const_counters.cpp.
const CounterTable<ConstStats>& const_counter_table();

class ConstantCache : public sc_core::sc_module, public WaveMemIf, public MemResponder {
public:
    sc_core::sc_port<MemTargetIf> mem;

    ConstantCache(sc_core::sc_module_name name, const ConstParams& p);
    // A constant load: its cycle when every line it needs hits, kAnswerLater
    // when a fill is needed, kNotHere for a divergent load under `vector`.
    Cycle wave_request(MemRequest& req) override;
    void mem_response(MemRequest& req) override;
    const ConstStats& stats() const { return stats_; }
    void reset_stats() { stats_ = {}; }
    void invalidate() { tags_.invalidate_all(); }

private:
    struct PendingOp {  // one wave instruction waiting for fills
        MemRequest* req;
        uint32_t fills;
        Cycle done;
    };
    struct Mshr {
        MemRequest req;
        std::vector<uint32_t> ops;  // PendingOp indices, one per waiting request
    };
    void finish_op(uint32_t op, Cycle done);

    ConstParams p_;
    ConstStats stats_;
    TagArray tags_;
    Cycle port_free_ = 0;
    std::unordered_map<uint64_t, Mshr> mshrs_;  // by line number
    SlotPool<PendingOp> ops_;
};

}  // namespace dcusim
