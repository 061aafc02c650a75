// DRAM organisation and JEDEC timing, in memory-clock cycles (tCK), and their preset keys (dram.*),
// each field declared beside its key (models/common/params.h): a new key is one edit here.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "../common/params.h"

namespace dcusim {

struct DramTiming {
    uint32_t RCD = 12;    // ACT to RD
    uint32_t RCDWR = 6;   // ACT to WR
    uint32_t RP = 14;     // PRE to ACT, same bank
    uint32_t RAS = 28;    // ACT to PRE, same bank
    uint32_t RC = 42;     // ACT to ACT, same bank
    uint32_t CL = 17;     // RD to first data (RL)
    uint32_t WL = 7;      // WR to first data
    uint32_t CCD_S = 2;   // column to column, different bank groups
    uint32_t CCD_L = 3;   // column to column, same bank group
    uint32_t RRD_S = 4;   // ACT to ACT, different bank groups
    uint32_t RRD_L = 6;   // ACT to ACT, same bank group
    uint32_t FAW = 16;    // window holding at most four ACTs
    uint32_t WR = 16;     // end of write data to PRE
    uint32_t WTR = 8;     // end of write data to RD
    uint32_t RTP = 4;     // RD to PRE
    uint32_t RFC = 220;   // REF to ACT (all-bank refresh)
    uint32_t REFI = 3900; // refresh interval (0: no refresh)
    uint32_t BURST = 2;   // data-bus cycles of one burst (BL / 2)
};

struct DramParams {
    double clock_mhz = 1000;
    uint32_t channels = 64;          // independent (pseudo-)channels, each its own controller
    uint32_t bank_groups = 4;
    uint32_t banks_per_group = 4;
    uint32_t row_bytes = 1024;       // page size of one (pseudo-)channel
    uint32_t burst_bytes = 32;       // bytes moved by one RD or WR
    uint32_t interleave_bytes = 256; // consecutive bytes on one channel before the next
    uint32_t queue_depth = 64;       // requests a controller considers at once
    uint32_t latency_cycles = 167;   // controller and PHY latency added to every answer
    // Refreshes per tREFI: JEDEC's DRAMs refresh twice as often above 85 C (HBM2, HBM3, DDR4's
    // extended range), LPDDR4 up to four times. Once loaded, t.REFI is tREFI / refresh_rate: the
    // channels refresh at that interval, each refresh still tRFC long.
    uint32_t refresh_rate = 1;
    DramTiming t;
};

// A JEDEC timing, in memory-clock cycles.
template <class F>
ParamKey<DramParams> dram_timing(const char* key, const char* help, double min, F field, double max = limits::kMaxTiming,
                                 const char* why = "memory cycles") {
    using P = DramParams;
    return param::count<P>(key, "tCK", help, {min, max, why}, [field](P& p) -> auto& { return p.t.*field; });
}

// dram.refresh_rate fills t.REFI too: the interval the channels refresh at (at least one cycle,
// so that a rate never turns refresh off).
inline ParamKey<DramParams> dram_refresh_rate_key() {
    using P = DramParams;
    ParamKey<P> k = param::count<P>("dram.refresh_rate", "x",
                                    "refreshes per dram.tREFI, each dram.tRFC long (2: the rate JEDEC's DRAMs need above 85 C; "
                                    "4: LPDDR4's hottest)",
                                    {1, 4}, &P::refresh_rate, {"1", "2", "4"});
    k.load = [](P& p, const ParamValues& v) {
        p.refresh_rate = uint32_t(v.u("dram.refresh_rate"));
        const uint64_t refi = v.u("dram.tREFI");
        p.t.REFI = uint32_t(refi ? std::max<uint64_t>(1, refi / p.refresh_rate) : 0);
    };
    return k;
}

inline std::vector<ParamKey<DramParams>> dram_param_keys() {
    using P = DramParams;
    using namespace limits;
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
        dram_timing("dram.tRCD", "ACT to RD", 1, &DramTiming::RCD),
        dram_timing("dram.tRCDWR", "ACT to WR", 1, &DramTiming::RCDWR),
        dram_timing("dram.tRP", "PRE to ACT", 1, &DramTiming::RP),
        dram_timing("dram.tRAS", "ACT to PRE", 1, &DramTiming::RAS),
        dram_timing("dram.tRC", "ACT to ACT, same bank", 1, &DramTiming::RC),
        dram_timing("dram.tCL", "RD to data (RL)", 1, &DramTiming::CL),
        dram_timing("dram.tWL", "WR to data", 0, &DramTiming::WL),
        dram_timing("dram.tCCD_S", "column to column, other bank group", 1, &DramTiming::CCD_S),
        dram_timing("dram.tCCD_L", "column to column, same bank group", 1, &DramTiming::CCD_L),
        dram_timing("dram.tRRD_S", "ACT to ACT, other bank group", 1, &DramTiming::RRD_S),
        dram_timing("dram.tRRD_L", "ACT to ACT, same bank group", 1, &DramTiming::RRD_L),
        dram_timing("dram.tFAW", "four-activate window", 0, &DramTiming::FAW),
        dram_timing("dram.tWR", "write recovery", 0, &DramTiming::WR),
        dram_timing("dram.tWTR", "write to read", 0, &DramTiming::WTR),
        dram_timing("dram.tRTP", "read to precharge", 0, &DramTiming::RTP),
        dram_timing("dram.tRFC", "refresh cycle", 0, &DramTiming::RFC, kMaxTiming, nullptr),
        dram_timing("dram.tREFI", "refresh interval (0: no refresh)", 0, &DramTiming::REFI, kMaxRefresh, nullptr),
        dram_refresh_rate_key(),
        dram_timing("dram.tBURST", "data-bus cycles of one burst", 1, &DramTiming::BURST),
    };
}

// Between two refreshes one access must fit: a refresh falling due before a command comes first
// and closes the bank, so with tRCD past the window no burst is ever served (a user's tRCD =
// 65536 ran for ever). An access: the whole row cycle, or a read, or a write and its recovery.
inline void check_dram_refresh(const DramParams& d, const ParamValues& c, const ParamErrors& e) {
    const DramTiming& t = d.t;
    const uint64_t access = std::max({uint64_t(t.RC), uint64_t(t.RCD) + t.CL + t.BURST,
                                      uint64_t(t.RCDWR) + t.WL + t.BURST + t.WTR + t.WR});
    if (!t.REFI || uint64_t(t.REFI) > uint64_t(t.RP) + t.RFC + access) return;
    // Name the timing the user set (the defaults are consistent), tREFI first.
    const char* key = "dram.tREFI";
    for (const char* k : {"dram.tREFI", "dram.refresh_rate", "dram.tRCD", "dram.tRCDWR", "dram.tRC", "dram.tRFC", "dram.tRP",
                          "dram.tCL", "dram.tWL", "dram.tWR", "dram.tWTR", "dram.tBURST"})
        if (c.is_set(k)) {
            key = k;
            break;
        }
    const std::string refi = d.refresh_rate > 1 ? "dram.tREFI / dram.refresh_rate" : "dram.tREFI";
    e.fail(key, refi + " must be 0 (no refresh) or more than tRP + tRFC + one access (" +
                    std::to_string(uint64_t(t.RP) + t.RFC + access) + "): a refresh must leave time for an access");
}

inline std::vector<ParamCheck<DramParams>> dram_param_checks() {
    using P = DramParams;
    return {
        [](const P& d, const ParamValues&, const ParamErrors& e) {
            if (uint64_t(d.bank_groups) * d.banks_per_group > 1024)
                e.fail("dram.banks_per_group", "at most 1024 banks per channel (dram.bank_groups x dram.banks_per_group)");
            if (d.interleave_bytes % d.burst_bytes) e.fail("dram.interleave_bytes", "must be a multiple of dram.burst_bytes");
            if (d.row_bytes % d.interleave_bytes) e.fail("dram.row_bytes", "must be a multiple of dram.interleave_bytes");
        },
        check_dram_refresh,
    };
}

// Its keys, in the order `dcusim --help` lists them; defaults are the initialisers above.
inline const ParamTable<DramParams>& dram_param_table() {
    static const ParamTable<DramParams> table{dram_param_keys(), dram_param_checks()};
    return table;
}

}  // namespace dcusim
