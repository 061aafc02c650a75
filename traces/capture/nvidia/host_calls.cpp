#include "host_calls.h"

#include <algorithm>

namespace dcutrace {

using dcusim::trace::Record;
using dcusim::trace::RecKind;

HostMemKind kind_of_host_alloc(unsigned flags) {
    if (flags & kHostAllocWriteCombined) return HostMemKind::WriteCombined;
    return flags & kHostAllocMapped ? HostMemKind::Mapped : HostMemKind::Pinned;
}

std::vector<std::pair<uint64_t, uint64_t>> uncovered(const std::map<uint64_t, uint64_t>& taken, uint64_t base,
                                                     uint64_t bytes) {
    std::vector<std::pair<uint64_t, uint64_t>> out;
    const uint64_t end = base + bytes;
    uint64_t at = base;
    auto it = taken.upper_bound(base);
    if (it != taken.begin() && std::prev(it)->second > at) at = std::prev(it)->second;  // one starting before
    for (; at < end; ++it) {
        const uint64_t next = it == taken.end() ? end : std::min(it->first, end);
        if (next > at) out.emplace_back(at, next);
        if (it == taken.end()) break;
        at = std::max(at, it->second);
    }
    return out;
}

void HostCalls::api_enter(uint64_t now_ns) {
    if (depth_++ == 0 && started_ && now_ns > since_ns_) pending_ns_ += now_ns - since_ns_;
    started_ = true;
}

void HostCalls::api_exit(uint64_t now_ns) {
    if (depth_ > 0 && --depth_ == 0) since_ns_ = now_ns;
}

void HostCalls::statement(const Record& r) {
    emit_(r);
    last_was_sync_ = false;
}

void HostCalls::flush_host() {
    if (pending_ns_ == 0) return;
    counts_.host_ns += pending_ns_;
    while (pending_ns_ > 0) {  // a pause past the grammar's limit: several statements
        Record r;
        r.kind = RecKind::Host;
        r.host.ns = std::min(pending_ns_, dcusim::trace::kMaxHostNs);
        pending_ns_ -= r.host.ns;
        statement(r);
    }
}

void HostCalls::pinned(uint64_t base, uint64_t bytes, HostMemKind kind, bool mapped) {
    if (bytes == 0) return;
    pinned_[base] = Pinned{base + bytes, kind};
    if (mapped) map_range(base, bytes);
}

void HostCalls::device_pointer(uint64_t dev, uint64_t host) {
    auto it = pinned_.upper_bound(host);
    if (it == pinned_.begin() || host >= std::prev(it)->second.end) return;  // not page-locked: the call failed
    --it;
    const uint64_t offset = host - it->first;
    if (dev < offset) return;
    map_range(dev - offset, it->second.end - it->first);
}

void HostCalls::map_range(uint64_t base, uint64_t bytes) {
    for (const auto& [b, e] : uncovered(mapped_, base, bytes)) {
        if (mapped_.size() >= 65536 || e - b > dcusim::trace::kMaxCopyBytes) break;  // the grammar's limits
        mapped_.emplace(b, e);
        Record r;
        r.kind = RecKind::Map;
        r.host.base = b;
        r.host.bytes = e - b;
        ++counts_.maps;
        statement(r);
    }
}

void HostCalls::unpinned(uint64_t base) { pinned_.erase(base); }

HostMemKind HostCalls::kind_at(uint64_t addr) const {
    auto it = pinned_.upper_bound(addr);
    if (it == pinned_.begin()) return HostMemKind::Pageable;
    --it;
    return addr < it->second.end ? it->second.kind : HostMemKind::Pageable;
}

void HostCalls::stream_created(uint64_t handle) {
    if (streams_.count(handle)) return;  // seen through both APIs
    ++counts_.streams;
    streams_[handle] = std::min<uint64_t>(counts_.streams, dcusim::trace::kMaxStream);
}

uint64_t HostCalls::stream_number(uint64_t handle) const {
    auto it = streams_.find(handle);
    return it == streams_.end() ? 0 : it->second;
}

void HostCalls::copy(CopyDir dir, uint64_t src, uint64_t dst, uint64_t bytes, bool async, uint64_t stream_handle) {
    if (bytes == 0) return;
    flush_host();
    Record r;
    r.kind = RecKind::Copy;
    r.host.dir = dir;
    r.host.mem = dir == CopyDir::D2D ? HostMemKind::Device : kind_at(dir == CopyDir::H2D ? src : dst);
    r.host.bytes = std::min(bytes, dcusim::trace::kMaxCopyBytes);
    r.host.async = async;
    r.host.stream = stream_number(stream_handle);
    r.host.has_stream = r.host.stream != 0;
    ++counts_.copies;
    statement(r);
}

void HostCalls::sync(bool has_stream, uint64_t stream) {
    flush_host();
    Record r;
    r.kind = RecKind::Sync;
    r.host.has_stream = has_stream;
    r.host.stream = stream;
    if (last_was_sync_ && last_sync_ == r.host) return;  // the same wait again at once: nothing to wait for
    ++counts_.syncs;
    statement(r);
    last_was_sync_ = true;
    last_sync_ = r.host;
}

void HostCalls::sync_stream(uint64_t handle) { sync(true, stream_number(handle)); }

void HostCalls::sync_device() { sync(false, 0); }

void HostCalls::event_recorded(uint64_t event, uint64_t stream_handle) { event_streams_[event] = stream_number(stream_handle); }

void HostCalls::event_synchronized(uint64_t event) {
    auto it = event_streams_.find(event);
    if (it != event_streams_.end()) sync(true, it->second);  // never recorded: returns at once
}

uint64_t HostCalls::launch(uint64_t stream_handle) {
    flush_host();
    ++counts_.launches;
    last_was_sync_ = false;
    return stream_number(stream_handle);
}

}  // namespace dcutrace
