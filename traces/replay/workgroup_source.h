// Where the dispatcher takes its work from: kernels, each a sequence of workgroups (already
// regrouped to the GPU's wave size). The dispatcher knows nothing of files: TraceFiles
// (trace_files.h) reads them from trace files, a test may hand them over from memory.
#pragma once

#include <cstdint>
#include <map>
#include <string>

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
};

}  // namespace dcusim::trace
