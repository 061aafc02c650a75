// The one request type that flows between units, and the interfaces it flows
// through: WaveMemIf (a CU's wave instructions to its memories) and
// MemTargetIf (line requests below them), forward via sc_port, and
// MemResponder (backward: the target answers the initiator named in the
// request, as TLM-2.0's backward path does).
#pragma once

#include <systemc>

#include <algorithm>
#include <cstdint>

#include "../../traces/replay/wave_trace.h"
#include "clock.h"

namespace dcusim {

class MemResponder;
struct MemRequest;

// The sectors (of `sector_bytes`, in the line at `line_addr` of `line_bytes`)
// that a line request's wanted bytes fall in; the request may use another
// geometry than the receiver (a 64-byte L1 line asking a 128-byte L2 line).
uint32_t sectors_in_line(const MemRequest& r, uint64_t line_addr, uint32_t line_bytes, uint32_t sector_bytes);

struct MemRequest {
    trace::Op op = trace::Op::Load;
    trace::Space space = trace::Space::Global;
    bool link = false;    // an L2 slice's request to another over a partitioned L2's link (not a CU's)
    // An atomic line request: the most of its lanes on one address, and that address's offset in the line
    // (the L2's atomic unit, models/l2/atomic_unit.h).
    uint8_t atomic_same = 1;
    uint16_t source = 0;  // the CU the request comes from (its side of a partitioned interconnect)
    uint16_t home = 0;    // the L2 channel homing `addr` (set by the crossbar)
    uint16_t atomic_offset = 0;
    uint16_t atomic_later_grains = 0;   // the grains (sectors) of its passes after the first, summed (atomic_lanes.h)
    uint16_t atomic_later_sectors = 0;  // the same in the request's own sectors (of sector_bytes): their data
    trace::AtomicKind atomic_kind = trace::AtomicKind::Unknown;  // its operands, as the trace says
    // Either a wave instruction (instr + wave: lanes and addresses) ...
    const trace::Instr* instr = nullptr;
    const trace::WaveTrace* wave = nullptr;
    // ... or a single block of memory (a line request): addr, size, and which
    // sectors of it are wanted (bit i = bytes [i*sector, (i+1)*sector); 0: all).
    uint64_t addr = 0;
    uint32_t size = 0;
    uint32_t sectors = 0;
    uint32_t sector_bytes = 0;
    uint32_t partial = 0;         // stores: of `sectors`, those written only in part (not readable until fetched)
    uint32_t words = 0;           // stores: the 4-byte words of [addr, addr + size) written whole (bit i: word i; up to 128 bytes)
    Cycle issue = 0;              // cycle at which the request leaves its initiator (>= now)
    Cycle done = 0;               // set by the target: cycle the response is ready
    MemResponder* reply_to = nullptr;  // null: no answer wanted (write-backs)
    uint64_t tag = 0;             // initiator's own bookkeeping (wave slot, MSHR, ...)
    uint32_t wave_id = 0;         // the issuing wave's slot on its CU (private-memory addressing)
    uint64_t pc = 0;              // the instruction on whose behalf (per-PC reports)
};

inline uint32_t sectors_in_line(const MemRequest& r, uint64_t line_addr, uint32_t line_bytes, uint32_t sector_bytes) {
    // The usual case: a line request of the receiver's own line and sectors (an L1 of the L2's geometry).
    if (r.sectors && r.addr == line_addr && r.sector_bytes == sector_bytes && r.size == line_bytes) {
        const uint32_t n = line_bytes / sector_bytes;
        if (n < 32 && n * sector_bytes == line_bytes) return r.sectors & ((1u << n) - 1);
    }
    uint32_t mask = 0;
    const uint32_t chunk = r.sectors ? r.sector_bytes : r.size;
    const uint32_t n = r.sectors ? r.size / r.sector_bytes : 1;
    for (uint32_t i = 0; i < n; ++i) {
        if (r.sectors && !(r.sectors >> i & 1)) continue;
        uint64_t lo = std::max(r.addr + uint64_t(i) * chunk, line_addr);
        uint64_t hi = std::min(r.addr + uint64_t(i + 1) * chunk, line_addr + line_bytes);
        for (uint64_t a = lo; a < hi; a = (a / sector_bytes + 1) * sector_bytes) mask |= 1u << ((a - line_addr) / sector_bytes);
    }
    return mask;
}

// Of the sectors sectors_in_line gives, those a store writes whole: every byte
// inside the block, in wanted sectors of the request none of which it writes in part.
inline uint32_t full_sectors_in_line(const MemRequest& r, uint64_t line_addr, uint32_t line_bytes, uint32_t sector_bytes) {
    uint32_t mask = 0;
    const uint32_t chunk = r.sectors ? r.sector_bytes : r.size;
    for (uint32_t s = 0; s * sector_bytes < line_bytes; ++s) {
        const uint64_t lo = line_addr + uint64_t(s) * sector_bytes, hi = lo + sector_bytes;  // [lo, hi)
        if (lo < r.addr || hi > r.addr + r.size) continue;
        bool full = true;
        for (uint64_t i = (lo - r.addr) / chunk; i * chunk < hi - r.addr && full; ++i)
            full = !r.sectors || ((r.sectors >> i & 1) && !(r.partial >> i & 1));
        if (full) mask |= 1u << s;
    }
    return mask;
}

// A store's whole words (req.words) placed in the line at `line_addr` (bit i: the line's word i; a line of
// at most 128 bytes).
inline uint32_t words_in_line(const MemRequest& r, uint64_t line_addr) {
    if (!r.words) return 0;
    if (r.addr >= line_addr) {
        const uint64_t shift = (r.addr - line_addr) / 4;
        return shift < 32 ? r.words << shift : 0;
    }
    const uint64_t shift = (line_addr - r.addr) / 4;
    return shift < 32 ? r.words >> shift : 0;
}

class MemResponder {
public:
    virtual ~MemResponder() = default;
    // Called at cycle req.done (the target's process runs then).
    virtual void mem_response(MemRequest& req) = 0;
};

class MemTargetIf : public virtual sc_core::sc_interface {
public:
    // Accepts the request; the target keeps the pointer until it responds.
    virtual void mem_request(MemRequest& req) = 0;
};

// The one shape through which a CU reaches each of its memories (the LDS, the
// constant cache, the vector L1 or a fixed-latency memory): a wave
// instruction's request (req.instr and req.wave, leaving at req.issue).
class WaveMemIf : public virtual sc_core::sc_interface {
public:
    static constexpr Cycle kAnswerLater = ~Cycle(0);  // the target keeps the request and answers through req.reply_to
    static constexpr Cycle kNotHere = ~Cycle(0) - 1;  // not this path's: the CU sends it on the vector-memory path
    // The cycle the instruction's data is back when the target knows it at
    // once (the request is then free at once), else kAnswerLater or kNotHere.
    virtual Cycle wave_request(MemRequest& req) = 0;
    // A workgroup is launched on the CU beside `others` resident ones (the LDS counts conflicts for
    // it: LdsParams::launch_conflict_cycles); the others ignore it.
    virtual void workgroup_launched(uint32_t others) { (void)others; }
    // One instruction of this memory issued at `now` with no lane on (predicated off in every lane): the
    // cycle it is done, as an access's data back, when it goes through the memory's pipe (the LDS with
    // LdsParams::empty_cycles > 0); else kSkipped: the exec mask skipped it, nothing is in flight.
    static constexpr Cycle kSkipped = 0;
    virtual Cycle empty_issue(Cycle now) { (void)now; return kSkipped; }
};

}  // namespace dcusim
