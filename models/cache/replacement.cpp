#include "replacement.h"

#include <algorithm>

#include <stdexcept>

namespace dcusim {

uint32_t StampPolicy::victim(uint32_t set) {
    const uint64_t* s = &stamp_[size_t(set) * ways_];
    uint32_t best = 0;
    for (uint32_t w = 1; w < ways_; ++w)
        if (s[w] < s[best]) best = w;
    return best;
}

void StampPolicy::order(uint32_t set, uint32_t ways, uint32_t* out) const {
    const uint64_t* s = &stamp_[size_t(set) * ways_];
    for (uint32_t w = 0; w < ways; ++w) out[w] = w;
    std::stable_sort(out, out + ways, [s](uint32_t a, uint32_t b) { return s[a] < s[b]; });
}

RankLruPolicy::RankLruPolicy(uint32_t sets, uint32_t ways) : ways_(ways) {
    if (ways == 0 || ways > 16) throw std::invalid_argument("rank LRU holds 1 to 16 ways");
    // Way i at position i; the nibbles past the last way hold 15, which no way of fewer than 16 is.
    uint64_t init = ~uint64_t(0);
    for (uint32_t i = 0; i < ways; ++i) init = (init & ~(uint64_t(15) << (4 * i))) | uint64_t(i) << (4 * i);
    order_.assign(sets, init);
}

// The nibble holding `way`: the lowest zero nibble of the order xor the way in every nibble (exact for
// the lowest; the borrow can only mark nibbles above it).
uint32_t RankLruPolicy::position(uint32_t set, uint32_t way) const {
    constexpr uint64_t kOnes = 0x1111111111111111ull, kHigh = 0x8888888888888888ull;
    const uint64_t x = order_[set] ^ (kOnes * way);
    const uint64_t zero = (x - kOnes) & ~x & kHigh;
    return uint32_t(__builtin_ctzll(zero)) / 4;
}

void RankLruPolicy::touch(uint32_t set, uint32_t way) {
    uint64_t& o = order_[set];
    const uint32_t p = position(set, way);
    const uint64_t below = p ? o & (~uint64_t(0) >> (64 - 4 * p)) : 0;  // nibbles 0 .. p-1
    const uint64_t above = p == 15 ? 0 : o & (~uint64_t(0) << (4 * (p + 1)));
    o = above | below << 4 | way;
}

void RankLruPolicy::invalidate(uint32_t set, uint32_t way) {
    uint64_t& o = order_[set];
    const uint32_t p = position(set, way), last = ways_ - 1;
    if (p == last) return;
    // Nibbles p+1 .. last move down one; the way takes the last.
    const uint64_t span = (last == 15 ? ~uint64_t(0) : (uint64_t(1) << (4 * (last + 1))) - 1) & (~uint64_t(0) << (4 * p));
    const uint64_t moved = ((o & span) >> 4) & span;
    o = (o & ~span) | moved | uint64_t(way) << (4 * last);
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
    if (name == "lru" && ways <= 16) return std::make_unique<RankLruPolicy>(sets, ways);
    if (name == "lru") return std::make_unique<LruPolicy>(sets, ways);
    if (name == "plru") return std::make_unique<PlruPolicy>(sets, ways);
    if (name == "fifo") return std::make_unique<FifoPolicy>(sets, ways);
    if (name == "random") return std::make_unique<RandomPolicy>(sets, ways);
    throw std::invalid_argument("unknown replacement policy '" + name + "'");
}

}  // namespace dcusim
