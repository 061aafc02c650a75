// Per-instruction (PC) attribution of costs, for `dcusim run --report pcs`:
// which instructions cause the bank conflicts, the constant serialisation, the
// misses, the DRAM traffic and the stalls. Off unless a report asks for it;
// one profile per process (SystemC runs one simulation per process).
#pragma once

#include <cstdint>
#include <map>

namespace dcusim {

struct PcCounters {
    uint64_t instructions = 0;        // wave instructions issued at this PC
    uint64_t lds_instructions = 0;
    uint64_t lds_conflict_cycles = 0;
    uint64_t const_serialization_cycles = 0;
    uint64_t l1_misses = 0;           // lines
    uint64_t l2_misses = 0;           // requests
    uint64_t dram_bytes = 0;          // read and written on its behalf
    uint64_t stall_cycles = 0;        // wave cycles stalled at this instruction (wait, barrier, outstanding limit)
};

class PcProfile {
public:
    // The active profile, or null when no report was asked for.
    static PcProfile* active() { return active_; }
    static void enable(PcProfile* p) { active_ = p; }
    PcCounters& at(uint64_t pc) { return by_pc_[pc]; }
    const std::map<uint64_t, PcCounters>& all() const { return by_pc_; }
    void reset() { by_pc_.clear(); }

private:
    std::map<uint64_t, PcCounters> by_pc_;
    static inline PcProfile* active_ = nullptr;
};

}  // namespace dcusim
