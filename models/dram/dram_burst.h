// What a DRAM channel queues: a run of bursts of one request to one row of one
// bank, and the front end that hears when a run is done.
#pragma once

#include <cstdint>

#include "../common/clock.h"

namespace dcusim {

enum class RowOutcome : uint8_t { Undecided, Hit, Miss, Conflict };

// A run of `count` bursts of one request to one row of one bank (a 128-byte
// line of 32-byte bursts is one entry of 4): queued, searched and answered
// as one, while each burst still takes its own column command, in order.
// The k-th burst left is burst `seq` + k in the FR-FCFS order. 32 bytes: the
// queues of a busy channel hold thousands.
struct DramBurst {
    DramBurst() : seq(0), count(1) {}
    uint64_t row = 0;
    Cycle arrival = 0;  // memory cycles
    uint64_t seq : 56;  // the first burst left
    uint64_t count : 8;
    uint32_t parent = 0;  // the front end's request
    uint16_t bank = 0;    // bank_group x banks_per_group + bank within the group
    bool write = false;
    RowOutcome outcome = RowOutcome::Undecided;
};

class DramBurstSink {
public:
    virtual ~DramBurstSink() = default;
    // The data transfer of the run's last burst ends at memory cycle `end`
    // (its bursts are served in order, so it ends last).
    virtual void run_done(const DramBurst& b, Cycle end) = 0;
    // The run's last burst is planned: its record may be fetched ahead (a hint; no effect on timing).
    virtual void prefetch_run(const DramBurst&) {}
};

}  // namespace dcusim
