// Where the dispatcher takes its work from: kernels, each a sequence of workgroups (already
// regrouped to the GPU's wave size). The dispatcher knows nothing of files: TraceFiles
// (trace_files.h) reads them from trace files, a test may hand them over from memory.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "../format/record.h"
#include "wave_trace.h"

namespace dcusim::trace {

class WorkgroupSource {
public:
    virtual ~WorkgroupSource() = default;
    // Advances to the next kernel; false when none is left.
    virtual bool next_kernel() = 0;
    virtual const KernelInfo& kernel() const = 0;
    // Source lines the current kernel declared for its PCs.
    virtual const std::map<uint64_t, std::string>& pc_lines() const = 0;
    // The current kernel's next workgroup; false after its last one.
    virtual bool next_workgroup(WorkgroupTrace& wg) = 0;
    // The host statements (docs/trace-format.md) between the kernel before and the current one,
    // or after the last kernel once next_kernel() is false. None by default.
    virtual const std::vector<Record>& host_before() const {
        static const std::vector<Record> none;
        return none;
    }

    // The same in two steps, so that a workgroup the sampler skips costs no more than reading it
    // (every check included): peek_workgroup reads the next workgroup and shows its waves, as the
    // source holds them (a trace's: at the capture's wave size, in buffers reused from one
    // workgroup to the next), or nullptr after the kernel's last; take_workgroup hands the
    // workgroup last peeked over, regrouped, and a workgroup peeked but not taken is dropped.
    // These defaults go through next_workgroup.
    virtual const std::vector<WaveTrace>* peek_workgroup() {
        if (!next_workgroup(peeked_)) return nullptr;
        return &peeked_.waves;
    }
    virtual void take_workgroup(WorkgroupTrace& wg) { wg = std::move(peeked_); }

private:
    WorkgroupTrace peeked_;
};

}  // namespace dcusim::trace
