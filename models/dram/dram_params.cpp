// The DRAM's preset keys (dram.*) and their checks.
#include "dram_params.h"

#include <algorithm>

namespace dcusim {

using namespace limits;

namespace {

using P = DramParams;

// A JEDEC timing, in memory-clock cycles.
template <class F>
ParamKey<P> timing(const char* key, const char* help, double min, F field, double max = kMaxTiming, const char* why = "memory cycles") {
    return param::count<P>(key, "tCK", help, {min, max, why}, [field](P& p) -> auto& { return p.t.*field; });
}

std::vector<ParamKey<P>> dram_keys() {
    return {
        param::real<P>("dram.clock_mhz", "MHz", "memory clock (command clock)", {1, 1e6, "a period of 1 ps"}, &P::clock_mhz),
        param::count<P>("dram.channels", "channels", "independent (pseudo-)channels", {1, kMaxUnits, "a limit of dcusim"}, &P::channels),
        param::count<P>("dram.bank_groups", "groups", "bank groups per channel", {1, 1024}, &P::bank_groups),
        param::count<P>("dram.banks_per_group", "banks", "banks per bank group", {1, 1024}, &P::banks_per_group),
        param::size<P>("dram.row_bytes", "bytes", "row (page) of one channel", {1, kMaxInterleave}, &P::row_bytes),
        param::count<P>("dram.burst_bytes", "bytes", "bytes of one RD or WR", {1, kMaxLineBytes}, &P::burst_bytes),
        param::size<P>("dram.interleave_bytes", "bytes", "consecutive bytes on one DRAM channel", {1, kMaxInterleave}, &P::interleave_bytes),
        param::count<P>("dram.queue_depth", "requests", "requests a channel controller schedules among",
                        {1, 1024, "the scheduler scans the queue every cycle"}, &P::queue_depth),
        param::count<P>("dram.latency_cycles", "memory cycles", "controller and PHY latency added to every answer", {0, kMaxLatency},
                        &P::latency_cycles),
        timing("dram.tRCD", "ACT to RD", 1, &DramTiming::RCD),
        timing("dram.tRCDWR", "ACT to WR", 1, &DramTiming::RCDWR),
        timing("dram.tRP", "PRE to ACT", 1, &DramTiming::RP),
        timing("dram.tRAS", "ACT to PRE", 1, &DramTiming::RAS),
        timing("dram.tRC", "ACT to ACT, same bank", 1, &DramTiming::RC),
        timing("dram.tCL", "RD to data (RL)", 1, &DramTiming::CL),
        timing("dram.tWL", "WR to data", 0, &DramTiming::WL),
        timing("dram.tCCD_S", "column to column, other bank group", 1, &DramTiming::CCD_S),
        timing("dram.tCCD_L", "column to column, same bank group", 1, &DramTiming::CCD_L),
        timing("dram.tRRD_S", "ACT to ACT, other bank group", 1, &DramTiming::RRD_S),
        timing("dram.tRRD_L", "ACT to ACT, same bank group", 1, &DramTiming::RRD_L),
        timing("dram.tFAW", "four-activate window", 0, &DramTiming::FAW),
        timing("dram.tWR", "write recovery", 0, &DramTiming::WR),
        timing("dram.tWTR", "write to read", 0, &DramTiming::WTR),
        timing("dram.tRTP", "read to precharge", 0, &DramTiming::RTP),
        timing("dram.tRFC", "refresh cycle", 0, &DramTiming::RFC, kMaxTiming, nullptr),
        timing("dram.tREFI", "refresh interval (0: no refresh)", 0, &DramTiming::REFI, kMaxRefresh, nullptr),
        timing("dram.tBURST", "data-bus cycles of one burst", 1, &DramTiming::BURST),
    };
}

// Between two refreshes one access must fit: a refresh falling due before a command comes first
// and closes the bank, so with tRCD past the window no burst is ever served (a user's tRCD =
// 65536 ran for ever). An access: the whole row cycle, or a read, or a write and its recovery.
void check_refresh(const P& d, const ParamValues& c, const ParamErrors& e) {
    const DramTiming& t = d.t;
    const uint64_t access = std::max({uint64_t(t.RC), uint64_t(t.RCD) + t.CL + t.BURST,
                                      uint64_t(t.RCDWR) + t.WL + t.BURST + t.WTR + t.WR});
    if (!t.REFI || uint64_t(t.REFI) > uint64_t(t.RP) + t.RFC + access) return;
    // Name the timing the user set (the defaults are consistent), tREFI first.
    const char* key = "dram.tREFI";
    for (const char* k : {"dram.tREFI", "dram.tRCD", "dram.tRCDWR", "dram.tRC", "dram.tRFC", "dram.tRP", "dram.tCL", "dram.tWL",
                          "dram.tWR", "dram.tWTR", "dram.tBURST"})
        if (c.is_set(k)) {
            key = k;
            break;
        }
    e.fail(key, "dram.tREFI must be 0 (no refresh) or more than tRP + tRFC + one access (" +
                    std::to_string(uint64_t(t.RP) + t.RFC + access) + "): a refresh must leave time for an access");
}

std::vector<ParamCheck<P>> dram_checks() {
    return {
        [](const P& d, const ParamValues&, const ParamErrors& e) {
            if (uint64_t(d.bank_groups) * d.banks_per_group > 1024)
                e.fail("dram.banks_per_group", "at most 1024 banks per channel (dram.bank_groups x dram.banks_per_group)");
            if (d.interleave_bytes % d.burst_bytes) e.fail("dram.interleave_bytes", "must be a multiple of dram.burst_bytes");
            if (d.row_bytes % d.interleave_bytes) e.fail("dram.row_bytes", "must be a multiple of dram.interleave_bytes");
        },
        check_refresh,
    };
}

}  // namespace

const ParamTable<DramParams>& dram_param_table() {
    static const ParamTable<P> table{dram_keys(), dram_checks()};
    return table;
}

}  // namespace dcusim
