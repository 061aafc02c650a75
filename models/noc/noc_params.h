// The interconnect's parameters and their preset keys: the L2 channel map (l2.channels,
// l2.interleave_bytes, l2.xor_hash, l2.fold, l2.side_bits, l2.chunk_xor_bits: the crossbar picks the channel,
// and the L2 slices are handed them) and noc.*, each field declared beside its key
// (models/common/params.h): a new key is one edit here.
#pragma once

#include "../common/params.h"
#include "../l2/partitions.h"
#include "channel_map.h"

namespace dcusim {

struct NocParams {
    uint32_t channels = 16;
    uint32_t interleave_bytes = 256;
    bool xor_hash = false;
    bool sum_fold = false;  // l2.fold = sum: the higher digits added, not XORed (with l2.xor_hash = on)
    uint64_t side_mask = 0;  // l2.side_bits: address bits whose parity picks a line's home side (0: channel order)
    uint64_t chunk_mask = 0;  // l2.chunk_xor_bits: address bits whose parity flips the chunk number's lowest bit
    BitSwaps swaps;           // l2.swap_bits: address bits exchanged in pairs before the channel and set are picked
    uint32_t latency = 30;          // each way, cycles
    uint32_t bytes_per_cycle = 64;  // per channel and direction
    double store_bytes_per_cycle = 0;  // request link (store and atomic data); 0: bytes_per_cycle
    double load_bytes_per_cycle = 0;   // response link (load and atomic data); 0: bytes_per_cycle
    L2Partitions sides;  // with copies kept per side, a CU's loads and stores go to its own side
    double cu_store_bytes_per_cycle = 0;  // each CU's store and atomic data into the network (0: no limit)
    double cu_store_request_cycles = 0;   // each CU's store or atomic line request holds its port at least this long
    double partial_store_cycles = 0;      // a store request writing a sector in part holds its channel's link at least this long
    uint32_t cus = 0;
    ChannelMap channel_map() const {
        const ChannelFold fold = !xor_hash ? ChannelFold::none : sum_fold ? ChannelFold::sum_digits : ChannelFold::xor_digits;
        return ChannelMap(channels, interleave_bytes, fold, side_mask, chunk_mask, swaps);
    }
};

// The mask of the address bits a key names (l2.side_bits, l2.chunk_xor_bits).
inline uint64_t address_bit_mask(const ParamValues& v, const std::string& key) {
    uint64_t mask = 0;
    for (uint64_t bit : v.sizes(key)) mask |= uint64_t(1) << bit;
    return mask;
}

// The channel map's keys are listed with the L2's, before them; noc.* after them.
inline const ParamTable<NocParams>& noc_channel_param_table() {
    using P = NocParams;
    using namespace limits;
    static const ParamTable<P> table{
        {
            param::count<P>("l2.channels", "channels", "L2 channels (slices)", {1, kMaxUnits, "a limit of dcusim"}, &P::channels),
            param::size<P>("l2.interleave_bytes", "bytes", "consecutive bytes on one L2 channel", {1, kMaxInterleave},
                           &P::interleave_bytes),
            param::choice<P>("l2.xor_hash", "fold higher address bits into the L2 channel", {{"off", false}, {"on", true}},
                             &P::xor_hash),
            param::choice<P>("l2.fold", "how l2.xor_hash folds the higher digits of a chunk number into its channel: xor "
                             "(unbalanced where l2.channels is not a power of two) or sum (mod the channels: every run of "
                             "consecutive chunks on every channel once)",
                             {{"xor", false}, {"sum", true}}, &P::sum_fold),
            param::derived<P>({"l2.side_bits", ParamType::SizeList, "", "bit numbers",
                               "with l2.partitions = 2: the address bits whose parity picks the side that homes a line; the "
                               "channel map then picks a channel among that side's half (empty: the sides split the channels "
                               "in index order)",
                               {}, 0, 63},
                              [](P& p, const ParamValues& v) { p.side_mask = address_bit_mask(v, "l2.side_bits"); }),
            param::derived<P>({"l2.swap_bits", ParamType::SizeList, "", "bit numbers",
                               "pairs of address bits (A,B,C,D: A with B, C with D) exchanged before a line's channel and its "
                               "set in the slice are picked (empty: none)",
                               {}, 0, 63},
                              [](P& p, const ParamValues& v) {
                                  p.swaps = {};
                                  const std::vector<uint64_t> bits = v.sizes("l2.swap_bits");
                                  for (size_t i = 0; i + 1 < bits.size(); i += 2) p.swaps.add(unsigned(bits[i]), unsigned(bits[i + 1]));
                              }),
            param::derived<P>({"l2.chunk_xor_bits", ParamType::SizeList, "", "bit numbers",
                               "address bits whose parity flips the lowest bit of a line's interleave chunk number before "
                               "its channel is picked (empty: chunks go round the channels in order)",
                               {}, 0, 63},
                              [](P& p, const ParamValues& v) { p.chunk_mask = address_bit_mask(v, "l2.chunk_xor_bits"); }),
        },
        {
            [](const P& p, const ParamValues& v, const ParamErrors& e) {
                if (p.interleave_bytes % v.u("l2.line_bytes") != 0)
                    e.fail("l2.interleave_bytes", "must be a multiple of l2.line_bytes");
            },
            [](const P& p, const ParamValues& v, const ParamErrors& e) {
                if (p.side_mask && (v.u("l2.partitions") != 2 || p.channels % 2))
                    e.fail("l2.side_bits", "needs l2.partitions = 2 and an even l2.channels", {"l2.partitions", "l2.channels"});
                if (p.side_mask & (uint64_t(v.u("l2.line_bytes")) - 1))
                    e.fail("l2.side_bits", "names a bit within a line (below l2.line_bytes)");
            },
            [](const P&, const ParamValues& v, const ParamErrors& e) {
                const std::vector<uint64_t> bits = v.sizes("l2.swap_bits");
                if (bits.size() % 2) e.fail("l2.swap_bits", "names pairs of bits: an even count");
                if (bits.size() > 2 * BitSwaps::kMaxPairs) e.fail("l2.swap_bits", "names at most 4 pairs");
                uint64_t seen = 0;
                for (uint64_t b : bits) {
                    if (seen >> b & 1) e.fail("l2.swap_bits", "names bit " + std::to_string(b) + " twice");
                    seen |= uint64_t(1) << b;
                }
                if (seen & (uint64_t(v.u("l2.line_bytes")) - 1))
                    e.fail("l2.swap_bits", "names a bit within a line (below l2.line_bytes)");
            },
            [](const P& p, const ParamValues& v, const ParamErrors& e) {
                if (!p.chunk_mask) return;
                if (p.interleave_bytes & (p.interleave_bytes - 1))
                    e.fail("l2.chunk_xor_bits", "needs a power-of-two l2.interleave_bytes", {"l2.interleave_bytes"});
                else if (p.chunk_mask & p.interleave_bytes)
                    e.fail("l2.chunk_xor_bits", "names the bit it flips (the lowest of l2.interleave_bytes' chunk number)",
                           {"l2.interleave_bytes"});
                if (p.chunk_mask & (uint64_t(v.u("l2.line_bytes")) - 1))
                    e.fail("l2.chunk_xor_bits", "names a bit within a line (below l2.line_bytes)");
                // A slice indexes its sets by the chunk number less its channel digits: paired chunks must
                // share those digits, so the channels one run of chunks goes round are even.
                if ((p.side_mask ? p.channels / 2 : p.channels) % 2)
                    e.fail("l2.chunk_xor_bits", "needs an even number of channels a side", {"l2.channels", "l2.side_bits"});
            },
        },
    };
    return table;
}

inline const ParamTable<NocParams>& noc_param_table() {
    using P = NocParams;
    using namespace limits;
    static const ParamTable<P> table{
        {
            param::count<P>("noc.latency", "cycles", "CU-L2 interconnect, each way", {0, kMaxLatency}, &P::latency),
            param::count<P>("noc.bytes_per_cycle", "bytes/cycle", "interconnect link per L2 channel and direction", {1, 65536},
                            &P::bytes_per_cycle),
            param::real<P>("noc.cu_store_bytes_per_cycle", "bytes/cycle",
                           "each CU's store and atomic data into the interconnect (0: no limit of its own)",
                           {kTick, 1e6, "kept in 1/1024 cycles", true}, &P::cu_store_bytes_per_cycle),
            param::real<P>("noc.cu_store_request_cycles", "cycles",
                           "each store or atomic line request holds its CU's port into the interconnect at least this long, "
                           "whatever its bytes (0: no such floor)",
                           {kTick, 1e5, "kept in 1/1024 cycles", true}, &P::cu_store_request_cycles),
            param::real<P>("noc.partial_store_cycles", "cycles",
                           "a store request that writes a sector in part holds its L2 channel's request link at least this long, "
                           "whatever its bytes (0: no such floor)",
                           {kTick, 1e5, "kept in 1/1024 cycles", true}, &P::partial_store_cycles),
            param::real<P>("noc.store_bytes_per_cycle", "bytes/cycle",
                           "store and atomic data toward an L2 channel, per channel; may be fractional (0: noc.bytes_per_cycle)",
                           {kTick, 1e6, "kept in 1/1024 cycles", true}, &P::store_bytes_per_cycle),
            param::real<P>("noc.load_bytes_per_cycle", "bytes/cycle",
                           "load and atomic data back from an L2 channel, per channel; may be fractional (0: noc.bytes_per_cycle)",
                           {kTick, 1e6, "kept in 1/1024 cycles", true}, &P::load_bytes_per_cycle),
        },
        {},
    };
    return table;
}

}  // namespace dcusim
