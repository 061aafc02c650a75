// Division by a preset's value (set size, channel count, line size...) on
// every address, without a hardware divide of tens of cycles: a shift and a
// mask when it is a power of two, as it mostly is; else a multiply by its
// reciprocal rounded up, m = ceil(2^64 / d), and the high half of x * m.
// That quotient is exact while x * (m * d - 2^64) < 2^64, which holds for
// x < 2^64 / d (m * d - 2^64 < d); larger x divide. Exact either way.
#pragma once

#include <cstdint>

namespace dcusim {

class Divisor {
public:
    explicit Divisor(uint64_t d = 1)
        : d_(d ? d : 1), shift_(d_ & (d_ - 1) ? 64u : unsigned(__builtin_ctzll(d_))),
          magic_(shift_ < 64 ? 0 : ~uint64_t(0) / d_ + 1), limit_(shift_ < 64 ? 0 : ~uint64_t(0) / d_) {}
    uint64_t div(uint64_t x) const {
        if (shift_ < 64) return x >> shift_;
        return x < limit_ ? uint64_t((unsigned __int128)x * magic_ >> 64) : x / d_;
    }
    uint64_t mod(uint64_t x) const { return shift_ < 64 ? x & (d_ - 1) : x - div(x) * d_; }
    uint64_t value() const { return d_; }

private:
    uint64_t d_;
    unsigned shift_;  // log2(d), or 64 when d is not a power of two
    uint64_t magic_;  // ceil(2^64 / d) when d is not a power of two (d does not divide 2^64)
    uint64_t limit_;  // the multiply is exact below this
};

}  // namespace dcusim
