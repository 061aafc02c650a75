// Turns the warp instructions captured from one kernel launch into dcusim
// trace records: waves in block order, addresses as affine or lists, the
// `compute N` and `wait` records derived from the SASS (sass.h), `const` for
// addresses inside ranges the program marked, and `pc` declarations for
// read-only loads and source lines.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "loop_trips.h"
#include "ring.h"
#include "sass.h"
#include "traces/format/record.h"
#include "traces/format/sink.h"

namespace dcutrace {

// A captured warp instruction, PC already relative to the function start.
struct CapturedInstr {
    uint64_t block = 0;
    uint32_t warp = 0;
    uint32_t info = 0;  // ring.h raw_info fields and kInfoAffine
    uint32_t mask = 0;
    uint64_t pc = 0;
    uint64_t base = 0;
    int64_t stride = 0;
    uint32_t addr_index = 0;  // list addresses: first one in LaunchCapture::addrs
};

struct LaunchCapture {
    dcusim::trace::KernelInfo kernel;
    std::vector<CapturedInstr> instrs;  // in capture order (program order within each warp)
    std::vector<uint64_t> addrs;        // per-lane addresses of the non-affine instructions
};

using AddressRanges = std::vector<std::pair<uint64_t, uint64_t>>;  // [begin, end)

struct AssembleStats {
    uint64_t mem = 0, barriers = 0, waits = 0, kept_waits = 0, compute = 0, long_compute = 0, mid_compute = 0, lds_compute = 0, const_accesses = 0, unknown_pcs = 0;
    uint64_t spill_pcs = 0, synth_local = 0;  // stack-slot LDL/STL never captured; local accesses written from the SASS
    uint64_t loops_filled = 0;  // loops with nothing captured whose trips came from the profile's counts
};

// Writes the kernel's records (kernel, pc declarations, waves, end) to `out`.
// `sass` may be null (no disassembly): then no compute or wait records. `profile` (may be null): how often
// each instruction of this launch ran, from a profile (loop_trips.h).
AssembleStats assemble_launch(LaunchCapture& launch, const SassFunction* sass, const AddressRanges& const_ranges,
                              dcusim::trace::RecordSink& out, const PcCounts* profile = nullptr);

}  // namespace dcutrace
