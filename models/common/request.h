// The one request type that flows between units, and the two interfaces it
// flows through: MemTargetIf (forward, via sc_port) and MemResponder
// (backward: the target answers the initiator named in the request, as
// TLM-2.0's backward path does).
#pragma once

#include <systemc>

#include <cstdint>

#include "../../traces/replay/wave_trace.h"
#include "clock.h"

namespace dcusim {

class MemResponder;

struct MemRequest {
    trace::Op op = trace::Op::Load;
    trace::Space space = trace::Space::Global;
    // Either a wave instruction (instr + wave: lanes and addresses) ...
    const trace::Instr* instr = nullptr;
    const trace::WaveTrace* wave = nullptr;
    // ... or a single block of memory (a line request): addr, size, and which
    // sectors of it are wanted (bit i = bytes [i*sector, (i+1)*sector); 0: all).
    uint64_t addr = 0;
    uint32_t size = 0;
    uint32_t sectors = 0;
    uint32_t sector_bytes = 0;
    Cycle issue = 0;              // cycle at which the request leaves its initiator (>= now)
    Cycle done = 0;               // set by the target: cycle the response is ready
    MemResponder* reply_to = nullptr;  // null: no answer wanted (write-backs)
    uint64_t tag = 0;             // initiator's own bookkeeping (wave slot, MSHR, ...)
};

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

// Completion of a wave's memory instruction, reported back to its CU.
class CompletionSink {
public:
    virtual ~CompletionSink() = default;
    virtual void mem_complete(uint32_t wave_slot, Cycle when) = 0;
};

}  // namespace dcusim
