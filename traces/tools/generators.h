// Synthetic traces: the benchmark's mix, the bundled examples, and the
// memory-hierarchy self-checks. Each writes one complete kernel (or several)
// into `out`; the caller writes `wave_size` first and calls finish().
#pragma once

#include <cstdint>

#include "../format/sink.h"

namespace dcusim::trace {

// LDS- and constant-heavy mix (bench/): 8 wave instructions per iteration.
void gen_lds_const(RecordSink& out, uint64_t blocks, uint32_t waves, uint64_t iters, uint32_t ws);
// Tiled transpose of an n x n float matrix, unpadded and padded tiles.
void gen_transpose(RecordSink& out, uint32_t n, uint32_t ws);
// Constant loads with k = 1, 2, 4, ... ws distinct addresses.
void gen_constant(RecordSink& out, uint32_t ws);
// One lane loads 8 bytes and waits, `loads` times, at base + (i * stride) mod footprint.
void gen_chase(RecordSink& out, uint64_t footprint, uint64_t stride, uint64_t loads, uint32_t ws,
               uint64_t base = 0x100000000ull);
// Coalesced streaming read (or, with `write`, store) of `bytes` by blocks x waves, `passes` times.
void gen_stream(RecordSink& out, uint64_t bytes, uint32_t blocks, uint32_t waves, uint32_t lane_bytes, uint32_t passes,
                uint32_t ws, bool write = false);

}  // namespace dcusim::trace
