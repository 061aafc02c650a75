// Division by a preset's value (set size, channel count, line size...) on
// every address: a shift and a mask when it is a power of two, as it mostly
// is, instead of a hardware divide of tens of cycles; exact either way.
#pragma once

#include <cstdint>

namespace dcusim {

class Divisor {
public:
    explicit Divisor(uint64_t d = 1) : d_(d ? d : 1), shift_(d_ & (d_ - 1) ? 64u : unsigned(__builtin_ctzll(d_))) {}
    uint64_t div(uint64_t x) const { return shift_ < 64 ? x >> shift_ : x / d_; }
    uint64_t mod(uint64_t x) const { return shift_ < 64 ? x & (d_ - 1) : x % d_; }
    uint64_t value() const { return d_; }

private:
    uint64_t d_;
    unsigned shift_;  // log2(d), or 64 when d is not a power of two
};

}  // namespace dcusim
