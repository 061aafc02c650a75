// A program's host side as its trace gives it: the host statements between kernels
// (docs/trace-format.md, "Host statements") and each kernel's stream and simulated time, as the
// HostOps that models/host's HostStreams orders into a timeline.
#pragma once

#include <string>
#include <vector>

#include "../models/host/streams.h"
#include "../traces/format/record.h"

namespace dcusim {

class HostProgram {
public:
    // A copy, sync or host statement; a map is not the timeline's (the memory path's, later).
    void statement(const trace::Record& r);
    // A kernel launch on `stream` that the simulation timed at `ps`.
    void kernel(const std::string& name, uint64_t stream, uint64_t ps);
    // Whether the trace said anything of its host side (else no timeline is reported).
    bool has_host() const { return has_host_; }
    const std::vector<HostOp>& ops() const { return ops_; }
    // The timeline of the ops so far, on this link.
    HostStreams run(const HostLink& link) const;

private:
    std::vector<HostOp> ops_;
    bool has_host_ = false;
};

}  // namespace dcusim
