// The LDS's preset keys (lds.*; the carve-outs of a unified L1 belong to the platform).
#include "lds.h"

namespace dcusim {

using namespace limits;

const ParamTable<LdsParams>& lds_param_table() {
    using P = LdsParams;
    static const ParamTable<P> table{
        {
            param::size<P>("lds.size_bytes", "bytes", "LDS per CU", {1, kMaxLocalBytes}, &P::size_bytes),
            param::count<P>("lds.banks", "banks", "LDS banks", {1, 1024}, [](P& p) -> auto& { return p.geometry.banks; }),
            param::count<P>("lds.bank_bytes", "bytes", "width of one bank", {1, 64}, [](P& p) -> auto& { return p.geometry.bank_bytes; }),
            param::count<P>("lds.latency", "cycles", "last bank access to data back", {0, kMaxLatency}, &P::latency),
            param::count<P>("lds.replay_latency", "cycles",
                            "latency each bank-conflict replay adds beyond the pipe cycle it holds (data back bank_conflict_cycles x "
                            "this later)",
                            {0, kMaxLatency}, &P::replay_latency),
            param::size<P>("lds.alloc_granule", "bytes", "LDS allocation unit per workgroup", {1, kMaxLocalBytes}, &P::alloc_granule),
            param::size<P>("lds.reserved_bytes", "bytes",
                           "LDS each workgroup holds besides its own (the system's share): counts toward the LDS occupancy limit and "
                           "the carve-out",
                           {0, kMaxLocalBytes}, &P::reserved_bytes),
        },
        {},
    };
    return table;
}

}  // namespace dcusim
