#include "address_map.h"

namespace dcusim {

AddressMap::AddressMap(const DramParams& p)
    : chunk_bursts_(p.interleave_bytes / p.burst_bytes), interleave_(p.interleave_bytes), burst_(p.burst_bytes),
      channels_(p.channels), groups_(p.bank_groups), banks_(p.banks_per_group),
      col_chunks_(p.row_bytes / p.interleave_bytes) {}

DramAddress AddressMap::map(uint64_t addr) const {
    DramAddress a;
    uint64_t chunk = interleave_.div(addr);
    uint32_t in_chunk = uint32_t(burst_.div(interleave_.mod(addr)));
    a.channel = uint32_t(channels_.mod(chunk));
    uint64_t rest = channels_.div(chunk);
    a.bank_group = uint32_t(groups_.mod(rest));
    rest = groups_.div(rest);
    a.bank = uint32_t(banks_.mod(rest));
    rest = banks_.div(rest);
    a.column = uint32_t(col_chunks_.mod(rest) * chunk_bursts_ + in_chunk);
    a.row = col_chunks_.div(rest);
    return a;
}

}  // namespace dcusim
