#include "address_map.h"

namespace dcusim {

AddressMap::AddressMap(const DramParams& p)
    : p_(p), chunk_bursts_(p.interleave_bytes / p.burst_bytes), col_chunks_(p.row_bytes / p.interleave_bytes) {}

DramAddress AddressMap::map(uint64_t addr) const {
    DramAddress a;
    uint64_t chunk = addr / p_.interleave_bytes;
    uint32_t in_chunk = uint32_t((addr % p_.interleave_bytes) / p_.burst_bytes);
    a.channel = uint32_t(chunk % p_.channels);
    uint64_t rest = chunk / p_.channels;
    a.bank_group = uint32_t(rest % p_.bank_groups);
    rest /= p_.bank_groups;
    a.bank = uint32_t(rest % p_.banks_per_group);
    rest /= p_.banks_per_group;
    a.column = uint32_t((rest % col_chunks_) * chunk_bursts_ + in_chunk);
    a.row = rest / col_chunks_;
    return a;
}

}  // namespace dcusim
