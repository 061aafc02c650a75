#include "streams.h"

#include <algorithm>

namespace dcusim {

uint64_t HostStreams::ready_after(uint32_t stream) const {
    if (stream == 0) return all_end_;  // the default stream waits for all work issued before
    const auto it = stream_end_.find(stream);
    return std::max(it == stream_end_.end() ? 0 : it->second, default_end_);
}

void HostStreams::run(const HostOp& op, HostSpan::On on, uint32_t unit, uint64_t busy_ps, uint64_t& free, uint64_t lead_ps) {
    const uint64_t start = std::max({host_ps_ + lead_ps, ready_after(op.stream), free});
    const uint64_t end = start + busy_ps;
    free = end;
    stream_end_[op.stream] = end;
    if (op.stream == 0) default_end_ = end;
    all_end_ = std::max(all_end_, end);
    spans_.push_back({issued_, on, unit, op.stream, start, end});
}

void HostStreams::issue(const HostOp& op) {
    switch (op.kind) {
    case HostOp::Kind::Host:
        host_ps_ += op.ps;
        break;
    case HostOp::Kind::Sync:
        if (op.device) host_ps_ = std::max(host_ps_, all_end_);
        else if (const auto it = stream_end_.find(op.stream); it != stream_end_.end()) host_ps_ = std::max(host_ps_, it->second);
        break;  // a stream with no work yet: returns at once
    case HostOp::Kind::Kernel:
        run(op, HostSpan::On::Gpu, 0, op.ps, gpu_free_, link_.params().launch_latency_ns * 1000);
        stats_.kernel_ps += op.ps;
        break;
    case HostOp::Kind::Copy: {
        const uint64_t busy = link_.copy_ps(op.dir, op.mem, op.bytes);
        const uint32_t e = link_.engine(op.dir);
        run(op, HostSpan::On::Engine, e, busy, engine_free_[e]);
        stats_.copy_ps += busy;
        (op.dir == CopyDir::H2D ? stats_.h2d_bytes : op.dir == CopyDir::D2H ? stats_.d2h_bytes : stats_.d2d_bytes) += op.bytes;
        if (!op.async || HostLink::blocks_host(op.mem)) host_ps_ = std::max(host_ps_, spans_.back().end_ps);
        break;
    }
    }
    ++issued_;
}

HostStats HostStreams::stats() const {
    HostStats s = stats_;
    s.timeline_ps = std::max(host_ps_, all_end_);
    std::vector<std::pair<uint64_t, uint64_t>> busy;
    for (const HostSpan& sp : spans_) busy.emplace_back(sp.start_ps, sp.end_ps);
    std::sort(busy.begin(), busy.end());
    uint64_t covered = 0, sum = 0, reach = 0;
    for (const auto& [a, b] : busy) {
        sum += b - a;
        if (b > std::max(a, reach)) covered += b - std::max(a, reach);
        reach = std::max(reach, b);
    }
    s.overlap_ps = sum - covered;
    return s;
}

}  // namespace dcusim
