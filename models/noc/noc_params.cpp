// The interconnect's preset keys: the L2 channel map (l2.channels, l2.interleave_bytes,
// l2.xor_hash: the crossbar picks the channel; make_preset hands them to the slices) and noc.*.
#include "crossbar.h"

namespace dcusim {

using namespace limits;

// The channel map's keys are listed with the L2's, before them; noc.* after them.
const ParamTable<NocParams>& noc_channel_param_table() {
    using P = NocParams;
    static const ParamTable<P> table{
        {
            param::count<P>("l2.channels", "channels", "L2 channels (slices)", {1, kMaxUnits, "a limit of dcusim"}, &P::channels),
            param::size<P>("l2.interleave_bytes", "bytes", "consecutive bytes on one L2 channel", {1, kMaxInterleave},
                           &P::interleave_bytes),
            param::choice<P>("l2.xor_hash", "fold higher address bits into the L2 channel", {{"off", false}, {"on", true}},
                             &P::xor_hash),
        },
        {
            [](const P& p, const ParamValues& v, const ParamErrors& e) {
                if (p.interleave_bytes % v.u("l2.line_bytes") != 0)
                    e.fail("l2.interleave_bytes", "must be a multiple of l2.line_bytes");
            },
        },
    };
    return table;
}

const ParamTable<NocParams>& noc_param_table() {
    using P = NocParams;
    static const ParamTable<P> table{
        {
            param::count<P>("noc.latency", "cycles", "CU-L2 interconnect, each way", {0, kMaxLatency}, &P::latency),
            param::count<P>("noc.bytes_per_cycle", "bytes/cycle", "interconnect link per L2 channel and direction", {1, 65536},
                            &P::bytes_per_cycle),
            param::real<P>("noc.cu_store_bytes_per_cycle", "bytes/cycle",
                           "each CU's store and atomic data into the interconnect (0: no limit of its own)",
                           {kTick, 1e6, "kept in 1/1024 cycles", true}, &P::cu_store_bytes_per_cycle),
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
