// Physical address -> (channel, bank group, bank, row, column). From the
// least significant end: the byte within an `interleave_bytes` chunk, the
// channel, the bank group, the bank, the rest of the column, the row. So a
// stream visits every channel, then every bank, before reusing one, and each
// chunk is a run of row hits.
#pragma once

#include <cstdint>

#include "../common/divisor.h"
#include "dram_params.h"

namespace dcusim {

struct DramAddress {
    uint32_t channel = 0, bank_group = 0, bank = 0;  // bank: index within its group
    uint64_t row = 0;
    uint32_t column = 0;  // burst index within the row
};

class AddressMap {
public:
    explicit AddressMap(const DramParams& p);
    DramAddress map(uint64_t addr) const;
    // Bytes a and b lie in one interleave chunk: one channel, bank and row.
    bool same_chunk(uint64_t a, uint64_t b) const { return interleave_.div(a) == interleave_.div(b); }

private:
    uint64_t chunk_bursts_;
    Divisor interleave_, burst_, channels_, groups_, banks_, col_chunks_;
};

}  // namespace dcusim
