// One L2 channel (slice): write-back, write-allocate, sectored. Reads hit
// when every wanted sector is valid, else an MSHR fetches the missing
// sectors from DRAM (merging misses to a line in flight); a write makes its
// sectors valid and dirty without a fetch; atomics execute here, on a line
// fetched like a read. A dirty victim is written back. Lookups go through one
// in-order port at `lookups_per_cycle`, which stalls while every MSHR is busy.
#pragma once

#include <systemc>

#include <deque>

#include "../cache/cache_counters.h"
#include "../cache/lookup_port.h"
#include "../cache/mshr.h"
#include "../cache/sector_tags.h"
#include "../common/request.h"
#include "../common/response_queue.h"
#include "../common/slot_pool.h"
#include "../common/stats.h"
#include "partitions.h"

namespace dcusim {

struct L2Params {
    CacheGeometry geometry{262144, 128, 16};  // one slice
    uint32_t sector_bytes = 32;
    std::string replacement = "lru";
    uint32_t hit_latency = 100;
    uint32_t atomic_latency = 120;
    uint32_t lookups_per_cycle = 1;
    uint32_t mshrs = 256;
    // The channel interleave, so a slice indexes its sets with the address
    // bits that do not pick the channel.
    uint32_t channels = 1;
    uint32_t interleave_bytes = 256;
    uint32_t fetch_sectors = 1;  // DRAM fetch granularity in sectors (aligned groups)
    uint64_t dirty_limit_sectors = 0;  // most dirty sectors kept; beyond, the oldest dirty line is written back (0: no limit)
    uint32_t writeback_buffers = 0;    // write-backs in flight to DRAM; while all are busy the tag port waits (0: no limit)
    L2Partitions sides;
    uint32_t index = 0;  // this slice's channel
};

struct L2Stats : CacheCounters {
    uint64_t writebacks = 0, writeback_bytes = 0, reads = 0, read_latency_sum = 0, far_fetches = 0;
    uint64_t writeback_stall_cycles = 0;  // the tag port waiting for a free write-back buffer
    void add_to(StatMap& m) const;
};

class L2Slice : public sc_core::sc_module, public MemTargetIf, public MemResponder {
public:
    sc_core::sc_port<MemTargetIf> dram;

    L2Slice(sc_core::sc_module_name name, const L2Params& p, const Clock& clk);
    void mem_request(MemRequest& req) override;
    void mem_response(MemRequest& req) override;
    const L2Stats& stats() const { return stats_; }
    void reset_stats() { stats_ = {}; }
    // Installs a whole dirty line of no kernel, older than anything the kernel brings: it is
    // written back when evicted.
    void add_foreign_dirty(uint64_t line_no);
    void invalidate() {  // empties the slice; dirty data is dropped (not this kernel's traffic)
        tags_.invalidate_all();
        dirty_sectors_ = 0;
        dirty_order_.clear();
    }

private:
    struct Target {
        MemRequest* req;
        Cycle arrival;
        uint32_t sectors;
    };
    struct DownReq {
        MemRequest req;
        bool writeback;
        uint32_t far;  // a fill over the partition link: its cycles each way
    };
    void run();
    bool lookup(MemRequest& req, Cycle arrival, Cycle now);
    void fetch(uint64_t line_no, uint32_t sectors, Cycle now, const MemRequest& by);
    uint32_t widen(uint32_t missing) const;
    void write_sectors(uint64_t line_no, uint32_t sectors, Cycle now, uint64_t pc);
    void write_back(const SectorTags::Victim& v, Cycle now, uint64_t pc);
    void answer(MemRequest& req, Cycle arrival, Cycle at);

    L2Params p_;
    const Clock& clk_;
    L2Stats stats_;
    uint64_t dirty_sectors_ = 0;          // with a dirty limit: dirty sectors held
    uint32_t writebacks_in_flight_ = 0;   // sent to DRAM, not yet written
    bool stalled_on_writeback_ = false;   // why the tag port waits: a write-back buffer, else an MSHR
    std::deque<uint64_t> dirty_order_;  // lines in the order they became dirty (oldest first)
    SectorTags tags_;
    MshrTable<Target> mshr_;
    std::vector<Target> done_targets_;  // targets of the fill being answered
    SlotPool<DownReq> down_;
    LookupPort<std::pair<MemRequest*, Cycle>> port_;  // a request and its arrival cycle
    ResponseQueue responses_;
};

}  // namespace dcusim
