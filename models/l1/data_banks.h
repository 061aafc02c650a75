// The L1 data stage: `banks` banks of `bank_bytes` bytes (word = address /
// bank_bytes, bank = word % banks), each reading one word a cycle. A load
// costs the largest number of distinct words any one bank must read for its
// lanes; lanes reading the same word share it. (NVIDIA's L1 reads global data
// through 16 banks of 8 bytes: a warp's 128 contiguous bytes take one cycle,
// 32 lanes at one offset of 32 different lines take 32.)
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "../../traces/replay/wave_trace.h"
#include "../common/divisor.h"
#include "coalescer.h"

namespace dcusim {

class DataBanks {
public:
    DataBanks(uint32_t banks, uint32_t bank_bytes) : banks_(banks), bank_bytes_(bank_bytes), count_(banks) {}
    // Cycles to read the instruction's lanes at the addresses the trace gives
    // (global memory). Contiguous active lanes whose affine addresses overlap or
    // abut read every word of one byte range once: its n words spread over the
    // banks in turn, so the busiest bank reads ceil(n / banks) of them.
    uint32_t cycles(const trace::Instr& in, const trace::WaveTrace& w) {
        // (A range cut at the top of the address space is left to the lane walk, which wraps as before.)
        uint64_t lo, hi;
        if (in.bytes && contiguous_bytes(in, lo, hi) && hi >= lo && hi != ~uint64_t(0)) {
            const uint64_t n = bank_bytes_.div(hi) - bank_bytes_.div(lo) + 1;
            return uint32_t(banks_.div(n + banks_.value() - 1));
        }
        return cycles(in, w, [](unsigned, uint64_t a) { return a; });
    }
    // Cycles to read the instruction's lanes; `lane_addr` maps (lane, trace
    // address) to the address the cache sees, as for coalescing.
    template <typename AddrFn>
    uint32_t cycles(const trace::Instr& in, const trace::WaveTrace& w, AddrFn&& lane_addr) {
        words_.clear();
        w.for_each_lane(in, [&](unsigned lane, uint64_t a) {
            const uint64_t lo = lane_addr(lane, a), hi = lo + in.bytes - 1;
            for (uint64_t word = bank_bytes_.div(lo); word <= bank_bytes_.div(hi); ++word) words_.push_back(word);
        });
        // Distinct words, counted per bank.
        std::sort(words_.begin(), words_.end());
        std::fill(count_.begin(), count_.end(), 0);
        uint32_t most = 0;
        for (size_t i = 0; i < words_.size(); ++i) {
            if (i && words_[i] == words_[i - 1]) continue;  // lanes sharing a word
            most = std::max(most, ++count_[banks_.mod(words_[i])]);
        }
        return most;
    }

private:
    Divisor banks_, bank_bytes_;
    std::vector<uint32_t> count_;   // per bank: distinct words of this instruction
    std::vector<uint64_t> words_;   // the instruction's words, one per lane and word
};

}  // namespace dcusim
