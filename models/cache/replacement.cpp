#include "replacement.h"

#include <stdexcept>

namespace dcusim {

uint32_t StampPolicy::victim(uint32_t set) {
    const uint64_t* s = &stamp_[size_t(set) * ways_];
    uint32_t best = 0;
    for (uint32_t w = 1; w < ways_; ++w)
        if (s[w] < s[best]) best = w;
    return best;
}

PlruPolicy::PlruPolicy(uint32_t sets, uint32_t ways) : ways_(ways), levels_(0), bits_(sets, 0) {
    if (ways == 0 || ways > 64 || (ways & (ways - 1))) throw std::invalid_argument("plru needs a power-of-two associativity up to 64");
    while ((1u << levels_) < ways) ++levels_;
}

void PlruPolicy::touch(uint32_t set, uint32_t way) {
    uint64_t& b = bits_[set];
    uint32_t node = 1;
    for (uint32_t l = levels_; l-- > 0;) {
        const uint32_t right = (way >> l) & 1;
        // Point away from the half just used: 1 sends the next victim right, 0 left.
        b = right ? b & ~(uint64_t(1) << node) : b | (uint64_t(1) << node);
        node = 2 * node + right;
    }
}

uint32_t PlruPolicy::victim(uint32_t set) {
    const uint64_t b = bits_[set];
    uint32_t node = 1, way = 0;
    for (uint32_t l = 0; l < levels_; ++l) {
        const uint32_t right = (b >> node) & 1;
        way = way << 1 | right;
        node = 2 * node + right;
    }
    return way;
}

uint32_t RandomPolicy::victim(uint32_t) {
    // xorshift64*
    state_ ^= state_ >> 12;
    state_ ^= state_ << 25;
    state_ ^= state_ >> 27;
    return uint32_t((state_ * 0x2545f4914f6cdd1dull) >> 32) % ways_;
}

std::unique_ptr<ReplacementPolicy> make_replacement(const std::string& name, uint32_t sets, uint32_t ways) {
    if (name == "lru") return std::make_unique<LruPolicy>(sets, ways);
    if (name == "plru") return std::make_unique<PlruPolicy>(sets, ways);
    if (name == "fifo") return std::make_unique<FifoPolicy>(sets, ways);
    if (name == "random") return std::make_unique<RandomPolicy>(sets, ways);
    throw std::invalid_argument("unknown replacement policy '" + name + "'");
}

}  // namespace dcusim
