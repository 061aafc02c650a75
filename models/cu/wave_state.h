// Per-wave and per-workgroup runtime state of a CU.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <vector>

#include "../../traces/replay/wave_trace.h"
#include "../common/clock.h"

namespace dcusim {

struct WaveState {
    // Why the wave cannot go on; `parked` waves wait for an outside event
    // (a response, the rest of the workgroup) rather than a known cycle.
    enum class Stall : uint8_t { None, Barrier, Wait, Outstanding, Drain };
    bool active = false;
    uint32_t wg = 0;             // workgroup slot
    uint32_t simd = 0;
    const trace::WaveTrace* trace = nullptr;
    const trace::Instr* instrs = nullptr;  // trace->instrs.data(), for the prefetch when the wave is scheduled
    size_t count = 0;            // trace->instrs.size(): a step need not touch the trace, cold by then
    size_t next = 0;             // index of the next instruction
    uint64_t gen = 0;            // bumps whenever the wave is rescheduled (stale heap entries)
    Stall stall = Stall::None;
    Cycle stall_since = 0;
    bool parked = false;
    uint32_t unknown = 0;        // in flight, completion cycle not yet known
    std::vector<Cycle> known;    // completion cycles of the rest in flight: a min-heap
    Cycle latest = 0;            // latest completion ever added (the heap's max while it is not empty)
    uint32_t stores = 0;         // stores in flight that waits do not count (cu.wait_stores off)
    uint64_t empty_issued = 0;   // the next compute record's empty LDS instructions issued before a stall
    // The memory operations that waits count, in issue order: each's completion cycle, kPending until
    // known. A wait that keeps the K youngest loads in flight waits only for what was issued before them
    // (GCN's vmcnt; on NVIDIA the scoreboards of the loads the next instruction reads, `wait keep K` in
    // traces). Stores are listed where waits count them (cu.wait_stores; LDS stores always), never kept.
    static constexpr Cycle kPending = ~Cycle(0);
    struct InFlight {
        Cycle at;
        bool store;
    };
    std::deque<InFlight> order;
    uint64_t order_front = 0;    // issue number of order.front()

    void add_known(Cycle c) {
        known.push_back(c);
        std::push_heap(known.begin(), known.end(), std::greater<Cycle>());
        latest = std::max(latest, c);
    }
    // In-flight count at `now`, dropping completions that are past.
    uint32_t outstanding(Cycle now) {
        while (!known.empty() && known.front() <= now) {
            std::pop_heap(known.begin(), known.end(), std::greater<Cycle>());
            known.pop_back();
        }
        return unknown + uint32_t(known.size());
    }
    // Records an operation issued at `now` (completing at `at`, or kPending); returns its issue number.
    uint64_t push_order(Cycle at, Cycle now, bool store) {
        while (!order.empty() && order.front().at <= now) order.pop_front(), ++order_front;
        order.push_back({at, store});
        return order_front + order.size() - 1;
    }
    void complete_order(uint64_t seq, Cycle at) { order[seq - order_front].at = at; }
    // When everything issued before the `keep` youngest loads is back (kPending while one is unanswered).
    Cycle older_back(uint64_t keep) const {
        size_t end = order.size();
        for (uint64_t kept = 0; kept < keep && end > 0;) kept += !order[--end].store;
        Cycle t = 0;
        for (size_t i = 0; i < end; ++i) t = std::max(t, order[i].at);
        return t;
    }
    Cycle earliest_known() const { return known.front(); }
    Cycle latest_known() const { return latest; }
};

struct WorkgroupSlot {
    bool active = false;
    std::unique_ptr<trace::WorkgroupTrace> trace;
    std::vector<uint32_t> waves;  // wave slots
    uint32_t live = 0;            // waves not yet retired
    uint32_t at_barrier = 0;
    Cycle barrier_release = 0;    // when the current barrier releases, as far as its arrivals so far tell
};

}  // namespace dcusim
