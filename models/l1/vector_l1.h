// Vector L1 of one CU, behind the CU's global-memory port. Wave instructions
// are coalesced into line lookups that go through one in-order tag port at
// `lookups_per_cycle`. Loads: hit when every needed sector is valid, else an
// MSHR (merging misses to a line in flight) fetches the missing sectors from
// the L2; with every MSHR busy the port stalls. Stores are write-through: they
// update a present line, or allocate one where the preset says so; their
// sectors hit when the line is present (or on its way), whichever sectors it
// holds, as the H200 counts them. Atomics go to the L2. An instruction is
// answered when its last line is.
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
#include "atomic_lanes.h"
#include "coalescer.h"
#include "data_banks.h"
#include "l1_params.h"

namespace dcusim {

struct L1Stats : CacheCounters {
    uint64_t load_instructions = 0, load_latency_sum = 0;
    uint64_t ro_requests = 0, ro_hits = 0, ro_misses = 0;  // loads declared read-only (__ldg, const __restrict__)
    uint64_t data_bank_cycles = 0;  // port cycles loads held beyond their tag lookups, for their data banks
    uint64_t store_sectors = 0, store_sector_hits = 0;  // stores' sectors, and of them those whose line was present
    void add_to(StatMap& m) const;
};

// Its counters, declared in l1_counters.cpp.
const CounterTable<L1Stats>& l1_counter_table();

class VectorL1 : public sc_core::sc_module, public WaveMemIf, public MemResponder {
public:
    sc_core::sc_port<MemTargetIf> down;

    VectorL1(sc_core::sc_module_name name, const L1Params& p, const Clock& clk);
    Cycle wave_request(MemRequest& req) override;  // a wave instruction from the CU: answered later
    void mem_response(MemRequest& req) override;  // an answer from the L2 side
    const L1Stats& stats() const { return stats_; }
    void reset_stats() { stats_ = {}; }
    void invalidate() { tags_.invalidate_all(); }
    // A new size (same line and associativity: more or fewer sets), empty; between kernels only.
    void resize(uint64_t size_bytes) {
        p_.geometry.size_bytes = size_bytes;
        tags_ = SectorTags(p_.geometry, p_.replacement);
    }
    uint64_t size_bytes() const { return p_.geometry.size_bytes; }
    // Private bytes per lane of the kernel starting (0: unknown): each wave's window holds that for all its lanes.
    void set_private_bytes(uint64_t per_lane) {
        const uint64_t line = p_.geometry.line_bytes;
        private_window_ = per_lane ? (per_lane * p_.wave_size + line - 1) / line * line : 1ull << 24;
    }

private:
    struct Op {
        MemRequest* req;
        uint32_t lines;
        Cycle arrival, done;
    };
    // What a lookup needs of its instruction is copied in: the instruction's
    // records are cold by the time the port serves it.
    struct Lookup {
        uint64_t line;
        uint64_t pc;
        uint32_t sectors;
        uint32_t written, partial;  // stores: grains written, and of them in part (LineAccess)
        uint32_t words;             // stores: 4-byte words written whole (LineAccess)
        uint32_t op;
        trace::Op kind;
        trace::Space space;
        bool readonly;
        uint8_t same;     // atomics: the most lanes on one address of the line (atomic_lanes.h)
        uint16_t offset;  // atomics: that address's offset in the line
        uint16_t later_sectors, later_grains;  // atomics: the sectors of the rounds after the first (atomic_lanes.h)
        trace::AtomicKind atomic_kind;
    };
    struct Target {
        uint32_t op;
    };
    enum class Down : uint8_t { Fill, Write, Atomic };
    struct DownReq {
        MemRequest req;
        Down kind;
        uint32_t op;
    };

    void run();
    bool lookup(const Lookup& lk, Cycle now);
    void send(Down kind, const Lookup& lk, uint32_t sectors, Cycle now);
    uint32_t grain() const { return p_.write_grain ? p_.write_grain : p_.sector_bytes; }
    // The sectors a store writes whole: every grain of them written, none in part.
    uint32_t whole_sectors(const Lookup& lk) const;
    void line_done(uint32_t op, Cycle when);
    uint64_t private_addr(const MemRequest& req, unsigned lane, uint64_t offset) const;

    L1Params p_;
    const Clock& clk_;
    L1Stats stats_;
    SectorTags tags_;
    uint64_t private_window_ = 1ull << 24;
    MshrTable<Target> mshr_;
    SlotPool<Op> ops_;
    SlotPool<DownReq> down_;
    LookupPort<Lookup> port_;
    std::vector<LineAccess> scratch_;
    std::vector<uint64_t> cover_;  // a store's bytes per line (coalesce, store_grains)
    std::vector<AtomicLanes> atomic_lanes_;  // an atomic's lanes per line (atomic_lanes.h)
    DataBanks banks_;
    ResponseQueue responses_;
};

}  // namespace dcusim
