#include "replacement.h"

#include <stdexcept>

namespace dcusim {

uint32_t LruPolicy::victim(uint32_t set) {
    const uint64_t* s = &stamp_[size_t(set) * ways_];
    uint32_t best = 0;
    for (uint32_t w = 1; w < ways_; ++w)
        if (s[w] < s[best]) best = w;
    return best;
}

std::unique_ptr<ReplacementPolicy> make_replacement(const std::string& name, uint32_t sets, uint32_t ways) {
    if (name == "lru") return std::make_unique<LruPolicy>(sets, ways);
    throw std::invalid_argument("unknown replacement policy '" + name + "'");
}

}  // namespace dcusim
