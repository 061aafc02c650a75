// Pulls kernels and then workgroups, one at a time, from a validated trace
// stream, regrouped to the target wave size. Only one workgroup is decoded
// per call, so memory follows the resident workgroups, not the trace length.
#pragma once

#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "../format/source.h"
#include "wave_trace.h"

namespace dcusim::trace {

class KernelReader {
public:
    KernelReader(std::unique_ptr<TraceStream> stream, uint32_t target_wave_size);

    // Advances to the next kernel; false at the end of the trace.
    bool next_kernel();
    const KernelInfo& kernel() const { return kernel_; }
    uint32_t capture_wave_size() const { return stream_->wave_size(); }
    // Next workgroup of the current kernel; false after its last one.
    bool next_workgroup(WorkgroupTrace& wg);
    // The same in two steps: read_workgroup reads (and checks) the next workgroup into buffers
    // reused from one workgroup to the next, at the capture's wave size (read_waves);
    // take_workgroup hands it over, regrouped to the target wave size. One not taken costs no
    // allocation once the buffers have grown to the kernel's workgroups.
    bool read_workgroup();
    const std::vector<WaveTrace>& read_waves() const { return waves_; }
    void take_workgroup(WorkgroupTrace& wg);
    std::string where() const { return stream_->where(); }
    // The host statements (copy, sync, host, map) read by the last next_kernel(): those before
    // the kernel it moved to, or after the trace's last kernel once it returned false.
    const std::vector<Record>& host() const { return host_; }
    // Source lines the current kernel declared for its PCs.
    const std::map<uint64_t, std::string>& pc_lines() const { return pc_lines_; }

private:
    bool pull();  // reads one record into rec_, false at the end of the file
    void mark_attributes(WaveTrace& w, size_t from) const;  // its memory instructions from `from` on

    std::unique_ptr<TraceStream> stream_;
    uint32_t target_;
    KernelInfo kernel_;
    std::vector<std::pair<uint64_t, uint8_t>> pc_attrs_;  // (PC, its readonly and atomic PcFlags), sorted, one a PC
    std::map<uint64_t, std::string> pc_lines_;
    std::vector<WaveTrace> waves_;  // the workgroup last read (read_workgroup)
    uint64_t block_ = 0;
    std::vector<Record> host_;
    Record rec_;
    bool have_rec_ = false;  // rec_ holds a record not consumed yet
    bool in_kernel_ = false;
};

}  // namespace dcusim::trace
