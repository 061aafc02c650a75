// A program's work as the host issues it, in program order: copies, kernel
// launches (their duration is the simulated kernel's), syncs and host time,
// on streams. Each stream runs its work in order; the default stream (0)
// synchronises with every other (CUDA's and HIP's legacy default stream);
// copies take their copy engine in issue order, kernels the GPU one at a
// time (concurrent kernels are not modelled), each starting at the earliest
// `link.launch_latency_ns` after the host's call (a launch behind other work
// hides its latency). The host goes on at once after
// an asynchronous call, and waits for a synchronous one, for a copy from or
// to pageable memory (it stages it), and for a sync. Every start and end is
// known when the work is issued, so the timeline is computed, not simulated.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "../common/stats.h"
#include "host_link.h"

namespace dcusim {

struct HostOp {
    enum class Kind : uint8_t { Copy, Kernel, Sync, Host };
    Kind kind = Kind::Host;
    CopyDir dir = CopyDir::H2D;    // Copy
    HostMem mem = HostMem::Pinned;  // Copy
    uint64_t bytes = 0;            // Copy
    bool async = false;            // Copy
    uint32_t stream = 0;           // Copy, Kernel, Sync
    bool device = false;           // Sync: the whole device, not one stream
    uint64_t ps = 0;               // Kernel: its duration; Host: the host's time
    std::string name;              // Kernel: its name (the timeline's label)
};

// Where a piece of work ran, for the timeline: a copy engine or the GPU, on behalf of a stream.
struct HostSpan {
    size_t op;  // index in issue order
    enum class On : uint8_t { Engine, Gpu } on;
    uint32_t unit;    // the engine (On::Engine)
    uint32_t stream;
    uint64_t start_ps, end_ps;
};

struct HostStats {
    uint64_t timeline_ps = 0;  // the program's end to end time: the host's last step, or the last work's end
    uint64_t copy_ps = 0, kernel_ps = 0;  // each summed over its work
    uint64_t overlap_ps = 0;   // time when two pieces of work ran at once (summed durations less their union)
    uint64_t h2d_bytes = 0, d2h_bytes = 0, d2d_bytes = 0;
};

// Its figures' declarations (host_counters.cpp).
const CounterTable<HostStats>& host_counter_table();

class HostStreams {
public:
    explicit HostStreams(const HostLink& link) : link_(link), engine_free_(link.engines(), 0) {}
    void issue(const HostOp& op);
    const std::vector<HostSpan>& spans() const { return spans_; }
    HostStats stats() const;

private:
    uint64_t ready_after(uint32_t stream) const;  // what work on `stream` waits for
    // `lead_ps`: how long after the host's call the work may start at the earliest (a launch's latency).
    void run(const HostOp& op, HostSpan::On on, uint32_t unit, uint64_t busy_ps, uint64_t& free, uint64_t lead_ps = 0);

    HostLink link_;
    uint64_t host_ps_ = 0;
    std::map<uint32_t, uint64_t> stream_end_;  // per stream: when its last work ends
    uint64_t default_end_ = 0, all_end_ = 0;   // the default stream's last work; all work issued
    std::vector<uint64_t> engine_free_;
    uint64_t gpu_free_ = 0;
    std::vector<HostSpan> spans_;
    size_t issued_ = 0;
    HostStats stats_;
};

}  // namespace dcusim
