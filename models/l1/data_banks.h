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

namespace dcusim {

class DataBanks {
public:
    DataBanks(uint32_t banks, uint32_t bank_bytes) : banks_(banks), bank_bytes_(bank_bytes), words_(banks) {}
    // Cycles to read the instruction's lanes; `lane_addr` maps (lane, trace
    // address) to the address the cache sees, as for coalescing.
    template <typename AddrFn>
    uint32_t cycles(const trace::Instr& in, const trace::WaveTrace& w, AddrFn&& lane_addr) {
        for (auto& v : words_) v.clear();
        uint32_t most = 0;
        w.for_each_lane(in, [&](unsigned lane, uint64_t a) {
            const uint64_t lo = lane_addr(lane, a), hi = lo + in.bytes - 1;
            for (uint64_t word = lo / bank_bytes_; word <= hi / bank_bytes_; ++word) {
                auto& v = words_[word % banks_];
                if (std::find(v.begin(), v.end(), word) != v.end()) continue;  // shared
                v.push_back(word);
                most = std::max(most, uint32_t(v.size()));
            }
        });
        return most;
    }

private:
    uint32_t banks_, bank_bytes_;
    std::vector<std::vector<uint64_t>> words_;  // per bank: the distinct words of this instruction
};

}  // namespace dcusim
