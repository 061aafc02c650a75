// DRAM organisation and JEDEC timing, in memory-clock cycles (tCK).
#pragma once

#include <cstdint>

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
    DramTiming t;
};

// Its preset keys, declared in dram_params.cpp: defaults are the initialisers above.
const ParamTable<DramParams>& dram_param_table();

}  // namespace dcusim
