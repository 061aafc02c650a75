// One L2 channel (slice): write-back, write-allocate, sectored. Reads hit
// when every wanted sector is valid, else an MSHR fetches the missing
// sectors from DRAM (merging misses to a line in flight); a write makes its
// sectors dirty without a fetch, and valid where it writes them whole (a sector
// written in part is fetched before a read); atomics execute here, on a line
// fetched like a read. A dirty victim is written back. Lookups go through one
// in-order port at `lookups_per_cycle`, which stalls while every MSHR is busy.
// In a partitioned L2 that keeps copies per side (partitions.h), a slice also
// holds clean copies of lines homed on other sides for its side's CUs: a
// missing copy is fetched from the home slice over the link, a store to it
// is written through to the home, and a write at the home empties the copies
// the other sides hold. Lookups that come over the link count apart (`l2.link.*`)
// and have a port and MSHRs of their own, which wait only on DRAM: behind the
// CUs' lookups they could wait on the copies that wait on them.
#pragma once

#include <systemc>

#include <deque>
#include <vector>

#include "../cache/cache_counters.h"
#include "../cache/lookup_port.h"
#include "../cache/mshr.h"
#include "../cache/sector_tags.h"
#include "../common/request.h"
#include "../common/response_queue.h"
#include "../common/slot_pool.h"
#include "../common/stats.h"
#include "../memory/aperture.h"
#include "atomic_unit.h"
#include "l2_link.h"
#include "l2_params.h"
#include "partial_sectors.h"
#include "partitions.h"

namespace dcusim {

struct L2Stats : CacheCounters {
    uint64_t writebacks = 0, writeback_bytes = 0, reads = 0, read_latency_sum = 0, far_fetches = 0;
    uint64_t writeback_stall_cycles = 0;  // the tag port waiting for a free write-back buffer
    CacheCounters link;  // lookups that came over the partition link (another side's copy asking its home)
    uint64_t partial_sectors = 0;  // sectors written in part and fetched to complete them (l2.partial_writes = fetch)
    void add_to(StatMap& m) const;
};

// Its counters, declared in l2_counters.cpp.
const CounterTable<L2Stats>& l2_counter_table();

class L2Slice : public sc_core::sc_module, public L2SideIf, public MemResponder {
public:
    sc_core::sc_port<MemTargetIf> dram;
    // To the other sides' slices (bound only when sides keep copies).
    sc_core::sc_port<L2LinkIf, 1, sc_core::SC_ZERO_OR_MORE_BOUND> link;

    L2Slice(sc_core::sc_module_name name, const L2Params& p, const Clock& clk);
    void mem_request(MemRequest& req) override;
    void mem_response(MemRequest& req) override;
    const L2Stats& stats() const { return stats_; }
    void reset_stats() { stats_ = {}; }
    // Installs a whole dirty line of no kernel, older than anything the kernel brings: it is
    // written back when evicted.
    void add_foreign_dirty(uint64_t line_no);
    // Lines held (a scan: sampling looks once per window whether the L2 is still filling).
    uint64_t valid_lines() const { return tags_.valid_lines(); }
    // Dirty sectors held, with a dirty limit (0 without: then none are counted).
    uint64_t dirty_sectors() const { return dirty_sectors_; }
    // Host memory mapped into the device's address space: its stores are written through over the link.
    void set_mapped(const MappedRanges* ranges) { mapped_ = ranges; }
    // Functional warming (sampled simulation): the tags, sectors and dirty data an access of a skipped
    // workgroup would leave here, at once, with no timing, traffic or counters. `copy`: this slice holds
    // the line as a copy for its side's CUs (a store to it is written through to the home).
    // Returns the DRAM traffic it stands for: sectors fetched, and dirty sectors of victims written back.
    struct WarmTraffic {
        uint32_t read_sectors = 0, written_sectors = 0;
    };
    WarmTraffic warm(uint64_t line_no, uint32_t sectors, uint32_t full, trace::Op op, bool copy);
    // warm()'s set, into the host's cache: the warmer asks a few accesses ahead, so that the misses overlap.
    void prefetch(uint64_t line_no) const { tags_.prefetch(line_no); }
    // Empties this slice's copy of a line homed elsewhere (written there).
    void drop_copy(uint64_t line_no) override { tags_.drop(line_no); }
    void invalidate() {  // empties the slice; dirty data is dropped (not this kernel's traffic)
        tags_.invalidate_all();
        partials_.clear();
        dirty_sectors_ = 0;
        dirty_order_.clear();
        std::fill(set_dirty_.begin(), set_dirty_.end(), 0);
    }

private:
    struct Target {
        MemRequest* req;  // null: no request, sectors written in part to write back once fetched
        Cycle arrival;
        uint32_t sectors;
        bool atomic;  // req's op, kept here: the request is not read before its answer
    };
    enum class Down : uint8_t { Fetch, Writeback, Forward };  // Forward: a copy's store, written through to the home
    struct DownReq {
        MemRequest req;
        Down kind;
        bool link_table;  // a fetch for the link's MSHRs
        uint32_t far;  // a fill over the partition link: its cycles each way
        MemRequest* ack;  // a store to mapped memory, answered once its write has crossed (else null)
        Cycle ack_arrival;
    };
    using Port = LookupPort<std::pair<MemRequest*, Cycle>>;  // a request and its arrival cycle
    void run(Port& port);
    void run_partials();  // the fetches of sectors written in part that fall due now
    // Sectors written in part are held (l2.partial_lines or l2.partial_fetch_delay) before their fetch.
    bool holds_partials() const { return p_.partial_fetch && (p_.partial_fetch_delay || p_.partial_lines); }
    // A store's sectors written in part, while held: completed by words, or fetched later.
    uint32_t store_partial(const MemRequest& req, uint64_t line_no, uint32_t partial, uint32_t full, Cycle now);
    bool lookup(MemRequest& req, Cycle arrival, Cycle now);
    void fetch(uint64_t line_no, uint32_t sectors, Cycle now, const MemRequest& by, bool link_table);
    // A line homed on another slice, kept here as a copy for this side's CUs.
    // (The crossbar names the home in the request: a CU's requests come through it.)
    bool is_copy(const MemRequest& req) const { return p_.sides.replicating() && !req.link && req.home != p_.index; }
    void forward(const MemRequest& by, uint64_t line_no, uint32_t sectors, uint32_t full, Cycle now);
    // A write at the home: the other sides' copies, but that of the side it came from, are stale.
    void drop_copies(uint64_t line_no, uint32_t from_side);
    // Both ways over the link for an atomic of a CU on another side (0 without copies).
    uint32_t atomic_far(const MemRequest& req) const {
        return p_.sides.replicating() ? 2 * p_.sides.far_cycles(req.source, p_.index) : 0;
    }
    uint32_t widen(uint32_t missing) const;
    static void count_lane_passes(CacheCounters& st, const MemRequest& req);
    static AtomicWork atomic_work(const MemRequest& req, uint32_t sectors) {
        return {req.addr + req.atomic_offset, uint32_t(__builtin_popcount(sectors)), req.atomic_same, req.atomic_kind,
                later_sectors(req)};
    }
    // The sectors of an atomic's passes after the first: its rounds' (one sector a pass where not given).
    static uint32_t later_sectors(const MemRequest& req) {
        return req.atomic_later_grains ? req.atomic_later_grains : req.atomic_same - 1u;
    }
    // `full`: of `sectors`, those written whole (valid); the rest were written in part.
    void write_sectors(uint64_t line_no, uint32_t sectors, uint32_t full, Cycle now, uint64_t pc);
    void write_back(const SectorTags::Victim& v, Cycle now, uint64_t pc);
    // What a victim leaving does to the slice's state, written back or warmed: its held parts
    // forgotten, its dirty sectors no longer counted. Returns those dirty sectors.
    uint32_t leave(const SectorTags::Victim& v);
    // write_sectors' state change, each victim handed to `evict` (a write-back, or warming's drop).
    template <class Evict>
    void mark_dirty(uint64_t line_no, uint32_t sectors, uint32_t full, Evict&& evict);
    // A store to mapped host memory: its sectors sent on at once, kept clean here; the store is answered once
    // they have crossed the link (a wave's end waits for its stores: the kernel ends with its writes visible).
    void write_through(MemRequest& store, Cycle arrival, uint64_t line_no, uint32_t sectors, uint32_t full, Cycle now);
    // The MSHRs a miss of `line` takes: the link's for a lookup over the link, the CUs' otherwise, unless the
    // other table already fetches the line (it joins that fetch). Sets `link_table` to the one chosen.
    MshrTable<Target>& mshrs_for(uint64_t line_no, bool link, bool& link_table);
    void answer(MemRequest& req, Cycle arrival, Cycle at);
    DownReq& down_req(Down kind, uint64_t line_no, uint32_t sectors, Cycle issue, const MemRequest& by);

    L2Params p_;
    const Clock& clk_;
    const MappedRanges* mapped_ = nullptr;
    L2Stats stats_;
    uint64_t dirty_sectors_ = 0;          // with a dirty limit: dirty sectors held
    uint32_t writebacks_in_flight_ = 0;   // sent to DRAM, not yet written
    Cycle write_path_free_ = 0;           // with writeback_cycles: when the next write-back may leave
    // The cycle a write-back (or read-modify-write fetch) ready at `now` leaves, taking the write path.
    Cycle write_slot(Cycle now) {
        if (!p_.writeback_cycles) return now;
        const Cycle at = std::max(now, write_path_free_);
        write_path_free_ = at + p_.writeback_cycles;
        return at;
    }
    bool stalled_on_writeback_ = false;   // why the tag port waits: a write-back buffer, else an MSHR
    bool link_stalled_on_writeback_ = false;  // the same for the link's port
    std::deque<uint64_t> dirty_order_;  // lines in the order they became dirty (oldest first)
    std::vector<uint16_t> set_dirty_;   // with l2.dirty_scope = set: each set's dirty sectors
    uint32_t set_cap_ = 0;              // and the most each keeps (0: the limit is the slice's)
    SectorTags tags_;
    MshrTable<Target> mshr_;
    MshrTable<Target> link_mshr_;  // lines homed here, fetched for another side's copy
    std::vector<Target> done_targets_;  // targets of the fill being answered
    SlotPool<DownReq> down_;
    Port port_;       // the CUs' requests
    Port link_port_;  // requests over the link
    PartialSectors partials_;  // while sectors in part are held
    uint32_t partial_unit_ = 0;  // its unit of the clock's wake-up calendar
    AtomicUnit atomics_;
    ResponseQueue responses_;
};

}  // namespace dcusim
