// Pairs of address bits exchanged before a line's L2 channel and set are picked (l2.swap_bits): an
// interleave whose chunks are made of pieces that are not side by side (the H100 pairs each
// kilobyte's 256-byte quarters 0 with 2 and 1 with 3: bits 8 and 9 exchanged, then 512-byte chunks).
// The channel map and the slices' set index apply the same exchange, so that the lines of one slice
// still spread over all its sets.
#pragma once

#include <array>
#include <cstdint>

namespace dcusim {

class BitSwaps {
public:
    static constexpr unsigned kMaxPairs = 4;
    // Adds the exchange of bits a and b (distinct, below 64, in no other pair: the caller checks).
    void add(unsigned a, unsigned b) {
        if (n_ < kMaxPairs) pairs_[n_++] = {a, b};
    }
    uint64_t apply(uint64_t x) const {
        for (unsigned i = 0; i < n_; ++i) {
            const auto [a, b] = pairs_[i];
            const uint64_t d = ((x >> a) ^ (x >> b)) & 1;  // the bits differ: flip both
            x ^= (d << a) | (d << b);
        }
        return x;
    }
    // The same exchange on numbers of `unit`-byte blocks (line numbers), the bits below it dropped
    // (the caller checks that no pair names one of them).
    BitSwaps in_units_of(unsigned unit_bits) const {
        BitSwaps s;
        for (unsigned i = 0; i < n_; ++i) s.add(pairs_[i][0] - unit_bits, pairs_[i][1] - unit_bits);
        return s;
    }

private:
    std::array<std::array<unsigned, 2>, kMaxPairs> pairs_{};
    unsigned n_ = 0;
};

}  // namespace dcusim
