#include "host_link.h"

#include <algorithm>
#include <vector>

namespace dcusim {

uint64_t HostLink::link_mbps(CopyDir dir, HostMem mem) const {
    if (dir == CopyDir::D2H) return p_.d2h_mbps;
    if (mem == HostMem::WriteCombined) return p_.h2d_mbps * p_.wc_gain_milli / 1000;
    return p_.h2d_mbps;
}

// Two stages over staging buffers of `staging_bytes`, chunk by chunk: the first fills a buffer, the
// second drains it (h2d: memcpy, then DMA; d2h: DMA, then memcpy). A chunk's first stage waits for
// the buffer it reuses, freed when the chunk `staging_buffers` before it left the second stage.
uint64_t HostLink::staged_ps(CopyDir dir, uint64_t bytes) const {
    const bool h2d = dir == CopyDir::H2D;
    const uint64_t link = h2d ? p_.h2d_mbps : p_.d2h_mbps;
    // h2d reads the source with memcpy: from the host's cache when the whole copy fits there.
    const uint64_t memcpy = !h2d ? p_.memcpy_d2h_mbps : bytes <= p_.host_cache_bytes ? p_.memcpy_h2d_mbps : p_.memcpy_h2d_dram_mbps;
    const uint64_t first = h2d ? memcpy : link, second = h2d ? link : memcpy;
    std::vector<uint64_t> drained(p_.staging_buffers, 0);  // per buffer: when its last chunk left the second stage
    uint64_t filled = 0, done = 0;
    for (uint64_t i = 0, off = 0; off < bytes; ++i, off += p_.staging_bytes) {
        const uint64_t chunk = std::min(p_.staging_bytes, bytes - off);
        uint64_t& buffer = drained[i % p_.staging_buffers];
        filled = std::max(filled, buffer) + ps_at(chunk, first);
        done = std::max(done, filled) + ps_at(chunk, second);
        buffer = done;
    }
    return done;
}

uint64_t HostLink::copy_ps(CopyDir dir, HostMem mem, uint64_t bytes) const {
    if (dir == CopyDir::D2D) return p_.d2d_latency_ns * 1000 + ps_at(bytes, p_.d2d_mbps);
    if (mem == HostMem::Pageable) return p_.staging_latency_ns * 1000 + staged_ps(dir, bytes);
    // Pinned, write-combined and mapped: the DMA reads or writes host memory itself.
    const uint64_t fixed = (dir == CopyDir::H2D ? p_.h2d_latency_ns : p_.d2h_latency_ns) * 1000;
    return fixed + ps_at(bytes, link_mbps(dir, mem));
}

}  // namespace dcusim
