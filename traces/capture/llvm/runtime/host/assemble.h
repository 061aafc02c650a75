// Turns the record buffer that dcucc's device runtime wrote during one kernel
// launch (runtime/dcucc_abi.h) into dcusim trace records. CUDA- and HIP-free,
// so that it builds everywhere and is unit-tested in CI.
#pragma once

#include <cstdint>

#include "machine.h"
#include "order.h"
#include "meta.h"
#include "traces/format/record.h"
#include "traces/format/sink.h"

namespace dcucc::host {

struct AssembleStats {
    uint64_t records = 0;  // device records decoded
    uint64_t mem = 0, barriers = 0, waits = 0;
    uint64_t compute = 0;  // instructions counted in compute records
    uint64_t waves = 0;
};

// Checks every record of the `used` bytes at `buf` against the launch
// (`kernel`'s grid and block, `wave_size`), then writes to `out`: the kernel
// record, a `pc` declaration for each PC of this launch that is read-only (by
// the record's flag or the site's) or has a source line in `sites` (may be
// null), and each wave's records in (block, wave) order, then `end`. Records of
// one wave keep their buffer order, which is the wave's IR program order,
// unless `order` is given (below). A
// malformed buffer throws CaptureError naming the first bad record's byte
// offset; nothing is written then. With `mc` (the kernel's machine code),
// compute and wait records come from its SASS walk between the records'
// matched anchors, as dcutrace derives them, and the device's IR counts and
// waits are dropped; a record whose site has no match keeps the walk where it
// was (dcutrace's rule for a PC its disassembly lacks). With `order`
// (DCUCC_ORDER=sass), each wave's memory records are put in the order its
// SASS issues them (order.h); a slot keeps its compute count, and the SASS
// walk follows the instructions the order placed the records at.
AssembleStats assemble_launch(const uint8_t* buf, uint64_t used, const dcusim::trace::KernelInfo& kernel,
                              uint32_t wave_size, const SiteMap* sites, dcusim::trace::RecordSink& out,
                              const MachineCode* mc = nullptr, const SassOrder* order = nullptr);

}  // namespace dcucc::host
